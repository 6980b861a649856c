"""`mac-tui play`'s options, `mac-tui config`, and NO_COLOR, through the real command line: the
game in a real PTY (`python -m mac_tui`), its screen read from a pyte copy, its saves and its
settings file read from disk."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from mac_tui.server.loadtest import DOWN, PtyTerminal, colour_codes, menu_cursor
from mac_tui.server.spectate import read_header

CTRL_Q = "\x11"


def game_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        "HOME": str(tmp_path),
        "MAC_TUI_SAVES": str(tmp_path / "env-saves"),
        "MAC_TUI_CONFIG": str(tmp_path / "config.toml"),
        **extra,
    }


def start(tmp_path: Path, *args: str, **env: str) -> PtyTerminal:
    argv = [sys.executable, "-m", "mac_tui", *args]
    return PtyTerminal(argv, env=game_env(tmp_path, **env), cwd=tmp_path)


def quit_game(term: PtyTerminal) -> None:
    term.send(CTRL_Q)
    assert term.wait_exit(30) == 0, term.text()


def cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mac_tui", *args],
        capture_output=True,
        text=True,
        env=dict(game_env(tmp_path), PATH="/usr/bin:/bin"),
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


def test_seed_and_name_start_the_campaign_at_once(tmp_path: Path) -> None:
    saves = tmp_path / "my-saves"
    term = start(tmp_path, "play", "--seed", "42", "--name", "Test Co", "--saves", str(saves))
    try:
        assert term.wait_for("Roster", 60), term.output()
        assert "Test Co" in term.text() and "Name your company" not in term.output()
        quit_game(term)
    finally:
        term.close()
    (save,) = saves.glob("*.json")  # --saves wins over $MAC_TUI_SAVES
    assert save.name == "test-co-42.json"
    assert read_header(save)["seed"] == 42
    assert not (tmp_path / "env-saves").exists()


def test_a_seed_alone_asks_only_the_name_and_ascii_stays_out_of_the_file(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('glyphs = "unicode"\nanimation = "slow"\n')
    term = start(tmp_path, "play", "--seed", "7", "--ascii")
    try:
        assert term.wait_for("Name your company", 60), term.output()
        assert term.text().isascii(), term.text()  # --ascii: nothing but ASCII on screen
        term.send("Seven\r")
        assert term.wait_for("Roster"), term.text()
        assert "Seed" not in term.text()
        quit_game(term)
    finally:
        term.close()
    (save,) = (tmp_path / "env-saves").glob("*.json")
    assert save.name == "seven-7.json"
    assert (tmp_path / "config.toml").read_text() == 'glyphs = "unicode"\nanimation = "slow"\n'


def test_the_settings_screen_saves_what_the_player_changes_not_the_flags(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('theme = "mac-okabe-ito"\nglyphs = "unicode"\nanimation = "slow"\n')
    term = start(tmp_path, "play", "--ascii", "--theme", "mac-light")
    try:
        assert term.wait_for(lambda: menu_cursor(term.screen) is not None, 60), term.output()
        term.send("s")
        assert term.wait_for("For this run only"), term.text()
        text = term.text()
        assert "mac-light" in text and "glyphs ascii, theme mac-light" in text
        term.send("a")  # animation: slow -> off, written to the file ...
        assert term.wait_for(lambda: 'animation = "off"' in config.read_text()), term.text()
        saved = tomllib.loads(config.read_text())
        assert saved == {"theme": "mac-okabe-ito", "glyphs": "unicode", "animation": "off"}
        term.send("t")  # ... and a theme the player picks is theirs from now on
        assert term.wait_for(lambda: "mac-light" not in term.text()), term.text()
        assert term.wait_for("glyphs ascii; the file keeps its own"), term.text()
        theme = tomllib.loads(config.read_text())["theme"]
        assert theme not in ("mac-okabe-ito", "mac-light") and theme in term.text()
        assert tomllib.loads(config.read_text())["glyphs"] == "unicode"
    finally:
        term.close()


def test_no_color_sends_no_colour_at_all(tmp_path: Path) -> None:
    term = start(tmp_path, "play", NO_COLOR="1")
    try:
        # the menu's highlight still shows, and moves (underlined: no colour to mark it)
        assert term.wait_for(lambda: menu_cursor(term.screen) == 0, 60), term.output()
        term.send(DOWN)
        assert term.wait_for(lambda: menu_cursor(term.screen) == 1), term.text()
        term.send("n")
        assert term.wait_for("Name your company"), term.text()
        term.send("Mono\r")
        assert term.wait_for("Seed"), term.text()
        term.send("\r")
        assert term.wait_for("Roster"), term.text()
        term.settle()
        cursor_rows = [
            y for y in range(term.screen.lines) if term.screen.buffer[y][2].reverse
        ]  # the roster's cursor row is in reverse video
        assert cursor_rows, term.text()
        assert colour_codes(bytes(term.raw)) == []
    finally:
        term.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["play", "--load", "x.json", "--seed", "3"],
            "mac-tui play: --load opens a save, --seed, --name and --rules start a new campaign: "
            "give one or the other",
        ),
        (["play", "--theme", "sparkly"], "mac-tui play: no theme 'sparkly'; choose from: mac-dark"),
        (["play", "--name", "   "], "mac-tui play: --name: a company name has 1 to"),
        (["play", "--saves", "config.toml"], "mac-tui play: --saves config.toml is not a folder"),
        (["skirmish", "--theme", "x"], "mac-tui skirmish: no theme 'x'"),
        (["play", "--seed", "-3"], "argument --seed: a seed is a whole number of at most 20"),
    ],
)
def test_bad_play_options_are_refused_in_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "config.toml").write_text("")
    proc = cli(tmp_path, *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert message in proc.stderr, proc.stderr


def test_config_path_and_show(tmp_path: Path) -> None:
    path = cli(tmp_path, "config", "path")
    assert path.returncode == 0 and path.stdout == f"{tmp_path / 'config.toml'}\n"
    fresh = cli(tmp_path, "config", "show")
    assert fresh.stdout.startswith(f"# {tmp_path / 'config.toml'} (no such file yet")
    assert 'theme = "mac-dark"\nglyphs = "unicode"\nanimation = "normal"\n' in fresh.stdout
    (tmp_path / "config.toml").write_text('theme = "nord"\ncolour = "loud"\n[keys]\n"a.b" = "x"\n')
    shown = cli(tmp_path, "config", "show")
    assert shown.returncode == 0
    assert shown.stdout == (
        f"# {tmp_path / 'config.toml'}\n"
        'theme = "nord"\nglyphs = "unicode"\nanimation = "normal"\n\n[keys]\n"a.b" = "x"\n'
    )
    assert shown.stderr == f'mac-tui config: {tmp_path / "config.toml"}: ignored field "colour"\n'
