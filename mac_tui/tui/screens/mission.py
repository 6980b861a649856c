"""The mission under way: the contract, the lance against the enemy force, and auto-resolve (the
AI fights for the player, one command at a time through `app.act`, with a live combat log).

When the battle ends the engine settles the mission and opens the after-action report; Enter
shows it. The hex battle screens come later; until then a battle is always auto-resolved.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Footer, RichLog, Static

from ...campaign.mission import faction_name
from ...campaign.state import Contract
from ...catalog import catalog
from ...combat.ai import decide
from ...combat.commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    EndActivation,
    FireGroup,
    Move,
    Overwatch,
    Sprint,
    StartBattle,
    UseEquipment,
    Vent,
)
from ...combat.state import Battle, Unit
from ...game import Command, Event
from ..app import GameScreen

SKIP_SECONDS = 0.01  # skipping: commands in batches of about SKIP_BUDGET seconds each...
SKIP_BUDGET = 0.08  # ...so the screen still draws and takes keys in between
# Auto-resolve takes one AI command per `settings.delay` seconds (the animation speed); with
# animation "off" (no delay) it runs batched like a skip, as fast as the screen allows.
QUIET = {  # events the command line above already says; the log keeps what it adds
    "Deployed",
    "BattleStarted",
    "RoundStarted",
    "ActivationStarted",
    "ActivationEnded",
    "Moved",
    "GroupFired",
    "Braced",
    "OverwatchSet",
    "Vented",
    "EquipmentUsed",
}


def event_lines(events: Sequence[Event]) -> list[str]:
    """Log lines for the events the command line does not already tell."""
    return [f"  {e.describe()}" for e in events if e.kind() not in QUIET]


def command_line(battle: Battle, command: Command) -> str:
    """What a battle command does, in words, with the frames' labels."""
    unit = battle.active_unit
    who = unit.label if unit is not None else "?"

    def label(unit_id: str | None) -> str:
        if unit_id is None:
            return ""
        try:
            return battle.unit(unit_id).label
        except KeyError:
            return unit_id

    cat = catalog()
    if isinstance(command, AutoDeploy):
        return "The lances take their positions."
    if isinstance(command, StartBattle):
        return "The battle begins."
    if isinstance(command, Move | Sprint):
        verb = "moves" if isinstance(command, Move) else "sprints"
        return f"{who} {verb} to {command.hex.q},{command.hex.r}."
    if isinstance(command, CalledShot):
        where = cat.location(command.location).name
        return f"{who} fires group {command.group} at {label(command.target)}'s {where}."
    if isinstance(command, FireGroup):
        return f"{who} fires group {command.group} at {label(command.target)}."
    if isinstance(command, Brace):
        return f"{who} braces."
    if isinstance(command, Overwatch):
        return f"{who} holds group {command.group} on overwatch."
    if isinstance(command, Vent):
        return f"{who} vents stress."
    if isinstance(command, UseEquipment):
        name = cat.equipment[command.equipment].name
        target = f" on {label(command.target)}" if command.target else ""
        return f"{who} uses {name}{target}."
    if isinstance(command, EndActivation):
        return f"{who} ends its activation."
    return f"{who}: {command.to_text()}"


def unit_line(unit: Unit) -> str:
    """One frame in the force lists: label, chassis, armour and structure left, state."""
    cat = catalog()
    armour = unit.total_armor * 100 // max(1, unit.start_armor)
    structure = unit.total_structure * 100 // max(1, unit.start_structure)
    if unit.destroyed:
        state = "✗ lost"
    elif not unit.pilot_alive:
        state = "✗ KIA"
    elif unit.shutdown:
        state = "! shut"
    else:
        state = "✓"
    return (
        f"{unit.label[:11]:<11} {cat.chassis[unit.chassis].designation:<6} "
        f"A{armour:>3}% S{structure:>3}% {state}"
    )


class MissionScreen(GameScreen):
    HELP = (
        "The mission under way. a lets the AI fight the battle for you, one command per step of "
        "the animation speed chosen in Settings (a again pauses), "
        "s skips to the end, Enter opens the after-action report once the battle is over."
    )
    BINDINGS = [
        Binding("a", "auto", "Auto-resolve", id="mission.auto"),
        Binding("a", "pause", "Pause", id="mission.pause"),
        Binding("s", "skip", "Skip to end", id="mission.skip"),
        Binding("enter", "report", "Report", id="mission.report"),
        Binding("escape", "menu", "Menu", id="mission.menu"),
    ]
    DEFAULT_CSS = """
    MissionScreen { layout: vertical; }
    MissionScreen #mission-head { height: auto; background: $panel; padding: 0 1; }
    MissionScreen #forces { height: auto; }
    MissionScreen #lance-side, MissionScreen #enemy-side { width: 1fr; height: auto; padding: 0 1; }
    MissionScreen #progress { height: 1; padding: 0 1; text-style: bold; background: $surface; }
    MissionScreen #combat-log { height: 1fr; }
    MissionScreen #message { height: 1; padding: 0 1; color: $text-muted; }
    MissionScreen #message.warning { color: $warning; text-style: bold; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.timer: Timer | None = None
        self.fast = False  # skipping to the end rather than playing at a watchable pace
        self.batched = False  # several commands per tick (skipping, or animation "off")
        self.last_battle: Battle | None = None  # the battle as last seen (it ends with None)
        self.contract: Contract | None = None
        self.payout_level = 0
        self.round = 0
        self.halted = ""  # why auto-resolve stopped on its own (a refused command)

    def compose(self) -> ComposeResult:
        yield Static("", id="mission-head")
        with Horizontal(id="forces"):
            yield Static("", id="lance-side")
            yield Static("", id="enemy-side")
        yield Static("", id="progress")
        yield RichLog(id="combat-log", wrap=True, markup=False, max_lines=2000)
        yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_view()
        log = self.query_one(RichLog)
        if self.over:
            log.write("The battle is over. Enter: the after-action report.")
        else:
            log.write("Press a to let the AI fight this battle, s to skip to its end.")

    # ---- state --------------------------------------------------------------------------
    @property
    def battle(self) -> Battle | None:
        session = self.game.session
        return session.state.battle if session is not None else None

    @property
    def over(self) -> bool:
        session = self.game.session
        if session is None or session.state.campaign is None:
            return True
        return self.battle is None and session.state.campaign.after_action is not None

    @property
    def running(self) -> bool:
        return self.timer is not None

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        session = self.game.session
        if session is None or session.state.campaign is None:
            return
        c = session.state.campaign
        if c.mission is not None:
            self.contract, self.payout_level = c.mission.contract, c.mission.payout_level
        elif c.after_action is not None:
            self.contract, self.payout_level = c.after_action.contract, c.after_action.payout_level
        if self.battle is not None:
            self.last_battle = self.battle
        self.draw_head()
        self.draw_forces()
        self.draw_progress()
        if self.over and self.running:
            self.stop()
        self.refresh_bindings()

    def draw_head(self) -> None:
        k = self.contract
        if k is None:
            self.query_one("#mission-head", Static).update("No mission under way.")
            return
        cat = catalog()
        size = cat.map_size(k.difficulty)
        level = cat.payout_level(self.payout_level)
        self.query_one("#mission-head", Static).update(
            f"[b]Mission {k.id}[/b] for {faction_name(k.employer)} against "
            f"{faction_name(k.opponent)} · difficulty {k.difficulty} · {level.name}\n"
            f"Map: {size.name} {size.width}x{size.height}, {cat.landscape(k.landscape).name}"
        )

    def draw_forces(self) -> None:
        battle = self.last_battle
        lance = ["[b]Your lance[/b]"]
        enemy = ["[b]Enemy force[/b]"]
        if battle is not None:
            lance += [unit_line(u) for u in battle.side_units("player")]
            enemy += [unit_line(u) for u in battle.side_units("enemy")]
        elif self.contract is not None:
            cat = catalog()
            enemy += [
                f"{e.label[:11]:<11} {e.chassis:<6} "
                f"{cat.classes[cat.chassis[e.chassis].class_].name}"
                for e in self.contract.enemies
            ]
        self.query_one("#lance-side", Static).update("\n".join(lance))
        self.query_one("#enemy-side", Static).update("\n".join(enemy))

    def draw_progress(self) -> None:
        session = self.game.session
        assert session is not None
        c = session.state.campaign
        battle = self.battle
        progress = self.query_one("#progress", Static)
        if battle is None:
            if c is not None and c.after_action is not None:
                result = c.after_action.result.upper()
                progress.update(f"■ Battle over: {result} · Enter: after-action report")
            else:
                progress.update("No battle under way.")
            return
        if self.fast:
            pace = "▶▶ skipping to the end (a: pause)"
        elif self.running:
            pace = "▶ auto-resolving (a: pause, s: skip)"
        else:
            pace = "‖ waiting (a: auto-resolve, s: skip to the end)"
        if self.halted:
            pace = f"✗ stopped: {self.halted}"
        if battle.phase == "deployment":
            progress.update(f"Deployment · {pace}")
            return
        mine = len(battle.living("player"))
        theirs = len(battle.living("enemy"))
        progress.update(f"Round {battle.round} · {mine} vs {theirs} frames fighting · {pace}")

    def show_message(self, text: str, warning: bool = False) -> None:
        msg = self.query_one("#message", Static)
        msg.update(text)
        msg.set_class(warning, "warning")

    # ---- auto-resolve -------------------------------------------------------------------
    def step_once(self) -> bool:
        """Let the AI take one command for whoever must act; False once nothing is left."""
        session = self.game.session
        battle = self.battle
        if session is None or battle is None or battle.phase == "over":
            return False
        command = decide(session.state).command
        log = self.query_one(RichLog)
        log.write(command_line(battle, command))
        if not self.game.act(command):
            self.halted = f"the AI's {command.to_text()!r} was refused"
            self.stop()
            return False
        for line in event_lines(self.game.last_events):
            log.write(line)
        now = self.battle
        if now is not None and now.round != self.round and now.phase == "combat":
            self.round = now.round
            log.write(f"── Round {now.round} ──")
        if now is None:
            log.write("Enter: the after-action report.")
            return False
        return True

    def tick(self) -> None:
        deadline = time.monotonic() + (SKIP_BUDGET if self.batched else 0.0)
        while True:
            if not self.step_once():
                self.stop()
                return
            if time.monotonic() >= deadline:
                return

    def start(self, interval: float, fast: bool, batched: bool) -> None:
        if self.battle is None:
            return
        if self.timer is not None:
            self.timer.stop()
        self.fast, self.batched, self.halted = fast, batched, ""
        self.timer = self.set_interval(interval, self.tick)
        self.draw_progress()
        self.refresh_bindings()

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.fast = self.batched = False
        self.draw_progress()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "auto":
            return self.battle is not None and not self.running
        if action == "pause":
            return bool(self.running)
        if action == "skip":
            return self.battle is not None and not self.fast
        if action == "report":
            return True if self.over else None
        return True

    def action_auto(self) -> None:
        delay = self.game.settings.delay  # the animation speed: seconds per AI command
        if delay <= 0:
            self.start(SKIP_SECONDS, fast=False, batched=True)
        else:
            self.start(delay, fast=False, batched=False)

    def action_pause(self) -> None:
        self.stop()

    def action_skip(self) -> None:
        self.start(SKIP_SECONDS, fast=True, batched=True)

    def action_report(self) -> None:
        if not self.over:
            return
        from .afteraction import AfterActionScreen

        self.app.switch_screen(AfterActionScreen())

    def action_menu(self) -> None:
        from .title import TitleScreen

        self.stop()
        self.app.switch_screen(TitleScreen())
