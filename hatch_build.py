"""Hatchling build hook: the wheel carries the manual page, share/man/man1/mac-tui.1, made
from the command line's parser (mac_tui/manpage.py) at build time, so it cannot go stale.

The parser and the page need only the standard library, so they are imported from the source
tree without the game's dependencies being installed in the build environment.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MAN_PAGE = "share/man/man1/mac-tui.1"


class ManPageHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        sys.path.insert(0, self.root)
        try:
            from mac_tui.cli import _parser
            from mac_tui.manpage import manpage
        finally:
            sys.path.remove(self.root)
        self.scratch = tempfile.mkdtemp(prefix="mac-tui-man-")
        out = Path(self.scratch) / "mac-tui.1"
        out.write_text(manpage(_parser()), encoding="utf-8")
        build_data["shared_data"][str(out)] = MAN_PAGE

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "scratch", None)
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
