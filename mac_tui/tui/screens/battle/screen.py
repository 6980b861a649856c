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

import contextlib
from collections.abc import Sequence

import attrs
from textual import work
from textual.app import ComposeResult

from ....campaign.commands import Accept
from ....combat import facing, track
from ....combat.commands import (
    AutoDeploy,
    Brace,
    EndActivation,
    Hold,
    Pivot,
    ResetDeployment,
    StartBattle,
    Vent,
)
from ....combat.skirmish import NewSkirmish
from ....combat.state import Battle
from ....combat.view import view_of, visible_events
from ....game import Command, Event
from ....hexgrid import Hex
from ....model import GameState
from ....players import tutorial
from ....players.ai import explain
from ....players.policy import Decision
from ...battle_history import BattleHistory, order_of, rebuild
from ...battle_text import log_lines, reaction_chunks
from ...glyphs import glyphs_for
from ...internals import KeepsFullFrame
from ...pacing import Pending
from ...tutorial_hints import hint_forms
from ...widgets.battle_panels import SidePanel
from ...widgets.dialogs import ChooseScreen, ConfirmScreen
from ...widgets.footer import Same
from ...widgets.hexmap import HexMap
from ...widgets.history import HistoryScreen
from ...widgets.kept_screen import KeptScreen
from ..base import GameScreen
from . import commanders, layout, orders
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
    Jumping,
    Kicking,
    Mode,
    More,
    Moving,
    Over,
    Paused,
    Reaction,
    Reversing,
    Say,
    Sprinting,
    Threats,
    settle,
)
from .moment import Moment, final_battle

SKIP_BUDGET = 0.08  # seconds of AI orders per tick when skipping, so keys still get through
MODAL_WAIT = 0.2  # seconds between looks while a dialog covers the battle
MIN_DELAY = 0.01  # the shortest wait between two ticks of the AI
PANE_LINES = 60  # the log pane's lines after a resume (the history holds them all)
OPENERS = (NewSkirmish, Accept)  # commands that open a battle: nothing before it to rebuild


class BattleScreen(KeepsFullFrame, GameScreen):
    HELP = (
        "The battle. Move the cursor with the arrows, h j k l (west, south, north, east) or "
        "y u b n (the hex diagonals), or click a hex; the panel on the right shows the frame "
        "under the cursor. Deployment: Tab picks a frame, Enter (or a second click) places it "
        "in the marked zone, r resets, a places the rest, s starts. In battle: m Move and r "
        "Sprint mark the reachable hexes and preview the path and its energy (Enter goes); "
        "f Fire and c Called shot aim at the nearest target (Tab cycles, 1-4 picks the group) "
        "and show every weapon's hit chance with its modifiers, the LOS line and the energy "
        "after; Enter fires. g Brace, o Overwatch, v Vent, e Equipment, x End the activation, "
        "(with reaction fire, O6: q arms a cone, s sweeps during the next Move), "
        "w Withdraw (asks first), z Hold (range-band battles: end in place), a Auto-resolve"
        " (the AI plays your frames until a is pressed "
        "again), t the threat view (what each frame can receive before it acts again, and what "
        "lowers it). The enemy's turns come at the pace of Settings (animated, one order per "
        "Enter, or instant); space skips them. L opens the whole battle's log: every roll, "
        "searchable. i writes why the enemy gave its last order (its best options, what each was "
        "worth and why) to the log. A greyed key says why when pressed. Esc cancels an action, "
        "or leaves the battle (it is saved and resumes where it stood)."
    )
    BINDINGS = ACTIONS.bindings(under=HexMap.BINDINGS)
    DEFAULT_CSS = layout.CSS

    def __init__(self) -> None:
        super().__init__()
        self.mode: Mode = Idle()
        self.moment = Moment(None, None)
        self.auto = False  # the AI plays the player's frames too
        self.pending: Pending | None = None  # the AI's next tick, waiting on the app's clock
        self.threat_pending: Pending | None = None  # the threat view's next step
        self.seen = -1  # commands already written to the log
        self.last_state: GameState | None = None  # the state before the last command
        self.before: GameState | None = None  # the state the next command is given in
        self.history = BattleHistory()  # every order of the battle (rebuilt on a resume)
        self.last_enemy: tuple[Decision, str] | None = None  # the enemy's last decision, its frame
        self._history_page: KeptScreen[HistoryScreen] = KeptScreen(self, "battle-history")  # L's
        self.ready = False  # composed and mounted: the widgets can be queried
        self.view = layout.BattleView(self)
        self.lessons: set[str] | None = None  # the tutorial's steps done (None: no tutorial)
        # O6: the interruptions of the last move still to show (hex, log lines), one a step
        self.interrupts: list[tuple[Hex | None, list[str]]] = []
        self.interrupt_pending: Pending | None = None

    # ---- layout and drawing -------------------------------------------------------------
    def compose(self) -> ComposeResult:
        battle = self.battle
        yield from layout.compose(self.ascii, battle is not None and track.on(battle))

    def size_floor(self) -> tuple[int, int] | None:
        """The least terminal this battle needs (`MacApp.size_floor`): a range-band battle
        (O1) fits 60x20; None: the app's own."""
        battle = self.battle or self.moment.shown
        return layout.TRACK_FLOOR if battle is not None and track.on(battle) else None

    def on_mount(self) -> None:
        self.ready = True
        session = self.game.session
        if session is not None:
            self.seen = len(session.commands)
            self.before = session.state
            commands = session.commands
            if commands and not isinstance(commands[-1], OPENERS):
                self.rebuild_history(session.seed, tuple(commands), session.rules_version)
            if tutorial.is_tutorial(session.seed, commands):
                self.lessons = set(tutorial.progress(session.seed, commands))
        self.view.start(self.battle, self.ascii, self.key_for("battle.history", "L"))
        self.choose_layout()
        self.refresh_view()
        self.view.hexmap.focus()
        check = getattr(self.app, "check_size", None)
        if check is not None:  # this screen may need less room than the one before (O1)
            self.call_after_refresh(check)

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
        if not self.ready:  # a key before the screen is mounted: nothing to act on or show yet
            return False
        return ACTIONS.state(action, parameters, self.mode, self.moment)

    def why_not(self, action: str, parameters: tuple[object, ...]) -> str | None:
        return ACTIONS.refusal(action, parameters, self.mode, self.moment)

    def footer_token(self) -> tuple[object, ...]:
        """What the footer's keys follow (`GameFooter`): `check_action` reads the mode and
        the moment only; the settings hold the keys' names. The moment is compared as the
        very object (a new one comes with every change of the game): hashing its battle
        would cost 0.07 ms each time the footer looks its keys up."""
        return (self.mode, Same(self.moment), self.game.settings)

    def refresh_view(self) -> None:
        """After every change of the game: the moment, the mode that fits it, the screen."""
        session = self.game.session
        if session is None or not self.ready:
            return
        shown = self.moment.shown
        state = view_of(session.state, "player")  # O8.10: the screen draws the player's view
        if state.battle is not None:
            shown = state.battle
            self.last_state = session.state
        elif self.last_state is not None and session.commands:
            shown = final_battle(self.last_state, session.commands[-1])
            self.last_state = None
        count = len(session.commands)
        if count > self.seen >= 0:
            events = visible_events(session.state.battle, self.game.last_events, "player")
            if count == self.seen + 1:
                self.history.add(order_of(count, self.before, events))
            self.log_events(shown, events)
            if self.lessons is not None:
                self.lessons |= tutorial.done_by(shown, events)
        self.seen = count
        self.before = session.state
        self.moment = Moment.of(
            state,
            shown,
            auto=self.auto,
            ascii=self.ascii,
            tutorial=self.lessons is not None,
        )
        self.mode = settle(self.mode, self.moment)
        if self.interrupts and not isinstance(self.mode, AiTurn):
            self.schedule_interrupt()  # O6: the player's turn: no Enter steps them any more
        self.draw()
        self.teach()
        self.schedule_ai()
        if isinstance(self.mode, Threats):
            self.schedule_threats()

    # ---- O6: reaction fire shown as it happens ---------------------------------------------
    def log_events(self, shown: Battle | None, events: Sequence[Event]) -> None:
        """The log lines of a command's events; a move's reaction fire (O6.3, O6.6) comes one
        interruption a step, the cursor on the hex it struck: at the animated pace one every
        delay, at one order per key one per Enter (during the AI's turn), and the AI's next
        order waits for the last (p pauses it, space shows the rest at once)."""
        head, chunks = reaction_chunks(events)
        pace = self.game.settings.pacing
        if not chunks or pace == "instant" or self.interrupts_skipped():
            self.flush_interrupts()
            self.view.log(log_lines(shown, events, ascii_glyphs=self.ascii))
            return
        self.view.log(log_lines(shown, head, ascii_glyphs=self.ascii))
        for where, part in chunks:
            self.interrupts.append((where, log_lines(shown, part, ascii_glyphs=self.ascii)))
        if pace != "key" or not isinstance(self.mode, AiTurn):
            self.schedule_interrupt()  # else each waits for Enter (`action_step`)

    def interrupts_skipped(self) -> bool:
        return isinstance(self.mode, EnemyTurn) and self.mode.skipping

    def schedule_interrupt(self) -> None:
        if self.interrupt_pending is None and self.interrupts:
            delay = max(self.game.settings.delay, MIN_DELAY)
            self.interrupt_pending = self.game.clock.call_after(self, delay, self.interrupt_tick)

    def interrupt_tick(self) -> None:
        """One interruption: its lines in the log, the cursor on its hex, its words on the
        message line; held while the enemy's turn is paused or a dialog is open."""
        self.interrupt_pending = None
        if not self.interrupts:
            return
        if self.moment.phase == "over" or not self.is_mounted:
            self.flush_interrupts()  # the battle is over: the rest at once
            return
        if isinstance(self.mode, Paused) or self.app.screen is not self:
            self.interrupt_pending = self.game.clock.call_after(
                self, MODAL_WAIT, self.interrupt_tick
            )
            return
        self.show_interrupt()
        if self.interrupts:
            self.schedule_interrupt()
        else:
            self.schedule_ai()

    def show_interrupt(self) -> None:
        """The next interruption: its lines in the log, the cursor on its hex, its first
        line on the message line."""
        where, lines = self.interrupts.pop(0)
        if where is not None:
            self.view.hexmap.set_cursor(where)
        self.view.log(lines)
        if lines:
            self.show_message(lines[0].strip(), warning=True)

    def flush_interrupts(self) -> None:
        """Every interruption still waiting, at once (skipping, or a new command)."""
        if self.interrupt_pending is not None:
            self.interrupt_pending.cancel()
            self.interrupt_pending = None
        for _, lines in self.interrupts:
            self.view.log(lines)
        self.interrupts.clear()

    def teach(self) -> None:
        """The tutorial's hint on the message line while the player has the turn."""
        if self.lessons is None or not isinstance(self.mode, (Idle, Deploying, Over)):
            return
        if self.moment.ai_acts:
            return

        def key(name: str) -> str:
            return self.key_for(f"battle.{name}", ACTIONS.named(name).key)

        self.show_message(hint_forms(self.lessons, key))

    def draw(self) -> None:
        self.view.draw(self.moment, self.mode)
        self.refresh_bindings()

    def draw_focus(self) -> None:
        self.view.draw_focus(self.moment, self.mode)

    def show_message(self, text: str | tuple[str, ...], warning: bool = False) -> None:
        if self.ready:
            self.view.say(text, warning, self.ascii)

    # ---- the battle's history ------------------------------------------------------------
    @work(thread=True, exclusive=True, group="battle-history")
    def rebuild_history(self, seed: int, commands: Sequence[Command], rules: int) -> None:
        """Replay the save's commands (a background thread: the battle is already on screen)
        for the history of the battle it resumes."""
        history = rebuild(seed, commands, rules)
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.app.call_from_thread(self.history_rebuilt, history)

    def history_rebuilt(self, history: BattleHistory) -> None:
        """The rebuilt history, with the orders given meanwhile; the pane shows its end."""
        self.history = history.merged(self.history)
        if self.ready:
            shown = self.moment.shown
            lines = log_lines(shown, self.history.events(), ascii_glyphs=self.ascii)
            self.view.restart_log(lines[-PANE_LINES:], shown, self.ascii)

    def history_lines(self) -> list[str]:
        return self.history.lines(self.moment.shown, ascii_glyphs=self.ascii)

    def action_panel(self, step: int) -> None:
        """Scroll the panel column (a frame with many weapons is longer than 24 lines)."""
        self.query_one(SidePanel).scroll_relative(y=step * 3, animate=False)

    def action_history(self) -> None:
        """The whole battle, every roll with its modifiers, in a scrollable, searchable page
        (the enemy's turn waits while it is open)."""
        battle = self.moment.shown
        where = f"round {battle.round}" if battle is not None and battle.round else "deployment"
        title = (
            f"Battle log {glyphs_for(self).sep} {self.view.title()} {glyphs_for(self).sep} {where}"
        )
        lines = self.history_lines()
        # Installed, the page is kept between two openings: L costs no new widgets.
        self._history_page.open(
            lambda: HistoryScreen(title, lines), lambda page: page.reopen(title, lines)
        )
        # Once the page is painted, in that pause, the battle's frame for its coming back
        # (Esc) is drawn: the battle waits while the page is open (`KeepsFullFrame`).
        self.call_after_refresh(self.keep_full_frame)

    def on_unmount(self) -> None:
        if self.interrupt_pending is not None:
            self.interrupt_pending.cancel()
            self.interrupt_pending = None
        self._history_page.forget()

    # ---- modes and the map's messages ---------------------------------------------------
    def action_act_mode(self, name: str) -> None:
        with self.view.hexmap.held():  # the cursor and the overlay drawn at once
            self._act_mode(name)

    def _act_mode(self, name: str) -> None:
        if name in ("move", "sprint"):
            self.mode = Moving() if name == "move" else Sprinting()
        elif name == "reverse":  # O4.3
            self.mode = Reversing()
        elif name == "threat":
            self.mode = Threats()
            self.schedule_threats()
        else:
            aim = {"fire": Firing, "kick": Kicking}.get(name, CallingShot)
            self.mode, at = aim.aimed(self.moment)
            if at is not None:
                self.view.hexmap.set_cursor(at)
        self.draw()

    # ---- O4: facing ---------------------------------------------------------------------
    def action_pivot(self, step: int) -> None:
        """O4.5: the free pivot, one hexside (+1 left, -1 right)."""
        unit = self.moment.actor
        if unit is not None and unit.facing is not None:
            self.order(Pivot(facing.facing_name(unit.facing + step)))

    def action_turn(self) -> None:
        """O4.6: Turn to any facing (asked, each with the arcs the enemies would be in)."""
        self.react(orders.turn(self.moment))

    def action_face(self, step: int) -> None:
        """O4.2, O4.4, O4.1: turn the facing a move, jump or placing ends with."""
        mode = self.mode
        if isinstance(mode, Deploying):
            self.react(orders.face_deployed(self.moment, mode.unit, step))
            return
        if isinstance(mode, Moving | Sprinting | Jumping):
            self.mode = attrs.evolve(mode, turn=mode.turn + step)
            self.draw_focus()

    def action_cancel(self) -> None:
        with self.view.hexmap.held():
            self.mode = Idle()
            self.cursor_to_actor()
            self.draw()

    def action_next_target(self, step: int = 1) -> None:
        if isinstance(self.mode, Aiming):
            with self.view.hexmap.held():
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
        event.stop()  # handled: no need to hand it on to the app
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

    def action_hold(self) -> None:
        """O1.4: end the activation in place on the track."""
        self.order(Hold())

    def action_overwatch(self) -> None:
        self.react(orders.overwatch(self.moment))

    def action_reaction(self) -> None:
        self.react(orders.reaction_fire(self.moment))  # O6.2

    def action_sweep(self) -> None:
        self.react(orders.sweep(self.moment))  # O6.6

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

    # ---- optional module O9 ---------------------------------------------------------------
    def action_formation(self) -> None:
        self.react(commanders.formation(self.moment))

    def action_command(self) -> None:
        reason = commanders.command_refusal(self.mode, self.moment)
        if reason:
            self.show_message(f"Pilot's abilities: {reason}", True)
            return
        self.react(commanders.command(self.mode, self.moment))

    def action_ability(self) -> None:
        self.react(commanders.ability(self.moment))

    def action_breach(self) -> None:
        if isinstance(self.mode, Aiming):
            self.mode = attrs.evolve(self.mode, breach=not self.mode.breach)
            self.draw_focus()

    # ---- the threat view ----------------------------------------------------------------
    def schedule_threats(self) -> None:
        """The threat view's next engine call on the app's clock (one per tick, so keys
        get through between them)."""
        if self.threat_pending is None and not self.moment.threats().report().complete:
            self.threat_pending = self.game.clock.call_after(self, MIN_DELAY, self.threat_tick)

    def threat_tick(self) -> None:
        self.threat_pending = None
        if not isinstance(self.mode, Threats) or self.moment.battle is None:
            return
        work = self.moment.threats()
        work.step()
        if work.report().complete:
            self.draw()  # the options' hexes on the map
        else:
            self.draw_focus()
        self.schedule_threats()

    # ---- the AI's turns -----------------------------------------------------------------
    def schedule_ai(self) -> None:
        """The AI's next tick on the app's clock while the enemy's turn is on; none else."""
        mode = self.mode
        if not isinstance(mode, EnemyTurn):
            self.stop_ai()
            return
        if self.pending is not None or self.interrupts:  # O6: the reactions are shown first
            return
        settings = self.game.settings
        delay = 0.0 if mode.skipping or settings.pacing != "animated" else settings.delay
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
        skipping = isinstance(mode, EnemyTurn) and mode.skipping
        pacing = self.game.settings.pacing
        budget = SKIP_BUDGET if skipping or pacing == "instant" else 0.0
        deadline = clock.now() + budget
        while isinstance(self.mode, EnemyTurn) and not self.interrupts and self.ai_once():
            if pacing == "key" and not skipping:
                self.mode = More()  # the next order waits for a key
                break
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
        if before is not None and before.side == "enemy" and _shown(battle, before.id):
            self.last_enemy = (decision, before.id)  # O8.10: not a hidden frame's reasons
        if not self.game.act(command):
            self.auto = False
            self.mode = Halted(f"The AI's {command.to_text()!r} was refused; press a to retry.")
            self.view.draw_prompt(self.moment, self.mode)
            return False
        battle = self.battle
        if (
            before is not None
            and battle is not None
            and not battle.unit(before.id).destroyed
            and _shown(battle, before.id)  # O8.10: the cursor never finds a hidden frame
        ):
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
        """One of the AI's orders (paused, or one per key); first, one by one, the reaction
        fire the last order's move set off (O6)."""
        if isinstance(self.mode, Paused | More):
            if self.interrupts:
                self.show_interrupt()
                return
            self.ai_once()
            self.refresh_view()

    def action_more(self) -> None:
        self.action_step()

    def action_skip(self) -> None:
        self.mode = EnemyTurn(skipping=True)
        self.flush_interrupts()
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


def _shown(battle: Battle, unit_id: str) -> bool:
    """O8.10: the player's screen shows this frame where it is (always with O8 off)."""
    unit = battle.unit(unit_id)
    return (
        not battle.rule("O8")
        or unit.side == "player"
        or any(c.side == "player" and c.unit == unit_id for c in battle.contacts)
    )
