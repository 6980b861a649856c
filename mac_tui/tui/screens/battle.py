"""The hex battle: deployment, the player's activations, the AI's turns, the end.

The map (`HexMap`, drawn with the line API) sits on the left with the combat log under it; the
panel column on the right shows the frame under the cursor (`FramePanel`), or, while aiming,
the shot's preview (`TargetPanel`): the LOS line hex by hex, every weapon's hit chance with its
modifiers, the expected damage and the energy after firing. The action bar above the message
line lists the active frame's actions with their keys, the illegal ones dimmed.

Modes: `idle` (pick an action), `move`/`sprint`/`jump` (the reachable hexes are marked; the
cursor previews the path and its energy; Enter or a click goes), `fire`/`called` (Tab cycles
targets, 1-4 picks the group; Enter fires, a called shot then asks for the location). The AI
side's commands are played one per animation step (space skips to the player's next
activation); `a` lets the AI play the player's frames too, until pressed again.

Every change goes through `app.act`, so the battle autosaves after each command and resumes
where it stood after a quit or a dropped connection.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import attrs
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

from ...catalog import LOCATION_ORDER, catalog
from ...combat import preview, stats
from ...combat.commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    Deploy,
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
from ...combat.firing import check_fire
from ...combat.legal import legal_commands
from ...combat.setup import WITHDRAW_TEXT
from ...combat.state import Battle, Unit
from ...game import Accepted, Command, step
from ...hexgrid import Hex
from ...model import GameState
from ...players.ai import decide
from ..app import GameScreen
from ..battle_text import log_lines
from ..glyphs import plain
from ..widgets.battle_panels import FramePanel, InitiativeTrack, TargetPanel, move_text
from ..widgets.dialogs import ChooseScreen, ConfirmScreen
from ..widgets.hexmap import HexMap, Overlay, drawing_size, legend

PANEL_WIDTH = 37  # the panel column at its narrowest, with its left padding
CHROME_LINES = 5  # head, action bar (2), message line, footer
MIN_LOG_LINES = 3
LEFT_MIN_WIDTH = 30  # the map and log column, for the smallest maps
SKIP_BUDGET = 0.08  # seconds of AI commands per tick when skipping, so keys still get through
MODAL_WAIT = 0.2  # seconds between looks while a dialog covers the battle
AIM_MODES = ("fire", "called")
HEX_MODES = ("move", "sprint", "jump")

# (key, action, label) of the action bar; the bindings below carry the same keys.
COMBAT_ACTIONS = (
    ("m", "move", "Move"),
    ("r", "sprint", "Sprint"),
    ("f", "fire", "Fire"),
    ("c", "called", "Called"),
    ("g", "brace", "Brace"),
    ("o", "overwatch", "Overwatch"),
    ("v", "vent", "Vent"),
    ("e", "equipment", "Equip"),
    ("x", "end", "End"),
    ("w", "withdraw", "Withdraw"),
    ("a", "auto", "Auto"),
)
DEPLOY_ACTIONS = (
    ("tab", "next_frame", "Next frame"),
    ("enter", "place", "Place"),
    ("r", "reset", "Reset"),
    ("a", "auto_deploy", "Auto-deploy"),
    ("s", "start", "Start"),
)


class TextLine(Widget):
    """One line of plain text that repaints without asking for a new layout (a `Static`
    would), so the message line can follow the cursor cheaply."""

    DEFAULT_CSS = "TextLine { height: 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = Text()

    def set(self, text: str) -> None:
        self.text = Text(text)
        self.refresh()

    def render(self) -> Text:
        return self.text


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
        "again). The enemy's turns play at the animation speed of Settings; space skips them. "
        "Esc cancels an action, or leaves the battle (it is saved and resumes where it stood)."
    )
    BINDINGS = [
        Binding("m", "act_mode('move')", "Move", id="battle.move", show=False),
        Binding("r", "act_mode('sprint')", "Sprint", id="battle.sprint", show=False),
        Binding("f", "act_mode('fire')", "Fire", id="battle.fire", show=False),
        Binding("c", "act_mode('called')", "Called shot", id="battle.called", show=False),
        Binding("g", "brace", "Brace", id="battle.brace", show=False),
        Binding("o", "overwatch", "Overwatch", id="battle.overwatch", show=False),
        Binding("v", "vent", "Vent", id="battle.vent", show=False),
        Binding("e", "equipment", "Equipment", id="battle.equipment", show=False),
        Binding("x", "end", "End activation", id="battle.end", show=False),
        Binding("w", "withdraw", "Withdraw", id="battle.withdraw", show=False),
        Binding("a", "auto", "Auto-resolve", id="battle.auto", show=False),
        Binding("r", "reset", "Reset", id="battle.reset", show=False),
        Binding("a", "auto_deploy", "Auto-deploy", id="battle.auto_deploy", show=False),
        Binding("s", "start", "Start", id="battle.start", show=False),
        Binding("tab", "next_frame", "Next frame", id="battle.next_frame"),
        Binding("tab", "next_target", "Next target", id="battle.next_target"),
        Binding(
            "shift+tab", "next_target(-1)", "Previous target", id="battle.prev_target", show=False
        ),
        Binding("1", "group(1)", "Group 1", id="battle.group1", show=False),
        Binding("2", "group(2)", "Group 2", id="battle.group2", show=False),
        Binding("3", "group(3)", "Group 3", id="battle.group3", show=False),
        Binding("4", "group(4)", "Group 4", id="battle.group4", show=False),
        Binding("space", "skip", "Skip enemy turn", id="battle.skip"),
        Binding("p", "pause", "Pause", id="battle.pause"),
        Binding("full_stop", "step", "Step", id="battle.step"),
        Binding("enter", "report", "Report", id="battle.report", priority=True),
        Binding("escape", "cancel", "Cancel", id="battle.cancel"),
        Binding("escape", "leave", "Leave", id="battle.leave"),
    ]
    DEFAULT_CSS = """
    BattleScreen { layout: vertical; }
    BattleScreen #battle-head { height: 1; }
    BattleScreen InitiativeTrack { width: 1fr; height: 1; }
    BattleScreen #battle-title { width: auto; height: 1; padding: 0 1; color: $text-muted; }
    BattleScreen #battle-body { height: 1fr; }
    BattleScreen #battle-left { width: 42; height: 1fr; }
    BattleScreen HexMap { width: auto; height: auto; }
    BattleScreen #battle-log { height: 1fr; min-height: 3; border: none; scrollbar-size: 1 1; }
    BattleScreen #battle-right { width: 1fr; min-width: 36; height: 1fr; padding: 0 0 0 1; }
    BattleScreen #lance { height: auto; }
    BattleScreen FramePanel, BattleScreen TargetPanel { height: 1fr; }
    BattleScreen #actions { height: 2; padding: 0 1; background: $surface; }
    BattleScreen #message { height: 1; padding: 0 1; color: $text-muted; }
    BattleScreen #message.warning { color: $warning; text-style: bold; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.mode = "idle"
        self.group: int | None = None
        self.target: str | None = None
        self.jump_item: str | None = None
        self.deploy_unit: str | None = None
        self.auto = False  # the AI plays the player's frames too
        self.skipping = False  # the AI side plays without pauses until the player's turn
        self.paused = False  # the AI's turn held by the player (p), stepped with "."
        self.timer: Timer | None = None
        self.seen = -1  # commands already written to the log
        self.legal: list[Command] = []
        self.last_battle: Battle | None = None  # the battle as last seen (kept at its end)
        self.last_state: GameState | None = None  # the state before the last command
        self.halted = ""
        self.ready = False  # composed and mounted: the widgets can be queried
        self._preview: tuple[tuple[object, ...], preview.FirePreview] | None = None
        self._message: tuple[str, bool] | None = None

    # ---- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="battle-head"):
            yield InitiativeTrack()
            yield TextLine(id="battle-title")
        with Horizontal(id="battle-body"):
            with Vertical(id="battle-left"):
                yield HexMap(ascii_glyphs=self.ascii)
                log = RichLog(
                    id="battle-log", wrap=True, markup=False, max_lines=3000, min_width=20
                )
                log.can_focus = False
                yield log
            with Vertical(id="battle-right"):
                yield Static("", id="lance")
                yield FramePanel()
                yield TargetPanel()
        yield Static("", id="actions")
        yield TextLine(id="message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.ready = True
        session = self.game.session
        if session is not None:
            self.seen = len(session.commands)
        battle = self.battle
        log = self.query_one(RichLog)
        log.write(legend(self.ascii))
        if battle is not None and battle.phase == "combat":
            log.write(f"Resumed in round {battle.round}.")
        if battle is not None:
            unit = battle.active_unit
            start = unit.pos if unit is not None and unit.pos is not None else None
            if start is None and battle.phase == "deployment":
                zone = battle.map.deployment_hexes("player")
                start = zone[len(zone) // 2] if zone else None
            if start is not None:
                self.hexmap.set_cursor(start)
        self.query_one(TargetPanel).display = False
        self.choose_layout()
        self.refresh_view()
        self.hexmap.focus()

    def on_resize(self) -> None:
        super().on_resize()
        self.choose_layout()

    def choose_layout(self) -> None:
        """The roomy map drawing when it fits beside the panel column (with a few log lines
        under it); the compact one otherwise."""
        battle = self.battle or self.last_battle
        if battle is None or not self.ready:
            return
        roomy = drawing_size(battle.map.width, battle.map.height, "roomy")
        room_w = self.size.width - PANEL_WIDTH
        room_h = self.size.height - CHROME_LINES - MIN_LOG_LINES
        layout = "roomy" if roomy.width <= room_w and roomy.height <= room_h else "compact"
        self.hexmap.layout_mode = layout
        drawn = drawing_size(battle.map.width, battle.map.height, layout)
        self.query_one("#battle-left").styles.width = max(drawn.width + 1, LEFT_MIN_WIDTH)

    # ---- state --------------------------------------------------------------------------
    @property
    def ascii(self) -> bool:
        return self.game.settings.glyphs == "ascii"

    @property
    def hexmap(self) -> HexMap:
        return self.query_one(HexMap)

    @property
    def battle(self) -> Battle | None:
        session = self.game.session
        return session.state.battle if session is not None else None

    @property
    def phase(self) -> str:
        battle = self.battle
        return battle.phase if battle is not None else "over"

    @property
    def actor(self) -> Unit | None:
        """The frame acting now, if the player commands it."""
        battle = self.battle
        unit = battle.active_unit if battle is not None else None
        if unit is None or battle is None or battle.side_info(unit.side).ai:
            return None
        return unit

    @property
    def ai_turn(self) -> bool:
        """True while the AI has a command to give (its own side, or the player's on auto)."""
        battle = self.battle
        if battle is None or battle.phase == "over":
            return False
        if battle.phase == "deployment":
            return self.auto
        unit = battle.active_unit
        return unit is not None and (self.auto or battle.side_info(unit.side).ai)

    def player_turn(self) -> bool:
        return self.actor is not None and not self.auto

    def has(self, kind: type[Command]) -> bool:
        return any(isinstance(c, kind) for c in self.legal)

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        session = self.game.session
        if session is None or not self.ready:
            return
        battle = self.battle
        if battle is not None:
            self.last_battle = battle
            self.last_state = session.state
        elif self.last_state is not None and session.commands:
            self.last_battle = final_battle(self.last_state, session.commands[-1])
            self.last_state = None
        self.write_new_log(len(session.commands))
        self.legal = legal_commands(session.state, called_shots=False) if battle else []
        if battle is not None and battle.phase == "deployment":
            self.mode = "idle"
            if self.deploy_unit is None or self.deploy_unit not in {
                u.id for u in battle.side_units("player")
            }:
                self.deploy_unit = next(
                    (u.id for u in battle.side_units("player") if u.pos is None),
                    battle.side_units("player")[0].id,
                )
        if not self.player_turn() and self.mode != "idle":
            self.set_mode("idle")
        if not self.ai_turn:
            self.paused = False  # a pause holds one AI turn, not the next
        self.draw()
        self.schedule_ai()

    def write_new_log(self, count: int) -> None:
        if self.seen < 0:
            self.seen = count
            return
        if count > self.seen:
            log = self.query_one(RichLog)
            for line in log_lines(self.last_battle, self.game.last_events, ascii_glyphs=self.ascii):
                log.write(line)
        self.seen = count

    def draw(self) -> None:
        battle = self.last_battle
        if battle is None:
            return
        self.query_one(InitiativeTrack).show(battle, ascii_glyphs=self.ascii)
        title = self.title_text(battle)
        self.query_one("#battle-title", TextLine).set(plain(title) if self.ascii else title)
        active = battle.active_unit.id if battle.active_unit is not None else None
        self.hexmap.show(battle, active=active, overlay=self.overlay(battle))
        self.draw_lance(battle)
        self.draw_panels(battle)
        self.draw_actions()
        self.draw_prompt()
        self.refresh_bindings()

    def draw_focus(self) -> None:
        """Redraw what follows the cursor, the target and the group (not the whole screen):
        the map's overlay, the lance list, the panel column and the message line."""
        battle = self.last_battle
        if battle is None:
            return
        if self.mode != "idle":
            active = battle.active_unit.id if battle.active_unit is not None else None
            self.hexmap.show(battle, active=active, overlay=self.overlay(battle))
        self.draw_lance(battle)
        self.draw_panels(battle)
        self.draw_prompt()

    def fire_preview(self, battle: Battle, unit: Unit) -> preview.FirePreview | None:
        """The preview of the shot being aimed (computed once per battle, group and target)."""
        if self.target is None or self.group is None:
            return None
        key = (id(battle), unit.id, self.group, self.target, self.called_location())
        if self._preview is None or self._preview[0] != key:
            fp = preview.fire_preview(battle, unit, self.group, self.target, key[4])
            self._preview = (key, fp)
        return self._preview[1]

    def title_text(self, battle: Battle) -> str:
        session = self.game.session
        campaign = session.state.campaign if session is not None else None
        place = catalog().landscape(battle.landscape).name
        if campaign is not None and campaign.mission is not None:
            return f"Contract {campaign.mission.contract.id} · {place}"
        return f"Quick battle · difficulty {battle.difficulty} · {place}"

    def overlay(self, battle: Battle) -> Overlay:
        if battle.phase == "deployment":
            return Overlay(zone=frozenset(battle.map.deployment_hexes("player")))
        unit = self.actor
        if unit is None or self.mode == "idle":
            return Overlay()
        cursor = self.hexmap.cursor
        if self.mode in ("move", "sprint"):
            sprint = self.mode == "sprint"
            reach = preview.reach_hexes(battle, unit, sprint)
            path: tuple[Hex, ...] = ()
            if cursor in reach:
                path = preview.move_preview(battle, unit, cursor, sprint).path
            return Overlay(reach=reach, path=path)
        if self.mode == "jump":
            return Overlay(reach=self.jump_hexes())
        targets = preview.targets(battle, unit)
        target = next((t for t in targets if t.id == self.target), None)
        fp = self.fire_preview(battle, unit)
        if target is None or fp is None:
            return Overlay(targets=frozenset(t.pos for t in targets if t.pos is not None))
        return Overlay(
            targets=frozenset(t.pos for t in targets if t.pos is not None),
            target=target.pos,
            los=tuple(step.hex for step in fp.los),
            los_penalty=frozenset(step.hex for step in fp.los if step.penalty),
        )

    def called_location(self) -> str | None:
        # The called-shot modifier is the same for every location (§3.5): preview with one.
        return "center_torso" if self.mode == "called" else None

    def shown_unit(self, battle: Battle) -> str | None:
        here = battle.occupant(self.hexmap.cursor)
        if here is not None:
            return here.id
        if battle.phase == "deployment":
            return self.deploy_unit
        unit = battle.active_unit
        if unit is None:  # between activations or over: the first of the player's frames
            unit = next(iter(battle.side_units("player")), None)
        return unit.id if unit is not None else None

    def draw_lance(self, battle: Battle) -> None:
        lance = self.query_one("#lance", Static)
        if battle.phase != "deployment":
            lance.display = False
            return
        lance.display = True
        mark = ">" if self.ascii else "▸"
        lines = ["[b]Deploy your lance[/b]"]
        for u in battle.side_units("player"):
            where = f"at {u.pos.q},{u.pos.r}" if u.pos is not None else "not placed"
            cursor = mark if u.id == self.deploy_unit else " "
            chassis = catalog().chassis[u.chassis].designation
            lines.append(f"{cursor} {u.id} {u.label[:12]:<12} {chassis:<5} {where}")
        rule = WITHDRAW_TEXT[battle.side_info("enemy").withdrawal]  # D23: what the enemy does
        lines.append(f"The enemy {rule}.")
        lance.update("\n".join(lines))

    def draw_panels(self, battle: Battle) -> None:
        frame_panel = self.query_one(FramePanel)
        target_panel = self.query_one(TargetPanel)
        unit = self.actor
        aiming = self.mode in AIM_MODES and unit is not None
        fp = self.fire_preview(battle, unit) if aiming and unit is not None else None
        if fp is not None:
            target_panel.show(battle, fp, ascii_glyphs=self.ascii)
            target_panel.display = True
            frame_panel.display = False
            return
        target_panel.display = False
        frame_panel.display = True
        frame_panel.show(battle, self.shown_unit(battle), ascii_glyphs=self.ascii)

    def action_bar(self) -> str:
        """The actions of this phase with their keys (markup): the legal ones clickable, the
        illegal ones dimmed and struck through (never colour alone)."""
        actions = DEPLOY_ACTIONS if self.phase == "deployment" else COMBAT_ACTIONS
        parts = []
        for key, action, label in actions:
            if self.action_legal(action):
                click = f"@click=screen.run_action('{action}')"
                parts.append(f"[{click}][b reverse] {key} [/b reverse] {label}[/]")
            else:
                parts.append(f"[dim strike] {key}  {label}[/dim strike]")
        return " ".join(parts)

    def draw_actions(self) -> None:
        bar = self.query_one("#actions", Static)
        if self.phase == "over":
            bar.update("Enter: the report")
            return
        bar.update(self.action_bar())

    def draw_prompt(self) -> None:
        """The message line: what the current mode previews, or whose turn it is."""
        battle = self.last_battle
        if battle is None:
            return
        if self.halted:
            self.show_message(self.halted, warning=True)
            return
        if self.phase == "over":
            result = (self.result() or "over").upper()
            self.show_message(f"Battle over: {result}. Enter: the report.")
            return
        if battle.phase == "deployment":
            frame = battle.unit(self.deploy_unit) if self.deploy_unit else None
            name = frame.label if frame is not None else "?"
            self.show_message(f"Place {name}: move the cursor into the zone, Enter places.")
            return
        unit = battle.active_unit
        if unit is None:
            return
        if self.ai_turn:
            who = "Auto-resolve" if self.auto else "Enemy turn"
            if self.paused:
                how = "paused: . plays one order, p resumes, space skips"
            else:
                how = "p pauses, space skips"
            self.show_message(f"{who}: {unit.label} acts · {how} · a: auto {self.on_off()}")
            return
        if self.mode in HEX_MODES:
            self.show_message(self.hex_prompt(battle, unit))
        elif self.mode in AIM_MODES:
            self.show_message(self.aim_prompt(battle, unit))
        else:
            self.show_message(
                f"{unit.label} acts: {unit.ap} AP. Pick an action; the cursor shows any frame."
            )

    def result(self) -> str | None:
        """How the battle ended: the battle's result, or the settled mission's."""
        session = self.game.session
        battle = self.battle or self.last_battle
        if battle is not None and battle.result is not None:
            return battle.result
        campaign = session.state.campaign if session is not None else None
        if campaign is not None and campaign.after_action is not None:
            return campaign.after_action.result
        return None

    def on_off(self) -> str:
        return "on" if self.auto else "off"

    def hex_prompt(self, battle: Battle, unit: Unit) -> str:
        cursor = self.hexmap.cursor
        if self.mode == "jump":
            ok = cursor in self.jump_hexes()
            where = f"{cursor.q},{cursor.r}"
            return f"Jump to {where}: Enter goes" if ok else f"Jump: {where} is out of reach"
        mp = preview.move_preview(battle, unit, cursor, self.mode == "sprint")
        return move_text(mp, ascii_glyphs=self.ascii) + (
            " - Enter goes" if mp.refusal is None else ""
        )

    def aim_prompt(self, battle: Battle, unit: Unit) -> str:
        if self.target is None or self.group is None:
            return "No target in range of any group: Esc cancels."
        target = battle.unit(self.target)
        what = "Called shot" if self.mode == "called" else "Fire"
        return f"{what}: group {self.group} at {target.label} · Enter fires · Tab target · 1-4"

    def show_message(self, text: str, warning: bool = False) -> None:
        if not self.ready or self._message == (text, warning):
            return
        self._message = (text, warning)
        msg = self.query_one("#message", TextLine)
        msg.set(plain(text) if self.ascii else text)
        msg.set_class(warning, "warning")

    # ---- legality (footer, action bar) --------------------------------------------------
    def action_legal(self, action: str) -> bool:
        battle = self.battle
        if battle is None:
            return False
        if battle.phase == "deployment":
            if action == "next_frame":
                return len(battle.side_units("player")) > 1
            if action == "place":
                return self.deploy_unit is not None
            return self.has(
                {"reset": ResetDeployment, "auto_deploy": AutoDeploy, "start": StartBattle}[action]
            )
        if action == "auto":
            return battle.phase == "combat"
        if not self.player_turn():
            return False
        kinds: dict[str, type[Command]] = {
            "move": Move,
            "sprint": Sprint,
            "fire": FireGroup,
            "brace": Brace,
            "overwatch": Overwatch,
            "vent": Vent,
            "equipment": UseEquipment,
            "end": EndActivation,
            "withdraw": Withdraw,
        }
        if action == "called":
            return self.called_legal()
        return self.has(kinds[action])

    def called_legal(self) -> bool:
        battle, unit = self.battle, self.actor
        if battle is None or unit is None:
            return False
        return any(
            not isinstance(check_fire(battle, unit, c.group, c.target, "head"), str)
            for c in self.legal
            if isinstance(c, FireGroup)
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self.phase
        aiming = self.mode in AIM_MODES
        deploy_only = {"next_frame", "reset", "auto_deploy", "start"}
        if action in deploy_only:
            if phase != "deployment":
                return False
            return True if self.action_legal(action) else None
        if action == "act_mode":
            if phase != "combat":
                return False
            return True if self.action_legal(str(parameters[0])) else None
        if action in {"brace", "overwatch", "vent", "equipment", "end", "withdraw"}:
            if phase != "combat":
                return False
            return True if self.action_legal(action) else None
        if action == "auto":
            return phase == "combat"
        if action in ("next_target", "group"):
            return aiming
        if action == "skip":
            return phase == "combat" and self.ai_turn
        if action == "pause":
            return phase == "combat" and self.ai_turn
        if action == "step":
            return phase == "combat" and self.ai_turn and self.paused
        if action == "report":
            return phase == "over"
        if action == "cancel":
            return self.mode != "idle"
        if action == "leave":
            return self.mode == "idle"
        return True

    def run_action(self, action: str) -> None:
        """A click on the action bar: the same as the key."""
        if not self.action_legal(action):
            return
        if action in ("move", "sprint", "fire", "called"):
            self.action_act_mode(action)
        elif action == "place":
            self.place(self.hexmap.cursor)
        else:
            getattr(self, f"action_{action}")()

    # ---- modes --------------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        self.mode = mode
        if mode not in AIM_MODES:
            self.target = None
            self.group = None
        if mode != "jump":
            self.jump_item = None

    def action_act_mode(self, mode: str) -> None:
        battle, unit = self.battle, self.actor
        if battle is None or unit is None or not self.action_legal(mode):
            return
        self.set_mode(mode)
        if mode in AIM_MODES:
            self.aim_first(battle, unit)
        self.draw()

    def aim_first(self, battle: Battle, unit: Unit) -> None:
        """Aim at the nearest target some group can hit, with the first group that can."""
        location = self.called_location()
        targets = preview.targets(battle, unit)
        for target in targets:
            for group in sorted({c.group for c in self.legal if isinstance(c, FireGroup)}):
                if not isinstance(check_fire(battle, unit, group, target.id, location), str):
                    self.target, self.group = target.id, group
                    if target.pos is not None:
                        self.hexmap.set_cursor(target.pos)
                    return
        self.target = targets[0].id if targets else None
        self.group = min(stats.groups(unit), default=None)

    def action_cancel(self) -> None:
        self.set_mode("idle")
        unit = self.actor
        if unit is not None and unit.pos is not None:
            self.hexmap.set_cursor(unit.pos)
        self.draw()

    def action_next_target(self, step: int = 1) -> None:
        battle, unit = self.battle, self.actor
        if battle is None or unit is None:
            return
        targets = preview.targets(battle, unit)
        if not targets:
            return
        ids = [t.id for t in targets]
        i = ids.index(self.target) if self.target in ids else -step
        target = targets[(i + step) % len(targets)]
        self.target = target.id
        if target.pos is not None:
            self.hexmap.set_cursor(target.pos)
        self.draw_focus()

    def action_group(self, group: int) -> None:
        unit = self.actor
        if unit is None:
            return
        if group not in stats.groups(unit):
            self.show_message(f"{unit.label} has no working weapon in group {group}.", True)
            return
        self.group = group
        self.draw_focus()

    def action_next_frame(self) -> None:
        battle = self.battle
        if battle is None or battle.phase != "deployment":
            return
        ids = [u.id for u in battle.side_units("player")]
        i = ids.index(self.deploy_unit) if self.deploy_unit in ids else -1
        self.deploy_unit = ids[(i + 1) % len(ids)]
        frame = battle.unit(self.deploy_unit)
        if frame.pos is not None:
            self.hexmap.set_cursor(frame.pos)
        self.draw_focus()

    # ---- the map's messages -------------------------------------------------------------
    def on_hex_map_cursor_moved(self, event: HexMap.CursorMoved) -> None:
        battle, unit = self.battle, self.actor
        if battle is not None and unit is not None and self.mode in AIM_MODES:
            here = battle.occupant(event.hex)
            if here is not None and here.side != unit.side:
                self.target = here.id
        self.draw_focus()

    def on_hex_map_picked(self, event: HexMap.Picked) -> None:
        battle = self.battle
        if battle is None:
            return
        if battle.phase == "deployment":
            self.place(event.hex)
            return
        unit = self.actor
        if unit is None:
            return
        if self.mode == "move":
            self.do(Move(event.hex))
        elif self.mode == "sprint":
            self.do(Sprint(event.hex))
        elif self.mode == "jump" and self.jump_item is not None:
            self.do(UseEquipment(self.jump_item, None, event.hex))
        elif self.mode in AIM_MODES:
            self.fire()
        elif self.mode == "idle":
            here = battle.occupant(event.hex)
            if here is not None:
                self.show_message(
                    f"{here.label}: {here.id}, {catalog().chassis[here.chassis].name}"
                )

    # ---- commands -----------------------------------------------------------------------
    def do(self, command: Command) -> bool:
        """Apply a command for the player; back to idle with the cursor on whoever acts."""
        ok = self.game.act(command)
        if ok:
            self.set_mode("idle")
            battle = self.battle
            now = battle.active_unit if battle is not None else None
            if now is not None and now.pos is not None:
                self.hexmap.set_cursor(now.pos)
            self.refresh_view()
        return ok

    def place(self, h: Hex) -> None:
        battle = self.battle
        if battle is None or self.deploy_unit is None:
            return
        if self.game.act(Deploy(self.deploy_unit, h)):
            battle = self.battle
            if battle is not None:
                waiting = [u.id for u in battle.side_units("player") if u.pos is None]
                if waiting:
                    self.deploy_unit = waiting[0]
            self.refresh_view()

    def fire(self) -> None:
        battle, unit = self.battle, self.actor
        if battle is None or unit is None or self.target is None or self.group is None:
            self.show_message("No target: Tab picks one, Esc cancels.", True)
            return
        group, target = self.group, self.target
        if self.mode == "fire":
            self.do(FireGroup(group, target))
            return
        target_unit = battle.unit(target)
        cat = catalog()
        options = []
        for i, loc in enumerate(LOCATION_ORDER):
            if target_unit.structure[i] <= 0:
                continue
            label = f"{cat.location(loc).name:<13} armour {target_unit.armor[i]:>2}"
            options.append((loc, f"{label}  structure {target_unit.structure[i]:>2}"))

        def chosen(location: str | None) -> None:
            if location:
                self.do(CalledShot(group, target, location))

        self.app.push_screen(
            ChooseScreen(f"Called shot at {target_unit.label}: which location?", options), chosen
        )

    def action_brace(self) -> None:
        self.do(Brace())

    def action_vent(self) -> None:
        self.do(Vent())

    def action_end(self) -> None:
        self.do(EndActivation())

    def action_overwatch(self) -> None:
        groups = sorted({c.group for c in self.legal if isinstance(c, Overwatch)})
        if len(groups) == 1:
            self.do(Overwatch(groups[0]))
            return
        unit = self.actor
        if unit is None or not groups:
            return
        options = [(str(g), f"Group {g}: {group_names(unit, g)}") for g in groups]
        self.choose("Overwatch with which group?", options, lambda g: self.do(Overwatch(int(g))))

    def action_equipment(self) -> None:
        uses = [c for c in self.legal if isinstance(c, UseEquipment)]
        items = sorted({c.equipment for c in uses})
        if not items:
            return
        cat = catalog()

        def picked(item: str) -> None:
            mine = [c for c in uses if c.equipment == item]
            if any(c.hex is not None for c in mine):
                self.set_mode("jump")
                self.jump_item = item
                self.draw()
                return
            if len(mine) == 1:
                self.do(mine[0])
                return
            battle = self.battle
            assert battle is not None
            options = [(c.target or "", battle.unit(c.target).label) for c in mine if c.target]
            self.choose(
                f"{cat.equipment[item].name}: on which frame?",
                options,
                lambda t: self.do(UseEquipment(item, t)),
            )

        if len(items) == 1:
            picked(items[0])
            return
        self.choose("Use which equipment?", [(i, cat.equipment[i].name) for i in items], picked)

    def jump_hexes(self) -> frozenset[Hex]:
        return frozenset(
            c.hex
            for c in self.legal
            if isinstance(c, UseEquipment) and c.equipment == self.jump_item and c.hex is not None
        )

    def choose(
        self, title: str, options: list[tuple[str, str]], then: Callable[[str], object]
    ) -> None:
        def done(value: str | None) -> None:
            if value:
                then(value)

        self.app.push_screen(ChooseScreen(title, options), done)

    def action_withdraw(self) -> None:
        def done(ok: bool | None) -> None:
            if ok:
                self.do(Withdraw())

        self.app.push_screen(
            ConfirmScreen(
                "Withdraw from the battle? The lance leaves the field: the contract counts "
                "as a withdrawal (R14).",
                yes="Withdraw",
            ),
            done,
        )

    # ---- deployment ---------------------------------------------------------------------
    def action_reset(self) -> None:
        if self.game.act(ResetDeployment()):
            battle = self.battle
            if battle is not None:
                self.deploy_unit = battle.side_units("player")[0].id
            self.refresh_view()

    def action_auto_deploy(self) -> None:
        self.game.act(AutoDeploy())

    def action_start(self) -> None:
        if self.game.act(StartBattle()):
            unit = self.battle.active_unit if self.battle is not None else None
            if unit is not None and unit.pos is not None:
                self.hexmap.set_cursor(unit.pos)
            self.refresh_view()

    # ---- the AI's turns -----------------------------------------------------------------
    def schedule_ai(self) -> None:
        if self.timer is not None or not self.ai_turn or self.halted or self.paused:
            return
        delay = 0.0 if self.skipping else self.game.settings.delay
        self.timer = self.set_timer(max(delay, 0.01), self.ai_tick)

    def ai_tick(self) -> None:
        self.timer = None
        if self.app.screen is not self:  # a dialog (or help) is open: the battle waits
            self.timer = self.set_timer(MODAL_WAIT, self.ai_tick)
            return
        batched = self.skipping or self.game.settings.delay <= 0
        deadline = time.monotonic() + (SKIP_BUDGET if batched else 0.0)
        while self.ai_turn and not self.paused and self.ai_once():
            if time.monotonic() >= deadline:
                break
        if not self.ai_turn:
            self.skipping = False
            unit = self.actor
            if unit is not None and unit.pos is not None:
                self.hexmap.set_cursor(unit.pos)
        self.refresh_view()

    def ai_once(self) -> bool:
        """The AI gives one command; the cursor follows the frame that acted."""
        session = self.game.session
        battle = self.battle
        if session is None or battle is None:
            return False
        command = decide(session.state).command
        before = battle.active_unit
        if not self.game.act(command):
            self.halted = f"The AI's {command.to_text()!r} was refused; press a to retry."
            self.auto = False
            self.draw_prompt()
            return False
        battle = self.battle
        if before is not None and battle is not None and not battle.unit(before.id).destroyed:
            pos = battle.unit(before.id).pos
            if pos is not None:
                self.hexmap.set_cursor(pos)
        return True

    def action_pause(self) -> None:
        """Hold the AI's turn (p again resumes; . plays one command at a time)."""
        self.paused = not self.paused
        if self.paused and self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.refresh_view()

    def action_step(self) -> None:
        if self.paused and self.ai_turn:
            self.ai_once()
            self.refresh_view()

    def action_skip(self) -> None:
        self.skipping = True
        self.paused = False
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.schedule_ai()
        self.refresh_bindings()

    def action_auto(self) -> None:
        self.auto = not self.auto
        self.halted = ""
        self.set_mode("idle")
        if not self.auto and self.timer is not None and self.actor is not None:
            self.timer.stop()
            self.timer = None
        self.say_auto()
        self.refresh_view()

    def say_auto(self) -> None:
        if self.auto:
            self.query_one(RichLog).write("Auto-resolve on: the AI fights for you (a stops).")
        else:
            self.query_one(RichLog).write("Auto-resolve off: your frames wait for your orders.")

    # ---- the end ------------------------------------------------------------------------
    def action_report(self) -> None:
        session = self.game.session
        if session is None:
            return
        if session.state.campaign is not None:
            from .afteraction import AfterActionScreen

            self.app.switch_screen(AfterActionScreen())
        else:
            from .skirmish_report import SkirmishReportScreen

            self.app.switch_screen(SkirmishReportScreen())

    def action_leave(self) -> None:
        def done(ok: bool | None) -> None:
            if ok:
                from .title import TitleScreen

                if self.timer is not None:
                    self.timer.stop()
                self.app.switch_screen(TitleScreen())

        if self.phase == "over":
            self.action_report()
            return
        self.app.push_screen(
            ConfirmScreen(
                "Leave the battle? It is saved: Continue on the title screen resumes it here.",
                yes="Leave",
            ),
            done,
        )


def final_battle(before: GameState, command: Command) -> Battle | None:
    """The battle as the last command left it, for the picture of a campaign battle's end
    (the engine settles the mission in the same step and drops the battle from the state):
    the same command stepped on the same state without the campaign gives the same battle."""
    outcome = step(attrs.evolve(before, campaign=None), command)
    return outcome.state.battle if isinstance(outcome, Accepted) else before.battle


def group_names(unit: Unit, group: int) -> str:
    cat = catalog()
    return ", ".join(
        cat.weapons[w.weapon].abbrev for _, w in unit.live_weapons() if w.group == group
    )
