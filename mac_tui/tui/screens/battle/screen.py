"""The hex battle: deployment, the player's activations, the AI's turns, the end.

The map (`HexMap`, drawn with the line API) sits on the left with the combat log under it; the
panel column on the right shows the frame under the cursor (`FramePanel`), or, while aiming,
the shot's preview (`TargetPanel`). The action bar above the message line lists the actions
of the mode with their keys, the illegal ones dimmed; a click runs the key's action.

The screen is a machine of typed modes (modes.py: deploying, idle, moving, sprinting,
jumping, firing, calling a shot, the enemy's turn, paused, halted, over); its keys, their
legality, the action bar and the palette's entries come from one table (actions.py). Every
change goes through `app.act`, so the battle autosaves after each command and resumes where
it stood after a quit or a dropped connection. The AI's orders come one per animation step,
paced by the app's clock (`app.clock`, tui/pacing.py), which tests drive by hand.
"""

from __future__ import annotations

from textual.app import ComposeResult

from ....combat.commands import AutoDeploy, Brace, EndActivation, ResetDeployment, StartBattle, Vent
from ....combat.state import Battle
from ....game import Command
from ....model import GameState
from ....players.ai import explain
from ....players.policy import Decision
from ...battle_text import log_lines
from ...pacing import Pending
from ...widgets.dialogs import ChooseScreen, ConfirmScreen
from ...widgets.hexmap import HexMap
from ..base import GameScreen
from . import layout, orders
from .actions import ACTIONS
from .modes import (
    Aiming,
    AiTurn,
    Ask,
    CallingShot,
    Confirm,
    Deploying,
    EnemyTurn,
    Firing,
    Halted,
    Idle,
    Mode,
    Moving,
    Paused,
    Reaction,
    Say,
    Sprinting,
    settle,
)
from .moment import Moment, final_battle

SKIP_BUDGET = 0.08  # seconds of AI orders per tick when skipping, so keys still get through
MODAL_WAIT = 0.2  # seconds between looks while a dialog covers the battle
MIN_DELAY = 0.01  # the shortest wait between two ticks of the AI


class BattleScreen(GameScreen):
    HELP = (
        "The battle. Move the cursor with the arrows, h j k l (west, south, north, east) or "
        "y u b n (the hex diagonals), or click a hex; the panel on the right shows the frame "
        "under the cursor. Deployment: Tab picks a frame, Enter (or a second click) places it "
        "in the marked zone, r resets, a places the rest, s starts. In battle: m Move and r "
        "Sprint mark the reachable hexes and preview the path and its energy (Enter goes); "
        "f Fire and c Called shot aim at the nearest target (Tab cycles, 1-4 picks the group) "
        "and show every weapon's hit chance with its modifiers, the LOS line and the energy "
        "after; Enter fires. g Brace, o Overwatch, v Vent, e Equipment, x End the activation, "
        "w Withdraw (asks first), a Auto-resolve (the AI plays your frames until a is pressed "
        "again). The enemy's turns play at the animation speed of Settings; space skips them; "
        "i writes why the enemy gave its last order (its best options, what each was worth and "
        "why) to the log. "
        "Esc cancels an action, or leaves the battle (it is saved and resumes where it stood)."
    )
    BINDINGS = ACTIONS.bindings()
    DEFAULT_CSS = layout.CSS

    def __init__(self) -> None:
        super().__init__()
        self.mode: Mode = Idle()
        self.moment = Moment(None, None)
        self.auto = False  # the AI plays the player's frames too
        self.pending: Pending | None = None  # the AI's next tick, waiting on the app's clock
        self.seen = -1  # commands already written to the log
        self.last_state: GameState | None = None  # the state before the last command
        self.last_enemy: tuple[Decision, str] | None = None  # the enemy's last decision, its frame
        self.ready = False  # composed and mounted: the widgets can be queried
        self.view = layout.BattleView(self)

    # ---- layout and drawing -------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield from layout.compose(self.ascii)

    def on_mount(self) -> None:
        self.ready = True
        session = self.game.session
        if session is not None:
            self.seen = len(session.commands)
        self.view.start(self.battle, self.ascii)
        self.choose_layout()
        self.refresh_view()
        self.view.hexmap.focus()

    def on_resize(self) -> None:
        super().on_resize()
        self.choose_layout()

    def choose_layout(self) -> None:
        battle = self.battle or self.moment.shown
        if battle is not None and self.ready:
            self.view.fit(battle, self.size.width, self.size.height)

    @property
    def ascii(self) -> bool:
        return self.game.settings.glyphs == "ascii"

    @property
    def battle(self) -> Battle | None:
        session = self.game.session
        return session.state.battle if session is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return ACTIONS.state(action, parameters, self.mode, self.moment)

    def refresh_view(self) -> None:
        """After every change of the game: the moment, the mode that fits it, the screen."""
        session = self.game.session
        if session is None or not self.ready:
            return
        shown = self.moment.shown
        if session.state.battle is not None:
            shown = session.state.battle
            self.last_state = session.state
        elif self.last_state is not None and session.commands:
            shown = final_battle(self.last_state, session.commands[-1])
            self.last_state = None
        count = len(session.commands)
        if count > self.seen >= 0:
            self.view.log(log_lines(shown, self.game.last_events, ascii_glyphs=self.ascii))
        self.seen = count
        self.moment = Moment.of(session.state, shown, auto=self.auto, ascii=self.ascii)
        self.mode = settle(self.mode, self.moment)
        self.draw()
        self.schedule_ai()

    def draw(self) -> None:
        self.view.draw(self.moment, self.mode)
        self.refresh_bindings()

    def draw_focus(self) -> None:
        self.view.draw_focus(self.moment, self.mode)

    def show_message(self, text: str, warning: bool = False) -> None:
        if self.ready:
            self.view.say(text, warning, self.ascii)

    # ---- modes and the map's messages ---------------------------------------------------
    def action_act_mode(self, name: str) -> None:
        if name in ("move", "sprint"):
            self.mode = Moving() if name == "move" else Sprinting()
        else:
            aim = Firing if name == "fire" else CallingShot
            self.mode, at = aim.aimed(self.moment)
            if at is not None:
                self.view.hexmap.set_cursor(at)
        self.draw()

    def action_cancel(self) -> None:
        self.mode = Idle()
        self.cursor_to_actor()
        self.draw()

    def action_next_target(self, step: int = 1) -> None:
        if isinstance(self.mode, Aiming):
            self.mode, at = self.mode.cycled(self.moment, step)
            if at is not None:
                self.view.hexmap.set_cursor(at)
            self.draw_focus()

    def action_group(self, group: int) -> None:
        if isinstance(self.mode, Aiming):
            aimed = self.mode.with_group(self.moment, group)
            if isinstance(aimed, Say):  # no such group: say so, keep the aim
                self.show_message(aimed.text, aimed.warning)
                return
            self.mode = aimed
            self.draw_focus()

    def action_next_frame(self) -> None:
        if isinstance(self.mode, Deploying):
            self.mode, at = self.mode.next_frame(self.moment)
            if at is not None:
                self.view.hexmap.set_cursor(at)
            self.draw_focus()

    def on_hex_map_cursor_moved(self, event: HexMap.CursorMoved) -> None:
        self.mode = self.mode.cursor_on(self.moment, event.hex)
        self.draw_focus()

    def on_hex_map_picked(self, event: HexMap.Picked) -> None:
        self.react(self.mode.pick(self.moment, event.hex))

    def cursor_to_actor(self) -> None:
        battle = self.battle
        unit = battle.active_unit if battle is not None else None
        if unit is not None and unit.pos is not None:
            self.view.hexmap.set_cursor(unit.pos)

    # ---- orders -------------------------------------------------------------------------
    def react(self, reaction: Reaction) -> None:
        """Carry out what a pick or an order answered."""
        if reaction is None:
            return
        if isinstance(reaction, Say):
            self.show_message(reaction.text, reaction.warning)
        elif isinstance(reaction, Mode):
            self.mode = reaction
            self.draw()
        elif isinstance(reaction, Ask):
            then = reaction.then

            def chosen(value: str | None) -> None:
                if value:
                    self.react(then(value))

            self.app.push_screen(ChooseScreen(reaction.title, reaction.options), chosen)
        elif isinstance(reaction, Confirm):
            yes = reaction.then

            def done(ok: bool | None) -> None:
                if ok:
                    self.react(yes)

            self.app.push_screen(ConfirmScreen(reaction.question, yes=reaction.yes), done)
        else:
            self.order(reaction)

    def order(self, command: Command) -> bool:
        """Give the player's order; accepted, the mode says what follows and the cursor goes
        to whoever acts now."""
        if not self.game.act(command):
            return False
        self.mode = self.mode.after_order(self.moment)
        self.cursor_to_actor()
        self.refresh_view()
        return True

    def action_place(self) -> None:
        self.react(self.mode.pick(self.moment, self.view.hexmap.cursor))

    def action_brace(self) -> None:
        self.order(Brace())

    def action_vent(self) -> None:
        self.order(Vent())

    def action_end(self) -> None:
        self.order(EndActivation())

    def action_overwatch(self) -> None:
        self.react(orders.overwatch(self.moment))

    def action_equipment(self) -> None:
        self.react(orders.equipment(self.moment))

    def action_withdraw(self) -> None:
        self.react(orders.withdraw(self.moment))

    def action_reset(self) -> None:
        self.order(ResetDeployment())

    def action_auto_deploy(self) -> None:
        self.order(AutoDeploy())

    def action_start(self) -> None:
        self.order(StartBattle())

    # ---- the AI's turns -----------------------------------------------------------------
    def schedule_ai(self) -> None:
        """The AI's next tick on the app's clock while the enemy's turn is on; none else."""
        mode = self.mode
        if not isinstance(mode, EnemyTurn):
            self.stop_ai()
            return
        if self.pending is not None:
            return
        delay = 0.0 if mode.skipping else self.game.settings.delay
        self.pending = self.game.clock.call_after(self, max(delay, MIN_DELAY), self.ai_tick)

    def ai_tick(self) -> None:
        """The AI's orders of one step: one, or (skipping, or with no animation) as many as
        fit in SKIP_BUDGET of the clock."""
        self.pending = None
        clock = self.game.clock
        if self.app.screen is not self:  # a dialog (or help) is open: the battle waits
            self.pending = clock.call_after(self, MODAL_WAIT, self.ai_tick)
            return
        mode = self.mode
        batched = isinstance(mode, EnemyTurn) and mode.skipping
        budget = SKIP_BUDGET if batched or self.game.settings.delay <= 0 else 0.0
        deadline = clock.now() + budget
        while isinstance(self.mode, EnemyTurn) and self.ai_once():
            if clock.now() >= deadline:
                break
        if not self.moment.ai_acts:
            self.cursor_to_actor()
        self.refresh_view()

    def ai_once(self) -> bool:
        """The AI gives one order; the cursor follows the frame that acted."""
        session, battle, mode = self.game.session, self.battle, self.mode
        if session is None or battle is None or not isinstance(mode, AiTurn):
            return False
        decision = mode.next_order(session.state, self.auto)
        if decision is None:
            return False
        command = decision.command
        before = battle.active_unit
        if before is not None and before.side == "enemy":
            self.last_enemy = (decision, before.id)
        if not self.game.act(command):
            self.auto = False
            self.mode = Halted(f"The AI's {command.to_text()!r} was refused; press a to retry.")
            self.view.draw_prompt(self.moment, self.mode)
            return False
        battle = self.battle
        if before is not None and battle is not None and not battle.unit(before.id).destroyed:
            pos = battle.unit(before.id).pos
            if pos is not None:
                self.view.hexmap.set_cursor(pos)
        return True

    def stop_ai(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None

    def action_why(self) -> None:
        """The enemy's last decision in words: what it chose, what each option was worth and
        what the worth was made of (players/ai/explain.py), written to the log."""
        battle = self.battle
        if self.last_enemy is None or battle is None:
            self.view.log(["Why: the enemy has not given an order yet."])
            return
        decision, unit_id = self.last_enemy
        pilot = battle.unit(unit_id).pilot
        who = explain.who_words(battle, unit_id, pilot.tactics)
        self.view.log(["Why:", *explain.describe(decision, battle, who)])

    def action_pause(self) -> None:
        """Hold the AI's turn (p again resumes; . plays one order at a time)."""
        if isinstance(self.mode, Paused):
            self.mode = EnemyTurn(self.mode.skipping)
        elif isinstance(self.mode, EnemyTurn):
            self.mode = Paused(self.mode.skipping)
            self.stop_ai()
        self.refresh_view()

    def action_step(self) -> None:
        if isinstance(self.mode, Paused):
            self.ai_once()
            self.refresh_view()

    def action_skip(self) -> None:
        self.mode = EnemyTurn(skipping=True)
        self.stop_ai()
        self.schedule_ai()
        self.refresh_bindings()

    def action_auto(self) -> None:
        """The AI plays the player's frames too (a again stops it); a halted AI retries."""
        self.auto = not self.auto
        if not isinstance(self.mode, AiTurn) or isinstance(self.mode, Halted):
            self.mode = EnemyTurn() if self.auto else Idle()  # settled in refresh_view
        if self.auto:
            self.view.log(["Auto-resolve on: the AI fights for you (a stops)."])
        else:
            self.view.log(["Auto-resolve off: your frames wait for your orders."])
        self.refresh_view()

    # ---- the end ------------------------------------------------------------------------
    def action_report(self) -> None:
        if self.game.session is not None:
            self.game.show_report()

    def action_leave(self) -> None:
        def done(ok: bool | None) -> None:
            if ok:
                self.stop_ai()
                self.game.show_title()

        if self.moment.phase == "over":
            self.action_report()
            return
        self.app.push_screen(
            ConfirmScreen(
                "Leave the battle? It is saved: Continue on the title screen resumes it here.",
                yes="Leave",
            ),
            done,
        )
