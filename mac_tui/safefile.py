"""Reading files nobody vouches for: a regular file under a size cap, JSON of bounded shape.

Every save the game reads (title Continue, the Load screen, `play --load`, `mac-tui replay`,
the high scores) comes through here, so a hostile or broken file is refused with a reason
instead of crashing or hanging the reader:

- `read_regular` opens with `O_NOFOLLOW | O_NONBLOCK` and checks with `fstat` that it got a
  regular file: a symbolic link (dangling, or pointing at `/dev/zero`) is refused without being
  followed, a FIFO is refused without waiting for a writer, a directory or a device is refused,
  and nothing beyond the size cap is read.
- `load_json` accepts a UTF-8 byte-order mark, then checks the nesting depth with a linear scan
  *before* parsing (so the parser never recurses deeper than `MAX_DEPTH`, whatever the
  interpreter's recursion limit), bounds every number literal's length (a 5,000-digit integer
  is refused, not converted) and refuses `NaN`/`Infinity`.

Refusals raise `Refused`, whose message says what is wrong without the file's name: callers
put the name (and the field) in front.
"""

from __future__ import annotations

import errno
import json
import operator
import os
import re
import stat
from itertools import accumulate, count
from pathlib import Path
from typing import Any

MAX_BYTES = 64 * 1024 * 1024  # no save comes near: a year-long campaign is ~170 KiB
MAX_DEPTH = 64  # a snapshot nests about ten levels
MAX_NUMBER_CHARS = 100  # every seed fits (seeds are reduced modulo 2**64 anyway)
BOM = "\ufeff"
_CHUNK = 1 << 20


class Refused(ValueError):
    """A file that is not read; the message says why (without the file's name)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def _size_text(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MiB" if n >= 1024 * 1024 else f"{n:,} bytes"


def read_regular(path: Path | str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of `path` if it is a regular file (not a link to one) of at most `limit`
    bytes; `Refused` otherwise. Never blocks on a FIFO, never follows a symbolic link."""
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    flags = os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not nofollow and os.path.islink(path):  # pragma: no cover - platforms without O_NOFOLLOW
        raise Refused("is a symbolic link (saves are read from regular files only)")
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise Refused("no such file") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP or (exc.errno == errno.EMLINK and nofollow):
            raise Refused("is a symbolic link (saves are read from regular files only)") from None
        if exc.errno == errno.ENXIO:
            raise Refused("is not a regular file") from None
        raise Refused(f"cannot be opened ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"is {_kind(st.st_mode)}, not a regular file")
        if st.st_size > limit:
            raise Refused(f"is {_size_text(st.st_size)}, more than the {_size_text(limit)} allowed")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:  # it grew while being read
                raise Refused(f"is more than the {_size_text(limit)} allowed")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise Refused(f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


# ---- JSON of bounded shape ---------------------------------------------------------------------
# A JSON string (escapes included); the closing quote is optional so that an unterminated string
# consumes the rest of the text at once instead of being retried from every later quote.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_LEVEL = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")


def max_depth(text: str) -> int:
    """How deeply arrays and objects nest in the JSON `text` (brackets inside strings do not
    count). Linear time, no recursion."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if not brackets:
        return 0
    # each opener counts +1 and each closer -1: as bytes 2 and 0, the running sum less the
    # position is the depth after every bracket
    steps = brackets.encode("ascii").translate(_LEVEL)
    deepest: int = max(map(operator.sub, accumulate(steps), count(1)))
    return max(0, deepest)


def _number(kind: type[int] | type[float]) -> Any:
    def parse(literal: str) -> int | float:
        if len(literal) > MAX_NUMBER_CHARS:
            raise Refused(
                f"holds a number of {len(literal):,} characters (at most "
                f"{MAX_NUMBER_CHARS} are read)"
            )
        return kind(literal)

    return parse


def _constant(name: str) -> Any:
    raise Refused(f"holds {name}, which is not a number a save can hold")


def load_json(data: bytes | str) -> Any:
    """Parse JSON text of bounded shape (see the module's docstring); `Refused` when it is
    not UTF-8, not JSON, or nested or sized beyond the bounds."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Refused(f"is not UTF-8 text (byte {exc.start:,})") from None
    else:
        text = data
    text = text.removeprefix(BOM)
    depth = max_depth(text)
    if depth > MAX_DEPTH:
        raise Refused(f"nests {depth:,} levels deep (at most {MAX_DEPTH} are read)")
    try:
        return json.loads(
            text,
            parse_int=_number(int),
            parse_float=_number(float),
            parse_constant=_constant,
        )
    except json.JSONDecodeError as exc:
        raise Refused(f"is damaged JSON ({exc})") from None
    except (ValueError, RecursionError) as exc:  # Refused is a ValueError: pass it on
        if isinstance(exc, Refused):
            raise
        raise Refused(f"is damaged JSON ({exc})") from None


def read_json(path: Path | str, limit: int = MAX_BYTES) -> Any:
    """`load_json(read_regular(path))`."""
    return load_json(read_regular(path, limit))
