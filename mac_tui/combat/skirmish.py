"""A standalone battle (the quick battle / `mac-tui skirmish`): the starting lance of
setup-facts.md against an enemy force of the chosen difficulty (§16.1), on a map of the
difficulty's size (§6.1) and a landscape drawn from the seed unless one is named.

`NewSkirmish` is a command like any other, so a skirmish's save replays from its seed and
commands exactly as a campaign's does. The battle stays in the state when it ends
(`phase == "over"`): a skirmish has no mission to settle.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
from attrs import frozen

from ..catalog import catalog
from ..core import Accepted, Checks, Command, Handlers, Outcome, Refused, flag_field
from ..dice import MAP, Dice
from ..model import GameState, initial_state
from ..ruleset import Ruleset, parse_ruleset, rules_refusal
from .objectives import draw_objectives
from .setup import FrameSpec, MountSpec, enemy_lance, new_battle, starting_lance
from .state import Battle, PilotSkills
from .third_force import battle_lances, roll_third_party
from .third_parties import O10


@frozen
class NewSkirmish(Command):
    """Set up a standalone battle waiting for the player's deployment."""

    verb = "new-skirmish"
    difficulty: int
    landscape: str | None = None
    rules: str = flag_field("rules")  # the optional modules, `O2,O3` (O0.1)


def difficulty_refusal(difficulty: int) -> str | None:
    """Why `difficulty` is not one the mission tables know, or None."""
    d = catalog().missions.difficulty
    if not d.min <= difficulty <= d.max:
        return f"difficulty must be {d.min} to {d.max}, not {difficulty}"
    return None


def landscape_refusal(landscape: str | None) -> str | None:
    """Why `landscape` is not a landscape of the map tables, or None (None draws one)."""
    known = [ls.id for ls in catalog().maps.landscape]
    if landscape is not None and landscape not in known:
        return f"no landscape {landscape!r} (choose from {', '.join(known)})"
    return None


def build_skirmish(
    dice: Dice,
    difficulty: int,
    *,
    lance: Sequence[FrameSpec] | None = None,
    landscape: str | None = None,
    player_ai: bool = False,
    ruleset: Ruleset = (),
) -> Battle:
    """The battle of a skirmish: landscape (drawn when None), enemy faction (or none), the
    enemy lance, with O10 the third party (O10.1, its own `missions` stream), then the map
    and deployment (`new_battle`), in that order of dice draws."""
    cat = catalog()
    if landscape is None:
        landscape = dice.choice(MAP, [ls.id for ls in cat.maps.landscape])
    faction = dice.choice(MAP, [None, *cat.factions])
    enemy = enemy_lance(dice, difficulty, faction, ruleset=ruleset)
    allies: tuple[FrameSpec, ...] = ()
    neutrals: tuple[FrameSpec, ...] = ()
    if O10 in ruleset:  # O10.1: a quick battle rolls as a contract does (no employer)
        third = roll_third_party(dice, difficulty, employer=None, opponent=faction, ruleset=ruleset)
        allies, neutrals = battle_lances(third.kind, difficulty, third.frames)
    return new_battle(
        dice,
        difficulty=difficulty,
        landscape=landscape,
        player=tuple(lance) if lance else starting_lance(),
        enemy=enemy,
        player_ai=player_ai,
        ruleset=ruleset,
        objectives=draw_objectives(dice, difficulty, ruleset, ally=bool(allies)),  # O11.8
        allies=allies,
        neutrals=neutrals,
    )


def make_state(
    seed: int,
    difficulty: int,
    lance: Sequence[FrameSpec] | None = None,
    landscape: str | None = None,
    player_ai: bool = True,
    ruleset: Ruleset = (),
) -> GameState:
    """A game whose battle is set up and waiting for the player's deployment (headless battles,
    benchmarks and tests; the player's side is marked AI-run unless `player_ai` is False)."""
    state = initial_state(seed)
    dice = Dice(state.rng)
    battle = build_skirmish(
        dice, difficulty, lance=lance, landscape=landscape, player_ai=player_ai, ruleset=ruleset
    )
    return attrs.evolve(state, battle=battle, rng=dice.state())


def lance_from_chassis(designations: Sequence[str]) -> tuple[FrameSpec, ...]:
    """`mac-tui sim --lance`: frames of the named chassis with their first stock loadout and
    the starting pilots in order (Ghost, Falcon, Thunder, Shadow)."""
    cat = catalog()
    pilots = cat.pilots.starting_pilot
    most = cat.missions.lance.max_frames
    if not 1 <= len(designations) <= most:
        raise ValueError(f"a lance has 1 to {most} frames")
    out = []
    for i, name in enumerate(designations):
        key = name.upper()
        if key not in cat.chassis:
            known = ", ".join(cat.chassis)
            raise ValueError(f"no chassis {name!r} (known: {known})")
        loadout = cat.stock_loadouts(key)[0]
        p = pilots[i % len(pilots)]
        out.append(
            FrameSpec(
                chassis=key,
                pilot=PilotSkills(
                    callsign=p.callsign, gunnery=p.gunnery, piloting=p.piloting, tactics=p.tactics
                ),
                label=p.callsign,
                weapons=tuple(
                    MountSpec(weapon=e.weapon, mount=e.mount, group=e.group)
                    for e in loadout.weapons
                ),
                equipment=(
                    *((e, None) for e in loadout.equipment),
                    *((f.equipment, f.mount) for f in loadout.slots),
                ),
            )
        )
    return tuple(out)


def new_skirmish_check(state: GameState, cmd: NewSkirmish) -> str | None:
    if state.campaign is not None or state.battle is not None:
        return "a game is already under way: a skirmish starts from a new game"
    return (
        difficulty_refusal(cmd.difficulty)
        or landscape_refusal(cmd.landscape)
        or rules_refusal(cmd.rules)
    )


def _new_skirmish(state: GameState, cmd: NewSkirmish) -> Outcome:
    reason = new_skirmish_check(state, cmd)
    if reason:
        return Refused(reason)
    dice = Dice(state.rng)
    ruleset = parse_ruleset(cmd.rules)
    battle = build_skirmish(dice, cmd.difficulty, landscape=cmd.landscape, ruleset=ruleset)
    return Accepted(attrs.evolve(state, battle=battle, rng=dice.state()), ())


HANDLERS: Handlers = {NewSkirmish: _new_skirmish}
CHECKS: Checks = {NewSkirmish: new_skirmish_check}
