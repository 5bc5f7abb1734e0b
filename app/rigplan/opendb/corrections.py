"""Corrections by part id (parts/corrections.yaml, issue 25): facts no rule can derive, each with its source.

Each entry names the part id, the field (a dotted path for nested values: `connectors.pcie8`), the value, the value
the source data gave when the correction was written (`was`) and the source (maker's page or datasheet). It is
applied on every import, but only while the source data still gives `was`: when OpenDB changes the value, the
correction is reported as stale for a person to re-check, never silently applied over new data.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from rigplan.catalog.overlay import get_field, with_field

from .data_quality import Change

_MISSING = object()


@dataclass(frozen=True)
class Correction:
    part_id: str
    name: str
    field: str
    value: Any
    was: Any
    source: str


class CorrectionError(ValueError):
    pass


def entries(path: Path, key: str) -> list[Any]:
    """The list under `key` of a hand-written YAML source in parts/ (corrections, layouts, cooler ratings, the
    supplement); empty when the file is absent or the key holds nothing."""
    if not path.exists():
        return []
    doc = yaml.safe_load(path.read_text("utf-8")) or {}
    return list(doc.get(key) or [])


def load(path: Path) -> list[Correction]:
    out = []
    for i, e in enumerate(entries(path, "corrections")):
        missing = [k for k in ("id", "field", "value", "source") if k not in e]
        if missing or not str(e.get("source") or "").strip():
            raise CorrectionError(f"{path.name}: entry {i + 1} lacks {', '.join(missing) or 'a source'}")
        out.append(Correction(e["id"], e.get("name", ""), e["field"], e["value"], e.get("was"), e["source"]))
    return out


def load_all(parts_dir: Path) -> list[Correction]:
    """corrections.yaml and the topical files beside it (corrections-psu-input.yaml, ...), in name order."""
    return [c for path in sorted(parts_dir.glob("corrections*.yaml")) for c in load(path)]


def apply(
    corrections: list[Correction], parts: dict[str, dict[str, Any]], source_values: dict[str, dict[str, Any]], kind: str
) -> tuple[list[Change], list[str]]:
    """Apply the corrections whose part is in `parts` (id -> record, changed in place). `source_values` holds each
    record as mapped from the source data, before any check. Returns the applied changes and the stale ones."""
    changes: list[Change] = []
    stale: list[str] = []
    for c in corrections:
        d = parts.get(c.part_id)
        if d is None:
            continue
        now = get_field(source_values[c.part_id], c.field)
        if now != c.was:
            stale.append(
                f"- {kind} `{c.part_id}` ({d['name']}): `{c.field}` was {c.was!r} in the source data when the"
                f" correction"
                f" to {c.value!r} was written, now {now!r}: not applied, re-check against: {c.source}"
            )
            continue
        old = get_field(d, c.field)
        if old != c.value:
            new = with_field(d, c.field, c.value)  # the one dotted-field writer (catalog.overlay), same key order
            d.clear()
            d.update(new)
            changes.append(Change(kind, c.part_id, d["name"], c.field, old, c.value, c.source, "correction"))
    return changes, stale
