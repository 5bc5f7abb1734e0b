"""compatible(build, kind, catalog): the "compatible only" filter over a whole kind of the catalog.

A candidate is compatible when putting it in the build (a CPU, cooler, board, PSU or case replaces the current one;
a GPU, memory kit or drive is added once, or replaces one of its kind when the board's memory or x16 slots are all
taken: see slots_full) adds no error that check() would report. Errors are compared by rule id and the parts
involved, leaving the candidate out, so an error the build already has does not hide every candidate.

There is no second copy of the rules here: each rule of engine.RULES that reads this kind is run on the build with
one representative part per distinct value of the facts it reads (rule.py), and the verdicts are spread over the
rows. `naive_compatible` runs the definition literally (check() per candidate); tests/test_rule_agreement.py holds
the two equal over every part of every kind, and benchmarks/compat_filter.py times both.
"""

from __future__ import annotations

import numpy as np

from rigplan.catalog.loader import Catalog
from rigplan.model.build import Build
from rigplan.model.parts import Kind, Part
from rigplan.rules.context import Ctx, x16_size_slots
from rigplan.rules.engine import RULES, check
from rigplan.rules.findings import Finding
from rigplan.rules.platforms import one_table
from rigplan.rules.rule import error_key, rule_mask, with_part

SINGLE = frozenset({Kind.CPU, Kind.COOLER, Kind.MOTHERBOARD, Kind.PSU, Kind.CASE})
# Rules the filter leaves out on purpose (see engine.RULES): they read no kind, so rule_mask never runs them.
IGNORED_RULES = frozenset(r.id for r in RULES if not r.reads)


def slots_full(build: Build, kind: Kind) -> str | None:
    """Why another part of this kind cannot be added ("all 4 DIMM slots are used"), or None when there is room.
    Then the filter answers "what could replace the current part" instead of "what could be added"."""
    c = Ctx(build)
    if kind is Kind.MEMORY and c.board and c.board.memory_slots and c.memory and all(m.modules for m, _ in c.memory):
        used = sum((m.modules or 0) * q for m, q in c.memory)
        if used >= c.board.memory_slots:
            return f"all {c.board.memory_slots} DIMM slots are used"
    if kind is Kind.GPU and c.board and c.gpus:
        slots = x16_size_slots(c.board)
        x16 = len(slots) if slots else 0
        if x16 and len(c.gpus) >= x16:
            return f"every x16 slot ({x16}) holds a GPU"
    return None


def base_build(build: Build, kind: Kind, replacing: str | None = None) -> Build:
    """The build the candidate goes into: without the current part of a single-slot kind; for memory and GPUs,
    without one of the current parts: `replacing` when given (a swap the user asked for), else the last one when the
    board has no free slot."""
    if kind in SINGLE:
        return build.model_copy(update={"items": tuple(i for i in build.items if i.part.kind != kind)})
    if slots_full(build, kind) is None and replacing is None:
        return build
    items = list(build.items)
    idx = [n for n, i in enumerate(items) if i.part.kind == kind]
    pick = next((n for n in idx if items[n].part.id == replacing), idx[-1])
    if items[pick].quantity > 1:
        items[pick] = items[pick].model_copy(update={"quantity": items[pick].quantity - 1})
    else:
        del items[pick]
    return build.model_copy(update={"items": tuple(items)})


def with_candidate(base: Build, part: Part) -> Build:
    return with_part(base, part, part.kind in SINGLE)


def added_errors(base: Build, part: Part) -> list[Finding]:
    """The errors `part` adds when it goes into `base` (a build already without the part it would replace): each
    error check() reports with it whose (rule, parts) key (Rule.errors' key, the part left out) the base does not
    have. An error the base has already does not count, even if its message changes with the part (a bigger load
    on the same too-small PSU). The filter's definition: a part is compatible exactly when this is empty."""
    before = {error_key(f, part.id) for f in check(base).errors()}
    after = check(with_candidate(base, part)).errors()
    return [f for f in after if f.rule not in IGNORED_RULES and error_key(f, part.id) not in before]


def errors_added(build: Build, part: Part, replacing: str | None = None) -> list[Finding]:
    """The errors `part` would add to `build` as the picker puts it in (replacing a part of a single-slot kind, or
    `replacing`, or the last of its kind when the slots are full: base_build). The picker's tooltip says these; the
    "compatible only" filter hides exactly the parts for which it is not empty."""
    return added_errors(base_build(build, part.kind, replacing), part)


def naive_compatible(
    build: Build, kind: Kind, catalog: Catalog, rows: list[int] | None = None, replacing: str | None = None
) -> list[int]:
    base = base_build(build, kind, replacing)
    table = catalog.table(kind)
    return [i for i in (range(len(table)) if rows is None else rows) if not added_errors(base, table.part(i))]


def compatible_mask(build: Build, kind: Kind, catalog: Catalog, replacing: str | None = None) -> np.ndarray:
    table = catalog.table(kind)
    if not len(table):
        return np.zeros(0, dtype=bool)
    base = base_build(build, kind, replacing)
    single = kind in SINGLE
    mask = np.ones(len(table), dtype=bool)
    with one_table():  # the platform table read once for every rule (rules/platforms.py)
        ctx = Ctx(base)  # one view of the base for every rule: its power is estimated once
        for rule in RULES:
            if kind in rule.reads:
                mask &= rule_mask(rule, ctx, table, single)
    if not single:  # a part already in the build goes in as one more of the same item: judged on its own
        in_base = {i.part.id for i in base.items if i.part.kind == kind}
        for row, pid in enumerate(table.ids if in_base else ()):
            if pid in in_base:
                mask[row] = not added_errors(base, table.part(row))
    return mask


def compatible(build: Build, kind: Kind, catalog: Catalog, replacing: str | None = None) -> list[int]:
    """Row indices of catalog.table(kind) that would add no error to `build` (see the module docstring). When the
    board's memory or x16 slots are full, the rows that could replace a current part (`replacing`, else the last)."""
    return np.flatnonzero(compatible_mask(build, kind, catalog, replacing)).tolist()
