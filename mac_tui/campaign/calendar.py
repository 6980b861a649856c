"""The calendar (§13.2, R25): day 1 is 01 Jan 2847; 365-day years, no leap day."""

from __future__ import annotations

from ..catalog import catalog

MONTHS = (
    ("Jan", 31),
    ("Feb", 28),
    ("Mar", 31),
    ("Apr", 30),
    ("May", 31),
    ("Jun", 30),
    ("Jul", 31),
    ("Aug", 31),
    ("Sep", 30),
    ("Oct", 31),
    ("Nov", 30),
    ("Dec", 31),
)
YEAR_DAYS = sum(n for _, n in MONTHS)


def date_text(day: int) -> str:
    """Military format, e.g. `15 Jan 2847` for day 15."""
    year, rest = divmod(day - 1, YEAR_DAYS)
    for name, length in MONTHS:
        if rest < length:
            return f"{rest + 1:02d} {name} {catalog().start.company.year + year}"
        rest -= length
    raise AssertionError("unreachable: the months cover the year")
