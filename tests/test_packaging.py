"""The release: `python -m build` makes a wheel and an sdist that `twine check` passes, the wheel
ships the rules data, the licence and the man page, and installed into a fresh venv without
extras (as `pipx install mac-tui` would) the game starts to its title screen in a real PTY
while the server commands say which extra they need.

Everything builds and installs without a package index: the build runs without isolation
(hatchling comes with the test extra) and the fresh venv gets the game's dependencies from
wheels packed from this venv's own installed files (tests/wheelhouse.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from mac_tui import __version__
from mac_tui.extras import SSH_MODULES, WEB_MODULES
from mac_tui.server.loadtest import PtyTerminal, menu_cursor

from . import wheelhouse
from .conftest import ROOT

SERVER_EXTRA = "needs the server extra: pip install 'mac-tui[server]'"
# the distributions of the server extra, none of which a plain install may bring
SERVER_DISTS = ("asyncssh", "pyte", "aiohttp", "jinja2", "textual_serve", "cryptography")


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without pip's settings (no index, no find-links from the machine) or
    a venv of ours leaking in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel `python -m build` makes (the wheel built from the sdist)."""
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        env=clean_env(),
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


def wheel_of(dist: Path) -> Path:
    (wheel,) = dist.glob("mac_tui-*.whl")
    return wheel


def metadata(wheel: Path) -> Parser:
    with zipfile.ZipFile(wheel) as zf:
        text = zf.read(f"mac_tui-{__version__}.dist-info/METADATA").decode()
    return Parser().parsestr(text)  # type: ignore[return-value]


def test_build_makes_a_wheel_and_an_sdist_that_twine_accepts(dist: Path) -> None:
    (sdist,) = dist.glob("mac_tui-*.tar.gz")
    assert sdist.name == f"mac_tui-{__version__}.tar.gz"
    assert wheel_of(dist).name == f"mac_tui-{__version__}-py3-none-any.whl"
    proc = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(sdist), str(wheel_of(dist))],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASSED") == 2, proc.stdout
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for needed in ("LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml", "hatch_build.py"):
        assert needed in names, needed
    assert "data/weapons.toml" in names and "tests/test_packaging.py" in names


def test_the_wheel_ships_data_licence_man_page_and_metadata(dist: Path) -> None:
    wheel = wheel_of(dist)
    names = set(zipfile.ZipFile(wheel).namelist())
    for toml in sorted((ROOT / "data").glob("*.toml")):
        assert f"mac_tui/data/{toml.name}" in names, toml.name
    info = f"mac_tui-{__version__}.dist-info"
    assert f"{info}/licenses/LICENSE" in names
    assert f"mac_tui-{__version__}.data/data/share/man/man1/mac-tui.1" in names
    entry = zipfile.ZipFile(wheel).read(f"{info}/entry_points.txt").decode()
    assert "mac-tui = mac_tui.cli:main" in entry

    meta = metadata(wheel)
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert not any(c.startswith("License ::") for c in meta.get_all("Classifier") or [])
    assert "Topic :: Games/Entertainment :: Turn Based Strategy" in meta.get_all("Classifier")
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Issues", "Changelog"} <= set(urls)
    assert meta["Description-Content-Type"] == "text/markdown"
    # the README on the index page: no link into the repository that only works there
    for target in _links(meta.get_payload()):  # type: ignore[arg-type]
        assert target.startswith("https://"), target
    requires = wheelhouse.requirements_of(wheel)

    def needed(extra: str) -> dict[str, str]:
        env = {"extra": extra}
        return {
            r.name: str(r.specifier)
            for r in requires
            if r.marker is None or (r.marker.evaluate(env) and "extra" in str(r.marker))
        }

    game = needed("")
    assert set(game) == {"attrs", "cattrs", "platformdirs", "rich", "textual"}
    assert game["textual"] == "<9,>=8.2.8"  # a range for players...
    assert needed("test")["textual"] == "==8.2.8"  # ... the exact one for the snapshots
    server = set(needed("server")) - set(game)
    assert server == {"asyncssh", "pyte", "aiohttp", "jinja2", "textual-serve"}
    assert set(needed("postgres")) - set(game) == {"psycopg"}
    assert set(needed("lab")) - set(game) == {"dask", "distributed"}


def _links(markdown: str) -> list[str]:
    import re

    return re.findall(r"\]\(([^)]+)\)", markdown)


def test_a_fresh_venv_without_extras_plays_and_names_the_server_extra(
    dist: Path, tmp_path: Path
) -> None:
    house = tmp_path / "house"
    house.mkdir()
    wheel = wheel_of(dist)
    wheelhouse.fill(house, wheelhouse.requirements_of(wheel))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, symlinks=True).create(env_dir)
    bin_dir = env_dir / "bin"
    install = ["install", "-q", "--no-index", "--find-links", str(house), str(wheel)]
    proc = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", *install],
        capture_output=True,
        text=True,
        env=clean_env(),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    listed = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "list", "--format=freeze"],
        capture_output=True,
        text=True,
        env=clean_env(),
    ).stdout.lower()
    for name in SERVER_DISTS:
        assert f"{name.replace('_', '-')}==" not in listed, listed  # the game alone
    assert f"mac-tui=={__version__}" in listed

    home = tmp_path / "home"
    (home / "saves").mkdir(parents=True)
    env = clean_env(HOME=str(home), MAC_TUI_SAVES=str(home / "saves"))
    env.pop("MAC_TUI_DATA", None)  # the rules data from inside the wheel
    mac_tui = str(bin_dir / "mac-tui")
    for what, modules in (("ssh", SSH_MODULES), ("web", WEB_MODULES)):
        run = subprocess.run(
            [mac_tui, "serve", what], capture_output=True, text=True, env=env, timeout=60
        )
        assert run.returncode == 2 and run.stdout == "", run
        assert run.stderr == (f"mac-tui serve {what} {SERVER_EXTRA} (no module {modules[0]})\n"), (
            run.stderr
        )
    bench = subprocess.run(
        [str(bin_dir / "python"), "-m", "mac_tui.bench", "ssh"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert bench.returncode == 2
    assert bench.stderr.startswith(f"python -m mac_tui.bench ssh {SERVER_EXTRA}")
    scores = subprocess.run(
        [mac_tui, "serve", "scores", "--data", str(home / "saves")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert scores.returncode == 0, scores.stderr  # the scores need no extra

    man_page = env_dir / "share" / "man" / "man1" / "mac-tui.1"
    assert (
        man_page.read_text()
        == subprocess.run(
            [mac_tui, "man"], capture_output=True, text=True, env=env, timeout=60
        ).stdout
    )

    term = PtyTerminal([mac_tui], env=env, cwd=tmp_path)
    try:
        assert term.wait_for(lambda: menu_cursor(term.screen) is not None, 60), term.output()
        assert f"mac-tui {__version__}" in term.text()
        term.send("r")  # the rules reference reads the tables shipped in the wheel
        assert term.wait_for("Weapons"), term.text()
    finally:
        term.close()


def test_the_man_page_renders(tmp_path: Path) -> None:
    """`mac-tui man` is a page man reads without a warning, every command in it."""
    proc = subprocess.run(
        [sys.executable, "-m", "mac_tui", "man"], capture_output=True, text=True, check=True
    )
    page = tmp_path / "mac-tui.1"
    page.write_text(proc.stdout)
    assert proc.stdout.startswith(".TH MAC\\-TUI 1 ")
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "ENVIRONMENT", "FILES"):
        assert f"\n.SH {section}\n" in proc.stdout
    if shutil.which("man") is None or shutil.which("groff") is None:
        pytest.skip("man or groff is not installed: the roff structure alone was checked")
    lint = subprocess.run(
        ["groff", "-man", "-Tutf8", "-ww", "-z", str(page)], capture_output=True, text=True
    )
    assert lint.returncode == 0 and lint.stderr == "", lint.stderr
    shown = subprocess.run(
        ["man", "-l", str(page)],
        capture_output=True,
        text=True,
        env=dict(os.environ, MANWIDTH="100", MANPAGER="cat", PAGER="cat"),
    )
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    for command in ("mac-tui play", "mac-tui serve ssh", "mac-tui config path", "NO_COLOR"):
        assert command in text, command
    assert "--seed N" in text and "--theme THEME" in text


BLOCKED = """
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None  # `import name` fails as if it were not installed
from mac_tui.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize(
    ("blocked", "command", "missing"),
    [
        ("textual_serve", ["serve", "web"], "textual_serve"),
        ("pyte", ["serve", "ssh", "--port", "0"], "pyte"),
        ("jinja2,aiohttp", ["serve", "web"], "aiohttp"),
    ],
)
def test_a_missing_module_of_an_extra_is_named_in_one_line(
    blocked: str, command: list[str], missing: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKED, blocked, *command],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        f"mac-tui {' '.join(command[:2])} {SERVER_EXTRA} (no module {missing})\n"
    )


def test_serve_keys_names_the_server_extra_and_a_postgres_store_the_postgres_extra(
    tmp_path: Path,
) -> None:
    def blocked(modules: str, *command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", BLOCKED, modules, *command],
            capture_output=True,
            text=True,
            timeout=60,
        )

    keys = blocked("asyncssh", "serve", "keys", "ann", "--data", str(tmp_path))
    assert keys.returncode == 2 and keys.stdout == ""
    assert keys.stderr == f"mac-tui serve keys {SERVER_EXTRA} (no module asyncssh)\n"
    db = "postgresql://mac@db.example/mac"
    for what in (["ssh"], ["web"], ["scores"], ["keys", "ann"]):
        run = blocked("psycopg", "serve", *what, "--data", str(tmp_path), "--db", db)
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr == (
            f"mac-tui serve {what[0]} --db postgresql://... needs the postgres extra: "
            "pip install 'mac-tui[postgres]' (no module psycopg)\n"
        )
    assert not (tmp_path / "store.db").exists()  # nothing opened


def test_a_servers_scores_need_no_extra(tmp_path: Path) -> None:
    """`serve scores --data DIR` of a server's folder reads (and on the first look makes) its
    SQLite store without the server extra's modules."""
    (tmp_path / "players" / "ann" / "saves").mkdir(parents=True)
    command = ["serve", "scores", "--data", str(tmp_path), "--json"]
    scores = subprocess.run(
        [sys.executable, "-c", BLOCKED, "asyncssh,pyte,psycopg", *command],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert scores.returncode == 0, scores.stderr
    assert '"scores": []' in scores.stdout
    assert (tmp_path / "store.db").is_file()
