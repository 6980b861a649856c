"""Player-typed words inside markup, shown as typed: a frame's name, the company's, a save's.

A `Static`, a dialog's prompt, an option of a list and `Content.from_markup` read Textual's
markup; a `DataTable`'s text cells and `Text.from_markup` read Rich's. A name such as `[/]`
crashed them (`MarkupError`), `[b]Bold` came out bold and `[$accent]A` lost its tag.
`textual.markup.escape` (Rich's, copied) escapes only tags that start with a small letter, `#`,
`/` or `@`: not `[B]x`, `[$accent]`, nor Textual's reading of a backslash. So these are the
game's own.
"""

from __future__ import annotations

import re

_RICH_TAG = re.compile(r"(\\*)\[")


def literal(text: str) -> str:
    """`text` for Textual markup: every `[` escaped (Textual reads `\\[` as `[`, and a
    backslash anywhere else as itself)."""
    return text.replace("[", "\\[")


def rich_literal(text: str) -> str:
    """`text` for Rich markup (a `DataTable`'s text cell): every `[` escaped, and the
    backslashes right before one doubled (Rich reads `\\\\` there as one backslash)."""
    return _RICH_TAG.sub(lambda m: m.group(1) * 2 + "\\[", text)
