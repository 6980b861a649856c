"""One live game per player across servers: a lease in the store (`store.Store.take_lease`).

Before a server starts a player's game it takes the player's lease (a row naming this server
process, with an expiry); it renews its leases every `LEASE_RENEW` seconds while their games
run and gives each back when its game has ended. A node that crashes, or loses its database,
stops renewing: its leases expire after `LEASE_SECONDS` and the player can play on another
node. A server that cannot renew for most of that time hangs its games up (each saves), so a
lease that has expired never has a game behind it still writing the player's saves.

A second node asked for a game whose lease another node holds refuses, saying where the game
runs (`ELSEWHERE_NODE`): the player's game there goes on untouched. (On one server a second
login takes the game over, as that server can hang up its own game; it cannot reach into
another node's.) The local `games.PlayerLock` stays under the lease: it covers a game that
outlives its server on the same host.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import time
from collections.abc import Callable

from . import LOG
from .store import LEASE_RENEW, LEASE_SECONDS, Store

ELSEWHERE_NODE = (
    "{name}'s game is open on another server of this game ({place}): leave it there first "
    "(a game whose connection has dropped is saved and freed within a few minutes)."
)


class Lease:
    """A player's lease held by this server for one game."""

    def __init__(self, player: str) -> None:
        self.player = player


class Leases:
    """This server process's leases (see the module)."""

    def __init__(self, store: Store, kind: str) -> None:
        host = socket.gethostname()
        self.store = store
        self.holder = f"{host}:{os.getpid()}:{secrets.token_hex(4)}"
        self.place = f"{host}, {kind}"
        self.held: dict[str, Lease] = {}
        self.renewed = time.monotonic()

    def take(self, player: str) -> Lease | str:
        """The player's lease, or why not (the text to show the player)."""
        where = self.store.take_lease(player, self.holder, self.place, LEASE_SECONDS)
        if where is not None:
            return ELSEWHERE_NODE.format(name=player, place=where)
        lease = self.held[player] = Lease(player)
        return lease

    def release(self, lease: Lease) -> None:
        """Give `lease` back, unless a newer game of the player holds the lease by now."""
        if self.held.get(lease.player) is not lease:
            return
        del self.held[lease.player]
        try:
            self.store.release_lease(lease.player, self.holder)
        except Exception as exc:  # it expires by itself
            LOG.warning("could not give back %s's game lease (%s): it expires", lease.player, exc)

    async def keep(self, lost: Callable[[set[str]], None]) -> None:
        """Renew the leases for ever; `lost(players)` for games whose lease is gone (taken
        over after an expiry) or about to go (the store out of reach for too long)."""
        while True:
            await asyncio.sleep(LEASE_RENEW)
            if not self.held:
                self.renewed = time.monotonic()
                continue
            try:
                kept = await asyncio.to_thread(self.store.renew_leases, self.holder, LEASE_SECONDS)
            except Exception as exc:
                late = time.monotonic() - self.renewed
                LOG.warning(
                    "could not renew the game leases (%s), %.0f s since the last", exc, late
                )
                if late > LEASE_SECONDS - 2 * LEASE_RENEW:
                    lost(set(self.held))
                continue
            self.renewed = time.monotonic()
            gone = set(self.held) - kept
            if gone:
                lost(gone)
