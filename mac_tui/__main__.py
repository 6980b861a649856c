"""`python -m mac_tui` runs the same command line as `mac-tui`."""

from .cli import main

raise SystemExit(main())
