"""The game state: immutable attrs values. Later layers add the company and the battle."""

from .state import GameState, initial_state

__all__ = ["GameState", "initial_state"]
