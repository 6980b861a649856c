"""Fields of the game state that a save leaves out while they hold their default.

Optional rules (O0.2) add state that the core game never uses: the levels of a map, its
structures, smoke, charges. Declared with `optional_field`, such a field is written to a save
(and to the canonical state hash) only when it differs from its default, so a core game's save
and hash stay byte-identical to those of a version without the field, and an old save loads
with the default.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

__all__ = ["OMIT_DEFAULT", "omits_default", "optional_field"]

#: The metadata key that marks a field left out of saves at its default.
OMIT_DEFAULT: Final = "mac_tui.omit_default"


def optional_field(default: Any, **kwargs: Any) -> Any:
    """An attrs field with `default` (immutable: a tuple, int, str, None) that a save omits
    while it holds that default."""
    metadata = dict(kwargs.pop("metadata", None) or {})
    metadata[OMIT_DEFAULT] = True
    return attrs.field(default=default, metadata=metadata, **kwargs)


def omits_default(field: attrs.Attribute[Any]) -> bool:
    """True for a field declared with `optional_field`."""
    return bool(field.metadata.get(OMIT_DEFAULT))
