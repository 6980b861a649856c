"""Write the format-2 fixtures of `tests/golden/format2/`: the golden format-1 saves of
`tests/golden/v1/`, loaded through the migrations and written by the format-2 writer.

    python -m tests.golden.formats

Made once, when format 2 was introduced, and kept for ever like `v1/`: every later version of
the game must load them (`test_save_formats.py`). A new save format adds a folder of its own.
"""

from __future__ import annotations

from pathlib import Path

from mac_tui.save import read_save, to_json

HERE = Path(__file__).parent
V1 = HERE / "v1"
FORMAT2 = HERE / "format2"


def main() -> None:
    FORMAT2.mkdir(exist_ok=True)
    for path in sorted(V1.glob("*.json")):
        (FORMAT2 / path.name).write_text(to_json(read_save(path)), encoding="utf-8")


if __name__ == "__main__":
    main()
