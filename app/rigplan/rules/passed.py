"""Which checks passed (issue 29): shown beside "not checked", so a clean build says what was actually verified.

A finding id passed when its rule can write an error, every kind the rule needs is in the build, and the id wrote
neither a finding nor a "not checked" line. Rules that need no particular kinds (the power rules read every part)
count as passed once the build has the parts they judge: a PSU for psu-wattage, and a wall-circuit verdict only
with a PSU too. Notes-only rules (gpu-lanes, the balance notes) are not listed: they do not pass or fail.
"""

from __future__ import annotations

from rigplan.model.build import Build
from rigplan.model.parts import Kind
from rigplan.rules.engine import RULES
from rigplan.rules.findings import Report

_NEEDS_WHEN_EMPTY = {"psu-wattage": frozenset({Kind.PSU}), "wall-circuit": frozenset({Kind.PSU})}


def passed(build: Build, report: Report) -> list[str]:
    present = {i.part.kind for i in build.items}
    spoke = {f.rule for f in report.findings} | {n.rule for n in report.not_checked}
    out = []
    for rule in RULES:
        if not rule.reads:  # writes no errors: nothing to pass
            continue
        for rid in rule.ids:
            needs = rule.needs or _NEEDS_WHEN_EMPTY.get(rid)
            if needs and needs <= present and rid not in spoke:
                out.append(rid)
    return out
