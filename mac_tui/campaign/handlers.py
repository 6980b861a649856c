"""Importing this module registers every campaign command's handler with the engine."""

from . import (  # noqa: F401
    contracts,
    market,
    mission,
    pilots,
    refit,
    repair,
    setup,
    timeflow,
    travel,
)
