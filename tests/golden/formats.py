"""Write the fixtures of a new save format: the golden format-1 saves of `tests/golden/v1/`,
loaded through the migrations and written by the current writer into `format{N}/`.

    python -m tests.golden.formats

Each folder is made once, when its format is introduced (`format2/`: format 2; `format3/`:
format 3, rules version 2), and kept for ever like `v1/`: every later version of the game must
load them (`test_save_formats.py`). The script refuses to write a folder that exists.
"""

from __future__ import annotations

from pathlib import Path

from mac_tui.save import FORMAT_VERSION, read_save, to_json

HERE = Path(__file__).parent
V1 = HERE / "v1"


def folder(fmt: int = FORMAT_VERSION) -> Path:
    return HERE / f"format{fmt}"


def main() -> None:
    out = folder()
    if out.exists():
        raise SystemExit(f"{out} exists: a format's fixtures are made once and kept")
    out.mkdir()
    for path in sorted(V1.glob("*.json")):
        (out / path.name).write_text(to_json(read_save(path)), encoding="utf-8")


if __name__ == "__main__":
    main()
