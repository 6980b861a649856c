"""Contracts a player can judge: the enemy force in brief (§16.1, R18), the lance's warnings
(W1), the reason a damaged frame cannot deploy with its repair's price (R20, §11.2), and the
threat assessment (players/assess.py, ruling A1): deterministic, cached, counted right."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from mac_tui.campaign.briefing import (
    counted,
    deploy_blocker,
    enemy_brief,
    frame_warnings,
    short_warning,
    stock_damage,
    weapon_damage,
)
from mac_tui.campaign.commands import Accept, Buy, NewCampaign
from mac_tui.campaign.repair import plan_repair
from mac_tui.catalog import catalog, load_catalog, use_catalog
from mac_tui.game import Accepted, step
from mac_tui.model import GameState, initial_state
from mac_tui.players import assess as assess_module
from mac_tui.players.assess import Assessment, assess, peek


def new_game(seed: int = 1) -> GameState:
    out = step(initial_state(seed), NewCampaign("Iron"))
    assert isinstance(out, Accepted)
    return out.state


def test_counted_names_repeat_once() -> None:
    assert counted(["Medium Laser", "Flamer", "Medium Laser"]) == "2 Medium Laser, Flamer"
    assert counted([]) == ""


def test_the_enemy_brief_is_the_contracts_force() -> None:
    state = new_game()
    assert state.campaign is not None
    cat = catalog()
    for contract in state.campaign.contracts:
        brief = enemy_brief(contract)
        force = cat.enemy_force(contract.difficulty)
        assert (brief.gunnery, brief.piloting, brief.tactics) == (
            force.gunnery,
            force.piloting,
            force.tactics,
        )
        assert [f.designation for f in brief.frames] == [e.chassis for e in contract.enemies]
        assert brief.tonnage == sum(cat.chassis[e.chassis].tonnage for e in contract.enemies)
        for f, e in zip(brief.frames, contract.enemies, strict=True):
            loadout = next(lo for lo in cat.stock_loadouts(e.chassis) if lo.name == e.loadout)
            names = [cat.weapons[w.weapon].name for w in loadout.weapons]
            for name in set(names):
                assert name in f.weapons
            n = names.count(names[0])
            assert (f"{n} {names[0]}" if n > 1 else names[0]) in f.weapons


def test_a_bought_chassis_arrives_unarmed_and_is_warned_about() -> None:
    state = new_game()
    assert state.campaign is not None
    scout = next(
        s for s in state.campaign.market(state.campaign.place).stock if s.kind == "chassis"
    )
    out = step(state, Buy("chassis", scout.item, 1))
    assert isinstance(out, Accepted) and out.state.campaign is not None
    c = out.state.campaign
    bought = c.frames[-1]
    assert bought.weapons == () and bought.status == "ready"
    assert short_warning(c, bought.id) == "unarmed"
    assert frame_warnings(c, bought.id) == (
        f"{bought.name} carries no weapon: fit some in the Refit bay (4)",
    )
    assert frame_warnings(c, "F1") == () and short_warning(c, "F1") is None


def test_under_armed_is_below_half_the_stock_damage() -> None:
    state = new_game()
    c = state.campaign
    assert c is not None
    enforcer = c.frame("F1")
    stock = stock_damage(enforcer.chassis)
    laser = next(m for m in enforcer.weapons if m.weapon == "light_laser")
    weak = attrs.evolve(enforcer, weapons=(laser,))
    c2 = c.with_frame(weak)
    assert 2 * weapon_damage(weak.weapons) < stock
    assert short_warning(c2, "F1") == "under-armed"
    (text,) = frame_warnings(c2, "F1")
    assert f"{weapon_damage(weak.weapons)} damage a volley, under half the {stock}" in text
    assert text.endswith("of a stock Enforcer")


def test_a_frame_at_92_percent_armour_says_why_and_what_the_repair_costs() -> None:
    state = new_game()
    c = state.campaign
    assert c is not None
    f = c.frame("F1")
    armor = tuple(a - a * 12 // 100 for a in f.armor)
    hurt = attrs.evolve(f, armor=armor, status="damaged")
    c2 = c.with_frame(hurt)
    full = catalog().chassis[f.chassis].armor
    left = sum(armor) * 100 // full
    assert 86 <= left <= 92
    quote = plan_repair(c2, "F1")
    assert not isinstance(quote, str)
    text = deploy_blocker(c2, "F1")
    assert text is not None
    assert f"({left}% left)" in text and f"{quote.cost:,} cr, {quote.days} day(s)" in text
    assert "R20" not in text and "(R" not in text  # no rule codes for the player
    assert deploy_blocker(c, "F1") is None


# ---- the assessment ---------------------------------------------------------------------------
def test_the_assessment_is_deterministic_counted_and_cached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new_game()
    assert state.campaign is not None
    contract = state.campaign.contracts[0].id
    assess_module.clear_cache()
    assert peek(state, contract, ["F1", "F2"], battles=4) == (False, None)
    first = assess(state, contract, ["F1", "F2"], battles=4)
    assert isinstance(first, Assessment)
    assert first.victories + first.withdrawals + first.defeats == first.battles == 4
    assert 0 <= first.battles_with_losses <= first.battles
    assert first.frames_lost <= first.frames * first.battles
    assert first.battles_with_losses <= first.frames_lost
    assert peek(state, contract, ["F1", "F2"], battles=4) == (True, first)

    # cached: asked again, no battle is fought
    def no_battles(*args: object) -> None:
        raise AssertionError("fought again")

    monkeypatch.setattr(assess_module, "_fight", no_battles)
    assert assess(state, contract, ["F1", "F2"], battles=4) == first
    monkeypatch.undo()
    # deterministic: the same figures from a cold cache
    assess_module.clear_cache()
    assert assess(state, contract, ["F1", "F2"], battles=4) == first


def test_the_assessment_cache_follows_the_catalog_in_force(tmp_path: Path) -> None:
    """A mod's tables make another battle: an assessment made under the installed data is not
    the answer under a mod (the lab measures mods in one process)."""
    state = new_game()
    assert state.campaign is not None
    contract = state.campaign.contracts[0].id
    assess_module.clear_cache()
    base = assess(state, contract, ["F1", "F2"], battles=2)
    assert peek(state, contract, ["F1", "F2"], battles=2) == (True, base)
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "weapons.toml").write_text('[[weapon]]\nid = "medium_laser"\ndamage = 1\n')
    previous = use_catalog(load_catalog(mods=[mod]))
    try:
        assert peek(state, contract, ["F1", "F2"], battles=2) == (False, None)
    finally:
        use_catalog(previous)
    assert assess(state, contract, ["F1", "F2"], battles=2) == base  # the installed data again


def test_the_assessment_fights_the_real_engine() -> None:
    """One battle by hand, as `assess` runs it: accepted, fought by the AI, settled."""
    state = new_game()
    assert state.campaign is not None
    contract = state.campaign.contracts[0].id
    one = assess(state, contract, ["F1"], battles=1)
    assert one is not None
    seeded = attrs.evolve(
        state,
        rng=assess_module.RngState(assess_module.raw(state.seed, f"assess {contract}", 0)),
    )
    end = assess_module._fight(seeded, Accept(contract, 2, "F1"))
    assert end is not None and end.campaign is not None and end.campaign.after_action
    result = end.campaign.after_action.result
    assert (one.victories, one.withdrawals, one.defeats) == (
        result == "victory",
        result == "withdrawal",
        result == "defeat",
    )


def test_no_assessment_for_a_lance_that_cannot_launch() -> None:
    state = new_game()
    assert state.campaign is not None
    contract = state.campaign.contracts[0].id
    assert assess(state, contract, []) is None
    assert assess(state, contract, ["F9"]) is None
    assert peek(state, contract, ["F9"]) == (True, None)


@pytest.mark.parametrize(
    ("won", "losses", "deaths", "rating"),
    [
        (8, 0, 1, "low"),
        (8, 2, 0, "moderate"),
        (6, 4, 3, "moderate"),
        (4, 8, 8, "high"),
        (2, 8, 8, "extreme"),
    ],
)
def test_the_rating_follows_ruling_a1(won: int, losses: int, deaths: int, rating: str) -> None:
    a = Assessment(
        battles=8,
        victories=won,
        withdrawals=0,
        defeats=8 - won,
        frames=2,
        frames_lost=losses,
        battles_with_losses=losses,
        pilots_killed=deaths,
        battles_with_deaths=deaths,
    )
    assert a.rating == rating
