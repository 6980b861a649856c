"""The random reference bot: a uniform pick among the legal commands (never the withdrawal,
so it always fights it out). Built only on the public API."""

from __future__ import annotations

from mac_tui.bots import api

#: The stream it draws from (the random player's since mac-tui 0.1, so its games are unchanged).
STREAM = "random-player"


def random_policy(state: api.GameState) -> api.Decision:
    """A uniform pick among `legal_commands`, drawn from `api.draw` (a pure function of the
    state), so the same seed gives the same game."""
    options = [c for c in api.legal_commands(state) if not isinstance(c, api.Withdraw)]
    pick = api.draw(state, STREAM) % len(options)
    return api.Decision(options[pick], note="random")
