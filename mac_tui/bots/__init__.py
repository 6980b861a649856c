"""Bots: players written on the public bot API (`mac_tui.bots.api`, `docs/bots.md`).

`greedy` and `random_bot` are the reference bots; they import nothing from mac-tui but the API
(a test holds them to it), so they double as worked examples.
"""
