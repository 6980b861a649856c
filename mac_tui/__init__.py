"""Mechanized Armour Commander: a terminal campaign game of mercenary combat frames."""

__version__ = "0.2.0.dev0"
