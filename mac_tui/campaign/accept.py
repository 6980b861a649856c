"""Accepting a contract (§16, §11.5, §12.2, R17, R18): who may deploy, what it costs, and the
battle it sets up.

`accept CONTRACT PAYOUT FRAMES` pays the deployment (§11.5) and sets up the battle: the player's
frames as they are (armour, structure, weapons, equipment, pilots' skills) and the contract's
enemy lance with its stock loadouts (R18) and the §16.1 pilots (R17). The battle is then fought
with the combat commands; `mission.py` settles it when it is over.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..catalog import catalog
from ..catalog.records import PayoutLevel
from ..combat.objectives import O11
from ..combat.setup import (
    PRIORITIES,
    STANCES,
    WITHDRAW_TEXT,
    FrameSpec,
    MountSpec,
    loadout_spec,
    new_battle,
)
from ..combat.state import PilotSkills
from ..combat.third_force import battle_lances
from ..core import Accepted, Checks, Event, Handlers, Outcome, Refused
from ..dice import AI, Dice
from ..model import GameState
from . import ledger
from .commands import Accept
from .common import campaign_refusal, split
from .contracts import third_party_text
from .events import Report
from .state import (
    Campaign,
    Contract,
    Frame,
    Mission,
)

TOPIC = "mission"


# ---- small lookups -----------------------------------------------------------------------------
def faction_name(faction: str) -> str:
    f = catalog().factions.get(faction)
    return f.short if f is not None else faction


def find_contract(campaign: Campaign, contract_id: str) -> Contract | None:
    for c in campaign.contracts:
        if c.id == contract_id:
            return c
    return None


def payout(level: int) -> PayoutLevel | None:
    for p in catalog().economy.payout_level:
        if p.level == level:
            return p
    return None


# ---- deployment (§11.5) ------------------------------------------------------------------------
def deployment_cost(campaign: Campaign, frame_ids: Sequence[str]) -> int:
    """§11.5: the sum of the deployed frames' class deployment costs."""
    cat = catalog()
    return sum(
        cat.classes[cat.chassis[campaign.frame(f).chassis].class_].deployment_cost
        for f in frame_ids
    )


def frame_deploy_refusal(campaign: Campaign, frame_id: str) -> str | None:
    """Why this frame cannot deploy: it must exist, be Ready and idle, and carry an Active
    pilot (§9.2: an injured pilot cannot deploy)."""
    try:
        frame = campaign.frame(frame_id)
    except KeyError:
        return f"no frame {frame_id}"
    if frame.status != "ready":
        return f"{frame.name} ({frame.id}) is {frame.status}, not ready"
    if frame.busy_days > 0:
        return f"{frame.name} ({frame.id}) is in the bay for {frame.busy_days} more day(s)"
    if frame.pilot is None:
        return f"{frame.name} ({frame.id}) has no pilot: assign one first"
    pilot = campaign.pilot(frame.pilot)
    if pilot.status == "injured":
        return f"{pilot.callsign} is injured for {pilot.injury_days} more day(s)"
    if pilot.status != "active":
        return f"{pilot.callsign} cannot deploy ({pilot.status})"
    return None


def accept_refusal(
    campaign: Campaign, contract_id: str, payout_level: int, frame_ids: Sequence[str]
) -> str | None:
    """Why `accept contract payout frames` is illegal now, or None."""
    contract = find_contract(campaign, contract_id)
    if contract is None:
        known = ", ".join(c.id for c in campaign.contracts) or "none"
        return f"no contract {contract_id} on the board (offered: {known})"
    if contract.place != campaign.place:
        return f"contract {contract_id} is offered at {catalog().places[contract.place].name}"
    if payout(payout_level) is None:
        levels = ", ".join(f"{p.level} {p.name}" for p in catalog().economy.payout_level)
        return f"payout level must be one of: {levels}"
    most = catalog().missions.lance.max_frames
    if not 1 <= len(frame_ids) <= most:
        return f"deploy 1 to {most} frames, joined by + (e.g. F1+F2)"
    if len(set(frame_ids)) != len(frame_ids):
        return "each frame can deploy only once"
    for f in frame_ids:
        reason = frame_deploy_refusal(campaign, f)
        if reason:
            return reason
    for e in contract.enemies:
        if not any(lo.name == e.loadout for lo in catalog().stock_loadouts(e.chassis)):
            return f"contract {contract_id} names an unknown loadout {e.loadout!r}"
    cost = deployment_cost(campaign, frame_ids)
    if O11 in campaign.ruleset:  # O11.7: deployed on credit down to the floor
        floor = catalog().objectives.debt.floor
        if campaign.credits - cost < floor:
            return (
                f"costs {cost:,} credits; the company has {campaign.credits:,}, and may deploy "
                f"in debt only down to {floor:,} (O11.7)"
            )
        return None
    return ledger.short_of(campaign, cost)


def player_spec(campaign: Campaign, frame: Frame) -> FrameSpec:
    """A company frame as it is: its armour, structure, loadout and pilot's skills."""
    assert frame.pilot is not None
    p = campaign.pilot(frame.pilot)
    return FrameSpec(
        chassis=frame.chassis,
        pilot=PilotSkills(
            callsign=p.callsign, gunnery=p.gunnery, piloting=p.piloting, tactics=p.tactics
        ),
        label=p.callsign,
        weapons=tuple(
            MountSpec(weapon=m.weapon, mount=m.mount, group=m.group) for m in frame.weapons
        ),
        equipment=tuple((f.equipment, f.mount) for f in frame.equipment),
        armor=frame.armor,
        structure=frame.structure,
    )


def enemy_specs(contract: Contract, dice: Dice) -> tuple[FrameSpec, ...]:
    """§16.1, R17, R18: the contract's lance with its named stock loadouts and the table's
    pilots; stance and target priority drawn from the AI stream (D23)."""
    cat = catalog()
    force = cat.enemy_force(contract.difficulty)
    specs = []
    for i, e in enumerate(contract.enemies, start=1):
        loadout = next(lo for lo in cat.stock_loadouts(e.chassis) if lo.name == e.loadout)
        pilot = PilotSkills(
            callsign=f"Hostile-{i}",
            gunnery=force.gunnery,
            piloting=force.piloting,
            tactics=force.tactics,
        )
        stance = dice.choice(AI, STANCES)
        priority = dice.choice(AI, PRIORITIES)
        specs.append(loadout_spec(e.chassis, loadout, pilot, e.label, stance, priority))
    return tuple(specs)


def accept_check(state: GameState, cmd: Accept) -> str | None:
    """Why `cmd` is refused in this state (no campaign, a battle under way...), or None."""
    reason = campaign_refusal(state)
    if reason:
        return reason
    if state.battle is not None:
        return "a battle is already under way"
    assert state.campaign is not None
    return accept_refusal(state.campaign, cmd.contract, cmd.payout, split(cmd.frames))


def _accept(state: GameState, cmd: Accept) -> Outcome:
    reason = accept_check(state, cmd)
    if reason:
        return Refused(reason)
    campaign = state.campaign
    assert campaign is not None
    frame_ids = split(cmd.frames)
    contract = find_contract(campaign, cmd.contract)
    level = payout(cmd.payout)
    assert contract is not None and level is not None
    dice = Dice(state.rng)
    frames = [campaign.frame(f) for f in frame_ids]
    enemy = enemy_specs(contract, dice)
    third = contract.third_party
    allies, neutrals = (
        battle_lances(third.kind, contract.difficulty, third.frames) if third else ((), ())
    )
    battle = new_battle(
        dice,
        difficulty=contract.difficulty,
        landscape=contract.landscape,
        player=[player_spec(campaign, f) for f in frames],
        enemy=enemy,
        player_ai=False,
        enemy_withdrawal=contract.enemy_withdrawal,
        ruleset=campaign.ruleset,
        allies=allies,
        neutrals=neutrals,
        objectives=contract.objectives,
    )
    units = battle.side_units("player")
    mission = Mission(
        contract=contract,
        payout_level=cmd.payout,
        frames=tuple((u.id, f.id) for u, f in zip(units, frames, strict=True)),
    )
    cost = deployment_cost(campaign, frame_ids)
    campaign, moved = ledger.post(
        campaign, "deployment", -cost, f"Deployment, contract {contract.id}, {len(frames)} frame(s)"
    )
    campaign = attrs.evolve(
        campaign,
        mission=mission,
        contracts=tuple(c for c in campaign.contracts if c.id != contract.id),
    )
    names = ", ".join(f"{f.name} ({f.pilot})" for f in frames)
    text = (
        f"Contract {contract.id} accepted for {faction_name(contract.employer)} against "
        f"{faction_name(contract.opponent)}, difficulty {contract.difficulty}, {level.name}. "
        f"Deployed: {names}. The enemy {WITHDRAW_TEXT[contract.enemy_withdrawal]}."
    )
    if third is not None:  # O10.1
        text += f" {third_party_text(third).capitalize()}."
    events: list[Event] = [moved, Report(topic=TOPIC, text=text)]
    return Accepted(
        attrs.evolve(state, campaign=campaign, battle=battle, rng=dice.state()), tuple(events)
    )


HANDLERS: Handlers = {Accept: _accept}
CHECKS: Checks = {Accept: accept_check}
