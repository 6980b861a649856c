"""The widest realistic states of the screens outside the battle, for tests/test_tui_fit.py and
the 80x24 snapshots.

The base is a year of real play: the autopilot's campaign of `tests/golden/v1/campaign-year`
(kept for ever; loaded through the save-format migrations), 23 pilots (most of them lost), a
ledger of hundreds of entries. On top of it, what the rules allow and a long campaign reaches:
the longest company name (40 characters) and frame names (24), eight-digit credits, the
standing extremes, frames of every class and status (the heaviest chassis, repairing, in the
bay, destroyed, damaged, unpiloted, bare), an injured pilot, a full inventory, and a board of
the hardest contracts.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from mac_tui.campaign.contracts import generate_contract
from mac_tui.campaign.market import fresh_frame
from mac_tui.campaign.pilots import NAME_MAX as FRAME_NAME_MAX
from mac_tui.campaign.setup import NAME_MAX as COMPANY_NAME_MAX
from mac_tui.campaign.state import (
    Campaign,
    Contract,
    Fitting,
    Frame,
    Mount,
    Pilot,
    PilotRecord,
)
from mac_tui.catalog import catalog
from mac_tui.dice import RngState
from mac_tui.model import GameState
from mac_tui.save import read_save
from mac_tui.session import Session

YEAR = Path(__file__).parent / "golden" / "v1" / "campaign-year.json"
COMPANY = "The Honourable Free Lances of Deadlight"[:COMPANY_NAME_MAX].ljust(COMPANY_NAME_MAX, "s")
NAMES = (
    "Hammer of the Outer Rim",
    "Widowmaker of Forge IIII",
    "Saint Mercy's Last Light",
    "Old Ironsides Mark Seven",
    "Gatekeeper's Long Vigil",
    "Juggernaut of Junction",
    "Colossus of Centauri Gt",
    "Sentinel of Terra Nova",
)


def year() -> GameState:
    return read_save(YEAR).state


def stocked(frame: Frame) -> Frame:
    """The frame carrying the chassis' first stock loadout (R18), every slot item included."""
    loadout = catalog().stock_loadouts(frame.chassis)[0]
    return attrs.evolve(
        frame,
        weapons=tuple(
            Mount(weapon=e.weapon, mount=e.mount, group=e.group) for e in loadout.weapons
        ),
        equipment=(
            *(Fitting(equipment=e) for e in loadout.equipment),
            *(Fitting(equipment=f.equipment, mount=f.mount) for f in loadout.slots),
        ),
    )


def wide_frames(campaign: Campaign) -> tuple[Frame, ...]:
    """Every frame of the year renamed to the longest names, and four more: an Assault being
    repaired, a Heavy in the bay, a destroyed Assault, a bare Light with no pilot."""
    names = iter(NAMES)
    out = [attrs.evolve(f, name=next(names)[:FRAME_NAME_MAX]) for f in campaign.frames]
    extra = [
        ("JG-95", "repairing", 12, "Thunder"),
        ("SN-75", "ready", 6, None),
        ("CL-100", "destroyed", 0, None),
        ("SC-20", "ready", 0, None),
    ]
    n = campaign.next_frame
    for i, (chassis, status, busy, _pilot) in enumerate(extra):
        frame = fresh_frame(f"F{n + i}", chassis, next(names)[:FRAME_NAME_MAX])
        if chassis != "SC-20":
            frame = stocked(frame)
        out.append(attrs.evolve(frame, status=status, busy_days=busy))
    # the first frame came home hurt: about 12% of its armour gone (damaged: it must be
    # repaired before it deploys); the bare Scout has a pilot (a warning, not a refusal)
    first = out[0]
    armor = tuple(a - (a * 12 // 100) for a in first.armor)
    out[0] = attrs.evolve(first, armor=armor, status="damaged")
    out[-1] = attrs.evolve(out[-1], pilot=NEW_PILOT.callsign)
    return tuple(out)


NEW_PILOT = Pilot(callsign="Merc-010", gunnery=3, piloting=3, tactics=2, morale=77, xp=0)


# A veteran's record: every count in three digits, six long frame names flown (the pilot sheet).
VETERAN = PilotRecord(
    hired_day=1,
    missions=999,
    victories=888,
    kills=777,
    injuries=123,
    ejections=101,
    frames=NAMES[:6],
)


def wide_pilots(campaign: Campaign) -> tuple[Pilot, ...]:
    """The year's pilots and one hired since, one of the living injured for ten days (with the
    veteran's record)."""
    out = [*campaign.pilots, NEW_PILOT]
    for i, p in enumerate(out):
        if p.status == "active" and p.callsign != campaign.frames[0].pilot:
            out[i] = attrs.evolve(p, status="injured", injury_days=10, record=VETERAN)
            break
    return tuple(out)


def hard_board(campaign: Campaign) -> tuple[Contract, ...]:
    """Three contracts of the hardest kind (difficulty 5, a Heavy and an Assault), as a core
    world posts them, renumbered past a hundred."""
    cat = catalog()
    core = max(cat.places.values(), key=lambda p: (p.max_difficulty, p.id))
    there = attrs.evolve(campaign, place=core.id, reputation=30)
    dice = RngState(campaign.day).dice()
    out: list[Contract] = []
    n = 120
    while len(out) < cat.missions.contracts.offers:
        contract = generate_contract(there, dice, f"C{n}")
        if contract.difficulty == cat.missions.difficulty.max:
            out.append(attrs.evolve(contract, place=campaign.place))
            n += 1
    return tuple(out)


def wide_campaign() -> Campaign:
    base = year().campaign
    assert base is not None
    cat = catalog()
    factions = sorted(cat.factions)
    extremes = dict(zip(factions, (-100, 500, 250), strict=True))
    campaign = attrs.evolve(
        base,
        company=COMPANY,
        credits=12_345_678,
        frames=wide_frames(base),
        next_frame=base.next_frame + 4,
        pilots=wide_pilots(base),
        standing=tuple((f, extremes[f]) for f in factions),
        weapons=tuple(sorted((w, 3) for w in cat.weapons)),
        equipment=tuple(sorted((e, 2) for e in cat.equipment)),
    )
    return attrs.evolve(campaign, contracts=hard_board(campaign))


def wide_session() -> Session:
    """A session at the wide campaign (its log is the year's seed only: the state is made,
    not played, so nothing replays it)."""
    state = year()
    session = Session.new(state.seed)
    session.state = attrs.evolve(state, campaign=wide_campaign())
    return session
