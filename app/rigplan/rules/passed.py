"""Which checks passed (issue 29): shown beside "not checked", so a clean build says what was actually verified.

A rule passed when it can pass (its `passes` policy, engine.RULES), it ran (every kind it `needs` is in the build,
one of its `needs_any` kinds too, and its `applies` holds: Rule.gate), and it wrote neither a finding nor a "not
checked" line. Each rule has one function and one `needs`, so a build holding only a memory kit lists no memory rule:
none of them ran.
"""

from __future__ import annotations

from rigplan.model.build import Build
from rigplan.rules.engine import RULES
from rigplan.rules.findings import Report


def passed(build: Build, report: Report) -> list[str]:
    spoke = {f.rule for f in report.findings} | {n.rule for n in report.not_checked}
    return [rid for rule in RULES if rule.passes and rule.gate(build, None) for rid in rule.ids if rid not in spoke]
