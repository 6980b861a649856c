"""How dangerous a contract is for a lance: a few headless battles of the real engine.

`assess(state, contract_id, frame_ids)` accepts the contract with those frames in a copy of
the state and lets the battle AI fight both sides (`players.driver.drive`, auto-resolve), a
few times, each battle from its own seed; the mission is settled by the engine as in play, and
the answer counts what came of it: victories, withdrawals and defeats, the lance's frames
destroyed and pilots killed. This is an estimate for the player, not a rule (the player will
fight the battle, not the AI): docs/rulings.md A1 says how the rating follows from the counts.

Deterministic: the seeds come from the game's seed and the contract (`dice.raw`), never from
the clock, so the same contract and lance always get the same figures; and cached, keyed by
what a battle depends on (the catalog in force, the seed, the contract, the frames and their
pilots as they would deploy), so a board drawn again costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Literal

import attrs
from attrs import frozen

from ..campaign.accept import accept_check, player_spec
from ..campaign.commands import Accept
from ..campaign.state import Contract
from ..catalog import catalog, per_catalog
from ..combat.setup import FrameSpec
from ..dice import RngState, raw
from ..game import Accepted, step
from ..model import GameState
from .ai import decide
from .driver import battle_seats, drive

BATTLES: Final = 8  # battles per assessment
MAX_COMMANDS: Final = 4000  # a battle longer than this is left as it stands (never seen)

Rating = Literal["low", "moderate", "high", "extreme"]


@frozen
class Assessment:
    """What came of `battles` simulated battles of a contract with a lance."""

    battles: int
    victories: int
    withdrawals: int
    defeats: int
    frames: int  # frames in the lance
    frames_lost: int  # frames destroyed, over all the battles
    battles_with_losses: int  # battles in which at least one frame was destroyed
    pilots_killed: int  # over all the battles
    battles_with_deaths: int  # battles in which at least one pilot was killed

    @property
    def rating(self) -> Rating:
        """A1: low when nearly every battle is won with hardly a frame or pilot lost;
        extreme when most are lost; moderate and high between."""
        n = max(1, self.battles)
        won = self.victories / n
        losses = self.battles_with_losses / n
        deaths = self.battles_with_deaths / n
        if won >= 0.9 and losses <= 0.125 and deaths <= 0.125:
            return "low"
        if won >= 0.7 and losses <= 0.5:
            return "moderate"
        if won >= 0.4:
            return "high"
        return "extreme"

    def summary(self) -> str:
        """`won 6 of 8 (1 withdrawal, 1 defeat); a frame destroyed in 2, a pilot killed in 1`."""
        parts = []
        if self.withdrawals:
            parts.append(_count(self.withdrawals, "withdrawal"))
        if self.defeats:
            parts.append(_count(self.defeats, "defeat"))
        text = f"won {self.victories} of {self.battles}"
        if parts:
            text += f" ({', '.join(parts)})"
        text += "; " + (
            f"frames destroyed in {self.battles_with_losses}"
            if self.battles_with_losses
            else "no frame destroyed"
        )
        if self.battles_with_deaths:
            text += f", a pilot killed in {self.battles_with_deaths}"
        return text


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _key_of(
    state: GameState, contract_id: str, frame_ids: Sequence[str], battles: int
) -> tuple[_Key, Accept] | None:
    payout = catalog().default_payout_level().level
    command = Accept(contract_id, payout, "+".join(frame_ids))
    if not frame_ids or accept_check(state, command) is not None:
        return None
    campaign = state.campaign
    assert campaign is not None
    contract = next(c for c in campaign.contracts if c.id == contract_id)
    specs = tuple(player_spec(campaign, campaign.frame(f)) for f in frame_ids)
    return _Key(state.seed, contract, specs, battles), command


def peek(
    state: GameState, contract_id: str, frame_ids: Sequence[str], battles: int = BATTLES
) -> tuple[bool, Assessment | None]:
    """(known, assessment) without running a battle: known when the assessment is cached,
    or when there is none to make (the engine would refuse the launch)."""
    found = _key_of(state, contract_id, frame_ids, battles)
    if found is None:
        return True, None
    key, _ = found
    cache = _cache()
    return (key in cache), cache.get(key)


def assess(
    state: GameState, contract_id: str, frame_ids: Sequence[str], battles: int = BATTLES
) -> Assessment | None:
    """The assessment of accepting `contract_id` with `frame_ids`, or None when the engine
    would refuse that (no frame, a frame that cannot deploy, too few credits...)."""
    found_key = _key_of(state, contract_id, frame_ids, battles)
    if found_key is None:
        return None
    key, command = found_key
    cache = _cache()
    found = cache.get(key)
    if found is None:
        runner = _runner[0]
        if runner is None:
            found = _run(key, state, command)
        else:
            offloaded = runner(state, contract_id, frame_ids, battles)
            if offloaded is None:  # the runner gave up: the game is closing
                return None
            found = offloaded
        while len(cache) >= CACHE_SIZE:
            cache.pop(next(iter(cache)))
        cache[key] = found
    return found


@frozen
class _Key:
    """What the battles depend on (the rest of the state is not part of it)."""

    seed: int
    contract: Contract
    lance: tuple[FrameSpec, ...]
    battles: int


Runner = Callable[[GameState, str, Sequence[str], int], "Assessment | None"]
_runner: list[Runner | None] = [None]
_abandon: list[Callable[[], None] | None] = [None]


def use_runner(runner: Runner | None, abandon: Callable[[], None] | None = None) -> None:
    """Have `assess` compute what it does not know with `runner` (same arguments as
    `compute`, None when it gives up; `assessor.py`'s helper process), or itself again with
    None. `abandon` makes the runner give up what it is waiting for (see `give_up`)."""
    _runner[0] = runner
    _abandon[0] = abandon


def give_up() -> None:
    """The game is closing: an assessment under way with a runner ends at once, unknown (a
    board thread waiting for it would keep the game from ending)."""
    abandon = _abandon[0]
    if abandon is not None:
        abandon()


def compute(
    state: GameState, contract_id: str, frame_ids: Sequence[str], battles: int = BATTLES
) -> Assessment | None:
    """`assess` without the cache: the battles, every time."""
    found_key = _key_of(state, contract_id, frame_ids, battles)
    if found_key is None:
        return None
    key, command = found_key
    return _run(key, state, command)


CACHE_SIZE: Final = 64


def _new_cache() -> dict[_Key, Assessment]:
    return {}


# One cache per catalog in force: the same contract under a mod's tables (`mac-tui lab --data`)
# is another battle, so switching catalogs starts an empty cache.
_cache = per_catalog(_new_cache)


def clear_cache() -> None:
    """Forget every assessment made under the catalog in force (tests start cold with it)."""
    _cache().clear()


def _run(key: _Key, state: GameState, command: Accept) -> Assessment:
    counts = {"victory": 0, "withdrawal": 0, "defeat": 0}
    lost = with_losses = killed = with_deaths = 0
    campaign = state.campaign
    assert campaign is not None
    frame_ids = command.frames.split("+")
    pilots = {campaign.frame(f).pilot for f in frame_ids}
    stream = f"assess {command.contract}"
    for i in range(key.battles):
        seeded = attrs.evolve(state, rng=RngState(raw(key.seed, stream, i)))
        end = _fight(seeded, command)
        if end is None or end.campaign is None or end.campaign.after_action is None:
            counts["withdrawal"] += 1
            continue
        result = end.campaign.after_action.result
        counts[result] = counts.get(result, 0) + 1
        gone = sum(1 for f in end.campaign.frames if f.id in frame_ids and f.status == "destroyed")
        dead = sum(1 for p in end.campaign.pilots if p.callsign in pilots and p.status == "kia")
        lost += gone
        killed += dead
        with_losses += gone > 0
        with_deaths += dead > 0
    return Assessment(
        battles=key.battles,
        victories=counts["victory"],
        withdrawals=counts["withdrawal"],
        defeats=counts["defeat"],
        frames=len(frame_ids),
        frames_lost=lost,
        battles_with_losses=with_losses,
        pilots_killed=killed,
        battles_with_deaths=with_deaths,
    )


def _fight(state: GameState, command: Accept) -> GameState | None:
    """Accept and let the AI fight both sides until the mission is settled."""
    outcome = step(state, command)
    if not isinstance(outcome, Accepted) or outcome.state.battle is None:
        return None
    start = outcome.state
    assert start.battle is not None
    seats = battle_seats(start.battle, decide, everyone=True)
    driven = drive(start, seats, max_commands=MAX_COMMANDS, until=lambda s: s.battle is None)
    return driven.state if driven.state.battle is None else None
