"""compatible(build, kind, catalog): the "compatible only" filter, vectorised over a whole kind of the catalog.

A candidate is compatible when putting it in the build (a CPU, cooler, board, PSU or case replaces the current one;
a GPU, memory kit or drive is added once) adds no error that check() would report. Errors are compared by rule id
and the parts involved, leaving the candidate out, so an error the build already has does not hide every candidate.
`naive_compatible` runs that definition literally (check() per candidate); tests/test_compat.py holds the two equal
and benchmarks/compat_filter.py times both.

cpu-igpu is left out on purpose: "no GPU and no integrated graphics" is about a part that is missing, not about the
candidate's fit, and would otherwise hide every Threadripper until a GPU is chosen.
"""

from __future__ import annotations

import numpy as np

from rigplan.catalog.loader import Catalog
from rigplan.model.build import Build, BuildItem
from rigplan.model.parts import Kind, Part
from rigplan.rules.context import Ctx
from rigplan.rules.engine import check
from rigplan.rules.filters import FILTERS, Base

SINGLE = frozenset({Kind.CPU, Kind.COOLER, Kind.MOTHERBOARD, Kind.PSU, Kind.CASE})
IGNORED_RULES = frozenset({"cpu-igpu"})


def base_build(build: Build, kind: Kind) -> Build:
    """The build the candidate goes into: without the current part of a single-slot kind."""
    if kind in SINGLE:
        return build.model_copy(update={"items": tuple(i for i in build.items if i.part.kind != kind)})
    return build


def with_candidate(base: Build, part: Part) -> Build:
    items = list(base.items)
    if part.kind not in SINGLE:
        for n, item in enumerate(items):
            if item.part.id == part.id:
                items[n] = item.model_copy(update={"quantity": min(item.quantity + 1, 64)})
                return base.model_copy(update={"items": tuple(items)})
    return base.model_copy(update={"items": (*items, BuildItem(part=part))})


def error_keys(build: Build, leave_out: str) -> set[tuple[str, tuple[str, ...]]]:
    return {
        (f.rule, tuple(p for p in f.parts if p != leave_out))
        for f in check(build).errors()
        if f.rule not in IGNORED_RULES
    }


def naive_compatible(build: Build, kind: Kind, catalog: Catalog, rows: list[int] | None = None) -> list[int]:
    base = base_build(build, kind)
    table = catalog.table(kind)
    out = []
    for i in range(len(table)) if rows is None else rows:
        pid = table.ids[i]
        if error_keys(with_candidate(base, table.part(i)), pid) <= error_keys(base, pid):
            out.append(i)
    return out


def compatible_mask(build: Build, kind: Kind, catalog: Catalog) -> np.ndarray:
    table = catalog.table(kind)
    if not len(table):
        return np.zeros(0, dtype=bool)
    base = base_build(build, kind)
    report = check(base)
    power = report.power
    assert power is not None
    b = Base(Ctx(base), power.load_w, power.gpu_w, {f.rule for f in report.errors()}, bool(power.unknown))
    return FILTERS[kind](b, table)


def compatible(build: Build, kind: Kind, catalog: Catalog) -> list[int]:
    """Row indices of catalog.table(kind) that would add no error to `build` (see the module docstring)."""
    return np.flatnonzero(compatible_mask(build, kind, catalog)).tolist()
