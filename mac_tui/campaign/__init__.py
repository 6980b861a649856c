"""The campaign: the company's life between battles, as pure commands over the game state."""
