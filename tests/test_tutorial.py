"""The tutorial battle (issue 14): its steps judged from the engine's events, and its hints on
the battle screen at each step."""

from __future__ import annotations

from pathlib import Path

from mac_tui.combat.commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    EndActivation,
    FireGroup,
    Move,
    StartBattle,
    Vent,
    Withdraw,
)
from mac_tui.game import Accepted, Command, legal_commands, step, to_act
from mac_tui.model import GameState, initial_state
from mac_tui.players import tutorial
from mac_tui.players.ai import decide
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.battle.screen import BattleScreen
from mac_tui.tui.screens.skirmish_report import SkirmishReportScreen
from tests.pacing import run_until

# What the message line says at each step at 80 columns (the short forms, default keys).
SHOWN = {
    "deploy": "1/7 Deploy: tab picks, Enter places, a the rest, s starts",
    "cover": "2/7 Cover: m, then end the move on forest or rocks (Enter)",
    "fire": "3/7 Fire: f aims (tab: next target), Enter fires",
    "called": "4/7 Called shot: c aims at a location (2 AP); pick it, fire",
    "brace": "5/7 Brace: g braces: harder to hit until its next turn",
    "vent": "6/7 Vent: v vents the reactor: less stress, better aim",
    "withdraw": "7/7 Withdraw: w withdraws your side; that ends the tutorial",
}
ORDER = ("cover", "fire", "called", "brace", "vent", "withdraw")


def lesson(state: GameState, key: str) -> Command | None:
    """A legal order of the player's that does step `key` (the first the engine lists)."""
    battle = state.battle
    assert battle is not None
    legal = legal_commands(state)
    if key == "cover":
        cover = ("forest", "rocks")
        found = [c for c in legal if isinstance(c, Move) and battle.map.terrain_at(c.hex) in cover]
    else:
        kind = {
            "fire": FireGroup,
            "called": CalledShot,
            "brace": Brace,
            "vent": Vent,
            "withdraw": Withdraw,
        }[key]
        found = [c for c in legal if isinstance(c, kind)]
    return found[0] if found else None


def play_the_lessons() -> list[tuple[str, Command]]:
    """The tutorial played by a pupil who does each step as soon as it can (withdrawing last),
    the enemy played by the AI: the orders after the start, each with the side that gave it."""
    state = initial_state(tutorial.SEED)
    done: set[str] = set()
    for command in (tutorial.opening(), AutoDeploy(), StartBattle()):
        out = step(state, command)
        assert isinstance(out, Accepted)
        done |= tutorial.done_by(out.state.battle, out.events)
        state = out.state
    orders: list[tuple[str, Command]] = []
    while state.battle is not None and state.battle.phase != "over":
        side = to_act(state).side
        assert side is not None
        if side == "enemy":
            command = decide(state).command
        else:
            wanted = [k for k in ORDER if k not in done and (k != "withdraw" or len(done) == 6)]
            found = [c for c in (lesson(state, k) for k in wanted) if c is not None]
            command = found[0] if found else EndActivation()
        out = step(state, command)
        assert isinstance(out, Accepted), (command, out)
        done |= tutorial.done_by(out.state.battle or state.battle, out.events)
        state = out.state
        orders.append((side, command))
        assert len(orders) < 500
    assert done == set(tutorial.KEYS)
    return orders


def test_every_step_is_done_by_its_action_and_progress_follows_the_log() -> None:
    orders = play_the_lessons()
    commands = [tutorial.opening(), AutoDeploy(), StartBattle(), *(c for _, c in orders)]
    assert tutorial.progress(tutorial.SEED, commands) == frozenset(tutorial.KEYS)
    assert tutorial.progress(tutorial.SEED, commands[:1]) == frozenset()
    assert tutorial.progress(tutorial.SEED, commands[:3]) == {"deploy"}
    assert tutorial.progress(tutorial.SEED, commands[:-1]) == set(tutorial.KEYS) - {"withdraw"}
    assert len(orders) < 40  # a short lesson
    assert tutorial.is_tutorial(tutorial.SEED, commands)
    assert not tutorial.is_tutorial(tutorial.SEED + 1, commands)


def test_a_stalemate_is_no_withdrawal_of_the_players() -> None:
    from mac_tui.combat.events import BattleEnded, Stalemate

    out = step(initial_state(tutorial.SEED), tutorial.opening())
    assert isinstance(out, Accepted) and out.state.battle is not None
    battle = out.state.battle
    ended = BattleEnded(result="withdrawal", reason="ordered", round=3)
    assert tutorial.done_by(battle, [ended]) == {"withdraw"}
    assert tutorial.done_by(battle, [Stalemate(frames=(), round=3), ended]) == set()


async def test_the_hints_come_at_their_steps_on_the_battle_screen(tmp_path: Path) -> None:
    orders = play_the_lessons()
    app = MacApp(saves=tmp_path, settings=Settings())
    shown: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        session = app.session
        assert session is not None

        def message() -> str:
            return str(screen.query_one("#message").render())

        def title() -> str:
            return str(screen.query_one("#battle-title").render())

        def players_turn() -> bool:
            state = session.state
            return state.battle is None or to_act(state).side == "player"

        def over() -> bool:
            battle = session.state.battle
            return battle is None or battle.phase == "over"

        assert title().startswith("Tutorial · ") and "Quick battle" not in title()
        shown.append(message())
        await pilot.press("a", "s")  # auto-deploy, start
        await pilot.pause()
        for side, command in orders:
            if side == "enemy":
                continue  # the screen's AI gives it
            await run_until(pilot, players_turn, "the player's turn")
            shown.append(message())
            assert screen.order(command), command
            await pilot.pause()
        await run_until(pilot, over, "the battle's end")
        await pilot.pause()
        shown.append(message())
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SkirmishReportScreen)
        report = str(app.screen.query_one("#report").render())
        assert report.startswith("Tutorial: ") and "Quick battle" not in report
    firsts = [next(i for i, text in enumerate(shown) if hint in text) for hint in SHOWN.values()]
    assert firsts == sorted(firsts)  # each hint came, in order
    assert "Tutorial complete: all 7 steps done" in shown[-1]
