"""`mac-tui completion bash|zsh|fish`: the scripts, run by the real shells.

bash runs its completion function as it would on a Tab (COMP_WORDS/COMP_CWORD set, COMPREPLY
read); fish answers `complete -C` itself; zsh runs the script's function with the completion
system's output builtins (`compadd`, `_describe`, `_files`, `_message`) replaced by printers,
since they only work inside a completion widget. A shell that is not installed is skipped,
saying so.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

THEMES_START = "mac-dark mac-okabe-ito mac-light"


def script(shell: str, tmp_path: Path) -> Path:
    proc = subprocess.run(
        [sys.executable, "-m", "mac_tui", "completion", shell],
        capture_output=True,
        text=True,
        check=True,
    )
    path = tmp_path / f"mac-tui.{shell}"
    path.write_text(proc.stdout)
    return path


def shell_or_skip(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


ROOT = "play rules sim skirmish script replay serve config completion man -h --help --version"
BASH_CASES = [
    ("pl", "play"),
    ("play --th", "--theme"),
    ("play --theme mac-", "mac-dark mac-okabe-ito mac-light"),
    ("play --name serve --as", "--ascii"),  # an option's value is not a command
    ("serve ", "ssh web scores keys -h --help"),
    ("serve ssh --max-s", "--max-sessions --max-spectators"),
    ("rules wea", "weapons"),
    ("rules o2", "o2-landscape o2"),  # an optional module's tables, from its data file
    ("completion ", "-h --help bash zsh fish"),
    ("play --seed ", ""),
]


def test_bash_completes_commands_options_and_values(tmp_path: Path) -> None:
    bash = shell_or_skip("bash")
    path = script("bash", tmp_path)
    (tmp_path / "saves-here").mkdir()
    lines = [f"source {path}"]
    for typed, _ in [*BASH_CASES, ("play --saves saves-", ""), ("", "")]:
        words = ["mac-tui", *typed.split(" ")] if typed else ["mac-tui", ""]
        quoted = " ".join(f"'{w}'" for w in words)
        lines.append(
            f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; COMPREPLY=(); _mac_tui; "
            'echo "${COMPREPLY[*]}"'
        )
    proc = subprocess.run(
        [bash, "--norc", "-c", "\n".join(lines)], capture_output=True, text=True, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    got = proc.stdout.splitlines()
    for (typed, want), line in zip(BASH_CASES, got, strict=False):
        assert line == want, typed
    assert got[len(BASH_CASES)] == "saves-here"  # --saves completes folders
    assert set(ROOT.split()) <= set(got[len(BASH_CASES) + 1].split())  # every command


def test_fish_completes_with_descriptions(tmp_path: Path) -> None:
    fish = shell_or_skip("fish")
    path = script("fish", tmp_path)
    commands = [
        f"source {path}",
        "complete -C 'mac-tui serve '",
        "echo ---",
        "complete -C 'mac-tui play --theme mac-'",
        "echo ---",
        "complete -C 'mac-tui play --name serve --as'",
    ]
    proc = subprocess.run(
        [fish, "--no-config", "-c", "; ".join(commands)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    serve, themes, name = proc.stdout.split("---\n")
    assert [line.split("\t")[0] for line in serve.splitlines()] == ["keys", "scores", "ssh", "web"]
    assert "ssh\tthe game over SSH: one game per player, spectators as `watch`" in serve
    assert sorted(line.split("\t")[0] for line in themes.splitlines()) == sorted(
        THEMES_START.split()
    )
    assert name.startswith("--ascii\t")


def test_zsh_offers_the_same_words(tmp_path: Path) -> None:
    zsh = shell_or_skip("zsh")
    path = script("zsh", tmp_path)
    stubs = """
compdef() { :; }
_describe() { local array=${@[-1]}; print -r -- "describe ${(j: :)${(@)${(P)array}%%:*}}"; }
compadd() { print -r -- "compadd ${@[2,-1]}"; }
_files() { print -r -- "files $*"; }
_message() { print -r -- "message $*"; }
"""
    cases = [
        ("mac-tui serve ''", "describe ssh web scores keys -h --help"),
        ("mac-tui play --theme ''", "compadd " + THEMES_START),
        ("mac-tui play --saves ''", "files -/"),
        ("mac-tui replay ''", "describe -h --help --verify --watch\nfiles "),
        ("mac-tui play --seed ''", "message N"),
    ]
    body = [stubs, f"source {path}"]
    for words, _ in cases:
        body.append(f"words=({words}); CURRENT=${{#words}}; PREFIX=''; _mac_tui; print -- ---")
    proc = subprocess.run([zsh, "-f", "-c", "\n".join(body)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    answers = proc.stdout.split("---\n")
    for (words, want), got in zip(cases, answers, strict=False):
        assert got.strip("\n").startswith(want), (words, got)
