"""The server's store (`mac_tui.server.store`): one suite, run against both back ends.

`store_url` is parametrised: SQLite (a file in the test's folder, as `DATA/store.db`) and
PostgreSQL (a fresh database on the real server the `postgres` fixture starts once per
session; skipped, saying why, where no PostgreSQL server program can be found).
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest

from mac_tui.campaign.commands import AdvanceDay
from mac_tui.cli import main
from mac_tui.game import Accepted
from mac_tui.save import read_save
from mac_tui.server.accounts import Accounts, DataDir, StoredRegistrations, key_line
from mac_tui.server.leases import Lease, Leases
from mac_tui.server.limits import registrations_used_up
from mac_tui.server.scores import collect, verified_figures
from mac_tui.server.store import SaveRow, Store, StoreError, open_store
from mac_tui.server.store.base import SCHEMA_VERSION
from mac_tui.server.store.files import prepare, scores_from_store, stored_scores, sync_saves
from mac_tui.server.store.report import SaveReporter

from .pgserver import PgServer
from .test_scores import campaign_save, rewritten, server_data

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    server: PgServer = request.getfixturevalue("postgres")
    return server.new_database()


@pytest.fixture
def store(store_url: str, tmp_path: Path) -> Iterator[Store]:
    with open_store(store_url, tmp_path) as opened:
        yield opened


def row(player: str, file: str, mtime: int, **kw: object) -> SaveRow:
    return SaveRow(player, file, 10, mtime, {"company": "X"}, None, **kw)  # type: ignore[arg-type]


# ---- the schema ------------------------------------------------------------------------------
def test_migrations_run_once_and_a_newer_schema_is_refused(store_url: str, tmp_path: Path) -> None:
    with open_store(store_url, tmp_path) as first:
        assert first.schema_version() == SCHEMA_VERSION
        first.register("alice", password="h")
    with open_store(store_url, tmp_path) as again:  # opened again: nothing re-run, nothing lost
        assert again.schema_version() == SCHEMA_VERSION
        assert again.account("alice") is not None
        again._run(
            lambda c: again._do(c, "INSERT INTO schema_version (version) VALUES (?)", (999,)),
            write=True,
        )
    with pytest.raises(StoreError, match="version 999, newer than this mac-tui knows"):
        open_store(store_url, tmp_path)


def test_a_bad_url_or_an_unreachable_server_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="--db must be postgresql://"):
        open_store("mysql://x", tmp_path)
    pytest.importorskip("psycopg")
    with pytest.raises(StoreError, match="cannot connect to postgresql://me:\\*\\*\\*@") as raised:
        open_store("postgresql://me:secret@127.0.0.1:1/none?connect_timeout=2", tmp_path)
    assert "\n" not in str(raised.value) and "secret" not in str(raised.value)  # one line


# ---- accounts --------------------------------------------------------------------------------
def test_names_keys_and_passwords(store: Store) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")
    assert store.register("alice", key=(key.public_data, key_line(key, "alice")), peer="p")
    assert not store.register("alice", password="h")  # taken
    assert not store.register("ALICE", password="h")  # too like it
    assert store.clash("Alice") == "alice" and store.clash("alice") is None
    assert store.register("bob", password="scrypt$x")
    alice, bob = store.account("alice"), store.account("bob")
    assert alice is not None and alice.keys == (key.public_data,) and alice.password is None
    assert bob is not None and bob.keys == () and bob.password == "scrypt$x"
    assert store.account("carol") is None
    assert store.add_key("alice", other.public_data, key_line(other, "second"))
    assert not store.add_key("alice", other.public_data, "again")  # it opens it already
    assert not store.add_key("carol", other.public_data, "nobody")  # not registered
    assert set(store.account("alice").keys) == {key.public_data, other.public_data}  # type: ignore[union-attr]
    assert sorted(store.player_names()) == ["alice", "bob"]


def test_registrations_are_counted_per_address_per_day(store: Store, tmp_path: Path) -> None:
    data = DataDir(tmp_path / "data")
    data.make()
    accounts = Accounts(data, store)
    cap = StoredRegistrations(store, 2)
    for name in ("a1", "a2"):
        assert registrations_used_up(cap, "192.0.2.7") is None
        assert accounts.register_password(name, "scrypt$x", "192.0.2.7")
        assert (data.players / name / "saves").is_dir()
    assert "192.0.2.7 has registered 2 new names today" in str(
        registrations_used_up(cap, "192.0.2.7")
    )
    assert 0 < cap.retry_after("192.0.2.7") <= 24 * 3600
    assert registrations_used_up(cap, "192.0.2.8") is None  # another address
    assert not accounts.register_password("a1", "scrypt$y", "192.0.2.9")  # taken: not counted
    assert store.registrations("192.0.2.9") == []
    assert len(store.registrations("192.0.2.7", within=-1)) == 0  # older than the window: gone


def test_two_servers_registering_one_name_at_once_get_it_once(
    store_url: str, tmp_path: Path
) -> None:
    stores = [open_store(store_url, tmp_path) for _ in range(4)]
    results: list[bool] = []
    start = threading.Barrier(len(stores))

    def register(s: Store, i: int) -> None:
        start.wait()
        results.append(s.register("dora" if i % 2 else "DORA", password=f"h{i}"))

    threads = [threading.Thread(target=register, args=(s, i)) for i, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in stores:
        s.close()
    assert sorted(results) == [False, False, False, True]


# ---- the index of saves ----------------------------------------------------------------------
def test_the_index_keeps_the_newest_version_of_each_file(store: Store) -> None:
    store.record_save(row("alice", "players/alice/saves/a.json", 200, problem=""))
    store.record_save(row("alice", "players/alice/saves/a.json", 100, problem="older"))
    store.record_save(row("bob", "players/bob/saves/b.json", 5, problem="bad"))
    (a,) = store.saves("alice")
    assert a.mtime_ns == 200 and a.problem == ""  # a late report of an older file lost
    store.record_save(row("alice", "players/alice/saves/a.json", 300, problem="newer"))
    assert store.saves("alice")[0].problem == "newer"
    assert [r.player for r in store.saves()] == ["alice", "bob"]
    store.forget_save("alice", "players/alice/saves/a.json")
    assert store.saves("alice") == []


# ---- one game per player ---------------------------------------------------------------------
def test_a_game_lease_is_one_servers_until_given_back_or_expired(store: Store) -> None:
    assert store.take_lease("alice", "node-a", "a, ssh") is None
    assert store.take_lease("alice", "node-b", "b, web") == "a, ssh"  # refused: where it runs
    assert store.take_lease("alice", "node-a", "a, ssh") is None  # its own again
    assert store.renew_leases("node-a") == {"alice"}
    assert store.leases() == {"alice": "a, ssh"}
    store.release_lease("alice", "node-b")  # not node-b's: nothing happens
    assert store.take_lease("alice", "node-b", "b, web") == "a, ssh"
    store.release_lease("alice", "node-a")
    assert store.take_lease("alice", "node-b", "b, web") is None
    # node-b crashes: its lease is not renewed and expires (here: taken with no time left)
    assert store.take_lease("bob", "node-b", "b, web", seconds=-1) is None
    assert store.take_lease("bob", "node-a", "a, ssh") is None
    assert store.renew_leases("node-b") == {"alice"}  # node-b learns it lost bob's


def test_a_servers_leases_survive_a_takeover_on_that_server(store: Store) -> None:
    ssh, web = Leases(store, "ssh"), Leases(store, "web")
    first = ssh.take("alice")
    assert isinstance(first, Lease)
    refused = web.take("alice")
    assert isinstance(refused, str) and "alice's game is open on another server" in refused
    assert ", ssh)" in refused  # where it runs
    second = ssh.take("alice")  # the player logs in again on the same server: a takeover
    assert isinstance(second, Lease)
    ssh.release(first)  # the old game's end does not free the new game's lease
    assert isinstance(web.take("alice"), str)
    ssh.release(second)
    assert isinstance(web.take("alice"), Lease)


# ---- what comes from the data folder ---------------------------------------------------------
def test_the_file_based_accounts_and_saves_are_imported_on_the_first_start(
    store: Store, tmp_path: Path
) -> None:
    root = server_data(tmp_path / "data")
    data = DataDir(root)
    key = asyncssh.generate_private_key("ssh-ed25519")
    second = asyncssh.generate_private_key("ssh-ed25519")
    (root / "players" / "alice" / "authorized_keys").write_text(
        f"# alice's keys\n{key.export_public_key().decode()}not a key\n"
        f"{second.export_public_key().decode()}",
        encoding="utf-8",
    )
    (root / "players" / "bob" / "password").write_text("scrypt$bob\n", encoding="utf-8")
    (root / "players" / "bob" / "saves" / "bad.json").write_text("{", encoding="utf-8")
    notes: list[str] = []
    assert prepare(store, data, notes.append) is True
    assert any("line 3: not a public key" in n for n in notes), notes
    alice, bob = store.account("alice"), store.account("bob")
    assert alice is not None and set(alice.keys) == {key.public_data, second.public_data}
    assert bob is not None and bob.password == "scrypt$bob" and bob.keys == ()
    assert store.account("carol") is None  # a folder with no key or password: no account
    assert prepare(store, data, notes.append) is False  # once per data folder

    assert sync_saves(store, data) == 6  # 5 saves and the broken file
    from_files = collect(root)
    from_store = scores_from_store(store, str(root))
    assert from_store.rows == from_files.rows
    assert from_store.notes == from_files.notes
    assert sync_saves(store, data) == 0  # nothing changed: nothing read

    (root / "players" / "alice" / "saves" / "skirmish-5.json").unlink()
    session = campaign_save(root / "players" / "carol" / "saves" / "new-3.json", "Newcomers", 3)
    assert isinstance(session.apply(AdvanceDay(2)), Accepted)
    session.save(root / "players" / "carol" / "saves" / "new-3.json")
    assert sync_saves(store, data) == 2
    assert scores_from_store(store, str(root)).rows == collect(root).rows


def test_a_host_moving_to_another_store_keeps_its_players(store: Store, tmp_path: Path) -> None:
    """A data folder that ran with its own SQLite store (DATA/store.db), started with --db:
    the players registered there are copied into the new store on that first start."""
    data = DataDir(tmp_path / "moving")
    data.make()
    key = asyncssh.generate_private_key("ssh-ed25519")
    with open_store(None, data.root) as own:
        own.register("ann", key=(key.public_data, key_line(key, "ann")))
        own.register("ben", password="scrypt$ben")
    assert prepare(store, data, lambda _: None)
    ann, ben = store.account("ann"), store.account("ben")
    assert ann is not None and ann.keys == (key.public_data,)
    assert ben is not None and ben.password == "scrypt$ben"


def test_serve_scores_reads_the_store(
    store_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`serve scores --data DIR [--db URL]`: the first look indexes the folder's saves;
    later looks read the store only, until --rescan."""
    root = server_data(tmp_path / "data")
    assert main(["serve", "scores", "--data", str(root), "--db", store_url, "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    first = stored_scores(store_url, root)
    assert first.rows == collect(root).rows
    assert [r["company"] for r in table["scores"]] == [s.company for s in first.rows]
    shutil.rmtree(root / "players" / "bob")  # gone from the disk, still in the store
    assert stored_scores(store_url, root).rows == first.rows
    assert stored_scores(store_url, root, rescan=True).rows == collect(root).rows


# ---- a game reports its saves ----------------------------------------------------------------
def test_a_game_reports_its_saves_with_figures_a_replay_gives(
    store_url: str, tmp_path: Path
) -> None:
    root = tmp_path / "data"
    saves = root / "players" / "erin" / "saves"
    saves.mkdir(parents=True)
    path = saves / "erin-9.json"
    reporter = SaveReporter(store_url, "erin", root)
    session = campaign_save(path, "Erin Rangers", 9, days=3)
    reporter.report(path, session.to_save())
    for days in (2, 5):  # later saves: only the new commands are replayed
        assert isinstance(session.apply(AdvanceDay(days)), Accepted)
        session.save(path)
        reporter.report(path, session.to_save())
    assert reporter.flush(30)
    with open_store(store_url, root) as store:
        (got,) = store.saves("erin")
    figures = verified_figures(read_save(path))
    assert figures is not None and got.figures == figures.to_json()
    assert got.file == "players/erin/saves/erin-9.json" and got.header["company"] == "Erin Rangers"
    assert figures.day == 11 and figures.verified and not figures.note

    # a save whose snapshot was edited (credits) is scored as its commands rebuild it
    rewritten(path, lambda s: s["campaign"].update(credits=10**9), snapshot=True)
    edited = read_save(path)
    reporter.report(path, edited)
    assert reporter.flush(30)
    with open_store(store_url, root) as store:
        (got,) = store.saves("erin")
    assert got.figures is not None and got.figures["credits"] == figures.credits
    assert "does not follow from its commands" in got.figures["note"]
    assert json.loads(json.dumps(got.header))["company"] == "Erin Rangers"
