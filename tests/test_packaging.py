"""A non-editable install ships data/ inside the package, where the catalog finds it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from .conftest import ROOT


def test_wheel_ships_every_data_file(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("mac_tui-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for toml in sorted((ROOT / "data").glob("*.toml")):
        assert f"mac_tui/data/{toml.name}" in names, toml.name
    assert "mac_tui/catalog/load.py" in names
    entry = (
        zipfile.ZipFile(wheel)
        .read(next(n for n in names if n.endswith("entry_points.txt")))
        .decode()
    )
    assert "mac-tui = mac_tui.cli:main" in entry
