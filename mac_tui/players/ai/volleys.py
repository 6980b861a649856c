"""The fire tables every decision shares: a group's volley, a frame's best single group by
distance, its best called shot's chance to kill, and the fire it can bring with the AP it has
(`situation.py` puts them together). Cached by the interned signatures of guns and defences.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ...combat.state import CENTER_TORSO, HEAD
from .odds import volley_odds
from .tables import BLOCKED, Clamp, Gun, Kit, make_room, shot_chance

_CACHE_LIMIT: Final = 200_000
COARSE: Final = 5


class Volley(NamedTuple):
    shots: tuple[tuple[int, Gun], ...]
    energy: int
    expected: float


# Shared by every decision: keyed by the interned signatures of the guns and the defences, so
# they stay true whoever carries them.
_volleys: dict[tuple[int, ...], Volley] = {}
_potentials: dict[tuple[int, ...], float] = {}
_singles: dict[tuple[int, ...], float] = {}
_called: dict[tuple[float, ...], float] = {}
CALLED: Final = ("head", "center_torso")


def coarse(shift: int) -> int:
    """A shift rounded to the nearest multiple of COARSE: the estimates of fire to come (an
    enemy's reply, the frame's outlook) share their tables across positions that differ by a
    point or two of line of sight; the fire a plan orders is always worked out exactly."""
    return COARSE * ((shift + COARSE // 2) // COARSE)


def volley(att: Kit, group: int, tgt: Kit, d: int, shift: int, relief: int, budget: int) -> Volley:
    """§7.2 as `plan_fire` does it: `att`'s group `group` at `tgt`, each weapon in order fired
    when in range and paid for from `budget` (`shot_chance` for `shift` and `relief`)."""
    key = (att.attack_sig, group, tgt.defence_sig, d, shift, relief, budget)
    found = _volleys.get(key)
    if found is not None:
        return found
    shots: list[tuple[int, Gun]] = []
    spent = 0
    expected = 0.0
    through = tgt.missile_pass
    for gun in att.groups.get(group, ()):
        chance = shot_chance(gun, tgt, d, shift, relief)
        if chance is None or budget - spent < gun.energy:
            continue
        shots.append((chance, gun))
        spent += gun.energy
        expected += chance * gun.damage * (through if gun.missile else 1.0)
    found = Volley(tuple(shots), spent, expected / 100)
    make_room(_volleys, _CACHE_LIMIT)
    _volleys[key] = found
    return found


def best_single(att: Kit, tgt: Kit, d: int, shift: int, relief: int, budget: int) -> float:
    """The expected damage of `att`'s best single group at `tgt` `d` hexes away (worked out
    per distance as asked: a decision needs a few distances around each frame, not all)."""
    key = (att.attack_sig, tgt.defence_sig, d, shift, relief, budget)
    found = _singles.get(key)
    if found is None:
        found = max(
            (volley(att, g, tgt, d, shift, relief, budget).expected for g in att.groups),
            default=0.0,
        )
        make_room(_singles, _CACHE_LIMIT)
        _singles[key] = found
    return found


def called_kill(att: Kit, tgt: Kit, d: int, shift: int, relief: int, budget: int) -> float:
    """The best chance `att` has of putting `tgt` out of the fight with one called shot (both
    AP) at its head or centre torso from `d` hexes (`shift` without the called-shot penalty)."""
    key = (
        att.attack_sig,
        tgt.defence_sig,
        tgt.hp[HEAD],
        tgt.hp[CENTER_TORSO],
        tgt.piloting_survival,  # the head's survival roll (not in the defence's signature)
        d,
        shift,
        relief,
        budget,
    )
    found = _called.get(key)
    if found is not None:
        return found
    best = 0.0
    weakest = min(h for h in (tgt.hp[HEAD], tgt.hp[CENTER_TORSO]) if h > 0)
    for g, guns in att.groups.items():
        if sum(gun.damage for gun in guns) < weakest:
            continue
        shots = volley(att, g, tgt, d, shift - Clamp.called, relief, budget).shots
        for loc in CALLED:
            best = max(best, volley_odds(tgt, shots, loc).p_kill)
    make_room(_called, _CACHE_LIMIT)
    _called[key] = best
    return best


def potential(
    att: Kit, tgt: Kit, d: int, shift: int, relief: int, budget: int, ap: int, move: int
) -> float:
    """Expected damage of `att`'s best activation at `tgt` `d` hexes away: its two best groups
    from where it stands, or its best group after a Move of up to `move` hexes (the same
    `shift`: line of sight and cover as they are)."""
    key = (att.attack_sig, tgt.defence_sig, d, shift, relief, budget, ap, move, att.move_energy)
    found = _potentials.get(key)
    if found is not None:
        return found
    groups = tuple(att.groups)
    best = 0.0
    if ap >= 2 and len(groups) >= 2 and d <= att.reach:
        firsts = sorted(
            ((volley(att, g, tgt, d, shift, relief, budget), g) for g in groups),
            key=lambda p: -p[0].expected,
        )
        for first, g1 in firsts[:2]:
            if not first.shots:
                continue
            rest = budget - first.energy
            for g2 in groups:
                if g2 != g1:
                    v = first.expected + volley(att, g2, tgt, d, shift, relief, rest).expected
                    if v > best:
                        best = v
    if ap >= 1:
        if ap >= 2 and move > 0:
            left = budget - att.move_energy
            lo, hi = max(att.closest, d - move), min(d + move, att.reach)
            if shift < -BLOCKED // 2:  # O2.6: a Move may step out of a blocked height line
                shift, relief = shift + BLOCKED, 0
        else:
            left = budget
            lo, hi = d, min(d, att.reach)
        for dd in range(lo, hi + 1):
            v = best_single(att, tgt, dd, shift, relief, left)
            if v > best:
                best = v
    make_room(_potentials, _CACHE_LIMIT)
    _potentials[key] = found = best
    return found
