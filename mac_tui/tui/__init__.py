"""The terminal game (Textual). Screens read the state, draw it, and turn keys and clicks into
engine commands; they compute nothing a headless run would need."""
