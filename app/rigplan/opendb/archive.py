"""Read an OpenDB archive safely: GitHub's tar.gz of buildcores/buildcores-open-db, whose records are
`<top>/open-db/<Category>/<opendb_id>.json` (the layout tools/fetch_sources.py reads).

Nothing is extracted to disk: the records are read from the stream into memory. Refused outright (the whole archive,
nothing changes): a member with an absolute path or `..`, a link (symbolic or hard), a device, FIFO or any other
non-regular, non-folder member; more than MAX_MEMBERS members; more than MAX_UNPACKED bytes; a JSON record over
MAX_RECORD_BYTES; reading past the deadline. A record that is not a JSON object with an `opendb_id` is skipped and
counted (the model's own refusals come later, in the conversion).
"""

from __future__ import annotations

import json
import tarfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rigplan.opendb.import_parts import CATEGORIES

MAX_ARCHIVE_BYTES = 200_000_000  # the archive is under 3 MB compressed today (the repo's history is not in it)
MAX_UNPACKED = 1_000_000_000  # the open-db folder is ~60 MB unpacked; images or a bomb end here
MAX_MEMBERS = 500_000  # ~26,000 records today
MAX_RECORD_BYTES = 2_000_000  # the largest record today is a few kB
WANTED = frozenset(CATEGORIES.values())


class ArchiveError(ValueError):
    """The archive cannot be used; one line saying why. Nothing has been changed."""


class Cancelled(Exception):
    pass


@dataclass
class Snapshot:
    records: dict[str, list[dict[str, Any]]]  # OpenDB category -> records, sorted by id
    commit: str | None  # GitHub writes the commit into the archive's pax header
    date: str | None  # ISO date of the newest record (GitHub sets every member's time to the commit's)
    skipped: dict[str, int] = field(default_factory=dict)  # category -> records that were not usable JSON
    members: int = 0


def _parts(name: str) -> list[str]:
    """PurePosixPath(name).parts without the leading "/", by a string split: pathlib took about a tenth of the
    reading of a 26,000-member archive."""
    return [p for p in name.split("/") if p and p != "."]


def _refuse(m: tarfile.TarInfo) -> str | None:
    name = m.name
    parts = _parts(name)
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "an absolute path"
    if ".." in parts or "\\" in name:
        return "a path with '..'" if ".." in parts else "a path with a backslash"
    if m.issym() or m.islnk():
        return "a link"
    if not (m.isfile() or m.isdir()) and m.type != tarfile.XGLTYPE and m.type != tarfile.XHDTYPE:
        return "a device, FIFO or other special file"
    return None


def _category(name: str) -> str | None:
    parts = _parts(name)
    # <top>/open-db/<Category>/<id>.json
    if len(parts) == 4 and parts[1] == "open-db" and parts[2] in WANTED and parts[3].endswith(".json"):
        return parts[2]
    return None


def read_snapshot(
    path: Path,
    *,
    deadline_s: float = 60.0,
    progress: Callable[[float, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Snapshot:
    """The records of the eight categories RigPlan uses. Raises ArchiveError (one line) or Cancelled."""
    report = progress or (lambda share, text: None)
    stop = time.monotonic() + deadline_s
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ArchiveError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if not path.is_file():
        raise ArchiveError(f"{path}: not a regular file")
    if size > MAX_ARCHIVE_BYTES:
        raise ArchiveError(f"{path.name}: {size:,} bytes, more than the {MAX_ARCHIVE_BYTES:,} an OpenDB archive can be")
    records: dict[str, list[dict[str, Any]]] = {c: [] for c in WANTED}
    skipped: dict[str, int] = {}
    unpacked = members = 0
    newest = 0.0
    try:
        with tarfile.open(path, mode="r|gz") as tar:
            commit = None
            for m in tar:
                members += 1
                if commit is None:
                    commit = (tar.pax_headers or {}).get("comment")
                if members > MAX_MEMBERS:
                    raise ArchiveError(f"{path.name}: more than {MAX_MEMBERS:,} files; not an OpenDB archive")
                why = _refuse(m)
                if why:
                    raise ArchiveError(f"{path.name}: refused, {m.name!r} is {why}")
                unpacked += max(m.size, 0)
                if unpacked > MAX_UNPACKED:
                    raise ArchiveError(f"{path.name}: unpacks to more than {MAX_UNPACKED:,} bytes; refused")
                if members % 500 == 0:  # the deadline, a cancel and the progress: 52 looks at 26,000 members
                    if time.monotonic() > stop:
                        raise ArchiveError(f"{path.name}: reading took over {deadline_s:g} s; stopped")
                    if cancelled is not None and cancelled():
                        raise Cancelled()
                    report(min(0.99, members / 30_000), f"reading the archive: {members:,} files")
                cat = _category(m.name) if m.isfile() else None
                if cat is None:
                    continue
                if m.size > MAX_RECORD_BYTES:
                    raise ArchiveError(f"{path.name}: {m.name} is {m.size:,} bytes; no part record is that large")
                fh = tar.extractfile(m)
                rec = _record(fh.read(MAX_RECORD_BYTES + 1) if fh else b"")
                if rec is None:
                    skipped[cat] = skipped.get(cat, 0) + 1
                    continue
                newest = max(newest, float(m.mtime or 0))
                records[cat].append(rec)
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        if isinstance(exc, ArchiveError):
            raise
        raise ArchiveError(f"{path.name}: not a readable tar.gz ({' '.join(str(exc).split())[:120]})") from None
    if not any(records.values()):
        raise ArchiveError(f"{path.name}: no open-db/<Category>/<id>.json records; not an OpenDB archive")
    for recs in records.values():
        recs.sort(key=lambda r: str(r["opendb_id"]))
    date = time.strftime("%Y-%m-%d", time.gmtime(newest)) if newest else None
    return Snapshot(records, commit if _is_sha(commit) else None, date, skipped, members)


def _is_sha(v: Any) -> bool:
    return isinstance(v, str) and 7 <= len(v) <= 64 and all(c in "0123456789abcdef" for c in v.lower())


def _record(raw: bytes) -> dict[str, Any] | None:
    if len(raw) > MAX_RECORD_BYTES:
        return None
    try:
        rec = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(rec, dict) or not isinstance(rec.get("opendb_id"), str) or not rec["opendb_id"].strip():
        return None
    return rec
