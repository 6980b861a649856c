"""Wheels of the distributions installed here, for installing a built wheel into a fresh venv
without a package index: each installed distribution a requirement needs is packed back into
a wheel from the files its RECORD lists (the same files pip unpacked), so `pip install
--no-index --find-links HOUSE` resolves the game's dependencies offline, at the versions the
suite runs with.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata as md
import re
import zipfile
from email.parser import Parser
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

LEFT_OUT = {"INSTALLER", "REQUESTED", "RECORD", "direct_url.json"}


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def repack(dist: md.Distribution, house: Path) -> Path:
    """A wheel of the installed distribution `dist`, written into `house`."""
    info = next(p for p in dist.files or () if p.parts[0].endswith(".dist-info"))
    info_dir = info.parts[0]
    tags = [
        line.split(":", 1)[1].strip()
        for line in (dist.read_text("WHEEL") or "").splitlines()
        if line.startswith("Tag:")
    ]
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    wheel = house / f"{name}-{dist.version}-{tags[0] if tags else 'py3-none-any'}.whl"
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in dist.files or ():
            posix = path.as_posix()
            if posix.startswith("..") or "__pycache__" in path.parts or posix.endswith(".pyc"):
                continue  # scripts pip wrote outside site-packages, bytecode
            if path.parts[0] == info_dir and path.name in LEFT_OUT:
                continue
            source = Path(str(dist.locate_file(path)))
            if not source.is_file():
                continue
            data = source.read_bytes()
            zf.writestr(posix, data)
            record.append(_record_line(posix, data))
        record.append(f"{info_dir}/RECORD,,")
        zf.writestr(f"{info_dir}/RECORD", "\n".join(record) + "\n")
    return wheel


def requirements_of(wheel: Path) -> list[Requirement]:
    """The Requires-Dist of a wheel (every one, extras' included)."""
    with zipfile.ZipFile(wheel) as zf:
        meta = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        message = Parser().parsestr(zf.read(meta).decode("utf-8"))
    return [Requirement(r) for r in message.get_all("Requires-Dist") or []]


def _wanted(req: Requirement, extras: frozenset[str]) -> bool:
    if req.marker is None:
        return True
    return any(req.marker.evaluate({"extra": extra}) for extra in extras or {""})


def fill(
    house: Path, requirements: list[Requirement], extras: frozenset[str] = frozenset()
) -> None:
    """Pack into `house` every installed distribution `requirements` need (with `extras` of
    the requiring package), and theirs, and so on."""
    todo = [(r, extras) for r in requirements]
    done: set[tuple[str, frozenset[str]]] = set()
    while todo:
        req, asked = todo.pop()
        if not _wanted(req, asked):
            continue
        key = (canonicalize_name(req.name), frozenset(req.extras))
        if key in done:
            continue
        first = not any(name == key[0] for name, _ in done)
        done.add(key)
        dist = md.distribution(req.name)
        if first:
            repack(dist, house)
        todo += [(Requirement(r), frozenset(req.extras)) for r in dist.requires or ()]
