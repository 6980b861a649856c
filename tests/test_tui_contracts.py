"""Contracts, the mission screen and the after-action report, played through the terminal app;
and the launch panel's engine helper `reward_preview`."""

from __future__ import annotations

from pathlib import Path

import attrs

from mac_tui.campaign.contracts import reward_range
from mac_tui.campaign.rewards import mission_reward, reward_preview
from mac_tui.catalog import catalog
from mac_tui.combat.setup import WITHDRAW_TEXT
from mac_tui.game import Accepted, parse_command, step
from mac_tui.model import initial_state
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.afteraction import AfterActionScreen
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.contracts import ContractsSection
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.widgets.dialogs import ConfirmScreen

from .pacing import advance, run_until

# The first contract (C1), won by both starting frames as the planner fights it (seed 1's is
# lost under rules version 2; seeds 2 and 4-7 each break one of the steps below).
SEED = "3"


def text_of(app: MacApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


async def new_campaign(pilot, seed: str = SEED) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("n", *"Iron", "enter")
    await pilot.press("ctrl+a", "ctrl+k", *seed, "enter")
    await pilot.pause()


async def finish_battle(app: MacApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """The AI plays the battle out on the app's clock."""
    assert app.session is not None
    await run_until(pilot, lambda: app.session.state.battle is None, "the end of the battle")
    await pilot.pause()


# ---- the engine helper ---------------------------------------------------------------------
def test_reward_preview_brackets_what_the_mission_pays() -> None:
    outcome = step(initial_state(1), parse_command("new-campaign Iron"))
    assert isinstance(outcome, Accepted)
    campaign = outcome.state.campaign
    assert campaign is not None
    contract = campaign.contracts[0]
    top = catalog().reward(contract.difficulty).bonus_max
    full = reward_preview(campaign, contract, 0)
    assert full["victory"] == reward_range(campaign, contract)  # full pay: the board's range
    for level in range(5):
        preview = reward_preview(campaign, contract, level)
        for key, result, clean in (
            ("victory", "victory", False),
            ("victory_no_losses", "victory", True),
            ("withdrawal", "withdrawal", False),
            ("defeat", "defeat", False),
        ):
            low, high = preview[key]
            paid = mission_reward(contract, result, 100, level, clean)  # the hidden bonus
            assert low <= paid <= high
            assert high == mission_reward(
                attrs.evolve(contract, bonus=top), result, 100, level, clean
            )
    balanced = reward_preview(campaign, contract, 2)
    base = contract.base
    assert balanced["victory"][0] == base * 70 // 100
    assert balanced["victory_no_losses"][0] == base * 125 * 70 // 10000
    assert balanced["withdrawal"][0] == base * 50 * 70 // 10000
    assert balanced["defeat"][0] == base * 25 * 70 // 10000


# ---- the whole mission through the screens -------------------------------------------------
async def test_accept_auto_resolve_salvage_and_back_to_the_hub(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot)
        assert app.session is not None
        await pilot.press("6", "enter")  # the board, then plan the first contract
        await pilot.pause()
        section = app.screen.query_one(ContractsSection)
        assert section.contract_id == "C1"
        assert section.frame_ids() == ["F1", "F2"]  # ready frames come selected
        assert "Balanced" in text_of(app, "#payout")
        await pilot.press("right")
        await pilot.pause()
        assert section.level == 3 and "Mostly Salvage" in text_of(app, "#payout")
        await pilot.press("minus")
        await pilot.pause()
        assert section.level == 2
        assert "Victory" in text_of(app, "#preview") and "2 picks" in text_of(app, "#preview")
        assert "6,000" in text_of(app, "#launch-status")  # the deployment cost
        # D23: the enemy's rule, as the contract holds it, on the plan and the confirmation
        contract = app.session.state.campaign.contracts[0]  # type: ignore[union-attr]
        rule = f"The enemy {WITHDRAW_TEXT[contract.enemy_withdrawal]}."
        assert f"it {WITHDRAW_TEXT[contract.enemy_withdrawal]}" in text_of(app, "#launch-head")
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.message.endswith(rule)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
        assert app.session.state.battle is not None
        assert app.session.commands[-1].to_text() == "accept C1 2 F1+F2"
        assert app.session.state.battle.side_info("enemy").withdrawal == contract.enemy_withdrawal
        assert rule in text_of(app, "#lance")  # the deployment panel says it again

        await pilot.press("a", "s")  # auto-deploy, start
        await pilot.pause()
        await pilot.press("a")  # auto-resolve at its own pace for a moment...
        await advance(pilot, 0.9)
        assert app.screen.auto or app.session.state.battle is None
        await pilot.press("space")  # ...then skip to the end
        await finish_battle(app, pilot)
        campaign = app.session.state.campaign
        assert campaign is not None and app.session.state.battle is None
        aa = campaign.after_action
        assert aa is not None and aa.result == "victory" and aa.picks == 2
        assert "VICTORY" in text_of(app, "#message")
        assert campaign.missions_played == 1
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, AfterActionScreen)
        report = text_of(app, "#aa-text")
        assert "Victory: contract C1" in report and "Contract C1: victory" in report
        assert "Frames" in report and "Pilots" in report

        await pilot.press("space", "down", "space", "down", "space")  # the third is one too many
        await pilot.pause()
        assert app.screen.picks == [0, 1]
        assert "you may pick 2" in text_of(app, "#message")
        assert "Bonus" not in text_of(app, "#salvage-foot")  # finds stay hidden until confirmed
        await pilot.press("enter")
        await pilot.pause()
        aa = app.session.state.campaign.after_action
        assert aa is not None and aa.revealed and aa.picked == (0, 1)
        assert app.session.commands[-1].to_text() == "salvage 1+2"
        assert "Scavenged and bonus finds" in text_of(app, "#salvage-foot")

        frames = len(app.session.state.campaign.frames)
        await pilot.press("b")  # the head-kill frame on offer
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        campaign = app.session.state.campaign
        assert campaign is not None and len(campaign.frames) == frames + 1

        await pilot.press("enter")  # done
        await pilot.pause()
        assert isinstance(app.screen, HubScreen)
        campaign = app.session.state.campaign
        assert campaign is not None and campaign.after_action is None
        assert campaign.missions_played == 1 and campaign.missions_won == 1
        rewards = [e for e in campaign.ledger if e.category == "reward"]
        assert len(rewards) == 1 and rewards[0].text == "Contract C1: victory"
        assert rewards[0].amount == aa.credits > 0
        assert app.session.commands[-1].to_text() == "done"


async def test_launch_refusals_show_their_reasons(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot)
        session = app.session
        assert session is not None and session.state.campaign is not None
        campaign = session.state.campaign
        hurt = attrs.evolve(campaign.pilot("Falcon"), status="injured", injury_days=5)
        session.state = attrs.evolve(session.state, campaign=campaign.with_pilot(hurt))
        await pilot.press("6", "enter")
        await pilot.pause()
        section = app.screen.query_one(ContractsSection)
        assert section.frame_ids() == ["F1"]  # the injured pilot's frame is not offered
        lance = app.screen.query_one("#lance")
        assert "injured 5d" in str(lance.get_row_at(1)[-1])  # type: ignore[attr-defined]
        await pilot.press("down", "space")  # try to add it anyway
        await pilot.pause()
        assert section.frame_ids() == ["F1"]
        assert "Refused: Falcon is injured" in text_of(app, "#message")
        assert "cannot deploy: Falcon is injured for 5 more day(s)" in text_of(app, "#lance-detail")
        await pilot.press("up", "space")  # drop the Enforcer: nobody left to launch
        await pilot.pause()
        assert section.frame_ids() == []
        assert "Cannot launch: no frames selected" in text_of(app, "#launch-status")
        commands = len(session.commands)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, HubScreen) and len(session.commands) == commands
        await pilot.press("escape")  # back to the board
        await pilot.pause()
        assert section.contract_id is None and isinstance(app.screen, HubScreen)


# ---- contracts a player can judge ------------------------------------------------------------
async def test_the_board_rates_each_contract_against_the_lance_in_the_background(
    tmp_path: Path,
) -> None:
    from mac_tui.campaign.briefing import enemy_brief
    from mac_tui.players.assess import assess, clear_cache

    clear_cache()  # nothing assessed yet: the board says so, then shows the figures
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot)
        await pilot.press("6")
        await pilot.pause()
        board = app.screen.query_one("#contracts")
        threats = [str(board.get_row_at(i)[-1]) for i in range(board.row_count)]  # type: ignore[attr-defined]
        assert set(threats) <= {"soon"} | {"low", "moderate", "high", "extreme"}
        await app.workers.wait_for_complete()
        await pilot.pause()
        state = app.session.state  # type: ignore[union-attr]
        assert state.campaign is not None
        for i, contract in enumerate(state.campaign.contracts):
            expected = assess(state, contract.id, ["F1", "F2"])
            assert expected is not None
            assert str(board.get_row_at(i)[-1]) == expected.rating  # type: ignore[attr-defined]
        first = state.campaign.contracts[0]
        brief = enemy_brief(first)
        detail = text_of(app, "#contract-detail")
        assert f"Enemy: {brief.tonnage} tons, pilots gunnery {brief.gunnery}" in detail
        assert all(f"{f.designation} {f.name} ({f.frame_class}" in detail for f in brief.frames)
        rated = assess(state, first.id, ["F1", "F2"])
        assert rated is not None
        assert f"Threat to F1+F2 (80 t): {rated.rating.upper()}" in detail
        assert f"won {rated.victories} of {rated.battles}" in detail


async def test_the_launch_warns_about_an_unarmed_frame(tmp_path: Path) -> None:
    from mac_tui.campaign.commands import Assign, Buy

    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot)
        c = app.session.state.campaign  # type: ignore[union-attr]
        assert c is not None
        market = c.market(c.place)
        assert market is not None
        chassis = next(s.item for s in market.stock if s.kind == "chassis")
        assert app.act(Buy("chassis", chassis, 1))
        bought = app.session.state.campaign.frames[-1]  # type: ignore[union-attr]
        assert app.act(Assign("Thunder", bought.id))
        await pilot.press("6", "enter")
        await pilot.pause()
        section = app.screen.query_one(ContractsSection)
        assert section.frame_ids() == ["F1", "F2"]  # a bare frame is not taken by default
        lance = app.screen.query_one("#lance")
        assert "unarmed" in str(lance.get_row_at(2)[-1])  # type: ignore[attr-defined]
        await pilot.press("down", "down", "space")
        await pilot.pause()
        assert section.frame_ids() == ["F1", "F2", bought.id]
        warning = f"{bought.name} carries no weapon"
        assert warning in text_of(app, "#launch-status")
        assert warning in text_of(app, "#lance-detail")
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert f"Warning: {warning}" in str(app.screen.query_one(".prompt").render())


async def test_a_damaged_frame_says_why_it_cannot_deploy_and_what_the_repair_costs(
    tmp_path: Path,
) -> None:
    from mac_tui.campaign.repair import plan_repair

    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot)
        session = app.session
        assert session is not None and session.state.campaign is not None
        c = session.state.campaign
        f = c.frame("F1")
        hurt = attrs.evolve(f, armor=tuple(a - a * 12 // 100 for a in f.armor), status="damaged")
        session.state = attrs.evolve(session.state, campaign=c.with_frame(hurt))
        await pilot.press("6", "enter")
        await pilot.pause()
        quote = plan_repair(session.state.campaign, "F1")  # type: ignore[arg-type]
        assert not isinstance(quote, str)
        lance = app.screen.query_one("#lance")
        assert "damaged 92%" in str(lance.get_row_at(0)[-1])  # type: ignore[attr-defined]
        detail = text_of(app, "#lance-detail")
        assert "(92% left)" in detail and f"a repair first: {quote.cost:,} cr" in detail
