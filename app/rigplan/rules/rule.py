"""A rule, written once: `run(ctx)` judges one build and writes its findings; `reads` names the facts of each part
kind that can change its verdict. The catalog-wide filter (rules/compat.py) evaluates the same `run` once per
distinct value of those facts among a kind's parts and spreads the answer over the rows with numpy, so there is no
second, column-wise copy of any rule to keep in step (docs/checks.md, "How a rule is added").

A wrong `reads` (a fact the rule uses but does not declare) would make parts that differ in that fact share one
verdict; tests/test_rule_agreement.py runs check() on every part of every kind against random partial builds and
catches it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import numpy as np

from rigplan.catalog.loader import KindTable
from rigplan.model.build import Build, BuildItem
from rigplan.model.parts import Kind
from rigplan.rules.context import Ctx
from rigplan.rules.findings import Report

Facts = Callable[[Any], Hashable]
ErrorKey = tuple[str, tuple[str, ...]]


def facts(*names: str) -> Facts:
    """The facts a rule reads from a part: these attributes, as one hashable tuple."""
    get = attrgetter(*names)
    return (lambda p: (get(p),)) if len(names) == 1 else get


def count_only(part: Any) -> Hashable:
    """The rule counts parts of this kind (GPUs against x16 slots): every part is the same to it."""
    return ()


@dataclass(frozen=True)
class Rule:
    ids: tuple[str, ...]  # the finding ids it writes (each id belongs to one rule)
    run: Callable[[Ctx], None]
    reads: Mapping[Kind, Facts] = field(default_factory=dict)  # empty: the rule writes no errors, the filter skips it
    assumptions: bool = False  # reads the build's assumptions (wall circuit)
    # Kinds the rule needs all of before it can write an error (a cooler and a case for cooler-height): without
    # one of them in the build, every candidate passes at once.
    needs: frozenset[Kind] = frozenset()
    # A condition on the build without the candidate and the candidate's kind, without which the rule writes no
    # error (psu-quantity: a PSU line of quantity 2+; gpu-eps-power: an EPS-fed GPU, in the build or as the
    # candidate); None: always.
    applies: Callable[[Build, Kind], bool] | None = None
    # A vectorised form of the same decision (power adds up: rules/power_mask.py): (base, table, codes, first,
    # ids of the rule's errors the base already has) -> mask; None: the filter runs `run` once per distinct facts.
    # The errors already there come from `errors()`, the one definition both paths use (a vector that read the
    # base's warnings as errors once hid every candidate that turned a psu-wattage warning into an error).
    # It may answer None for a build it does not cover (two PSUs): then `run` is used.
    vector: Callable[[Build, KindTable, np.ndarray, list[int], frozenset[str]], np.ndarray | None] | None = None

    @property
    def id(self) -> str:
        return self.ids[0]

    def errors(self, build: Build | Ctx, leave_out: str = "") -> set[ErrorKey]:
        """(rule id, parts involved but `leave_out`) of each error this rule finds in `build`."""
        c = build if isinstance(build, Ctx) else Ctx(build)
        self.run(c)
        return {
            (f.rule, tuple(p for p in f.parts if p != leave_out)) for f in c.report.findings if f.severity == "error"
        }

    def fingerprint(self, build: Build) -> Hashable:
        """Everything of `build` this rule reads: equal fingerprints give equal verdicts for every candidate."""
        parts = tuple((i.part.kind, i.part.id, i.quantity, self.reads[i.part.kind](i.part)) for i in build.items
                      if i.part.kind in self.reads)  # fmt: skip
        a = build.assumptions
        return (self.id, parts, (a.wall_voltage, a.wall_amps) if self.assumptions else None)


def keys_of(table: KindTable, rule: Rule) -> tuple[np.ndarray, list[int]]:
    """For each row, the index of its distinct facts; and one representative row per distinct facts. Cached."""
    cache = table.__dict__.setdefault("_rigplan_rule_keys", {})
    done = cache.get(rule.id)
    if done is None:
        get = rule.reads[table.kind]
        index: dict[Hashable, int] = {}
        first: list[int] = []
        codes = np.empty(len(table), dtype=np.int64)
        for i in range(len(table)):
            k = get(table.part(i))
            j = index.get(k)
            if j is None:
                j = index[k] = len(first)
                first.append(i)
            codes[i] = j
        cache[rule.id] = done = (codes, first)
    return done


def with_part(base: Build, part: Any, single: bool) -> Build:
    """`base` with `part` added (a second item of its id adds to the quantity), or in place of its kind's part."""
    items = list(base.items)
    if not single:
        for n, item in enumerate(items):
            if item.part.id == part.id:
                items[n] = item.model_copy(update={"quantity": min(item.quantity + 1, 64)})
                return base.model_copy(update={"items": tuple(items)})
    return base.model_copy(update={"items": (*items, BuildItem(part=part))})


def _adds_none(rule: Rule, base: Ctx, part: Any, single: bool, before: set[ErrorKey]) -> bool:
    """The representative stands for every part with its facts, none of which is in `base` (compat.py judges
    those one by one): it goes in as a new line under an id no build uses."""
    stand_in = part.model_copy(update={"id": f"{part.id}\x00candidate"})
    return rule.errors(base.plus(stand_in, single), stand_in.id) <= before


def rule_mask(rule: Rule, base: Build, table: KindTable, single: bool) -> np.ndarray:
    """Rows of `table` whose part, put into `base`, adds no error of `rule`. Cached per table by the rule's
    fingerprint of `base`, so a build change that does not touch what the rule reads costs one dict lookup."""
    results: dict[Hashable, np.ndarray] = table.__dict__.setdefault("_rigplan_rule_masks", {})
    memo = rule.fingerprint(base)
    mask = results.get(memo)
    if mask is not None:
        return mask
    present = {i.part.kind for i in base.items} | {table.kind}
    if not rule.needs <= present or (rule.applies is not None and not rule.applies(base, table.kind)):
        return np.ones(len(table), dtype=bool)
    codes, first = keys_of(table, rule)
    ctx = Ctx(base)
    before = rule.errors(ctx)
    ctx.report = Report()
    if rule.vector is not None:
        vec = rule.vector(base, table, codes, first, frozenset(r for r, _ in before))
        if vec is not None:
            results[memo] = vec
            return vec
    verdicts = (_adds_none(rule, ctx, table.part(i), single, before) for i in first)
    ok = np.fromiter(verdicts, dtype=bool, count=len(first))
    mask = ok[codes]
    if len(results) > 4096:
        results.clear()
    results[memo] = mask
    return mask
