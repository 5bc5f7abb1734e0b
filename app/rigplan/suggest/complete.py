"""One completion: the cheapest valid build around a GPU option, by a cost-ordered depth-first branch and bound.

At each level the candidates are the priced parts that `rules.compatible()` accepts next to the parts chosen so far,
in price order. The bound is the cost so far plus the cheapest candidate of every later kind still possible: a valid
lower bound, so stopping the price-ordered scan at it never drops a cheaper build. Pruning by compatible() is sound
because the rules are monotone (docs/suggest.md, "The model and why the answer is exact").

Everything it needs is passed in: the candidate tables and lists (`Candidates`), the strictness (`Strict`), the power
pruner (`PowerPruner`), the objective (None: the cheapest; a `Breakeven`: the earliest day) and the incumbent it must
beat. Its state is the `Incumbent` it improves and the parts chosen on the current path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import compress

import numpy as np

from rigplan.catalog.loader import Catalog
from rigplan.model.assumptions import Assumptions
from rigplan.model.build import Build, BuildItem
from rigplan.model.common import Price
from rigplan.model.parts import Cpu, Kind, Part
from rigplan.rules import check
from rigplan.rules.compat import SINGLE, compatible_mask
from rigplan.rules.engine import RULES
from rigplan.rules.rule import rule_mask
from rigplan.suggest.bounds import INF, Bounds, PowerRoom, wall_feasible
from rigplan.suggest.breakeven import Breakeven, Score, better
from rigplan.suggest.candidates import psu_recommended
from rigplan.suggest.expert import Minimums, Strict
from rigplan.suggest.found import ORDER, Cancelled, Found, GpuOption, Stats
from rigplan.suggest.pruning import PowerPruner

Lists = list[list[tuple[float, int]]]  # per depth of ORDER: (USD price, row) of the candidates, cheapest first


@dataclass
class Candidates:
    """What every completion of one question searches: the candidate catalog, each kind's priced candidates, the
    lists per minimums (one cache per kind table), and whether every CPU's power is known (power bounds apply)."""

    sub: Catalog
    lists: dict[Kind, list[tuple[float, int]]]
    cpu_power_known: bool
    _meets: dict[tuple[Minimums, Kind], list[tuple[float, int]]] = field(default_factory=dict)

    def meeting(self, need: Minimums, kind: Kind) -> list[tuple[float, int]]:
        """The candidates of a kind that meet the per-part minimums for an option (options share them)."""
        key = (need, kind)
        hit = self._meets.get(key)
        if hit is None:
            table = self.sub.table(kind)
            hit = self._meets[key] = [(p, r) for p, r in self.lists[kind] if need.part_ok(table.part(r))]
        return hit


@dataclass
class Incumbent:
    """The best completion found so far: the most the rest may cost (cap), its parts and (goal BREAKEVEN) its
    score."""

    cap: float
    parts: tuple[tuple[Part, float], ...] | None = None
    score: Score | None = None


@dataclass(frozen=True)
class Context:
    """The question's fixed inputs to every completion."""

    a: Assumptions
    cands: Candidates
    strict: Strict
    power: PowerPruner
    stats: Stats
    own: dict[str, Price]
    recommend: bool  # RigPlan's recommended PSU size is the limit (psu-wattage's warning fails a build)
    cancelled: Callable[[], bool] | None = None
    # Whether a CPU (the facts the cooler rules read of it, and the cooler minimums asked) has a cooler it may take:
    # cooler-capacity's strict warning leaves a 280 W Threadripper without one where no cooler for its socket is
    # rated high enough, and the CPU list is cut to those that have one before any board is tried (else every board
    # and PSU is scanned in vain).
    cooled: dict[tuple[object, bool, bool], bool] = field(default_factory=dict)


# The rules that judge a cooler beside a CPU (their errors, warnings and "not checked"), from their declared reads.
_CPU_COOLER = [
    facts
    for r in RULES
    for reads in (r.reads, r.strict_facts)
    if Kind.CPU in reads and Kind.COOLER in reads
    for facts in (reads[Kind.CPU],)
]


def _cooler_facts(cpu: Cpu) -> tuple[object, ...]:
    """What decides which coolers pass beside a CPU: the facts of it those rules read, and what the boxed cooler's
    test reads (Minimums.boxed_ok). CPUs alike in these share one verdict (1,200 CPUs, a few dozen verdicts)."""
    own = (cpu.socket, cpu.tdp_w, cpu.boost_power_w, cpu.includes_cooler)
    return (own, *(facts(cpu) for facts in _CPU_COOLER))


@dataclass(frozen=True)
class _Node:
    """One node of the branch and bound, as its scan needs it."""

    depth: int
    cost: float
    items: tuple[BuildItem, ...]
    build: Build
    ahead: Lists
    rest: float  # the bound on the kinds after this one
    floor: float | None  # goal BREAKEVEN: the electricity floor below the node
    room: PowerRoom | None  # what the PSU has left, when every power figure is known


class Completion:
    """The branch and bound around one option (module docstring). run() returns the best Found or None."""

    def __init__(
        self,
        ctx: Context,
        option: GpuOption,
        rest_cap: float,
        need: Minimums,
        objective: Breakeven | None = None,
        incumbent: Score | None = None,
    ) -> None:
        self.ctx, self.option, self.rest_cap, self.need, self.objective = ctx, option, rest_cap, need, objective
        self.best = Incumbent(rest_cap + 1e-9, None, incumbent)
        if objective is not None and incumbent is not None:
            self.best.cap = objective.cap_for(option, incumbent, rest_cap)
        self.chosen: list[tuple[Part, float]] = []
        self.nodes = 0
        # The GPUs under one id for every option: the filter's caches are keyed by the facts a rule reads and the
        # parts' ids, so GPUs of other ids but equal facts (most SKUs of a chip, for most rules) share their masks.
        self.gpu_item = BuildItem(part=option.part.model_copy(update={"id": "suggest-gpus"}), quantity=option.count)

    # -- the lists around the GPUs alone -----------------------------------------------------------------------
    def _first_lists(self) -> Lists | None:
        """Each kind's candidates that can go with these GPUs; None when a kind has none left (four 3-slot cards
        fit no board) or each kind's cheapest is already over the cap: the completion ends before the rest of the
        lists are built (most GPU options of a 4-GPU question end at the board)."""
        ctx, cands = self.ctx, self.ctx.cands
        base = Build(items=(self.gpu_item,), assumptions=ctx.a)
        lists: Lists = []
        cheapest = [
            lst[0][0] if lst and k is not Kind.COOLER else 0.0 for k, lst in ((k, cands.lists[k]) for k in ORDER)
        ]
        for d, kind in enumerate(ORDER):
            mask = compatible_mask(base, kind, cands.sub)
            if ctx.strict.active:
                mask = ctx.strict.mask(base, cands.sub.table(kind), kind in SINGLE, mask)
            fit = [(p, r) for p, r in cands.meeting(self.need, kind) if mask[r]]
            if kind is Kind.PSU and ctx.recommend and cands.cpu_power_known:
                rest = [cands.lists[k] for k in ORDER[d + 1 :]]
                fit = psu_recommended(base, [*lists, fit, *rest], cands.sub, ctx.power.peak)
            if not fit and kind is not Kind.COOLER:
                return None
            lists.append(fit)
            if kind is not Kind.COOLER:
                cheapest[d] = fit[0][0]
            if sum(cheapest) > self.rest_cap + 1e-9:
                return None
        at = ORDER.index(Kind.CPU)
        lists[at] = [(p, r) for p, r in lists[at] if self._cooled(r, lists[ORDER.index(Kind.COOLER)])]
        return lists if lists[at] else None

    def _cooled(self, row: int, coolers: list[tuple[float, int]]) -> bool:
        """The CPU of this row comes with a cooler, or one of `coolers` passes with it (every rule that reads a
        cooler and a CPU, strict verdicts included, and the expert's cooler minimums); remembered per question."""
        ctx, sub = self.ctx, self.ctx.cands.sub
        cpu = sub.table(Kind.CPU).part(row)
        if not isinstance(cpu, Cpu) or self.need.boxed_ok(cpu):
            return True
        key = (_cooler_facts(cpu), self.need.cooler_known, self.need.cooler_rated)
        hit = ctx.cooled.get(key)
        if hit is None:
            base = Build(items=(BuildItem(part=cpu),), assumptions=ctx.a)
            table = sub.table(Kind.COOLER)
            mask = compatible_mask(base, Kind.COOLER, sub)
            if ctx.strict.active:
                mask = ctx.strict.mask(base, table, Kind.COOLER in SINGLE, mask)
            hit = ctx.cooled[key] = any(mask[r] and self.need.with_cpu(cpu, table.part(r)) for _, r in coolers)
        return hit

    def run(self) -> Found | None:
        self.ctx.stats.completions += 1
        lists = self._first_lists()
        if lists is None:
            return None
        bound = Bounds(self.ctx.cands.sub, lists)
        # The board level: boards in the order of their own lower bound, so the scan stops at the first too dear.
        boards = sorted((bound.with_board(r, p), p, r) for p, r in lists[0])
        board_table = self.ctx.cands.sub.table(Kind.MOTHERBOARD)
        for lb, price, row in boards:
            if lb[0] > self.best.cap:
                break
            part = board_table.part(row)
            self.chosen.append((part, price))
            self._node(1, price, (self.gpu_item, BuildItem(part=part)), lists)
            self.chosen.pop()
        if self.best.parts is None:
            return None
        if self.objective is not None:
            assert self.best.score is not None
            return Found(
                self.option, self.best.parts, self.best.score.total_usd, score=self.best.score, own=self.ctx.own
            )
        return Found(self.option, self.best.parts, self.best.cap + self.option.cost_usd, own=self.ctx.own)

    # -- a complete build ----------------------------------------------------------------------------------------
    def _leaf(self, cost: float) -> None:
        if self.objective is None:
            if cost <= self.best.cap:
                self.best.cap, self.best.parts = cost, tuple(self.chosen)
            return
        total = cost + self.option.cost_usd
        found = Found(self.option, tuple(self.chosen), total, own=self.ctx.own)
        score = self.objective.score(found.build(self.ctx.a), total)
        if better(score, self.best.score):
            self.best.cap = self.objective.cap_for(self.option, score, self.rest_cap)
            self.best.parts, self.best.score = tuple(self.chosen), score

    def _limit(self, floor: float | None) -> float:
        """The most the whole rest may cost below a node (floor: its electricity floor, goal BREAKEVEN)."""
        if floor is None or self.best.score is None or self.objective is None:
            return self.best.cap
        return min(self.best.cap, self.objective.cap_for(self.option, self.best.score, self.rest_cap, floor))

    # -- a node ------------------------------------------------------------------------------------------------
    def _narrow(self, build: Build, depth: int, lists: Lists) -> Lists | None:
        """Look ahead: keep, for every kind still to choose, only the parts compatible with what is chosen so far
        (rules are monotone: a part that errors now errors in every completion); None when a kind is left empty."""
        ctx, sub, strict = self.ctx, self.ctx.cands.sub, self.ctx.strict
        ahead = list(lists)
        kind = ORDER[depth]
        if kind in (Kind.MEMORY, Kind.COOLER):  # the minimums that pair a part with the chosen CPU
            chosen_cpu = build.first(Kind.CPU)
            cpu_part = chosen_cpu if isinstance(chosen_cpu, Cpu) else None
            tab = sub.table(kind)
            ahead[depth] = [(p, r) for p, r in ahead[depth] if self.need.with_cpu(cpu_part, tab.part(r))]
        if not ahead[depth] and kind is not Kind.COOLER:
            return None
        new = ORDER[depth - 1]  # the kind just chosen: only the rules that read it can change a verdict ahead
        for d in range(depth, len(ORDER)):
            # The strict verdicts (warnings and unknowns that fail a part) narrow the lists ahead too, so the bound
            # counts the cheapest part that can really be chosen, not one the scan will refuse.
            mask = self._ahead_mask(build, ORDER[d], new, own=d == depth)
            rows = [r for _, r in ahead[d]]
            if strict.active:
                within = np.zeros(len(mask), dtype=bool)
                within[rows] = mask[rows]
                mask = strict.mask(build, sub.table(ORDER[d]), ORDER[d] in SINGLE, within, None if d == depth else new)
            ahead[d] = list(compress(ahead[d], mask[rows].tolist()))
            if not ahead[d] and ORDER[d] is not Kind.COOLER:
                return None
        if kind is Kind.PSU and ctx.cands.cpu_power_known:
            ahead[depth] = wall_feasible(build, ahead[depth], sub.table(Kind.PSU))
            if ctx.recommend:  # the lightest CPU, kit and drive this board still allows
                ahead[depth] = psu_recommended(build, ahead, sub, ctx.power.peak)
            if not ahead[depth]:
                return None
        return ahead

    def _node(self, depth: int, cost: float, items: tuple[BuildItem, ...], lists: Lists) -> None:
        ctx = self.ctx
        self.nodes += 1
        ctx.stats.nodes += 1
        ctx.stats.depth[depth] = ctx.stats.depth.get(depth, 0) + 1
        if ctx.cancelled is not None and ctx.cancelled():
            raise Cancelled
        build = Build(items=items, assumptions=ctx.a)
        ahead = self._narrow(build, depth, lists)
        if ahead is None:
            return
        room = PowerRoom(build, ctx.recommend) if depth >= 2 and ctx.cands.cpu_power_known else None
        if room is not None and room.ok and not ctx.power.power_room(depth, room, ahead):
            return
        powered = room is not None and room.ok
        cpu = build.first(Kind.CPU)
        # A cooler costs nothing until the CPU is chosen, and nothing when the CPU comes with one.
        boxed = cpu is None or (isinstance(cpu, Cpu) and self.need.boxed_ok(cpu))
        mins = [
            (0.0 if boxed else (lst[0][0] if lst else INF)) if ORDER[d] is Kind.COOLER else lst[0][0]
            for d, lst in enumerate(ahead)
        ]
        rest = sum(mins[depth + 1 :])
        # Goal BREAKEVEN: the chosen parts' power tightens the cap below this node (docs/suggest.md).
        floor = self.objective.own_day_floor(build) if self.objective is not None and depth >= 2 else None
        if cost + rest + mins[depth] > self._limit(floor):
            return
        if ORDER[depth] is Kind.COOLER and cpu is not None and boxed and self._passes(build):
            self._leaf(cost)  # the boxed cooler will do
        self._scan(_Node(depth, cost, items, build, ahead, rest, floor, room if powered else None))

    def _scan(self, node: _Node) -> None:
        """Try this level's candidates cheapest first until the bound stops the scan."""
        ctx, depth, cost = self.ctx, node.depth, node.cost
        kind = ORDER[depth]
        table = ctx.cands.sub.table(kind)
        # The strict verdicts of the power rules are asked of each candidate as the scan reaches it: most of a
        # level's candidates are never reached, the bound stops the scan first.
        judge = ctx.strict.judge(node.build, table, kind in SINGLE, power_only=True) if ctx.strict.active else None
        for price, row in node.ahead[depth]:
            limit = self._limit(node.floor)
            if cost + price + node.rest > limit:
                break
            room = node.room  # this part's watts may leave room only for dearer parts after it
            if room is not None and (
                cost + price + ctx.power.rest_that_fits(room, depth, ctx.power.peak(kind, row), node.ahead) > limit
            ):
                continue
            if judge is not None and not judge(row):
                continue
            part = table.part(row)
            self.chosen.append((part, price))
            with_part = (*node.items, BuildItem(part=part))
            if depth + 1 == len(ORDER):
                if self._passes(Build(items=with_part, assumptions=ctx.a)):
                    self._leaf(cost + price)
            else:
                self._node(depth + 1, cost + price, with_part, node.ahead)
            self.chosen.pop()

    def _ahead_mask(self, build: Build, kind: Kind, new: Kind, own: bool) -> np.ndarray:
        """The candidates of `kind` that add no error next to `build`: all rules at the level being chosen (`own`);
        further ahead, the rules that read the kind just chosen (`new`) but power, which the power pruning bounds
        (bounds.PowerRoom). The lists ahead were already narrowed by every rule at the levels above."""
        sub = self.ctx.cands.sub
        if own:
            return compatible_mask(build, kind, sub)
        table = sub.table(kind)
        mask = np.ones(len(table), dtype=bool)
        for rule in RULES:
            if kind in rule.reads and new in rule.reads and rule.vector is None:
                mask &= rule_mask(rule, build, table, kind in SINGLE)
        return mask

    def _passes(self, build: Build) -> bool:
        """A complete build the search accepts: no error in check(), and no strict warning or unknown."""
        report = check(build)
        if not report.ok:
            return False
        if self.ctx.strict.failures(report, build):
            self.ctx.stats.rejected += 1
            return False
        return True
