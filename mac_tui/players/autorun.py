"""The autopilot's driver: `autoplay(seed, ...)` plays a new game with a strategy of
`players.autopilot`, applying its lines to a `Session` exactly as `mac-tui script` does; it keeps
the accepted lines and falls back (`autopilot.fallback_lines`) when a chosen line is refused, so
it never loops on a refusal. The result, an `AutoRun`, is a script and the session it played."""

from __future__ import annotations

from collections.abc import Callable

import attrs
from attrs import frozen

from ..campaign.commands import NewCampaign
from ..model import GameState
from ..ruleset import Ruleset, format_ruleset
from ..script import run_line
from ..session import Session
from .autopilot import COMPANY, SENSIBLE, Strategy, fallback_lines, next_line


@frozen(kw_only=True)
class AutoRun:
    """A generated game: the accepted lines in order and the session that played them."""

    seed: int
    lines: tuple[str, ...]
    session: Session = attrs.field(eq=False)
    refused: int  # chosen lines that were refused (and replaced by a fallback)

    @property
    def state(self) -> GameState:
        return self.session.state


def days_passed(state: GameState) -> int:
    return 0 if state.campaign is None else state.campaign.day - 1


def autoplay(
    seed: int,
    *,
    days: int = 365,
    missions: int = 10,
    max_lines: int = 100_000,
    strategy: Strategy = SENSIBLE,
    observe: Callable[[GameState], None] | None = None,
    rules: Ruleset = (),
) -> AutoRun:
    """Play a new game from `seed` with `strategy` until `days` days have passed and `missions`
    missions were played (between missions), or the run ends, or after `max_lines` lines (a
    safety stop); the campaign is created with the optional rules `rules` (O0.1). `observe`
    sees the state after every accepted line."""
    session = Session.new(seed)
    opening = NewCampaign(COMPANY, rules=format_ruleset(rules)).to_text() if rules else None
    lines: list[str] = []
    refused = 0
    while len(lines) < max_lines:
        state = session.state
        c = state.campaign
        if c is not None:
            if c.ended:
                break
            done = days_passed(state) >= days and c.missions_played >= missions
            if done and state.battle is None and c.after_action is None:
                break
        line = opening if opening and c is None else next_line(state, strategy)
        if line is None:
            break
        result = run_line(session, len(lines) + 1, line)
        if result is not None and result.accepted:
            lines.append(line)
            if observe is not None:
                observe(session.state)
            continue
        refused += 1
        for fallback in fallback_lines(state):
            result = run_line(session, len(lines) + 1, fallback)
            if result is not None and result.accepted:
                lines.append(fallback)
                if observe is not None:
                    observe(session.state)
                break
        else:
            break  # nothing moves the game on: stop rather than loop
    return AutoRun(seed=seed, lines=tuple(lines), session=session, refused=refused)
