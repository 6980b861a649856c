"""Mechanized Armour Commander: a terminal campaign game of mercenary combat frames."""

__version__ = "0.1.0"
