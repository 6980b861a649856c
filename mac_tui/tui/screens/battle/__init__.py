"""The battle screen: `screen.py` (the screen), `modes.py` (its typed modes), `moment.py`
(the battle as the modes see it), `actions.py` (the one table of its keys, action bar and
palette entries), `orders.py` (orders that ask first), `layout.py` (widgets and texts)."""

from .screen import BattleScreen

__all__ = ["BattleScreen"]
