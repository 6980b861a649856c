"""Optional module O11 on the screens: objectives on the board (a hidden one as "?"), the
objective hex and the marked building on the map in both layouts and both glyph forms, the
battle log's objectives line and events, the quick battle's report, and debt in the status
line and the finances' words. Pure text: no app is run."""

from __future__ import annotations

import attrs

from mac_tui.campaign.contracts import contract_rows
from mac_tui.combat.features import Section
from mac_tui.combat.objectives import MissionCosts, ObjectiveMet
from mac_tui.combat.state import Objective, Tally
from mac_tui.hexgrid import Hex
from mac_tui.tui.battle_text import log_lines, objectives_line
from mac_tui.tui.glyphs import glyphs
from mac_tui.tui.screens.contracts_view import objectives_text
from mac_tui.tui.screens.skirmish_report import report_text
from mac_tui.tui.widgets.hex_picture import (
    NO_OVERLAY,
    OBJECTIVE,
    Painter,
    Scene,
    legend,
    objective_hexes,
)
from mac_tui.tui.widgets.status import status_text

from .test_attack import at, battle, raider, shooter
from .test_mission import camp, contract, edit, hub


def o11_battle(*objectives: Objective, **changes: object) -> object:
    b = battle(shooter(pos=at(0)), raider(col=9))
    return attrs.evolve(
        b, **{"ruleset": ("O3", "O11"), "objectives": objectives, "tally": Tally(), **changes}
    )


def drawn(b: object, layout: str, ascii_glyphs: bool, row: int) -> list[str]:
    scene = Scene.of(b, None, NO_OVERLAY)  # type: ignore[arg-type]
    lines = Painter(ascii_glyphs).row_lines(scene, row, layout, Hex(0, 0), None)  # type: ignore[arg-type]
    return ["".join(text for text, _ in line) for line in lines]


def test_the_board_lists_objectives_and_hides_the_hidden_one() -> None:
    c = contract(objectives=(Objective(id="OB5"), Objective(id="OB2", hidden=True)))
    state = edit(hub(), lambda cp: attrs.evolve(cp, contracts=(c,), ruleset=("O11",)))
    (row,) = contract_rows(camp(state))
    text = objectives_text(row, glyphs(True))
    assert text == "Objectives: OB5 Seize +15% | ? (hidden)"
    assert "Annihilate" not in text
    core = edit(hub(), lambda cp: attrs.evolve(cp, contracts=(contract(),)))
    assert contract_rows(camp(core))[0].objectives == ()


def test_the_objective_hex_and_the_marked_building_are_drawn_in_every_form() -> None:
    goal = at(4)
    building = at(6)
    sections = (Section(hex=building, feature="low_building", durability=50),)
    b = o11_battle(
        Objective(id="OB5", hex=goal), Objective(id="OB6", hex=building), structures=sections
    )
    assert objective_hexes(b) == {goal, building}  # type: ignore[arg-type]
    for ascii_glyphs in (True, False):
        mark = OBJECTIVE[0 if ascii_glyphs else 1]
        (compact,) = drawn(b, "compact", ascii_glyphs, 1)
        assert compact.count(mark) == 2, compact
        top, bottom = drawn(b, "roomy", ascii_glyphs, 1)
        assert top.count(mark) == 2 and bottom.count(mark) == 2, (top, bottom)
        assert f"{mark} objective" in legend(ascii_glyphs, objectives=True)
        assert f"{mark} objective" not in legend(ascii_glyphs)
    # A hidden objective or one already met is not drawn.
    quiet = attrs.evolve(
        b,
        objectives=(
            Objective(id="OB5", hex=goal, hidden=True),
            Objective(id="OB6", hex=building, met=2),
        ),
    )
    (compact,) = drawn(quiet, "compact", True, 1)
    assert OBJECTIVE[0] not in compact


def test_the_log_names_the_objectives_and_their_events() -> None:
    b = o11_battle(Objective(id="OB5", hex=at(4)), Objective(id="OB1", hidden=True))
    line = objectives_line(b, True)  # type: ignore[arg-type]
    assert line.startswith("Objectives: Seize +15% @ E2 (hold the objective hex")
    assert line.endswith("| ? (hidden)")
    events = [
        ObjectiveMet(id="OB1", round=2, hidden=True),
        MissionCosts(structure=14, shots=(5, 7, 4), equipment=1, credits=2_300),
    ]
    met, costs = log_lines(b, events, ascii_glyphs=True)  # type: ignore[arg-type]
    assert met == (
        "Hidden objective revealed and met: Decapitate +10% "
        "(an enemy pilot dies by head destruction), round 2"
    )
    assert costs == (
        "Mission costs 2,300 cr: 14 structure lost, shots 5 small / 7 medium / 4 large, "
        "1 equipment use"
    )


def test_the_quick_battle_report_shows_objectives_and_costs() -> None:
    b = o11_battle(
        Objective(id="OB3", met=4), Objective(id="OB5", hidden=True), phase="over", result="victory"
    )
    text = report_text(b, 1)  # type: ignore[arg-type]
    assert "Objective OB3 Swift" in text and "met in round 4" in text
    assert "Hidden objective OB5 Seize" in text and "hidden, missed" in text
    assert "Mission costs:" in text and "pays nothing" in text
    core = attrs.evolve(b, ruleset=(), objectives=(), tally=None)
    assert "Objectives" not in report_text(core, 1)  # type: ignore[arg-type]


def test_debt_is_said_in_words_in_the_status_line() -> None:
    state = edit(
        hub(), lambda cp: attrs.evolve(cp, credits=-5_000, negative_days=3, ruleset=("O11",))
    )
    assert "-5,000 cr | IN DEBT day 3/30: no XP" in status_text(state, True, 200).plain
    core = edit(hub(), lambda cp: attrs.evolve(cp, credits=-5_000, negative_days=3))
    assert "IN DEBT" not in status_text(core, True, 200).plain
