"""The battle log's words (tui/battle_text.py's Narrator) for one shot: the engine's cascade
put in the player's form (damage_report.Phrasing), in the log pane's short form and the
history's full one."""

from __future__ import annotations

from mac_tui.combat.attack import AttackResult
from mac_tui.combat.state import Battle
from mac_tui.tui.battle_text import Narrator

from .test_attack import ML, NO_CRIT, battle, fire, raider, shooter
from .test_damage import NO_EFFECT, d100, location_draw, set_loc


def words(b: Battle, result: AttackResult, *, detail: bool) -> str:
    return Narrator(b, ascii_glyphs=False, detail=detail).attack(result)


def test_a_called_hit_names_its_location_once() -> None:
    b = battle(shooter(), raider())
    _, result = fire(b, ML, d100(63), NO_CRIT, NO_EFFECT, d100(1), called_location="head")
    short = words(b, result, detail=False)
    assert ": called hit HD for 10, armour 5 → 0, structure 2 → 0" in short
    assert "(called" not in short
    full = words(b, result, detail=True)
    assert "called shot -15; rolls 63: called hit head for 10, armour 5 → 0" in full
    assert "component roll" in full and "component roll" not in short
    # The engine's own line keeps its tabletop form.
    assert "hit (called HD) HD for 10, armour 5 -> 0" in result.describe()


def test_a_frame_put_out_of_the_fight_is_told_loudly() -> None:
    target = set_loc(raider(), "center_torso", armor=0, structure=3)
    b = battle(shooter(), target)
    _, result = fire(b, ML, d100(1), NO_CRIT, location_draw("center_torso"), NO_EFFECT)
    short = words(b, result, detail=False)
    assert short.endswith(
        "CT for 10, armour 0 → 0, structure 3 → 0, Center Torso destroyed, "
        "7 damage lost; FRAME DESTROYED"
    )
    assert result.describe().endswith("7 damage lost; frame destroyed")


def test_a_pilot_killed_is_told_loudly() -> None:
    b = battle(shooter(), raider())
    # The head: armour 5 -> 0, structure 2 -> 0; the pilot's survival roll fails (needs 70).
    _, result = fire(b, ML, d100(63), NO_CRIT, NO_EFFECT, d100(99), called_location="head")
    assert result.damage is not None and result.damage.pilot_survived is False
    assert "PILOT KILLED (rolls 99, needs 70)" in words(b, result, detail=True)
    assert "pilot killed (rolls 99, needs 70)" in result.describe()


def test_the_end_line_names_the_withdrawal_rule_as_the_whole_game_does() -> None:
    """The contract board, the quick-battle menu and the battle end line say the same words
    for a side's rule ("retreats at 50%", `combat.setup.WITHDRAW_TEXT`)."""
    from mac_tui.combat.events import BattleEnded

    b = battle(shooter(), raider())
    narrator = Narrator(b, ascii_glyphs=False, detail=False)
    for rule, words_ in (("at_50", "retreats at 50%"), ("never", "fights to the end")):
        ended = BattleEnded(result="victory", reason=f"the enemy side withdrew ({rule})", round=4)
        assert narrator.ended(ended) == (
            f"Battle over after round 4: VICTORY (the enemy side withdrew: it {words_})"
        )
