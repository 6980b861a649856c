"""The battle screen's action table: every key of the screen, once.

Each `BattleAction` names its key, the Textual action it runs, its words (the footer's and the
palette's description, the action bar's short label), the modes where it is live (elsewhere it
is hidden), and, for an order, the engine's say (greyed while the engine offers no such
command). From this one table come:

* the screen's `BINDINGS` (`bindings()`; ids `battle.<name>`, remappable in config.toml),
* its `check_action` (`ACTIONS.state(...)`: hidden, greyed or live),
* the action bar (`bar_markup`: the live ones clickable, running the same action as the key),
* and so the command palette's battle entries, which Textual builds from the bindings.

A new action: one row here (and its `action_<name>` method on the screen when it is new).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import attrs
from attrs import frozen
from textual.actions import parse
from textual.binding import Binding, BindingType

from ....combat import track
from ....combat.actions import NO_DEPLOYMENT, check_auto, check_reset, check_start
from ....combat.commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    EndActivation,
    FireGroup,
    FireStructure,
    Hold,
    Kick,
    Move,
    Overwatch,
    Pivot,
    ReactionFire,
    ResetDeployment,
    SetFormation,
    Sprint,
    StartBattle,
    Sweep,
    Turn,
    UseAbility,
    UseEquipment,
    Vent,
    Withdraw,
)
from ....combat.refusals import order_refusal, reverse_refusal
from ....combat.state import Battle
from ....game import Command
from . import commanders
from .modes import (
    AI_MODES,
    PLAYER_MODES,
    AiTurn,
    CallingShot,
    Deploying,
    EnemyTurn,
    Firing,
    Halted,
    Idle,
    Jumping,
    Kicking,
    Mode,
    More,
    Moving,
    Over,
    Paused,
    Reversing,
    Sprinting,
    Threats,
)
from .moment import Moment

COMBAT = (*PLAYER_MODES, *AI_MODES)  # the battle is on
AIMING = (Firing, CallingShot, Kicking)
PICKING = (Moving, Reversing, Sprinting, Jumping, Firing, CallingShot, Kicking, Threats)  # Esc
FACING_PICKS = (Moving, Sprinting, Jumping, Deploying)  # O4: , and . turn the facing picked
WAITING = (Idle, Deploying, *AI_MODES, Over)  # Esc leaves the battle from these
AI_PACED = (EnemyTurn, Paused, More)  # space skips the rest of the turn from these
ALL = (*COMBAT, Deploying, Over)

Legal = Callable[[Moment], bool]
Why = Callable[[Mode, Moment], str | None]


def offers(*kinds: type[Command]) -> Legal:
    """Live while the engine accepts a command of one of these kinds from the player (fire:
    at a frame or, O3.6, at a structure)."""

    def legal(m: Moment) -> bool:
        return any(m.offers(kind) for kind in kinds)

    return legal


def turn_refusal(mode: Mode, m: Moment) -> str | None:
    """Why the player gives no order at all now (None: it is his frame's activation)."""
    if isinstance(mode, Halted):
        return "the AI's order was refused: a lets it try again"
    if isinstance(mode, AiTurn):
        if m.auto:
            return "auto-resolve gives the orders: a takes them back"
        unit = m.battle.active_unit if m.battle is not None else None
        who = f"{unit.label} acts for the enemy" if unit is not None else "the enemy acts"
        return f"{who}: p pauses, space skips to your turn"
    return None


def engine_says(kind: type[Command]) -> Why:
    """The engine's reason no order of this kind can be given now (combat/refusals.py)."""

    def why(mode: Mode, m: Moment) -> str | None:
        return turn_refusal(mode, m) or order_refusal(m.battle, kind)

    return why


def deployment_says(check: Callable[[Battle], str | None]) -> Why:
    def why(mode: Mode, m: Moment) -> str | None:
        return check(m.battle) if m.battle is not None else "the battle is over"

    return why


def _called(m: Moment) -> bool:
    return m.called_ok


def _more_frames(m: Moment) -> bool:
    return m.battle is not None and len(m.battle.side_units("player")) > 1


def _orders(m: Moment) -> bool:
    return m.orders and m.battle is not None and m.battle.phase == "combat"


def _no_orders(mode: Mode, m: Moment) -> str | None:
    return turn_refusal(mode, m) or "no frame of yours is acting"


def _one_frame(mode: Mode, m: Moment) -> str | None:
    return "your lance has one frame: there is no other to pick"


def _placing(m: Moment) -> bool:
    """A frame can be placed: not in a range-band battle, whose frames start on their lines."""
    return m.battle is not None and not track.on(m.battle)


def _no_placing(mode: Mode, m: Moment) -> str | None:
    return NO_DEPLOYMENT if m.battle is not None else "the battle is over"


@frozen
class BattleAction:
    name: str  # the binding id is battle.<name>
    key: str
    action: str  # the Textual action the key (and a click on the bar) runs
    description: str  # in the footer, the help screen and the palette
    modes: tuple[type[Mode], ...]  # where the key is live (hidden elsewhere)
    label: str = ""  # on the action bar ("": not on it)
    legal: Legal | None = None  # greyed while this says no
    show: bool = False  # in the footer
    bind: bool = True  # False: the key is the map's own (Enter places through the map)
    priority: bool = False
    why: Why | None = None  # the reason it is greyed now, said when the key is pressed
    module: str = ""  # an optional rules module's key: hidden unless the battle plays it
    display: str = ""  # the key as the action bar shows it ("": `key`)

    def refusal(self, mode: Mode, m: Moment) -> str:
        """Why the key does nothing now, for the message line."""
        reason = self.why(mode, m) if self.why is not None else None
        return f"{self.description}: {reason or 'not possible now'}"

    def state(self, mode: Mode, m: Moment) -> bool | None:
        """True live, None greyed, False hidden (Textual's `check_action` answers)."""
        if not isinstance(mode, self.modes):
            return False
        if self.module and (m.shown is None or not m.shown.rule(self.module)):
            return False
        return True if self.legal is None or self.legal(m) else None

    def binding(self, first: bool = False) -> Binding:
        """The key's binding; `first`: a priority one even when the row is not (see
        `ActionTable.bindings`)."""
        return Binding(
            self.key,
            self.action,
            self.description,
            id=f"battle.{self.name}",
            show=self.show,
            priority=self.priority or first,
        )


def _act(
    name: str, key: str, label: str, description: str, kind: type[Command], module: str = ""
) -> BattleAction:
    """An order of the player's activation: on the bar, greyed unless the engine allows it
    (an optional module's only in a battle that plays it)."""
    legal = offers(kind)
    why = engine_says(kind)
    return BattleAction(name, key, name, description, COMBAT, label, legal, why=why, module=module)


def _aim(
    name: str, key: str, label: str, description: str, kind: type[Command], legal: Legal
) -> BattleAction:
    """A mode of the player's activation (move, sprint, fire, called shot)."""
    action = f"act_mode('{name}')"
    why = engine_says(kind)
    return BattleAction(name, key, action, description, COMBAT, label, legal, why=why)


def _reverse_offered(m: Moment) -> bool:
    return any(isinstance(c, Move) and c.reverse for c in m.legal)


def _reverse_why(mode: Mode, m: Moment) -> str | None:
    return turn_refusal(mode, m) or reverse_refusal(m.battle)


def _group(n: int) -> BattleAction:
    return BattleAction(f"group{n}", str(n), f"group({n})", f"Group {n}", AIMING)


ROWS: tuple[BattleAction, ...] = (
    # the action bar in battle, in its order
    _aim("move", "m", "Move", "Move", Move, offers(Move)),
    _aim("sprint", "r", "Sprint", "Sprint", Sprint, offers(Sprint)),
    _aim("fire", "f", "Fire", "Fire", FireGroup, offers(FireGroup, FireStructure)),
    _aim("called", "c", "Called", "Called shot", CalledShot, _called),
    attrs.evolve(_aim("kick", "d", "Kick", "Kick", Kick, offers(Kick)), module="O7"),  # O7.1
    _act("brace", "g", "Brace", "Brace", Brace),
    _act("overwatch", "o", "Overwatch", "Overwatch", Overwatch),
    _act("reaction", "q", "Cone", "Reaction fire", ReactionFire, "O6"),
    _act("sweep", "s", "Sweep", "Sweep", Sweep, "O6"),
    _act("vent", "v", "Vent", "Vent", Vent),
    _act("equipment", "e", "Equip", "Equipment", UseEquipment),
    # O4: facing and arcs (hidden unless the battle plays O4)
    BattleAction(
        "reverse",
        "B",
        "act_mode('reverse')",
        "Reverse move (back up)",
        COMBAT,
        "",  # off the bar: with the O4 keys it would not fit two lines at 80 columns
        _reverse_offered,
        why=_reverse_why,
        module="O4",
    ),
    BattleAction(
        "pivot_left",
        "left_square_bracket",
        "pivot(1)",
        "Pivot left (free)",
        COMBAT,
        "Pivot",
        offers(Pivot),
        why=engine_says(Pivot),
        module="O4",
        display="[ ]",
    ),
    BattleAction(
        "pivot_right",
        "right_square_bracket",
        "pivot(-1)",
        "Pivot right (free)",
        COMBAT,
        legal=offers(Pivot),
        why=engine_says(Pivot),
        module="O4",
    ),
    BattleAction(
        "turn",
        "T",
        "turn",
        "Turn (1 AP)",
        COMBAT,
        "Turn",
        offers(Turn),
        why=engine_says(Turn),
        module="O4",
    ),
    BattleAction("face_left", "comma", "face(1)", "Facing left", FACING_PICKS, module="O4"),
    BattleAction("face_right", "full_stop", "face(-1)", "Facing right", FACING_PICKS, module="O4"),
    _act("end", "x", "End", "End activation", EndActivation),
    BattleAction(
        "hold",
        "z",
        "hold",
        "Hold",
        COMBAT,
        "Hold",
        offers(Hold),
        why=engine_says(Hold),
        module="O1",
    ),
    _act("withdraw", "w", "Withdraw", "Withdraw", Withdraw),
    BattleAction(
        "threat",
        "t",
        "act_mode('threat')",
        "Threat view",
        COMBAT,
        "Threat",
        _orders,
        why=_no_orders,
    ),
    BattleAction("auto", "a", "auto", "Auto-resolve", COMBAT, "Auto"),
    # the action bar in deployment, in its order
    BattleAction(
        "next_frame",
        "tab",
        "next_frame",
        "Next frame",
        (Deploying,),
        "Next frame",
        _more_frames,
        show=True,
        why=_one_frame,
    ),
    BattleAction(
        "place",
        "enter",
        "place",
        "Place",
        (Deploying,),
        "Place",
        _placing,
        bind=False,
        why=_no_placing,
    ),
    BattleAction(
        "reset",
        "r",
        "reset",
        "Reset",
        (Deploying,),
        "Reset",
        offers(ResetDeployment),
        why=deployment_says(check_reset),
    ),
    BattleAction(
        "auto_deploy",
        "a",
        "auto_deploy",
        "Auto-deploy",
        (Deploying,),
        "Auto-deploy",
        offers(AutoDeploy),
        why=deployment_says(check_auto),
    ),
    BattleAction(
        "start",
        "s",
        "start",
        "Start",
        (Deploying,),
        "Start",
        offers(StartBattle),
        why=deployment_says(check_start),
    ),
    # optional module O9: formations and commanders (off the bars; the frame panel names them)
    BattleAction(
        "formation",
        "F",
        "formation",
        "Formation order",
        (Deploying, *COMBAT),
        legal=offers(SetFormation),
        why=commanders.formation_refusal,
        module="O9",
    ),
    BattleAction(
        "command",
        "C",
        "command",
        "Pilot's abilities",
        (Deploying,),
        legal=lambda m: m.battle is not None and m.phase == "deployment",
        why=commanders.command_refusal,
        module="O9",
    ),
    BattleAction(
        "ability",
        "U",
        "ability",
        "Use an ability",
        COMBAT,
        legal=offers(UseAbility),
        why=lambda mode, m: turn_refusal(mode, m) or commanders.ability_refusal(mode, m),
        module="O9",
    ),
    BattleAction(
        "breach",
        "P",  # O4's B backs away in the same modes
        "breach",
        "Breach Shot",
        AIMING,
        legal=commanders.breach_offered,
        why=commanders.breach_refusal,
        module="O9",
    ),
    # aiming
    BattleAction("next_target", "tab", "next_target", "Next target", AIMING, show=True),
    BattleAction("prev_target", "shift+tab", "next_target(-1)", "Previous target", AIMING),
    *(_group(n) for n in (1, 2, 3, 4)),
    # the AI's turns
    BattleAction("why", "i", "why", "Why it did that", (*COMBAT, Over)),
    BattleAction("skip", "space", "skip", "Skip enemy turn", AI_PACED, show=True),
    BattleAction("pause", "p", "pause", "Pause", (EnemyTurn, Paused), show=True),
    BattleAction("step", "full_stop", "step", "Step", (Paused, More)),
    BattleAction("more", "enter", "more", "Next order", (More,), show=True, priority=True),
    # anywhere in the battle
    BattleAction("history", "L", "history", "Battle log", ALL, show=True),
    BattleAction("panel_up", "shift+up", "panel(-1)", "Scroll the panel up", ALL),
    BattleAction("panel_down", "shift+down", "panel(1)", "Scroll the panel down", ALL),
    # the end, and leaving
    BattleAction("report", "enter", "report", "Report", (Over,), show=True, priority=True),
    BattleAction("cancel", "escape", "cancel", "Cancel", PICKING, show=True),
    BattleAction("leave", "escape", "leave", "Leave", WAITING, show=True),
)


class ActionTable:
    """The rows, found by the Textual action they run."""

    def __init__(self, rows: Iterable[BattleAction]) -> None:
        self.rows = tuple(rows)
        self._by_action: dict[tuple[str, tuple[object, ...]], BattleAction] = {}
        for row in self.rows:
            _, name, params = parse(row.action)
            key = (name, tuple(params))
            if key in self._by_action:
                raise ValueError(f"two rows run {row.action!r}: an action is one row")
            self._by_action[key] = row

    def bindings(self, under: Iterable[BindingType] = ()) -> list[BindingType]:
        """The screen's bindings. Those whose keys no binding in `under` (the focused map's)
        takes are priority bindings: Textual runs a priority binding as the key reaches the
        app, where it would otherwise hand the key to the focused map, and the key would
        climb back through the map's containers and the screen to the app before its binding
        ran (five hops of Textual's message queues: 0.3-0.4 ms of CPU of a battle key's ~4).
        The map's own keys (which it takes first, its bindings being priority ones too:
        `HexMap`) keep their order: the map's binding, then the screen's (1-4 pick a group
        while the map's keypad digits are off). A priority binding that is greyed or hidden
        runs nothing, and the key goes on its way as before (a greyed key says why)."""
        taken = {
            key.strip()
            for binding in under
            if isinstance(binding, Binding)
            for key in binding.key.split(",")
        }
        return [
            row.binding(first=not taken.intersection(k.strip() for k in row.key.split(",")))
            for row in self.rows
            if row.bind
        ]

    def find(self, action: str, parameters: tuple[object, ...]) -> BattleAction | None:
        return self._by_action.get((action, tuple(parameters)))

    def named(self, name: str) -> BattleAction:
        return next(row for row in self.rows if row.name == name)

    def state(
        self, action: str, parameters: tuple[object, ...], mode: Mode, m: Moment
    ) -> bool | None:
        row = self.find(action, parameters)
        return True if row is None else row.state(mode, m)

    def refusal(
        self, action: str, parameters: tuple[object, ...], mode: Mode, m: Moment
    ) -> str | None:
        """Why the key of this action does nothing now (None: it does something)."""
        row = self.find(action, parameters)
        if row is None or row.state(mode, m):
            return None
        return row.refusal(mode, m)

    def bar_markup(self, mode: Mode, m: Moment, width: int = 0) -> str:
        """The actions of the mode's bar with their keys (markup): the live ones clickable
        (a click runs the key's action), the others dimmed and struck through (never colour
        alone). With a `width`, the items are laid out in lines of that width, never one
        split across two."""
        parts: list[tuple[int, str]] = []
        for row in self.rows:
            if not row.label or not isinstance(mode, row.modes):
                continue
            live = row.state(mode, m)
            if live is False:
                continue  # an optional module's key in a battle without it
            key = row.display or row.key
            if live:
                click = f"@click=screen.{row.action}"
                item = f"[{click}][b reverse] {key} [/b reverse] {row.label}[/]"
            else:
                item = f"[dim strike] {key}  {row.label}[/dim strike]"
            parts.append((len(key) + len(row.label) + 3, item))
        if width <= 0:
            return " ".join(item for _, item in parts)
        lines: list[list[str]] = [[]]
        used = 0
        for size, item in parts:
            if lines[-1] and used + 1 + size > width:
                lines.append([])
                used = 0
            used += size + (1 if lines[-1] else 0)
            lines[-1].append(item)
        return "\n".join(" ".join(line) for line in lines)


ACTIONS = ActionTable(ROWS)
