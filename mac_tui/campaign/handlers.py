"""The campaign family: each campaign module's table of handlers and of checks, and the hook
that closes a mission once its battle is over (after every accepted command)."""

from __future__ import annotations

from ..core import AfterHook, Checks, Handlers
from . import accept, market, mission, pilots, refit, repair, salvage, setup, timeflow, travel

FAMILIES: tuple[Handlers, ...] = (
    setup.HANDLERS,
    timeflow.HANDLERS,
    market.HANDLERS,
    pilots.HANDLERS,
    refit.HANDLERS,
    repair.HANDLERS,
    travel.HANDLERS,
    accept.HANDLERS,
    salvage.HANDLERS,
)
CHECKS: tuple[Checks, ...] = (
    setup.CHECKS,
    timeflow.CHECKS,
    market.CHECKS,
    pilots.CHECKS,
    refit.CHECKS,
    repair.CHECKS,
    travel.CHECKS,
    accept.CHECKS,
    salvage.CHECKS,
)
AFTER_STEP: tuple[AfterHook, ...] = (mission.close_mission,)
