"""The optional parts of mac-tui and the pip extras that install them.

`pip install mac-tui` installs the game alone; hosting it (`mac-tui serve ssh`, `serve web`,
`python -m mac_tui.bench ssh`) needs `pip install 'mac-tui[server]'`, a store on a
PostgreSQL server (`--db postgresql://...`) `mac-tui[postgres]`, and sweeps on a Dask
cluster (`mac-tui lab run --scheduler`) `mac-tui[lab]` (pyproject.toml lists what each
extra brings). A command whose extra is missing says so in one line, naming the
extra, instead of a traceback: `missing_extra` imports what the command needs (it would import
it anyway) and words the message.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

SSH_MODULES = ("asyncssh", "pyte")
WEB_MODULES = ("aiohttp", "jinja2", "textual_serve", "pyte")
KEYS_MODULES = ("asyncssh",)  # serve keys reads and writes OpenSSH public keys
#: What each `mac-tui serve` command imports from the server extra (`serve scores` nothing).
SERVE_NEEDS = {"ssh": SSH_MODULES, "web": WEB_MODULES, "keys": KEYS_MODULES}
#: What `--db postgresql://...` (the servers' shared store) imports from the postgres extra.
POSTGRES_MODULES = ("psycopg",)
#: `mac-tui lab --scheduler` (the lab extra): Dask distributed.
LAB_DASK_MODULES = ("dask", "distributed")


def missing_extra(what: str, extra: str, modules: Sequence[str]) -> str | None:
    """None when every module of `modules` imports; else the one line telling how to get
    them: "`what` needs the `extra` extra: pip install 'mac-tui[extra]' (why)"."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            why = f"no module {name}" if exc.name == name else f"{name}: {exc}"
            return f"{what} needs the {extra} extra: pip install 'mac-tui[{extra}]' ({why})"
    return None
