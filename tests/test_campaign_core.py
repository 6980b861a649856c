"""The campaign's core: a new company, the calendar, the day tick, pilots, the ledger."""

from __future__ import annotations

import attrs
import pytest

from mac_tui.campaign.calendar import date_text
from mac_tui.campaign.ledger import starting_credits
from mac_tui.campaign.pilots import next_callsign
from mac_tui.campaign.state import Campaign, add_count
from mac_tui.catalog import catalog
from mac_tui.game import Accepted, Refused, parse_command, step
from mac_tui.model import GameState, initial_state


def play(state: GameState, *lines: str) -> GameState:
    for line in lines:
        out = step(state, parse_command(line))
        assert isinstance(out, Accepted), f"{line}: {getattr(out, 'reason', '')}"
        state = out.state
    return state


def refused(state: GameState, line: str, reason: str) -> None:
    out = step(state, parse_command(line))
    assert isinstance(out, Refused), line
    assert reason in out.reason, out.reason


def new(seed: int = 1) -> GameState:
    return play(initial_state(seed), 'new-campaign "Iron Wolves"')


def camp(state: GameState) -> Campaign:
    assert state.campaign is not None
    return state.campaign


def test_new_campaign_matches_the_starting_conditions() -> None:
    # §13.3: 500,000 credits, 1 Jan 2847, Junction Station, fuel 50/100, EN-50 + RD-30,
    # four pilots, standing 0 with every faction.
    c = camp(new())
    assert c.credits == 500_000 and starting_credits(c) == 500_000
    assert (c.day, date_text(c.day)) == (1, "01 Jan 2847")
    assert catalog().places[c.place].name == "Junction Station"
    assert c.fuel == 50
    assert [(f.chassis, f.pilot, f.status) for f in c.frames] == [
        ("EN-50", "Ghost", "ready"),
        ("RD-30", "Falcon", "ready"),
    ]
    assert [p.callsign for p in c.pilots] == ["Ghost", "Falcon", "Thunder", "Shadow"]
    assert dict(c.standing) == {"crucible": 0, "directorate": 0, "outer_reach": 0}
    enforcer = c.frames[0]
    assert sum(enforcer.armor) == 110
    assert [(m.weapon, m.mount, m.group) for m in enforcer.weapons][2] == (
        "heavy_laser",
        "right_torso",
        2,
    )


def test_a_second_campaign_and_bad_names_are_refused() -> None:
    refused(new(), 'new-campaign "Again"', "already under way")
    refused(initial_state(1), 'new-campaign "   "', "1 to 40 characters")
    refused(initial_state(1), "advance-day", "start a campaign first")


@pytest.mark.parametrize(
    ("day", "text"),
    [
        (1, "01 Jan 2847"),
        (15, "15 Jan 2847"),
        (32, "01 Feb 2847"),
        (59, "28 Feb 2847"),
        (60, "01 Mar 2847"),
        (365, "31 Dec 2847"),
        (366, "01 Jan 2848"),
        (730, "31 Dec 2848"),
    ],
)
def test_calendar_has_no_leap_days(day: int, text: str) -> None:
    assert date_text(day) == text


def test_a_day_charges_upkeep_for_every_frame_not_destroyed() -> None:
    # §11.4: Medium 1,000 + Light 500 = 1,500 a day.
    state = play(new(), "advance-day 3")
    c = camp(state)
    assert c.day == 4
    assert c.credits == 500_000 - 3 * 1_500
    upkeep = [e for e in c.ledger if e.category == "upkeep"]
    assert [e.amount for e in upkeep] == [-1_500] * 3
    destroyed = attrs.evolve(c.frames[1], status="destroyed")
    state = attrs.evolve(state, campaign=c.with_frame(destroyed))
    c2 = camp(play(state, "advance-day"))
    assert c2.credits == c.credits - 1_000


def test_credits_always_equal_the_start_plus_the_ledger() -> None:
    state = play(new(), "advance-day 5", "hire", "advance-day 2", "hire")
    c = camp(state)
    assert starting_credits(c) == catalog().start.company.credits
    assert c.credits == starting_credits(c) + sum(e.amount for e in c.ledger)
    assert c.ledger[-1].balance == c.credits


def test_the_ledger_is_in_the_order_of_its_days_and_its_last_deployment_the_latest() -> None:
    """`runend.last_deployed` reads the ledger from its end: it holds when every entry is
    dated on or after the one before, through a played campaign's missions."""
    from mac_tui.campaign.runend import last_deployed
    from mac_tui.players.autorun import autoplay

    seen: list[int] = []

    def observe(state: GameState) -> None:
        c = state.campaign
        if c is None:
            return
        days = [e.day for e in c.ledger]
        assert days == sorted(days)
        deployments = [e.day for e in c.ledger if e.category == "deployment"]
        assert last_deployed(c) == max(deployments, default=1)
        seen.append(len(deployments))

    autoplay(3, days=90, missions=3, observe=observe)
    assert seen and max(seen) >= 2  # the campaign deployed more than once


def test_injured_pilots_heal_day_by_day() -> None:
    state = new()
    c = camp(state)
    hurt = attrs.evolve(c.pilot("Thunder"), status="injured", injury_days=2)
    state = attrs.evolve(state, campaign=c.with_pilot(hurt))
    one = camp(play(state, "advance-day"))
    assert (one.pilot("Thunder").status, one.pilot("Thunder").injury_days) == ("injured", 1)
    two = camp(play(state, "advance-day 2"))
    assert (two.pilot("Thunder").status, two.pilot("Thunder").injury_days) == ("active", 0)


def test_busy_frames_come_back_when_their_days_are_done() -> None:
    state = new()
    c = camp(state)
    state = attrs.evolve(
        state, campaign=c.with_frame(attrs.evolve(c.frames[0], status="repairing", busy_days=2))
    )
    assert camp(play(state, "advance-day")).frames[0].status == "repairing"
    back = camp(play(state, "advance-day 2")).frames[0]
    assert (back.status, back.busy_days) == ("ready", 0)


def test_thirty_days_below_zero_end_the_run() -> None:
    # R28: credits below zero for 30 days in a row.
    state = new()
    c = camp(state)
    state = attrs.evolve(state, campaign=attrs.evolve(c, credits=-1))
    ended = camp(play(state, "advance-day 29"))
    assert ended.ended is None and ended.negative_days == 29
    over = camp(play(state, "advance-day 30"))
    assert over.ended is not None and "30 days" in over.ended
    refused(attrs.evolve(state, campaign=over), "advance-day", "the run is over")


def test_advance_day_limits() -> None:
    refused(new(), "advance-day 0", "1 to 365")
    refused(new(), "advance-day 366", "1 to 365")


def test_hiring_costs_30000_and_rolls_skills_in_range() -> None:
    # §9.3: gunnery and piloting 2-4, tactics 1-3, morale 70 + d20.
    state = new()
    for _ in range(6):
        state = play(state, "hire")
    c = camp(state)
    hired = c.pilots[4:]
    assert [p.callsign for p in hired] == ["Blade", "Phoenix", "Wolf", "Iron", "Storm", "Razor"]
    for p in hired:
        assert 2 <= p.gunnery <= 4 and 2 <= p.piloting <= 4 and 1 <= p.tactics <= 3
        assert 71 <= p.morale <= 90
    assert c.credits == 500_000 - 6 * 30_000


def test_callsign_pool_overflows_to_merc_numbers() -> None:
    c = camp(new())
    names = [n for n in catalog().pilots.callsigns.pool if n not in {p.callsign for p in c.pilots}]
    extra = tuple(attrs.evolve(c.pilots[0], callsign=n) for n in names)
    full = attrs.evolve(c, pilots=(*c.pilots, *extra))
    assert next_callsign(full) == ("Merc-001", 1)
    assert next_callsign(attrs.evolve(full, mercs_hired=1)) == ("Merc-002", 2)


def test_hiring_needs_a_hiring_hall_and_the_money() -> None:
    state = new()
    c = camp(state)
    refused(attrs.evolve(state, campaign=attrs.evolve(c, credits=29_999)), "hire", "costs 30,000")
    refused(attrs.evolve(state, campaign=attrs.evolve(c, place="olympus_ring")), "hire", "hiring")


def test_assign_and_unassign_keep_one_pilot_per_frame() -> None:
    state = play(new(), "assign Thunder F1")
    c = camp(state)
    assert c.frame("F1").pilot == "Thunder"
    assert c.frame_of("Ghost") is None
    state = play(state, "assign Thunder F2")
    c = camp(state)
    assert (c.frame("F1").pilot, c.frame("F2").pilot) == (None, "Thunder")
    state = play(state, "unassign Thunder")
    assert camp(state).frame("F2").pilot is None
    refused(state, "unassign Thunder", "flies no frame")
    refused(state, "assign Nobody F1", "no pilot called Nobody")
    refused(state, "assign Ghost F9", "no frame F9")


def test_refusals_change_nothing() -> None:
    state = new()
    for line in ("assign Ghost F9", "unassign Shadow", "rename F1 ''", "advance-day -1"):
        out = step(state, parse_command(line))
        assert isinstance(out, Refused)
    assert state == new()


def test_rename_frame() -> None:
    state = play(new(), "rename F1 'Old Faithful'")
    assert camp(state).frame("F1").name == "Old Faithful"


def test_inventory_counts_never_go_negative() -> None:
    items = add_count((), "medium_laser", 2)
    assert add_count(items, "medium_laser", -2) == ()
    with pytest.raises(ValueError):
        add_count(items, "medium_laser", -3)


def test_the_day_tick_ends_a_run_that_cannot_field_anyone() -> None:
    # R28: every frame destroyed, no money for a rebuild: the next day ends the run.
    state = new()
    c = camp(state)
    wrecked = tuple(attrs.evolve(f, status="destroyed", pilot=None) for f in c.frames)
    broke = attrs.evolve(c, frames=wrecked, credits=1_000)
    out = camp(play(attrs.evolve(state, campaign=broke), "advance-day"))
    assert out.ended is not None and "no frame can deploy" in out.ended


def test_sixty_days_without_a_frame_that_can_deploy_end_the_run() -> None:
    """BL2 (R28 read): no frame has deployed for 60 days (none since day 1 here) and none can
    deploy today (both in the bay), whatever the credits: the company is finished. A frame
    that can deploy, or a deployment within the 60 days, keeps it going."""
    state = new()
    c = camp(state)
    rich = attrs.evolve(c, credits=10_000_000)
    benched = attrs.evolve(
        rich, frames=tuple(attrs.evolve(f, status="repairing", busy_days=400) for f in c.frames)
    )
    assert camp(play(attrs.evolve(state, campaign=rich), "advance-day 80")).ended is None
    alive = camp(play(attrs.evolve(state, campaign=benched), "advance-day 58"))
    assert alive.ended is None and alive.day == 59
    over = camp(play(attrs.evolve(state, campaign=alive), "advance-day 2"))
    assert over.ended == "no frame has deployed for 60 days and none can deploy"
    assert over.day == 61
    # a deployment on day 30 (the ledger's) moves the count on
    moved = attrs.evolve(
        alive, ledger=(*alive.ledger, attrs.evolve(alive.ledger[-1], day=30, category="deployment"))
    )
    assert camp(play(attrs.evolve(state, campaign=moved), "advance-day 30")).ended is None
