"""The bot API: everything a battle player written outside mac-tui needs, and nothing more.

A bot is a policy: a function `state -> Decision`, called only when one of its frames must act
(or, before the battle starts, when its side must deploy). It reads the state through this
module, picks one of `legal_commands(state)` (or builds a command that `step` accepts) and
returns it in a `Decision` with, if it likes, the options it weighed and a note. It never
changes the state: the driver hands its command to the engine like a human's, so a battle log
replays a bot's game exactly. How to write one, with a complete example: `docs/bots.md`.

Stability (API version `API_VERSION`): every name in `__all__` keeps its meaning and its
signature while `API_VERSION` stays the same; names and record fields may be added, never
removed or changed, without raising `API_VERSION` and saying so in `docs/bots.md`. Only the
names listed here are promised: a bot that imports anything else from `mac_tui` may break with
any release.

The previews are the engine's own: `fire_preview` gives each weapon's hit chance with its
named modifiers (`WeaponPreview.chance`: a `HitChance`, `.modifiers`, `.chance`) and the
expected damage, computed by the very checks `step` runs (`combat/preview.py`).

The exact forecasts (`forecast`, from `mac_tui/combat/forecast.py`): for one or more of the
acting frame's fire orders at one target, the probability of destroying each location, of
destroying the frame, of killing the pilot, and the whole distribution of damage landed,
computed by walking the engine's own chance nodes (not sampled). `FORECAST_AVAILABLE` says
whether this build has them (True since they landed).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from attrs import frozen

from ..catalog import LOCATION_ORDER, catalog
from ..combat import elevation, stats
from ..combat.attack import HitChance, Modifier
from ..combat.commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    Deploy,
    EndActivation,
    FireGroup,
    Move,
    Overwatch,
    Pivot,
    ResetDeployment,
    Sprint,
    StartBattle,
    Turn,
    UseEquipment,
    Vent,
    Withdraw,
)
from ..combat.forecast import AttackPlan, Forecast, forecast_attacks
from ..combat.preview import FirePreview, LosStep, MovePreview, WeaponPreview
from ..combat.preview import fire_expected as _fire_expected
from ..combat.preview import fire_preview as _fire_preview
from ..combat.preview import move_preview as _move_preview
from ..combat.preview import reach_hexes as _reach_hexes
from ..combat.preview import shots_left as _shots_left
from ..combat.state import SIDES, Battle, Side, Unit
from ..combat.state import other_side as _other_side
from ..core import Accepted, Command, Outcome, Refused
from ..dice import raw
from ..game import Actor, legal_commands, refusal, step, to_act
from ..hexgrid import Hex, distance
from ..memo import ByIdentity
from ..model import GameState
from ..players.policy import Decision, Policy

#: Raised when the promised names or their meaning change (docs/bots.md lists each version).
API_VERSION = 1
#: Whether `forecast` (exact probabilities of destroying each location and of a kill) exists.
FORECAST_AVAILABLE = True

__all__ = [
    "API_VERSION",
    "FORECAST_AVAILABLE",
    "LOCATIONS",
    "SIDES",
    "Accepted",
    "Actor",
    "AutoDeploy",
    "Brace",
    "CalledShot",
    "Command",
    "Decision",
    "Deploy",
    "EndActivation",
    "FireGroup",
    "FirePreview",
    "Forecast",
    "Frame",
    "GameState",
    "Hex",
    "HitChance",
    "LosStep",
    "Modifier",
    "Move",
    "MovePreview",
    "Outcome",
    "Overwatch",
    "Pivot",
    "Policy",
    "Refused",
    "ResetDeployment",
    "Side",
    "Sprint",
    "StartBattle",
    "Turn",
    "UseEquipment",
    "Vent",
    "WeaponInfo",
    "WeaponPreview",
    "Withdraw",
    "acting",
    "cover",
    "distance",
    "draw",
    "enemies",
    "expected_damage",
    "fire_preview",
    "forecast",
    "frame",
    "frames",
    "height",
    "legal_commands",
    "map_size",
    "move_preview",
    "on_map",
    "other_side",
    "reach",
    "refusal",
    "round_number",
    "rules",
    "step",
    "terrain",
    "to_act",
]

#: The hit locations, in the engine's order (head first, legs last).
LOCATIONS: tuple[str, ...] = tuple(LOCATION_ORDER)


# ---- read-only views of the frames ---------------------------------------------------------
@frozen
class WeaponInfo:
    """One weapon of a frame: catalog id, fire group, whether it is destroyed, shots of
    ammunition left (None: it uses none), damage per hit and range class."""

    weapon: str
    group: int
    destroyed: bool
    shots_left: int | None
    damage: int
    range: str


@frozen
class Frame:
    """A frame as a bot sees it (a copy: changing it changes nothing). `hex` is None before
    deployment; `alive` is False once destroyed or its pilot is dead. Armour and structure by
    location (`LOCATIONS`), totals, and this round's AP and energy left."""

    id: str
    side: Side
    label: str
    chassis: str
    hex: Hex | None
    alive: bool
    armor: Mapping[str, int]
    structure: Mapping[str, int]
    start_armor: int
    start_structure: int
    ap: int
    energy_left: int
    fired_groups: tuple[int, ...]
    groups: tuple[int, ...]
    weapons: tuple[WeaponInfo, ...]
    shutdown: bool
    braced: bool
    stance: str
    priority: str
    gunnery: int
    piloting: int
    tactics: int
    facing: int | None = None  # optional rule O4: an index of DIRECTIONS (0 E ... 5 SE)

    @property
    def total_armor(self) -> int:
        return sum(self.armor.values())

    @property
    def total_structure(self) -> int:
        return sum(self.structure.values())


#: Views already built, by the frame they show: a `Unit` never changes, and the states of a
#: battle share the frames a command left alone, so the same object under the same catalog
#: gets the same (immutable) view.
_VIEWS: ByIdentity[Unit, Frame] = ByIdentity(512)


def _view(unit: Unit) -> Frame:
    return _VIEWS.get(unit, _build_view, catalog())


def _build_view(unit: Unit) -> Frame:
    weapons = []
    for i, ws in enumerate(unit.weapons):
        w = stats.weapon_of(ws)
        weapons.append(
            WeaponInfo(
                weapon=ws.weapon,
                group=ws.group,
                destroyed=ws.destroyed,
                shots_left=_shots_left(unit, i),
                damage=w.damage,
                range=w.range,
            )
        )
    return Frame(
        id=unit.id,
        side=unit.side,
        label=unit.label,
        chassis=unit.chassis,
        hex=unit.pos,
        alive=unit.active,
        armor=MappingProxyType(dict(zip(LOCATIONS, unit.armor, strict=True))),
        structure=MappingProxyType(dict(zip(LOCATIONS, unit.structure, strict=True))),
        start_armor=unit.start_armor,
        start_structure=unit.start_structure,
        ap=unit.ap,
        energy_left=stats.energy_left(unit),
        fired_groups=unit.fired_groups,
        groups=stats.groups(unit),
        weapons=tuple(weapons),
        shutdown=unit.shutdown,
        braced=unit.braced,
        stance=unit.stance,
        priority=unit.priority,
        gunnery=unit.pilot.gunnery,
        piloting=unit.pilot.piloting,
        tactics=unit.pilot.tactics,
        facing=unit.facing,
    )


def _battle(state: GameState) -> Battle:
    if state.battle is None:
        raise ValueError("no battle in this state")
    return state.battle


def frames(state: GameState, side: Side | None = None) -> tuple[Frame, ...]:
    """Every frame of the battle (of `side` only, when given), destroyed ones included, in
    the battle's order (the player's `P1`.., then the enemy's `E1`..)."""
    return tuple(_view(u) for u in _battle(state).units if side is None or u.side == side)


def frame(state: GameState, frame_id: str) -> Frame:
    """The frame with this id (KeyError if none)."""
    return _view(_battle(state).unit(frame_id))


def acting(state: GameState) -> Frame | None:
    """The frame whose activation it is, or None (deployment, no battle, battle over)."""
    battle = state.battle
    if battle is None or battle.phase != "combat" or battle.active_unit is None:
        return None
    return _view(battle.active_unit)


def enemies(state: GameState, frame_id: str | None = None) -> tuple[Frame, ...]:
    """The living enemies on the map of `frame_id` (default: the acting frame), nearest first,
    ties by id."""
    battle = _battle(state)
    me = battle.active_unit if frame_id is None else battle.unit(frame_id)
    if me is None:
        return ()
    here = me.pos
    foes = [u for u in battle.foes(me.side) if u.pos is not None]
    foes.sort(key=lambda u: (distance(here, u.pos) if here and u.pos else 0, u.id))
    return tuple(_view(u) for u in foes)


def other_side(side: Side) -> Side:
    return _other_side(side)


def round_number(state: GameState) -> int:
    """The battle's round (0 before it starts)."""
    return _battle(state).round


def rules(state: GameState) -> tuple[str, ...]:
    """The optional rules modules the battle is played under, in module order (`("O2",
    "O3")`; `()` for the core game): optional-rules O0.1."""
    return _battle(state).ruleset


# ---- the map -------------------------------------------------------------------------------
def map_size(state: GameState) -> tuple[int, int]:
    """(width, height) in hexes."""
    bmap = _battle(state).map
    return bmap.width, bmap.height


def on_map(state: GameState, h: Hex) -> bool:
    return _battle(state).map.contains(h)


def terrain(state: GameState, h: Hex) -> str:
    """The terrain id of a hex on the map: open, forest, rocks, rough, sand
    (`mac-tui rules terrain`)."""
    return _battle(state).map.terrain_at(h)


def height(state: GameState, h: Hex) -> int:
    """The height of a hex (optional rule O2: its ground level 0-3; always 0 without O2). A
    frame stands at its hex's height; a hex higher than both ends of a line may block it
    (`fire_preview(...).refusal`)."""
    return elevation.height_at(_battle(state), h)


def cover(state: GameState, h: Hex) -> int:
    """The accuracy penalty (whole %) for shooting at a frame standing on `h` (§3.5): 0 in
    the open, more in forest and rocks."""
    return catalog().terrain[terrain(state, h)].defense


# ---- previews of the acting frame's orders -------------------------------------------------
def _active(state: GameState) -> tuple[Battle, Unit]:
    battle = _battle(state)
    unit = battle.active_unit
    if battle.phase != "combat" or unit is None:
        raise ValueError("no frame is acting")
    return battle, unit


def fire_preview(state: GameState, command: FireGroup | CalledShot) -> FirePreview:
    """What the acting frame's `fire`/`called-shot` would do: per weapon its hit chance with
    the named modifiers and its expected damage, the group's expected damage (`.expected`),
    energy and overload, and `refusal` (None when `step` would accept it)."""
    battle, unit = _active(state)
    location = command.location if isinstance(command, CalledShot) else None
    return _fire_preview(battle, unit, command.group, command.target, location)


def expected_damage(state: GameState, command: FireGroup | CalledShot) -> float:
    """The expected damage of the acting frame's fire order (0 when refused)."""
    battle, unit = _active(state)
    location = command.location if isinstance(command, CalledShot) else None
    expected = _fire_expected(battle, unit, command.group, command.target, location)
    return 0.0 if expected is None else expected  # `fire_preview`'s, without the rest


def forecast(state: GameState, *commands: FireGroup | CalledShot) -> Forecast:
    """The exact outcome of the acting frame's fire orders at one target, carried out in
    order as `step` would (the later ones after the earlier ones' AP, energy and ammo):
    `p_destroyed[location]`, `p_frame_destroyed`, `p_pilot_killed`, `p_out` (either),
    `expected_damage`, `p_any_hit`, `damage` (the distribution of damage landed) and
    `chances` (each shot's hit chance). ValueError when an order would be refused or the
    orders name different targets."""
    battle, unit = _active(state)
    plans = [
        AttackPlan(unit.id, c.group, c.target, c.location if isinstance(c, CalledShot) else None)
        for c in commands
    ]
    return forecast_attacks(battle, plans)


def move_preview(state: GameState, command: Move | Sprint) -> MovePreview:
    """What the acting frame's `move`/`sprint` would do: path, energy, AP, or its refusal."""
    battle, unit = _active(state)
    return _move_preview(battle, unit, command.hex, isinstance(command, Sprint))


def reach(state: GameState, sprint: bool = False) -> frozenset[Hex]:
    """Every hex the acting frame could end a Move (a Sprint) on now."""
    battle, unit = _active(state)
    return _reach_hexes(battle, unit, sprint)


# ---- randomness a bot may use --------------------------------------------------------------
def draw(state: GameState, stream: str = "bot") -> int:
    """A 64-bit pseudo-random number, a pure function of the game's seed, `stream` and the
    number of commands applied so far: a bot that draws from it plays the same game again
    from the same seed (Python's `random` would not)."""
    return raw(state.seed, stream, state.commands_applied)
