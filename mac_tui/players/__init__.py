"""The players: policies that choose commands (the battle AI, a random player, the campaign
autopilot) and the one driver that lets them act until a human must act or the game ends.

Nothing in the rules (combat/, campaign/, model, core, catalog...) imports from here; a player
only reads the state and hands its command to the engine like a human's.
"""
