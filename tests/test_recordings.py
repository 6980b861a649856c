"""Recordings of server games, without a network: writing (asciicast v2, gzip, flushed as it
goes, the size cap), reading back (streamed, bounded, damage and odd files refused), playback
against a fake clock (speed, pause, idle gaps, the end), the retention and the spectators' list.
The round trip through the real server and OpenSSH client is in test_server_recordings.py."""

from __future__ import annotations

import gzip
import json
import os
import zlib
from pathlib import Path

import pytest

from mac_tui.server import playback as pb
from mac_tui.server.lobby import page_size, recording_lines
from mac_tui.server.playback import CastReader, Playback, RecordingError
from mac_tui.server.recordings import (
    MB,
    Recorder,
    RecordingIndex,
    list_folder,
    prune,
    prune_all,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def recorder(
    folder: Path, clock: Clock, cap_mb: float = 1.0, cols: int = 20, rows: int = 5
) -> Recorder:
    return Recorder(
        folder, "ssh", cols, rows, "xterm-256color", "mac-tui: test (ssh)", cap_mb,
        clock=clock, wall=lambda: 1_800_000_000.0,
    )  # fmt: skip


def lines_of(path: Path) -> list[object]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_a_recording_is_asciicast_v2_with_relative_times_and_resizes(tmp_path: Path) -> None:
    clock = Clock()
    rec = recorder(tmp_path, clock)
    assert rec.path.name == "20270115T080000Z-ssh.cast.gz"
    clock.now += 0.5
    rec.output("héllo".encode()[:2])  # a character cut between two reads ...
    rec.output("héllo".encode()[2:])  # ... is written whole
    clock.now += 1.25
    rec.resize(30, 8)
    clock.now += 60
    path = rec.close()
    assert path.name == "20270115T080000Z-ssh_62s.cast.gz"
    header, *events = lines_of(path)
    assert header == {
        "version": 2,
        "width": 20,
        "height": 5,
        "timestamp": 1_800_000_000,
        "env": {"TERM": "xterm-256color"},
        "title": "mac-tui: test (ssh)",
    }
    assert events == [[0.5, "o", "h"], [0.5, "o", "éllo"], [1.75, "r", "30x8"]]
    second = recorder(tmp_path, clock)  # same second, same player: a name of its own
    assert second.path.name == "20270115T080000Z-ssh-2.cast.gz"


def test_a_crash_loses_at_most_the_last_unflushed_output(tmp_path: Path) -> None:
    clock = Clock()
    rec = recorder(tmp_path, clock)
    rec.output(b"one")
    clock.now += 2  # past FLUSH_EVERY: this write flushes everything so far
    rec.output(b"two")
    rec.output(b"three")  # within the second: still in the compressor
    crashed = tmp_path / "crashed.cast.gz"
    crashed.write_bytes(rec.path.read_bytes())  # the file as a killed server leaves it
    reader = CastReader(crashed)
    got = []
    while (event := reader.next()) is not None:
        got.append(event.data)
    assert got == ["one", "two"]
    assert reader.problem == ""  # a stream that stops short simply ends
    rec.flush()  # the server's timer flushes within FLUSH_EVERY seconds
    crashed.write_bytes(rec.path.read_bytes())
    reader = CastReader(crashed)
    assert [e.data for e in iter(reader.next, None)] == ["one", "two", "three"]


def test_the_size_cap_stops_the_recording_and_says_so(tmp_path: Path) -> None:
    clock = Clock()
    notes: list[str] = []
    rec = Recorder(
        tmp_path, "web", 80, 24, "xterm-256color", "t", cap_mb=2048 / MB,
        clock=clock, on_stop=notes.append,
    )  # fmt: skip
    for i in range(100):
        clock.now += 0.01
        rec.output(f"line {i:03d} ".encode() * 4)
    path = rec.close()
    assert rec.cut and path.name.endswith("-web_1s_cut.cast.gz")
    assert notes == ["recording stopped: it reached its size cap (0.00195312 MB)"]
    _, *events = lines_of(path)
    assert events[-1][1:] == ["m", notes[0]]  # type: ignore[index]
    raw = gzip.decompress(path.read_bytes())
    assert len(raw) <= 2048
    assert sum(1 for e in events if e[1] == "o") < 100  # type: ignore[index]


def test_reading_refuses_odd_files_and_stops_at_damage(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.cast.gz"
    os.mkfifo(fifo)
    with pytest.raises(RecordingError, match="not a regular file"):
        CastReader(fifo)  # opened without blocking, then refused
    clock = Clock()
    rec = recorder(tmp_path, clock)
    rec.output(b"fine")
    real = rec.close()
    link = tmp_path / "link.cast.gz"
    link.symlink_to(real)
    with pytest.raises(RecordingError, match="cannot be opened"):
        CastReader(link)
    plain = tmp_path / "plain.cast.gz"
    plain.write_bytes(gzip.compress(b"just text\n"))
    with pytest.raises(RecordingError, match="not an asciicast v2"):
        CastReader(plain)

    header = json.dumps({"version": 2, "width": 10**9, "height": 10**9}).encode()
    huge = tmp_path / "huge.cast.gz"
    huge.write_bytes(gzip.compress(header + b"\n" + b'[1, "o", "' + b"x" * (3 * MB)))
    reader = CastReader(huge)
    assert reader.size == (1000, 500)  # clamped like a live game
    assert reader.next() is None  # a 3 MiB line is never held whole
    assert "too long" in reader.problem
    assert len(reader.buffer) == 0

    long = recorder(tmp_path / "long", clock)
    for i in range(200):
        clock.now += 2  # every event flushed: a readable prefix whatever follows
        long.output(f"event {i}".encode())
    good = long.close().read_bytes()
    damaged = tmp_path / "damaged.cast.gz"
    cut = len(good) * 2 // 3
    damaged.write_bytes(
        good[:cut] + bytes(255 - b for b in good[cut : cut + 40]) + good[cut + 40 :]
    )
    reader = CastReader(damaged)
    got = [e.data for e in iter(reader.next, None)]
    assert 10 < len(got) < 200 and got == [f"event {i}" for i in range(len(got))]
    bomb = tmp_path / "bomb.cast.gz"  # 1 GiB of newlines in a few MB: read a chunk at a time
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = json.dumps({"version": 2, "width": 80, "height": 24}).encode() + b"\n"
    bomb.write_bytes(packer.compress(head + b"\n" * (64 * MB)) + packer.flush())
    reader = CastReader(bomb)
    assert reader.next() is None
    assert len(reader.buffer) <= pb.INFLATE_CHUNK


def events_file(tmp_path: Path, events: list[list[object]], cols: int = 20, rows: int = 3) -> Path:
    path = tmp_path / "20270101T000000Z-ssh_30s.cast.gz"
    head = {"version": 2, "width": cols, "height": rows, "timestamp": 0}
    body = "".join(json.dumps(e) + "\n" for e in events)
    path.write_bytes(gzip.compress((json.dumps(head) + "\n" + body).encode()))
    return path


def text(play: Playback) -> str:
    return "\n".join(line.rstrip() for line in play.screen.text()).rstrip()


def test_playback_follows_a_fake_clock_speed_pause_idle_and_end(tmp_path: Path) -> None:
    path = events_file(
        tmp_path,
        [
            [0.5, "o", "a"],
            [1.0, "o", "b"],
            [21.0, "o", "c"],  # 20 s idle before it
            [22.0, "r", "30x4"],
            [23.0, "o", "d"],
            [24.0, "m", "a marker"],
        ],
    )
    clock = Clock()
    play = Playback.open(path, clock)
    assert play.screen.size == (20, 3)
    assert not play.advance() and play.wait() == pytest.approx(0.5)
    clock.now += 0.5
    assert play.advance() and text(play) == "a"
    assert play.wait() == pytest.approx(0.5)
    clock.now += 0.5
    play.advance()
    assert text(play) == "ab"
    assert play.wait() == pytest.approx(pb.IDLE_LIMIT)  # 20 s of nothing, shortened
    play.faster()  # x2
    assert play.speed == 2.0 and play.wait() == pytest.approx(pb.IDLE_LIMIT / 2)
    play.pause()
    clock.now += 100
    assert play.wait() is None and not play.advance() and text(play) == "ab"
    play.pause()  # on again: the clock's 100 s while paused do not count
    clock.now += 0.99
    assert not play.advance()
    clock.now += 0.02
    assert play.advance() and text(play) == "abc"
    play.toggle_idle()
    assert not play.skip_idle
    play.advance(to_end=True)
    assert play.finished and text(play) == "abcd"
    assert play.screen.size == (30, 4) and play.markers == ["a marker"]
    assert play.real == 24.0


def test_a_fast_forward_feeds_a_bounded_amount_per_step(tmp_path: Path) -> None:
    chunk = "\x1b[H" + "x" * 999
    path = events_file(tmp_path, [[i / 10, "o", chunk] for i in range(200)], cols=80, rows=24)
    play = Playback.open(path, Clock())
    steps = 0
    while not play.finished:
        play.advance(to_end=True)
        steps += 1
    assert steps >= 200 * 1000 // pb.FEED_BUDGET
    assert play.real == pytest.approx(19.9)


def make_recording(folder: Path, name: str, size: int, age_days: float, now: float) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(b"x" * size)
    when = now - age_days * 86400
    os.utime(path, (when, when))
    return path


def test_retention_by_age_and_by_size_keeps_the_newest(tmp_path: Path) -> None:
    now = 1_900_000_000.0
    folder = tmp_path / "players" / "ann" / "recordings"
    old = make_recording(folder, "20270101T000000Z-ssh_10s.cast.gz", 100, 40, now)
    mid = make_recording(folder, "20270201T000000Z-ssh_10s.cast.gz", 3 * MB, 20, now)
    new = make_recording(folder, "20270301T000000Z-web_10s.cast.gz", 3 * MB, 10, now)
    newest = make_recording(folder, "20270401T000000Z-ssh.cast.gz", 5 * MB, 0, now)  # live
    other = make_recording(folder, "notes.txt", 10, 100, now)
    assert [r.path for r in list_folder("ann", folder)] == [newest, new, mid, old]
    assert prune("ann", folder, keep_days=30, max_mb=10, now=now) == [old, mid]
    assert {p.name for p in folder.iterdir()} == {new.name, newest.name, other.name}
    assert prune("ann", folder, keep_days=0, max_mb=1, now=now) == [new]
    assert prune("ann", folder, keep_days=1, max_mb=1, now=now + 86400 * 50) == []
    assert newest.exists()  # never the newest: it may be the game being recorded
    bob = tmp_path / "players" / "bob" / "recordings"
    make_recording(bob, "20270101T000000Z-ssh_1s.cast.gz", 1, 400, now)
    make_recording(bob, "20270102T000000Z-ssh_1s.cast.gz", 1, 399, now)
    assert len(prune_all(tmp_path / "players", keep_days=30, max_mb=0, now=now)) == 1


def test_the_spectators_list_of_recordings(tmp_path: Path) -> None:
    now = 1_900_000_000.0
    players = tmp_path / "players"
    for i in range(12):
        name = f"202701{i + 1:02d}T120000Z-ssh_{65 * i}s{'_cut' if i == 3 else ''}.cast.gz"
        make_recording(players / ("ann" if i % 2 else "bob") / "recordings", name, 2000 * i, 1, now)
    (players / "carl").mkdir()
    index = RecordingIndex(players)
    found = index.all()
    assert [r.started.day for r in found] == list(range(12, 0, -1))  # newest first
    lines = recording_lines(found, page=0, per_page=page_size(15))
    assert lines[3].split() == ["1", "ann", "2027-01-12", "12:00", "UTC", "11:55", "21", "KB"]
    assert "Page 1 of 2: n next, p previous. Type a recording's number (1-7) to" in lines[-2]
    second = recording_lines(found, page=1, per_page=7)
    assert "(cut at the cap)" in second[4] and "cut" not in second[5]
    assert [line.split()[1] for line in second[3:8]] == ["bob", "ann", "bob", "ann", "bob"]
    assert "No recording yet" in recording_lines([], 0, 7)[2]
