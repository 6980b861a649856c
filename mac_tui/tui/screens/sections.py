"""The hub's sections, in tab order (each a `Section` widget with a key and a title)."""

from __future__ import annotations

import importlib
from functools import cache

from ..widgets.section import Section

# (module in this package, class): the hub shows them in this order with their KEY.
SECTIONS = (
    ("roster", "RosterSection"),
    ("pilots", "PilotsSection"),
    ("market", "MarketSection"),
    ("refit", "RefitSection"),
    ("galaxy", "GalaxySection"),
    ("contracts", "ContractsSection"),
    ("finances", "FinancesSection"),
)


@cache
def section_classes() -> tuple[type[Section], ...]:
    out: list[type[Section]] = []
    for module, name in SECTIONS:
        try:
            mod = importlib.import_module(f"{__package__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.{module}":
                raise
            continue
        out.append(getattr(mod, name))
    return tuple(out)
