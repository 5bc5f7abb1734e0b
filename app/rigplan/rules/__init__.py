"""Compatibility and power checks: pure Python, no Qt.

check(build) -> Report lists findings (error / warning / note, with a stable rule id, both numbers and a fix) and
what could not be checked and why. compatible(build, kind, catalog) is the fast "compatible only" filter.
"""

from rigplan.rules.compat import compatible
from rigplan.rules.engine import check
from rigplan.rules.findings import Finding, NotChecked, Report, Severity
from rigplan.rules.power import PowerEstimate, estimate_power, wall_watts

__all__ = [
    "Finding",
    "NotChecked",
    "PowerEstimate",
    "Report",
    "Severity",
    "check",
    "compatible",
    "estimate_power",
    "wall_watts",
]
