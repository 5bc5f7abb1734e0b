"""A rule, written once, with its whole policy: `run(ctx)` judges one build and writes its findings; `reads` names
the facts of each part kind that can change its verdict; the policy fields say what the suggester and the Passed
list make of it. The catalog-wide filter (rules/compat.py) evaluates the same `run` once per distinct value of those
facts among a kind's parts and spreads the answer over the rows with numpy, so there is no second, column-wise copy
of any rule to keep in step; the suggester's strict verdicts (suggest/expert.py) use the same masking with another
`Judge` (docs/architecture.md, "How a rule is added").

A wrong `reads` (a fact the rule uses but does not declare) would make parts that differ in that fact share one
verdict; tests/test_rule_agreement.py runs check() on every part of every kind (each against one of several random
partial builds) and catches it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from operator import attrgetter
from typing import Any, Protocol

import numpy as np

from rigplan.catalog.loader import KindTable
from rigplan.model.build import Build, BuildItem
from rigplan.model.parts import Kind
from rigplan.rules.context import Ctx
from rigplan.rules.findings import Finding, Report
from rigplan.rules.platforms import one_table

Facts = Callable[[Any], Hashable]
ErrorKey = tuple[str, tuple[str, ...]]


def error_key(f: Finding, leave_out: str = "") -> ErrorKey:
    """How an error is told apart from another: its rule and the parts involved, `leave_out` (a candidate) left out.
    Not its message: a part that makes an existing error's numbers worse adds no error (rules/compat.py)."""
    return f.rule, tuple(p for p in f.parts if p != leave_out)


def facts(*names: str) -> Facts:
    """The facts a rule reads from a part: these attributes, as one hashable tuple."""
    get = attrgetter(*names)
    return (lambda p: (get(p),)) if len(names) == 1 else get


def count_only(part: Any) -> Hashable:
    """The rule counts parts of this kind (GPUs against x16 slots): every part is the same to it."""
    return ()


class Power(Enum):
    """How a rule reads the build's power (rules/power.py), for the suggester's pruning (suggest/bounds.py)."""

    NONE = "none"  # reads no power figure
    # The load against the PSU's rating (psu-wattage). Its error bounds the search (bounds.PowerRoom: the load only
    # grows as parts are added); its warning is "below RigPlan's recommended size" (candidates.psu_recommended).
    RATING = "rating"
    CIRCUIT = "circuit"  # the wall draw against the circuit (wall-circuit): bounds.PowerRoom and wall_feasible
    UNITS = "units"  # the load split over two or more PSU units (psu-quantity): judged per candidate, not bounded


@dataclass(frozen=True)
class Rule:
    ids: tuple[str, ...]  # the finding ids it writes (each id belongs to one rule; one id but for notes-only rules)
    run: Callable[[Ctx], None]
    reads: Mapping[Kind, Facts] = field(default_factory=dict)  # empty: the rule writes no errors, the filter skips it
    assumptions: bool = False  # reads the build's assumptions (wall circuit)
    # Kinds the rule needs all of before it writes anything (a cooler and a case for cooler-height): without one of
    # them in the build (the candidate's kind counts), every candidate passes at once, and the rule did not run.
    needs: frozenset[Kind] = frozenset()
    # Kinds of which it needs at least one besides (memory-capacity: a board or a CPU to set the limit).
    needs_any: frozenset[Kind] = frozenset()
    # A condition on the build without the candidate and the candidate's kind (None: no candidate), without which
    # the rule writes nothing (psu-quantity: a PSU line of quantity 2+; gpu-eps-power: an EPS-fed GPU, in the build
    # or as the candidate); None: always.
    applies: Callable[[Build, Kind | None], bool] | None = None
    # A vectorised form of the same decision (power adds up: rules/power_mask.py): (the base's Ctx, table, codes,
    # first, ids of the rule's errors the base already has) -> mask; None: `run` is run once per distinct facts.
    # The errors already there come from `errors()`, the one definition both paths use (a vector that read the
    # base's warnings as errors once hid every candidate that turned a psu-wattage warning into an error).
    # It may answer None for a build it does not cover (two PSUs): then `run` is used.
    vector: Callable[[Ctx, KindTable, np.ndarray, list[int], frozenset[str]], np.ndarray | None] | None = None
    # -- The policy. Every entry of engine.RULES states each field (no defaults: a rule without its policy does not
    # construct; tests/test_rule_policy.py). docs/checks.md, "How a rule is added", says what each means.
    passes: bool = field(kw_only=True)  # it can pass: listed under "Passed" when it ran and wrote nothing
    # Its "not checked" fails a candidate for the suggester: always (True), never (False), or where a predicate on
    # the build (the candidate in it) holds (gpu-slot-spacing: cards of 2.5 slots or more). A predicate reads only
    # facts in the rule's strict facts, so the cached verdicts stay keyed by everything they depend on.
    strict_unknown: bool | Callable[[Build], bool] = field(kw_only=True)
    strict_warn: bool = field(kw_only=True)  # its warning fails a candidate when the expert's minimums are on
    # The facts its warnings and "not checked" read, for a strict rule that writes no error (so `reads` is empty);
    # None: `reads`.
    strict_reads: Mapping[Kind, Facts] | None = field(kw_only=True)
    power: Power = field(kw_only=True)  # how it reads the build's power (Power)
    # It reads only the GPUs: its verdict on n cards holds whatever else the build holds, so the suggester drops
    # the cards it fails from the options at once (a hybrid card's radiator, 3+ open-air cards).
    gpu_only: bool = field(kw_only=True)
    # The suggester's relaxed bound (suggest/relaxed.py) asks of it the least any card asks (the "loosest card":
    # shortest, narrowest, lowest power, no connector). Sound only while its "not checked" fails an option and it
    # only gets harder as those GPU facts grow; the bound is used only when every such rule is strict_unknown.
    loosest_card: bool = field(kw_only=True)

    @property
    def id(self) -> str:
        return self.ids[0]

    def strict_unknown_in(self, build: Build) -> bool:
        """Does its "not checked" fail a candidate in `build` (strict_unknown, a flag or a predicate)?"""
        s = self.strict_unknown
        return s(build) if callable(s) else s

    @property
    def strict_facts(self) -> Mapping[Kind, Facts]:
        """The facts the suggester's strict verdicts read."""
        return self.reads if self.strict_reads is None else self.strict_reads

    def gate(self, build: Build, kind: Kind | None) -> bool:
        """Can the rule write anything in `build` with a part of `kind` added (None: as it is)?"""
        present = {i.part.kind for i in build.items} | ({kind} if kind is not None else set())
        if not self.needs <= present or (self.needs_any and not self.needs_any & present):
            return False
        return self.applies is None or self.applies(build, kind)

    def errors(self, build: Build | Ctx, leave_out: str = "") -> set[ErrorKey]:
        """(rule id, parts involved but `leave_out`) of each error this rule finds in `build`."""
        c = build if isinstance(build, Ctx) else Ctx(build)
        self.run(c)
        return {error_key(f, leave_out) for f in c.report.findings if f.severity == "error"}

    def fingerprint(self, build: Build, reads: Mapping[Kind, Facts] | None = None, by_id: bool = True) -> Hashable:
        """Everything of `build` this rule reads (`reads`, by default its own): equal fingerprints give equal
        verdicts for every candidate. by_id: which lines hold the same part too (errors name parts by id), as the
        order of first appearance of each id, not the id itself. A rule reads a part's id only to name it in a
        finding or to tell two lines of one part apart (the PSU count), so two builds whose parts differ only in
        identity, line for line, get the same findings with the ids renamed, and the same verdict on every
        candidate (whose stand-in id no build uses): the filter's verdicts are shared between them (a search asks
        of thousands of such builds: one per board, CPU and GPU it tries)."""
        reads = self.reads if reads is None else reads
        seen: dict[str, int] = {}
        parts = tuple((i.part.kind, seen.setdefault(i.part.id, len(seen)) if by_id else None, i.quantity,
                       reads[i.part.kind](i.part)) for i in build.items if i.part.kind in reads)  # fmt: skip
        a = build.assumptions
        return (self.id, parts, (a.wall_voltage, a.wall_amps) if self.assumptions else None)


class Judge(Protocol):
    """What counts against a candidate when a rule runs with it in the build: its errors (the "compatible only"
    filter, `ERRORS`) or its strict warnings and "not checked" (the suggester's, suggest/expert.py)."""

    @property
    def tag(self) -> Hashable:
        """Names its verdicts in a table's cache."""
        ...

    @property
    def by_id(self) -> bool:
        """Its keys name parts by id: its verdicts depend on the build's part ids, not only on their facts."""
        ...

    def reads(self, rule: Rule) -> Mapping[Kind, Facts]: ...

    def keys(self, rule: Rule, c: Ctx, kind: Kind | None, leave_out: str) -> frozenset[Hashable]:
        """Run `rule` on `c`: what it wrote that counts (kind: the candidate's; None for the base alone)."""
        ...


class _Errors:
    tag = "errors"
    by_id = True

    def reads(self, rule: Rule) -> Mapping[Kind, Facts]:
        return rule.reads

    def keys(self, rule: Rule, c: Ctx, kind: Kind | None, leave_out: str) -> frozenset[Hashable]:
        return frozenset(rule.errors(c, leave_out))


ERRORS: Judge = _Errors()

# A bound on one table's cached verdicts, for memory only: an entry is one fingerprint (the facts a rule reads of
# each part of a build: up to ~2 KB of tuples for the power rules, which read every part), the base's Ctx and one
# byte per distinct facts value. The heaviest questions of benchmarks/suggest.py (the break-even explanations) leave
# at most ~2,100 entries on a candidates table; 20,000 is ten times that, and a GUI session making thousands of edits
# stays within it. Past it the entries are asked again, never wrong.
MAX_VERDICTS = 20_000


class TableCache:
    """The rules' caches for one kind table (KindTable.caches["rules"]): they live and die with the table."""

    def __init__(self) -> None:
        # Per facts function: each row's index of its distinct facts, and one representative row per value.
        self.codes: dict[Facts, tuple[np.ndarray, list[int]]] = {}
        # Per (judge, single, fingerprint of the base): the verdicts on the table's distinct facts.
        self.verdicts: dict[Hashable, Verdicts] = {}
        self.masks: dict[Hashable, np.ndarray] = {}  # per fingerprint: a vectorised rule's mask (Rule.vector)
        # Per row: (its part, the part under an id no build uses): the candidate's stand-in in Verdicts._ask, made
        # once per row instead of once per question asked (a pydantic copy costs ~10 us; a search asks ~50,000).
        self.stand_ins: dict[int, tuple[Any, Any]] = {}

    def stand_in(self, table: KindTable, row: int) -> Any:
        part = table.part(row)
        hit = self.stand_ins.get(row)
        if hit is None or hit[0] is not part:
            hit = self.stand_ins[row] = (part, part.model_copy(update={"id": f"{part.id}\x00candidate"}))
        return hit[1]

    def remember(self, store: dict[Hashable, Any], key: Hashable, value: Any) -> None:
        if len(store) >= MAX_VERDICTS:
            store.clear()
        store[key] = value


def table_cache(table: KindTable) -> TableCache:
    cache = table.caches.get("rules")
    if cache is None:
        cache = table.caches["rules"] = TableCache()
    return cache  # type: ignore[no-any-return]


def keys_of(table: KindTable, get: Facts) -> tuple[np.ndarray, list[int]]:
    """For each row, the index of its distinct facts under `get`; and one representative row per distinct facts.
    Cached per table and facts function (rules that share one, as the power rules share engine.POWER_FACTS, share
    it)."""
    cache = table_cache(table).codes
    done = cache.get(get)
    if done is None:
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
        cache[get] = done = (codes, first)
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


class Verdicts:
    """One rule's verdicts, under one judge, on the parts of one table each put into one base build. Each distinct
    facts value is asked once, when a row of it is first asked about, and remembered (per table, by the rule's
    fingerprint of the base: a build change that does not touch what the rule reads costs one dict lookup)."""

    def __init__(self, rule: Rule, judge: Judge, ctx: Ctx, table: KindTable, single: bool) -> None:
        self.rule, self.judge, self.ctx, self.table, self.single = rule, judge, ctx, table, single
        self.open = not rule.gate(ctx.build, table.kind)  # the rule writes nothing whatever goes in: all pass
        self.codes, self.first = keys_of(table, judge.reads(rule)[table.kind])
        self.known = np.full(len(self.first), 1 if self.open else -1, dtype=np.int8)  # 1 pass, 0 fail, -1 not asked
        self.full: np.ndarray | None = np.ones(len(table), dtype=bool) if self.open else None
        self.before: frozenset[Hashable] | None = None

    def _ask(self, j: int) -> bool:
        """The representative stands for every part with its facts, none of which is in the base (compat.py judges
        those one by one): it goes in as a new line under an id no build uses."""
        if self.before is None:  # what the base has already (the base's Ctx may be shared: its report is reset)
            self.ctx.report = Report()
            self.before = self.judge.keys(self.rule, self.ctx, None, "")
        stand_in = table_cache(self.table).stand_in(self.table, self.first[j])
        after = self.judge.keys(self.rule, self.ctx.plus(stand_in, self.single), self.table.kind, stand_in.id)
        ok = after <= self.before
        self.known[j] = ok
        return ok

    def row(self, i: int) -> bool:
        j = self.codes[i]
        k = self.known[j]
        if k >= 0:
            return bool(k)
        with one_table():
            return self._ask(j)

    def mask(self, rows: np.ndarray | None = None) -> np.ndarray:
        """Per row: its part adds nothing the judge counts; only the rows of `rows` (all by default) are judged,
        the others come back False."""
        if self.full is not None:
            return self.full if rows is None else self.full & rows
        need = self.codes if rows is None else self.codes[rows]
        ask = np.unique(need[self.known[need] < 0]).tolist()
        if ask:
            with one_table():  # the rules read the platform table ~3 times per question (platforms.one_table)
                for j in ask:
                    self._ask(j)
        out = self.known[self.codes] == 1
        if rows is None or (self.known >= 0).all():
            self.full = out
        return out if rows is None else out & rows


def verdicts(rule: Rule, judge: Judge, base: Build | Ctx, table: KindTable, single: bool) -> Verdicts:
    """`rule`'s verdicts under `judge` on the parts of `table` put into `base` (Verdicts), from the table's cache.
    A Ctx of the base may be passed instead, to share its power estimate between rules."""
    ctx = base if isinstance(base, Ctx) else Ctx(base)
    cache = table_cache(table)
    key = (judge.tag, single, rule.fingerprint(ctx.build, judge.reads(rule), judge.by_id))
    hit = cache.verdicts.get(key)
    if hit is None:
        hit = Verdicts(rule, judge, ctx, table, single)
        cache.remember(cache.verdicts, key, hit)
    return hit


def rule_mask(rule: Rule, base: Build | Ctx, table: KindTable, single: bool) -> np.ndarray:
    """Rows of `table` whose part, put into `base`, adds no error of `rule` (its vectorised form where it has one).
    A Ctx of the base may be passed instead (compat.compatible_mask passes one to all the rules)."""
    ctx = base if isinstance(base, Ctx) else Ctx(base)
    if rule.vector is not None and rule.gate(ctx.build, table.kind):
        cache = table_cache(table)
        memo = rule.fingerprint(ctx.build)
        mask = cache.masks.get(memo)
        if mask is not None:
            return mask
        codes, first = keys_of(table, rule.reads[table.kind])
        ctx.report = Report()
        before = rule.errors(ctx)
        vec = rule.vector(ctx, table, codes, first, frozenset(r for r, _ in before))
        if vec is not None:
            cache.remember(cache.masks, memo, vec)
            return vec
    return verdicts(rule, ERRORS, ctx, table, single).mask()
