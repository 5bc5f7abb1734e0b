"""Shared test helpers: a real catalog part by id prefix, and a build of (part, quantity) pairs.

Imported by the rule tests (test_rule_boundaries, test_rules_units, test_slot_spacing, test_board_layouts_standard,
test_board_layouts_sourced), which pick parts from the shipped catalog by the first characters of their ids, and
read one rule's errors and "not checked" reasons (spacing).
"""

from __future__ import annotations

from rigplan.catalog import Catalog
from rigplan.model import Build, BuildItem
from rigplan.model.parts import Part
from rigplan.rules import Severity, check


def part(catalog: Catalog, prefix: str, **figures: object) -> Part:
    """The one catalog part whose id starts with `prefix` (an assertion fails on none or several), with `figures`
    replaced when given (a copy: the catalog is not touched)."""
    (hit,) = [catalog.get(pid) for t in catalog.tables.values() for pid in t.ids if pid.startswith(prefix)]
    assert hit is not None
    return hit.model_copy(update=figures) if figures else hit


def build(*items: tuple[Part, int], **assume: object) -> Build:
    """A build of the given parts and quantities; keyword arguments set its assumptions (wall_voltage=230, ...)."""
    b = Build(name="t", items=tuple(BuildItem(part=p, quantity=q) for p, q in items))
    return b.model_copy(update={"assumptions": b.assumptions.model_copy(update=assume)}) if assume else b


def spacing(b: Build, rule: str = "gpu-slot-spacing") -> tuple[list[str], list[str]]:
    """The rule's errors and its "not checked" reasons in check()'s report (gpu-slot-spacing unless named)."""
    r = check(b)
    return [f.message for f in r.findings if f.rule == rule and f.severity is Severity.ERROR], [
        n.reason for n in r.not_checked if n.rule == rule
    ]
