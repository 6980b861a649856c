"""The README opens with the two commands, and CI runs exactly the test one."""

from __future__ import annotations

import re

from .conftest import ROOT


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text)


def test_readme_opens_with_install_and_test_commands() -> None:
    play, test = _commands()[:2]
    assert "pip install ." in play and play.endswith("mac-tui")
    assert 'pip install -e ".[test]"' in test and "pytest" in test


def test_ci_runs_exactly_the_readme_test_command() -> None:
    test = _commands()[1]
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci_lines
    assert "set -euo pipefail" in ci_lines


def test_the_readme_command_file_plays_without_a_refusal() -> None:
    from mac_tui.script import run_lines
    from mac_tui.session import Session

    text = (ROOT / "README.md").read_text()
    block = re.search(r"```text\n(.*?)```", text, re.S)
    assert block is not None
    session = Session.new(2)  # the README's seed
    results = run_lines(session, block.group(1).splitlines())
    refused = [(r.text, r.reason) for r in results if not r.accepted]
    assert refused == []
    assert session.state.campaign is not None
    assert session.state.campaign.missions_played == 1
