"""The user's corrections (issue 38): made, removed and exported here; read and applied at every load by
rigplan.catalog.overlay. Kept in `<data folder>/catalog/corrections.yaml`, apart from any catalog, so they survive
updates and reverts. Each names its source, the value it replaced (`was`) and the day it was made.

Validation is the model's: the corrected record must pass the part's pydantic model, so a field the kind does not
have, or a value of the wrong type or beyond its bounds, is refused with one line.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import re
from pathlib import Path
from typing import Any

import yaml

from rigplan.catalog.loader import Catalog, load_base_catalog
from rigplan.catalog.overlay import (
    CORRECTIONS_FORMAT,
    UserCorrection,
    catalog_home,
    check_correction,
    corrections_file,
    get_field,
    load_user_corrections,
    updated_dir,
    with_field,
)
from rigplan.files.oslock import locked
from rigplan.files.safeio import write_atomic
from rigplan.model.parts import Kind
from rigplan.opendb.layout import category, to_opendb, with_corrections

MAX_SOURCE = 500
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$")


class CorrectionRefused(ValueError):
    """One line: why the correction was not kept."""


def parse_assignment(text: str) -> tuple[str, Any]:
    """'length_mm=305' -> ('length_mm', 305). The value is read as YAML (305, 30.5, true, null, [a, b], {pin8: 2})."""
    field, sep, raw = text.partition("=")
    field = field.strip()
    if not sep or not field:
        raise CorrectionRefused(f"{text!r}: write FIELD=VALUE, e.g. length_mm=305")
    if not re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)?", field):
        raise CorrectionRefused(f"{field!r}: not a field name (lower case, dotted for a nested one: connectors.pcie8)")
    try:
        value = yaml.safe_load(raw) if raw.strip() else None
    except yaml.YAMLError:
        value = raw.strip()  # free text (a socket name with a colon): the model says if that is right
    return field, value


def _write(data_dir: Path | None, corrections: list[UserCorrection]) -> None:
    doc = {"format": CORRECTIONS_FORMAT, "corrections": [c.as_dict() for c in corrections]}
    head = "# Your corrections to RigPlan's parts catalog (rigplan parts correct); applied over any catalog.\n"
    text = head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    write_atomic(corrections_file(data_dir), text.encode("utf-8"), keep_backup=True, limit=5_000_000,
                 what="corrections file")  # fmt: skip


def _current(data_dir: Path | None) -> list[UserCorrection]:
    found, problem = load_user_corrections(data_dir)
    if problem:
        raise CorrectionRefused(f"{problem.split(';')[0]}; fix or move the file first (nothing was changed)")
    return found


def add(
    part_id: str, assignments: list[str], source: str, data_dir: Path | None = None, base: Catalog | None = None
) -> list[UserCorrection]:
    """Check every FIELD=VALUE against the model (all of them together, on the part as it is in use), then keep
    them. A later correction of the same field replaces the earlier one."""
    source = " ".join(source.split())
    if not source:
        raise CorrectionRefused("--source is empty: say where the right value is stated (maker's page, manual)")
    if len(source) > MAX_SOURCE:
        raise CorrectionRefused(f"--source is over {MAX_SOURCE} characters")
    if not assignments:
        raise CorrectionRefused("nothing to correct: give FIELD=VALUE")
    base = base or load_base_catalog(data_dir=data_dir)
    row = base.row_of(part_id)
    part = base.get(part_id)
    if row is None or part is None:
        raise CorrectionRefused(f"no part with id {part_id!r}; find ids with 'rigplan parts list --search TEXT'")
    home = catalog_home(data_dir)
    home.mkdir(parents=True, exist_ok=True)
    with locked(corrections_file(data_dir)):
        existing = _current(data_dir)
        # The part as the user sees it now (their earlier corrections applied), then these on top.
        current = dict(row)
        for c in existing:
            if c.part_id == part_id:
                current = with_field(current, c.field, c.value)
        made = []
        today = dt.date.today().isoformat()
        for text in assignments:
            field, value = parse_assignment(text)
            try:
                current = check_correction(part.kind.value, current, field, value)
            except ValueError as exc:
                raise CorrectionRefused(str(exc)) from None
            was = get_field(row, field)
            made.append(UserCorrection(part_id, field, get_field(current, field), was, source, part.name, today))
        keys = {(c.part_id, c.field) for c in made}
        _write(data_dir, [c for c in existing if (c.part_id, c.field) not in keys] + made)
    return made


def remove(part_id: str, field: str, data_dir: Path | None = None) -> UserCorrection:
    with locked(corrections_file(data_dir)):
        existing = _current(data_dir)
        hit = next((c for c in existing if c.part_id == part_id and c.field == field), None)
        if hit is None:
            raise CorrectionRefused(
                f"you have no correction of {field} on {part_id} ('rigplan parts corrections list')"
            )
        _write(data_dir, [c for c in existing if c is not hit])
    return hit


def listing(data_dir: Path | None = None) -> list[UserCorrection]:
    return _current(data_dir)


def _raw_records(data_dir: Path | None, ids: set[str]) -> dict[str, dict[str, Any]]:
    """The upstream records of these parts from the update in use, when it kept them."""
    folder = updated_dir(data_dir)
    path = folder / "opendb.jsonl.gz" if folder else None
    out: dict[str, dict[str, Any]] = {}
    if path is None or not path.is_file():
        return out
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)["record"]
            if rec.get("opendb_id") in ids:
                out[rec["opendb_id"]] = rec
    return out


def export_opendb(target: Path, data_dir: Path | None = None) -> list[Path]:
    """Write each corrected part as `<target>/open-db/<Category>/<id>.json`, OpenDB's own layout, ready to copy into
    a clone of buildcores-open-db for a pull request; plus CORRECTIONS.md listing each change and its source."""
    corrections = _current(data_dir)
    if not corrections:
        raise CorrectionRefused("you have no corrections to export ('rigplan parts correct ID FIELD=VALUE --source')")
    base = load_base_catalog(data_dir=data_dir)
    by_part: dict[str, list[UserCorrection]] = {}
    for c in corrections:
        by_part.setdefault(c.part_id, []).append(c)
    raw = _raw_records(data_dir, set(by_part))
    written = []
    notes = ["# Corrections for BuildCores OpenDB", "", "Made with RigPlan (`rigplan parts corrections export`).", ""]
    for pid, cs in sorted(by_part.items()):
        row = base.row_of(pid)
        part = base.get(pid)
        if row is None or part is None or not SAFE_ID.match(pid):
            notes.append(f"- `{pid}`: not in the catalog in use; left out")
            continue
        kind = Kind(part.kind)
        fields = {c.field: c.value for c in cs}
        rec = with_corrections(kind, raw[pid], fields) if pid in raw else to_opendb(kind, _corrected(row, cs))
        out = target / "open-db" / category(kind) / f"{pid}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(rec, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(out)
        whole = "" if pid in raw else " (rebuilt from RigPlan's fields: compare with the upstream file before sending)"
        notes.append(f"- {part.name} (`open-db/{category(kind)}/{pid}.json`){whole}:")
        notes += [f"  - `{c.field}`: {c.was!r} -> {c.value!r}; source: {c.source}" for c in cs]
    (target / "CORRECTIONS.md").write_text("\n".join(notes) + "\n", encoding="utf-8")
    return written


def _corrected(row: dict[str, Any], cs: list[UserCorrection]) -> dict[str, Any]:
    for c in cs:
        row = with_field(row, c.field, c.value)
    return row
