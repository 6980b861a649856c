"""JSON save files: a header, the seed, the command log and a snapshot of the state.

The snapshot makes loading fast; the command log makes the save verifiable (replaying it from
the seed must give the snapshot again, compared by `state_hash`; see `session.verify`).

Format 2 records the game version that wrote the file (`game_version`), the rules version its
log was played under (`rules_version`, the engine's `RULES_VERSION`) and the game version whose
rules those were (`made_by`). Format 3 (rules version 2) stores on every contract the enemy
side's withdrawal rule (`enemy_withdrawal`, D23). Format 4 (this version) keeps each pilot's
service record and who put each frame out of a battle (the pilot sheet, P2). Older formats load
through the explicit migrations of `MIGRATIONS` (format 1: the saves of mac-tui 0.1.0, rules
version 1; format 2: rules version 1; format 3: rules version 2), and are written back in the
current format on the next save.

Reading (`read_save`) trusts nothing: the file must be a regular file under the size cap, its
JSON of bounded depth and number size (`safefile`), every field of the expected type (strict:
`true` is not a number, `"12"` is not a number, an object is not a list), its snapshot a state
the catalog and the rules allow (`snapshot.problems`). Every refusal is a `SaveError` naming the
file and the field, and the file is left as it is.

Files on disk (atomic writes, backups, recovery, listing) are `savefolder.py`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args, get_origin

import attrs
import cattrs
from attrs import frozen
from cattrs.errors import IterableValidationError, IterableValidationNote
from cattrs.gen import make_dict_unstructure_fn, override

from . import __version__
from .campaign.state import LedgerEntry, PilotRecord
from .game import RULES_VERSION, Command, CommandSyntaxError, format_command, parse_command
from .hexgrid import Hex
from .model import GameState
from .ruleset import Ruleset, RulesetError, format_ruleset, parse_ruleset
from .safefile import Refused, load_json, read_regular
from .stored import omits_default

FORMAT_VERSION = 4
MAGIC = "mac-tui-save"
MAX_LINE = 1000  # one command's text: the longest the game writes is far shorter
MAX_VERSION_TEXT = 40


class SaveError(Exception):
    """A save file that cannot be used; the message names the file and what is wrong."""


# ---- strict structuring ----------------------------------------------------------------------
def _what(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _strict(kind: type, words: str) -> Callable[[object, object], object]:
    def structure(value: object, _: object) -> object:
        if type(value) is not kind:  # bool is not int, int is not float
            raise TypeError(f"expected {words}, got {_what(value)}")
        return value

    return structure


def _hex(value: object, _: object) -> Hex:
    if not isinstance(value, list) or len(value) != 2 or not all(type(v) is int for v in value):
        raise TypeError(f"expected a hex as [q, r], got {_what(value)}")
    return Hex(value[0], value[1])


def _is_tuple(t: object) -> bool:
    return get_origin(t) is tuple


def make_converter() -> cattrs.Converter:
    """Unstructures the state to plain JSON data; structures it back strictly (types exact,
    no extra keys, lists for tuples)."""
    conv = cattrs.Converter(forbid_extra_keys=True)
    conv.register_unstructure_hook(Hex, lambda h: [h.q, h.r])
    conv.register_structure_hook(Hex, _hex)
    conv.register_structure_hook(int, _strict(int, "a whole number"))
    conv.register_structure_hook(str, _strict(str, "a text"))
    conv.register_structure_hook(bool, _strict(bool, "true or false"))

    def tuple_hook(t: Any) -> Callable[[object, object], tuple[Any, ...]]:
        args = get_args(t)
        homogeneous = len(args) == 2 and args[1] is Ellipsis

        def structure(value: object, _: object) -> tuple[Any, ...]:
            if not isinstance(value, list):
                raise TypeError(f"expected a list, got {_what(value)}")
            if not homogeneous and len(value) != len(args):
                raise ValueError(f"expected {len(args)} items, got {len(value)}")
            out: list[Any] = []
            errors: list[Exception] = []
            for i, item in enumerate(value):
                kind = args[0] if homogeneous else args[i]
                try:
                    out.append(conv.structure(item, kind))
                except Exception as exc:  # collected and reported with the path
                    exc.__notes__ = [
                        *getattr(exc, "__notes__", []),
                        IterableValidationNote(f"Structuring {t} @ index {i}", i, kind),
                    ]
                    errors.append(exc)
            if errors:
                raise IterableValidationError(f"While structuring {t!r}", errors, t)
            return tuple(out)

        return structure

    conv.register_structure_hook_factory(_is_tuple, tuple_hook)

    def has_optional(t: Any) -> bool:
        return attrs.has(t) and any(omits_default(f) for f in attrs.fields(t))

    def optional_hook(t: Any) -> Callable[[Any], Any]:
        # `stored.optional_field`s are left out at their default (O0.2: core saves unchanged)
        omit: dict[str, Any] = {
            f.name: override(omit_if_default=True) for f in attrs.fields(t) if omits_default(f)
        }
        return make_dict_unstructure_fn(t, conv, **omit)

    conv.register_unstructure_hook_factory(has_optional, optional_hook)

    # The ledger grows by a few entries a day, the ones before the same objects: their data
    # is kept from the last ledger unstructured (some 0.4 ms of a year's state) and only
    # the new entries' made (the data is only read: hashed and written).
    entry = conv.get_unstructure_hook(LedgerEntry)
    last: tuple[tuple[LedgerEntry, ...], list[Any]] = ((), [])

    def ledger(value: tuple[LedgerEntry, ...]) -> list[Any]:
        nonlocal last
        before, data = last
        n = len(before)
        if n > len(value) or value[:n] != before:  # (the same objects compare at once)
            n = 0
        made = data[:n] + [entry(e) for e in value[n:]]
        last = (value, made)
        return made[:]  # a list of its own

    conv.register_unstructure_hook_func(lambda t: t == tuple[LedgerEntry, ...], ledger)
    return conv


CONVERTER = make_converter()


def state_to_data(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = CONVERTER.unstructure(state)
    return data


def state_from_data(data: Any) -> GameState:
    return CONVERTER.structure(data, GameState)


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def state_hash(state: GameState) -> str:
    """A canonical SHA-256 of the whole state: equal states, equal hashes, in any process."""
    return hashlib.sha256(canonical_json(state_to_data(state)).encode()).hexdigest()


CHECKPOINT_CHARS = 16


def checkpoint(state: GameState) -> str:
    """The start of `state_hash`, logged after each command (`SaveFile.checkpoints`)."""
    return state_hash(state)[:CHECKPOINT_CHARS]


# ---- the file --------------------------------------------------------------------------------
@frozen
class SaveFile:
    """`checkpoints[i]` is the start of `state_hash` after `commands[i]` (to find where a replay
    parts from the save). `rules_version` is the rules the log was played under and `made_by`
    the game version whose rules those were; `format` is the format the file was read in."""

    seed: int
    commands: tuple[Command, ...]
    state: GameState
    header: dict[str, Any] = attrs.field(factory=dict)
    checkpoints: tuple[str, ...] = ()
    rules_version: int = RULES_VERSION
    made_by: str = __version__
    format: int = FORMAT_VERSION

    @property
    def current_rules(self) -> bool:
        return self.rules_version == RULES_VERSION

    def origin(self) -> str:
        """`mac-tui 0.1.0 (rules version 1, save format 1)`."""
        return (
            f"mac-tui {self.made_by} (rules version {self.rules_version}, "
            f"save format {self.format})"
        )


def to_doc(
    save: SaveFile,
    *,
    commands: list[str] | None = None,
    snapshot: dict[str, Any] | None = None,
    snapshot_hash: str | None = None,
) -> dict[str, Any]:
    """The file's document; `commands` (their text), `snapshot` (the state's data) and its
    hash given when already known (`savetext.SaveText`)."""
    doc = {
        "magic": MAGIC,
        "format": FORMAT_VERSION,
        "game_version": __version__,
        "rules_version": save.rules_version,
        "made_by": save.made_by,
        "header": save.header,
        "seed": save.seed,
        "commands": [format_command(c) for c in save.commands] if commands is None else commands,
        "checkpoints": list(save.checkpoints),
        "snapshot": state_to_data(save.state) if snapshot is None else snapshot,
        "snapshot_hash": state_hash(save.state) if snapshot_hash is None else snapshot_hash,
    }
    if save.state.ruleset:  # O0.1; a core game's file is as it always was
        doc["ruleset"] = format_ruleset(save.state.ruleset)
    return doc


def to_json(save: SaveFile) -> str:
    return json.dumps(to_doc(save), indent=1, sort_keys=True) + "\n"


# ---- migrations: format N -> N + 1 -----------------------------------------------------------
def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 1 (mac-tui 0.1.0) has no rules version: its logs were played under rules
    version 1, by the game version the file names."""
    version = doc.get("game_version")
    return {
        **doc,
        "format": 2,
        "rules_version": 1,
        "made_by": version if isinstance(version, str) else "0.1.0",
    }


def _digest(snapshot: Any) -> str:
    """`state_hash` of a snapshot as it is in the file (the same for a snapshot the writer made)."""
    return hashlib.sha256(canonical_json(snapshot).encode()).hexdigest()


def _v2_to_v3(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 3 (rules version 2) stores the enemy side's withdrawal rule on every contract
    (`enemy_withdrawal`, D23). A contract of older rules had none (the rule was drawn when the
    battle was set up), so: the contract of a battle under way (a mission, or the report of one
    whose battle is still in the state) takes the rule that battle uses; any other (on the
    board, or reported after its battle) takes the rule its difficulty gave most often when
    format 3 came (`V3_CONTRACT_RULE`).

    The snapshot changes, so `snapshot_hash` is recomputed when it matched the snapshot as
    found, and left as it was (so the load refuses the file as damaged) when it did not. The
    document is untrusted: a part that is not what format 2 wrote is left for the load to
    refuse."""
    return _with_snapshot(doc, 3, _v3_contracts)


def _v3_contracts(snapshot: dict[str, Any]) -> None:
    fought = _enemy_rule(snapshot.get("battle"))
    campaign = snapshot.get("campaign")
    if isinstance(campaign, dict):
        for contract in _list(campaign.get("contracts")):
            _give_rule(contract, None)
        for key in ("mission", "after_action"):
            held = campaign.get(key)
            if isinstance(held, dict):
                _give_rule(held.get("contract"), fought)


def _with_snapshot(
    doc: dict[str, Any], fmt: int, edit: Callable[[dict[str, Any]], None]
) -> dict[str, Any]:
    """`doc` in format `fmt` with `edit` applied to a copy of its snapshot (the document itself
    is not changed); `snapshot_hash` recomputed only when it matched the snapshot as found, so a
    damaged file stays refused. A snapshot that is not an object is left for the load to refuse."""
    out = {**doc, "format": fmt}
    snapshot = doc.get("snapshot")
    if not isinstance(snapshot, dict):
        return out
    intact = "snapshot_hash" in doc and doc["snapshot_hash"] == _digest(snapshot)
    snapshot = json.loads(json.dumps(snapshot))
    edit(snapshot)
    out["snapshot"] = snapshot
    if intact:
        out["snapshot_hash"] = _digest(snapshot)
    return out


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _enemy_rule(battle: Any) -> str | None:
    """The withdrawal rule of a format-2 battle's enemy side, or None."""
    if not isinstance(battle, dict):
        return None
    for side in _list(battle.get("sides")):
        if isinstance(side, dict) and side.get("side") == "enemy":
            rule = side.get("withdrawal")
            return rule if isinstance(rule, str) else None
    return None


# Format 3's rule for a contract that is not being fought: the one its difficulty gave most
# often when format 3 came (rules version 2, docs/rulings.md D23; on equal odds the one that
# fights longest). Fixed here, not read from the data, so the migration gives the same save for
# ever whatever later rules versions do with the odds.
V3_CONTRACT_RULE: dict[int, str] = {1: "at_25", 2: "at_25", 3: "at_50", 4: "at_50", 5: "never"}


def _give_rule(contract: Any, fought: str | None) -> None:
    if not isinstance(contract, dict) or "enemy_withdrawal" in contract:
        return
    difficulty = contract.get("difficulty")
    rule = fought
    if rule is None and type(difficulty) is int:
        rule = V3_CONTRACT_RULE.get(difficulty)
    if rule is not None:
        contract["enemy_withdrawal"] = rule


def _v3_to_v4(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 4 keeps each pilot's service record (`record`, docs/rulings.md P2) and, in a
    battle, who put each frame out (`downed_by`). A format-3 save has neither: its pilots get an
    empty record whose hiring day is unknown (`hired_day` null: the sheet says the pilot joined
    before the record began), and the frames already down in a battle under way credit nobody.

    Like `_v2_to_v3`, `snapshot_hash` is recomputed only when it matched the snapshot as found;
    a part that is not what format 3 wrote is left for the load to refuse."""
    return _with_snapshot(doc, 4, _v4_records)


def _v4_records(snapshot: dict[str, Any]) -> None:
    campaign = snapshot.get("campaign")
    if isinstance(campaign, dict):
        for pilot in _list(campaign.get("pilots")):
            if isinstance(pilot, dict):
                pilot.setdefault("record", CONVERTER.unstructure(PilotRecord()))
    battle = snapshot.get("battle")
    if isinstance(battle, dict):
        for unit in _list(battle.get("units")):
            if isinstance(unit, dict):
                unit.setdefault("downed_by", None)


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
}


def migrate(doc: dict[str, Any], fmt: int) -> dict[str, Any]:
    """Bring a document of format `fmt` to `FORMAT_VERSION`, one migration at a time."""
    for version in range(fmt, FORMAT_VERSION):
        doc = MIGRATIONS[version](doc)
    return doc


# ---- reading ---------------------------------------------------------------------------------
def _field(doc: dict[str, Any], name: str, kind: type, words: str, *, required: bool = True) -> Any:
    """`doc[name]` of exactly `kind` (a `true` is not a number), else SaveError's text."""
    if name not in doc:
        if required:
            raise _Bad(f'field "{name}" is missing')
        return None
    value = doc[name]
    if type(value) is not kind:
        raise _Bad(f'field "{name}" must be {words}, not {_what(value)}')
    return value


class _Bad(Exception):
    """What is wrong, without the file's name (from_doc puts it in front)."""


def _snapshot_detail(exc: Exception) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        lines = cattrs.transform_error(exc, path="snapshot")
        shown = "; ".join(lines[:4])
        return shown + (f" (and {len(lines) - 4} more)" if len(lines) > 4 else "")
    return str(exc) or type(exc).__name__


def from_doc(doc: Any, name: str = "save") -> SaveFile:
    """The save in a parsed document; SaveError naming `name` and the field when it is not a
    save this version can use."""
    try:
        return _from_doc(doc)
    except _Bad as exc:
        raise SaveError(f"{name}: {exc}.") from None


def _from_doc(doc: Any) -> SaveFile:
    if not isinstance(doc, dict) or doc.get("magic") != MAGIC:
        raise _Bad("not a mac-tui save file")
    fmt = _field(doc, "format", int, "a whole number")
    if fmt < 1:
        raise _Bad(f'field "format" is {fmt}; save formats start at 1')
    if fmt > FORMAT_VERSION:
        raise _Bad(
            f"written by a newer mac-tui (save format {fmt}, this version reads up to "
            f"{FORMAT_VERSION}); upgrade mac-tui to load it"
        )
    doc = migrate(doc, fmt)
    rules = _field(doc, "rules_version", int, "a whole number")
    if rules < 1:
        raise _Bad(f'field "rules_version" is {rules}; rules versions start at 1')
    if rules > RULES_VERSION:
        raise _Bad(
            f"played under newer rules (rules version {rules}, this version plays "
            f"{RULES_VERSION}); upgrade mac-tui to load it"
        )
    made_by = _field(doc, "made_by", str, "a text")
    if not 0 < len(made_by) <= MAX_VERSION_TEXT:
        raise _Bad(f'field "made_by" must have 1 to {MAX_VERSION_TEXT} characters')
    seed = _field(doc, "seed", int, "a whole number")
    lines = _field(doc, "commands", list, "a list of command lines")
    snapshot = _field(doc, "snapshot", dict, "an object")
    header = _field(doc, "header", dict, "an object", required=False) or {}
    checkpoints = _field(doc, "checkpoints", list, "a list", required=False) or []
    ruleset = _ruleset(doc)
    expected = _field(doc, "snapshot_hash", str, "a text", required=fmt >= 2)
    commands = _commands(lines)
    if not all(isinstance(c, str) and len(c) <= 64 for c in checkpoints):
        raise _Bad('field "checkpoints" must be a list of hashes')
    if checkpoints and len(checkpoints) != len(commands):
        raise _Bad(
            f'field "checkpoints" has {len(checkpoints)} entries for {len(commands)} commands'
        )
    try:
        state = state_from_data(snapshot)
    except Exception as exc:  # untrusted data: every failure is a refusal
        raise _Bad(f'field "snapshot" is damaged: {_snapshot_detail(exc)}') from None
    if expected is not None and expected != state_hash(state):
        raise _Bad('field "snapshot" does not match field "snapshot_hash" (file damaged)')
    if state.seed != seed:
        raise _Bad(f'field "seed" is {seed} but the snapshot\'s seed is {state.seed}')
    if state.ruleset != ruleset:
        named, game = format_ruleset(ruleset) or "core", format_ruleset(state.ruleset) or "core"
        raise _Bad(f'field "ruleset" is {named} but the game\'s is {game}')
    from .snapshot import problems

    found = problems(state)
    if found:
        raise _Bad("; ".join(found))
    return SaveFile(
        seed=seed,
        commands=commands,
        state=state,
        header=header,
        checkpoints=tuple(checkpoints),
        rules_version=rules,
        made_by=made_by,
        format=fmt,
    )


def _ruleset(doc: dict[str, Any]) -> Ruleset:
    """The optional modules the game is played with (O0.1): refused, naming them, when this
    version cannot play them (the file is left as it is)."""
    text = _field(doc, "ruleset", str, "a text", required=False)
    if text is None:
        return ()
    if len(text) > MAX_LINE:
        raise _Bad('field "ruleset" is too long')
    try:
        return parse_ruleset(text)
    except RulesetError as exc:
        raise _Bad(f'field "ruleset": {exc}') from None


def _commands(lines: list[Any]) -> tuple[Command, ...]:
    commands: list[Command] = []
    parsed: dict[str, Command] = {}  # a long log repeats few lines: parse each text once
    for i, line in enumerate(lines):
        if not isinstance(line, str) or len(line) > MAX_LINE:
            raise _Bad(f'field "commands", line {i + 1}: not a command line')
        command = parsed.get(line)
        if command is None:
            try:
                command = parsed[line] = parse_command(line)
            except CommandSyntaxError as exc:
                raise _Bad(f'field "commands", line {i + 1}: {exc}') from None
        commands.append(command)
    return tuple(commands)


def from_json(data: bytes | str, name: str = "save") -> SaveFile:
    try:
        doc = load_json(data)
    except Refused as exc:
        raise SaveError(f"{name}: not a readable save: it {exc}.") from None
    return from_doc(doc, name)


def read_save(path: Path, name: str | None = None) -> SaveFile:
    """The save at `path` (a regular file, checked through); SaveError naming `name` (default:
    the path) when it cannot be used. The file is never changed."""
    shown = str(path) if name is None else name
    try:
        data = read_regular(path)
    except Refused as exc:
        raise SaveError(f"{shown}: {refusal_text(str(exc))}.") from None
    return from_json(data, shown)


def refusal_text(text: str) -> str:
    """The safe reader's refusal in a save's words."""
    return "no such save file" if text == "no such file" else text
