"""Lint, format and type checks run as tests, so the README's one test command covers them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT


@pytest.mark.parametrize(
    "args",
    [
        ["ruff", "check", "mac_tui", "tests", "hatch_build.py"],
        ["ruff", "format", "--check", "mac_tui", "tests", "hatch_build.py"],
        ["mypy"],
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_tool_is_clean(args: list[str]) -> None:
    cmd = [sys.executable, "-m", args[0], *args[1:]]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
