"""The balance lab (`mac-tui lab`, docs/lab.md): declarative sweeps of battles and campaigns.

An experiment (`experiment.py`, a TOML file or flags) names the axes to sweep and the seeds per
cell; it expands into runs, each a pure function of (kind, config, seed) played by `runs.py`
in any process (`executors.py`: in this process, a local process pool, or Dask distributed).
Every finished run is a row of the SQLite store (`store.py`), keyed by a hash of what it
played, so a sweep resumes, grows and is re-queried without playing anything twice;
`report.py` turns rows into tables with 95% intervals, terminal charts, CSV and JSON.

The lab sits above the players layer (docs/architecture.md): it drives `players.duel` and the
campaign autopilot; nothing below imports it.
"""
