"""Findings that read a value the user corrected say so (issue 38): "... (reads your correction of length_mm: 304,
ASUS spec page)". A rule reads a field when its facts of the part change with that field (Rule.reads, the same
facts the catalog filter uses), so no table of which rule reads which field is kept beside the rules."""

from __future__ import annotations

import dataclasses
from typing import Any

from rigplan.catalog.overlay import UserCorrection, get_field, shown, with_field
from rigplan.model.build import Build
from rigplan.model.parts import PART_ADAPTER
from rigplan.rules.findings import Report


def _reads(rule: Any, part: Any, c: UserCorrection) -> bool:
    facts = rule.reads.get(part.kind)
    if facts is None:
        return False
    try:
        before = PART_ADAPTER.validate_python(
            with_field(part.model_dump(mode="json", exclude_none=True), c.field, c.was)
        )
    except ValueError:
        return True  # the old value is no longer valid: the rule reads the corrected one whatever it is
    return bool(facts(part) != facts(before))


def with_correction_notes(report: Report, build: Build, corrections: dict[tuple[str, str], UserCorrection]) -> Report:
    """The report with each finding that reads a corrected value of a part in the build marked with its source.
    Only where the build holds the corrected value (a part picked before the correction keeps the old one)."""
    if not corrections:
        return report
    from rigplan.rules.engine import RULES

    by_id = {}
    for rule in RULES:
        for rid in rule.ids:
            by_id[rid] = rule
    parts = {i.part.id: i.part for i in build.items}
    findings = []
    for f in report.findings:
        found = by_id.get(f.rule)
        notes = []
        for pid in f.parts:
            part = parts.get(pid)
            if part is None or found is None:
                continue
            dump = part.model_dump(mode="json", exclude_none=True)
            for (cid, field), c in corrections.items():
                if cid == pid and get_field(dump, field) == c.value and _reads(found, part, c):
                    notes.append(f"{field} {shown(c.value)} is {c.label()}")
        findings.append(dataclasses.replace(f, message=f"{f.message} ({'; '.join(notes)})") if notes else f)
    return dataclasses.replace(report, findings=findings)
