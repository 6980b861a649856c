"""The import contract (docs/architecture.md, "Layers"): imports point one way, from the front
ends down to the catalog, there are no cycles between modules, and no engine module imports
Textual, Rich, asyncssh or pyte.

The graph is read from the source with `ast` (every `import`, function-level ones and
`TYPE_CHECKING` ones included), so an import hidden in a function cannot slip past. The
forbidden packages are also checked the way they would hurt: every engine module is imported in
a fresh interpreter and `sys.modules` is searched after each.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "mac_tui"

#: The layers, from the top; a module belongs to the layer of its longest matching prefix and
#: may import its own layer and the layers below, never one above.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "front ends",
        (
            "mac_tui.tui",
            "mac_tui.server",
            "mac_tui.cli",
            "mac_tui.cliserve",
            "mac_tui.clitree",
            "mac_tui.completion",
            "mac_tui.manpage",
            "mac_tui.__main__",
            "mac_tui.bench",
            "mac_tui.rules_view",
            "mac_tui.howto",  # the how-to-play pages, drawn from the catalog and the rules
            "mac_tui.players.simreport",  # prints `mac-tui sim`'s report with Rich
            "mac_tui.players.duelreport",  # `mac-tui duel`'s progress bar and report
            "mac_tui.players.aibench",  # `python -m mac_tui.bench ai`, through duelreport
            "mac_tui.lab",  # `mac-tui lab`: sweeps over the players layer, Rich and Dask
        ),
    ),
    ("players", ("mac_tui.players", "mac_tui.bots", "mac_tui.script")),
    (
        "sessions",
        (
            "mac_tui.session",
            "mac_tui.save",
            "mac_tui.savefolder",
            "mac_tui.savetext",
            "mac_tui.journal",
            "mac_tui.snapshot",
        ),
    ),
    ("engine", ("mac_tui.game",)),
    ("rules", ("mac_tui.combat", "mac_tui.campaign")),
    (
        "model",
        (
            "mac_tui.core",
            "mac_tui.model",
            "mac_tui.combat.state",
            "mac_tui.combat.mapgen",
            "mac_tui.combat.features",  # O3: the features as state, and their generation
            "mac_tui.campaign.state",
        ),
    ),
    ("base", ("mac_tui", "mac_tui.catalog", "mac_tui.dice", "mac_tui.hexgrid")),
)
#: Inside a layer, one package may not lean on another (the campaign plays battles; the
#: battle rules know nothing of the company).
FORBIDDEN_WITHIN = (("mac_tui.combat", "mac_tui.campaign"),)
#: What no engine module may import (everything below the front ends is the engine).
UI_PACKAGES = ("textual", "rich", "asyncssh", "pyte")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every module `module` imports (absolute names), with the line, at any depth."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield (sub if sub in modules() else target), node.lineno


def owner(name: str) -> str:
    """The nearest module of the package holding `name` (a module or a package)."""
    while name not in modules():
        name = name.rpartition(".")[0]
    return name


@cache
def graph() -> dict[str, dict[str, int]]:
    """module -> {module of the package it imports: line}."""
    out: dict[str, dict[str, int]] = {}
    for module, path in modules().items():
        deps: dict[str, int] = {}
        for name, line in imported(module, path):
            if name.split(".")[0] == "mac_tui" and owner(name) != module:
                deps.setdefault(owner(name), line)
        out[module] = deps
    return out


def layer_of(module: str) -> int:
    best = (-1, -1)
    for rank, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                best = max(best, (len(prefix), rank))
    assert best[1] >= 0, f"{module} belongs to no layer: add it to LAYERS"
    return best[1]


def engine_modules() -> list[str]:
    return [m for m in modules() if layer_of(m) > 0]


def cycles(members: set[str]) -> list[list[str]]:
    """The strongly connected components of more than one module among `members` (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph()[v]:
            if w not in members:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(members):
        if v not in index:
            visit(v)
    return found


# ---- the contract -------------------------------------------------------------------------
def test_the_graph_is_read_from_every_module() -> None:
    assert len(modules()) > 100
    assert "mac_tui.game" in graph()["mac_tui.players.driver"]
    assert "mac_tui.combat.firing" in graph()["mac_tui.combat.flow"]
    # a function-level import counts: the script imports nothing of the TUI, but cli does
    assert "mac_tui.tui.app" in graph()["mac_tui.cli"]


def test_every_module_has_a_layer() -> None:
    for module in modules():
        layer_of(module)


def test_imports_point_down_the_layers() -> None:
    upward = [
        f"{m} ({LAYERS[layer_of(m)][0]}) imports {d} ({LAYERS[layer_of(d)][0]}) at line {line}"
        for m, deps in graph().items()
        for d, line in deps.items()
        if layer_of(d) < layer_of(m)
    ]
    assert upward == []


def test_the_battle_rules_know_nothing_of_the_campaign() -> None:
    crossing = [
        f"{m} imports {d} at line {line}"
        for low, high in FORBIDDEN_WITHIN
        for m, deps in graph().items()
        if m == low or m.startswith(low + ".")
        for d, line in deps.items()
        if d == high or d.startswith(high + ".")
    ]
    assert crossing == []


def test_no_module_of_the_engine_and_players_imports_ui_or_server_packages() -> None:
    found = [
        f"{m} imports {name} at line {line}"
        for m in engine_modules()
        for name, line in imported(m, modules()[m])
        if name.split(".")[0] in UI_PACKAGES
    ]
    assert found == []


def test_no_cycles_between_modules_below_the_terminal_app() -> None:
    members = {m for m in modules() if not m.startswith("mac_tui.tui")}
    assert cycles(members) == []


def test_no_cycles_between_modules_of_the_terminal_app() -> None:
    members = {m for m in modules() if m.startswith("mac_tui.tui")}
    assert cycles(members) == []


def test_importing_every_engine_module_loads_no_ui_or_server_package() -> None:
    """In a fresh interpreter: import each engine module in turn; after each, none of the UI
    packages may be in `sys.modules` (a module-level `import rich` anywhere fails here)."""
    code = (
        "import importlib, sys\n"
        f"ui = {UI_PACKAGES!r}\n"
        "for name in sys.argv[1:]:\n"
        "    importlib.import_module(name)\n"
        "    bad = sorted(m for m in sys.modules if m.split('.')[0] in ui)\n"
        "    if bad:\n"
        "        print(name, 'loaded', ', '.join(bad[:3]))\n"
        "        break\n"
        "else:\n"
        "    print('clean', len(sys.argv) - 1)\n"
    )
    names = engine_modules()
    out = subprocess.run(
        [sys.executable, "-c", code, *names], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == f"clean {len(names)}"
