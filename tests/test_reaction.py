"""Optional module O6, reaction fire in cones (optional-rules.md O6.1-O6.9).

Battles are drawn by hand as in `test_attack.py`: on row 1 of an odd-r map
``from_offset(col, 1) == Hex(col, 1)``, so direction 0 (E) runs along the row. Every expected
number is worked out by hand in the comments, from the document's tables.
"""

from __future__ import annotations

from typing import Any

import attrs

from mac_tui.catalog import catalog
from mac_tui.combat.attack import hit_chance
from mac_tui.combat.state import Battle, Unit

from .test_attack import at, battle
from .test_damage import make_unit, weapon

CAT = catalog()
DATA = CAT.reaction


def ghost(col: int = 0, **changes: Any) -> Unit:
    """The O6 example: Ghost (gunnery 4: +8) in an Enforcer, group 1 = Medium Laser, AC-5,
    Light Laser."""
    return make_unit(
        "ghost",
        side="player",
        chassis="EN-50",
        gunnery=4,
        weapons=(
            weapon("medium_laser", "right_torso"),
            weapon("autocannon_5", "left_arm"),
            weapon("light_laser", "head"),
            weapon("lrm_15", "left_torso", 2),
        ),
        **{"pos": at(col), **changes},
    )


def raider(col: int = 6, row: int = 1, **changes: Any) -> Unit:
    """A Raider (evasion 22) of the enemy."""
    return make_unit("raider", **{"pos": at(col, row), **changes})


def o6(b: Battle, *more: str) -> Battle:
    return attrs.evolve(b, ruleset=("O6", *more))


def test_data_file_holds_the_documents_numbers() -> None:
    """O6.2: 1 AP; O6.3: `reaction` -25; O6.6: 1 AP, `sweep` -15."""
    assert (DATA.arming.ap, DATA.reaction.penalty) == (1, 25)
    assert (DATA.sweep.ap, DATA.sweep.penalty) == (1, 15)


def test_the_o6_example_without_o5() -> None:
    """O6 example, "had it not moved": a Raider 6 hexes away. Medium Laser 80 + 8 - 22 + 10
    (medium range at 6) - 25 = 51; AC-5 80 + 8 - 22 + 5 - 25 = 46; Light Laser 85 + 8 - 22 + 10
    - 25 = 56."""
    b = o6(battle(ghost(), raider()))
    g, r = b.unit("ghost"), b.unit("raider")
    got = [hit_chance(b, g, r, g.weapons[i], reaction="reaction") for i in range(3)]
    assert [hc.chance for hc in got if hc is not None] == [51, 46, 56]
    assert all(hc is not None and hc.modifiers[-1].name == "reaction" for hc in got)
    assert all(hc is not None and hc.value("reaction") == -25 for hc in got)


def test_sweep_entry() -> None:
    """O6.6: `sweep` -15: the Medium Laser's 76 becomes 61."""
    b = o6(battle(ghost(), raider()))
    g, r = b.unit("ghost"), b.unit("raider")
    plain = hit_chance(b, g, r, g.weapons[0])
    swept = hit_chance(b, g, r, g.weapons[0], reaction="sweep")
    assert plain is not None and swept is not None
    assert (plain.chance, swept.chance, swept.value("sweep")) == (76, 61, -15)
    assert swept.value("reaction") is None
