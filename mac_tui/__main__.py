"""`python -m mac_tui` runs the same command line as `mac-tui`."""

from .cli import main

if __name__ == "__main__":  # not when a worker process (spawn) imports this module
    raise SystemExit(main())
