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

from attrs import frozen
from textual.actions import parse
from textual.binding import Binding, BindingType

from ....combat.commands import (
    AutoDeploy,
    Brace,
    EndActivation,
    FireGroup,
    Move,
    Overwatch,
    ResetDeployment,
    Sprint,
    StartBattle,
    UseEquipment,
    Vent,
    Withdraw,
)
from ....game import Command
from .modes import (
    AI_MODES,
    PLAYER_MODES,
    CallingShot,
    Deploying,
    EnemyTurn,
    Firing,
    Idle,
    Jumping,
    Mode,
    Moving,
    Over,
    Paused,
    Sprinting,
)
from .moment import Moment

COMBAT = (*PLAYER_MODES, *AI_MODES)  # the battle is on
AIMING = (Firing, CallingShot)
PICKING = (Moving, Sprinting, Jumping, Firing, CallingShot)  # Esc cancels these
WAITING = (Idle, Deploying, *AI_MODES, Over)  # Esc leaves the battle from these
AI_PACED = (EnemyTurn, Paused)

Legal = Callable[[Moment], bool]


def offers(kind: type[Command]) -> Legal:
    """Live while the engine accepts a command of this kind from the player."""

    def legal(m: Moment) -> bool:
        return m.offers(kind)

    return legal


def _called(m: Moment) -> bool:
    return m.called_ok


def _more_frames(m: Moment) -> bool:
    return m.battle is not None and len(m.battle.side_units("player")) > 1


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

    def state(self, mode: Mode, m: Moment) -> bool | None:
        """True live, None greyed, False hidden (Textual's `check_action` answers)."""
        if not isinstance(mode, self.modes):
            return False
        return True if self.legal is None or self.legal(m) else None

    def binding(self) -> Binding:
        return Binding(
            self.key,
            self.action,
            self.description,
            id=f"battle.{self.name}",
            show=self.show,
            priority=self.priority,
        )


def _act(name: str, key: str, label: str, description: str, legal: Legal) -> BattleAction:
    """An order of the player's activation: on the bar, greyed unless the engine allows it."""
    return BattleAction(name, key, name, description, COMBAT, label, legal)


def _aim(name: str, key: str, label: str, description: str, legal: Legal) -> BattleAction:
    """A mode of the player's activation (move, sprint, fire, called shot)."""
    action = f"act_mode('{name}')"
    return BattleAction(name, key, action, description, COMBAT, label, legal)


def _group(n: int) -> BattleAction:
    return BattleAction(f"group{n}", str(n), f"group({n})", f"Group {n}", AIMING)


ROWS: tuple[BattleAction, ...] = (
    # the action bar in battle, in its order
    _aim("move", "m", "Move", "Move", offers(Move)),
    _aim("sprint", "r", "Sprint", "Sprint", offers(Sprint)),
    _aim("fire", "f", "Fire", "Fire", offers(FireGroup)),
    _aim("called", "c", "Called", "Called shot", _called),
    _act("brace", "g", "Brace", "Brace", offers(Brace)),
    _act("overwatch", "o", "Overwatch", "Overwatch", offers(Overwatch)),
    _act("vent", "v", "Vent", "Vent", offers(Vent)),
    _act("equipment", "e", "Equip", "Equipment", offers(UseEquipment)),
    _act("end", "x", "End", "End activation", offers(EndActivation)),
    _act("withdraw", "w", "Withdraw", "Withdraw", offers(Withdraw)),
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
    ),
    BattleAction("place", "enter", "place", "Place", (Deploying,), "Place", bind=False),
    BattleAction("reset", "r", "reset", "Reset", (Deploying,), "Reset", offers(ResetDeployment)),
    BattleAction(
        "auto_deploy",
        "a",
        "auto_deploy",
        "Auto-deploy",
        (Deploying,),
        "Auto-deploy",
        offers(AutoDeploy),
    ),
    BattleAction("start", "s", "start", "Start", (Deploying,), "Start", offers(StartBattle)),
    # aiming
    BattleAction("next_target", "tab", "next_target", "Next target", AIMING, show=True),
    BattleAction("prev_target", "shift+tab", "next_target(-1)", "Previous target", AIMING),
    *(_group(n) for n in (1, 2, 3, 4)),
    # the AI's turns
    BattleAction("why", "i", "why", "Why it did that", (*COMBAT, Over)),
    BattleAction("skip", "space", "skip", "Skip enemy turn", AI_PACED, show=True),
    BattleAction("pause", "p", "pause", "Pause", AI_PACED, show=True),
    BattleAction("step", "full_stop", "step", "Step", (Paused,), show=True),
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
            self._by_action[(name, tuple(params))] = row

    def bindings(self) -> list[BindingType]:
        return [row.binding() for row in self.rows if row.bind]

    def find(self, action: str, parameters: tuple[object, ...]) -> BattleAction | None:
        return self._by_action.get((action, tuple(parameters)))

    def named(self, name: str) -> BattleAction:
        return next(row for row in self.rows if row.name == name)

    def state(
        self, action: str, parameters: tuple[object, ...], mode: Mode, m: Moment
    ) -> bool | None:
        row = self.find(action, parameters)
        return True if row is None else row.state(mode, m)

    def bar_markup(self, mode: Mode, m: Moment) -> str:
        """The actions of the mode's bar with their keys (markup): the live ones clickable
        (a click runs the key's action), the others dimmed and struck through (never colour
        alone)."""
        parts = []
        for row in self.rows:
            if not row.label or not isinstance(mode, row.modes):
                continue
            if row.state(mode, m):
                click = f"@click=screen.{row.action}"
                parts.append(f"[{click}][b reverse] {row.key} [/b reverse] {row.label}[/]")
            else:
                parts.append(f"[dim strike] {row.key}  {row.label}[/dim strike]")
        return " ".join(parts)


ACTIONS = ActionTable(ROWS)
