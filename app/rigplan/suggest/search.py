"""Exact search for the best build: GPU options ranked by the goal, each completed by a cost-ordered branch and bound.

Why it is exact (docs/suggest.md):
- The goal (throughput, total VRAM) depends only on the GPUs (n identical cards of one catalog part). The options
  are tried best first; the first option with a valid completion within the budget wins, and options of equal value
  are all tried so the cheapest of them wins.
- For one option, the completion (board, CPU, memory, case, PSU, storage, cooler) is a depth-first branch and bound.
  At each level the candidates are the priced parts that `rules.compatible()` accepts next to the parts chosen so
  far, in price order. The bound is the cost so far plus the cheapest candidate of every later kind that fits the
  GPUs alone: a valid lower bound, so stopping the price-ordered scan at it never drops a cheaper build.
- Pruning by compatible() is sound because the rules are monotone: a part that adds an error next to a partial build
  adds it next to every completion of it (the wattage and wall rules only see the load grow). The final build is
  verified with `rules.check()`; tests/test_suggest_bruteforce.py holds the answers equal to brute force.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import compress

import numpy as np

from rigplan.catalog.loader import Catalog
from rigplan.costs.perf import PerfTable, gpu_speed, load_perf, multi_gpu
from rigplan.imports.user_prices import bundled_prices
from rigplan.model.assumptions import Assumptions
from rigplan.model.build import Build, BuildItem
from rigplan.model.common import Price
from rigplan.model.parts import Cpu, Gpu, Kind, Part
from rigplan.rules import check
from rigplan.rules.compat import SINGLE, compatible_mask
from rigplan.rules.context import open_air
from rigplan.rules.engine import RULES
from rigplan.rules.power import cpu_boost_w
from rigplan.rules.rule import rule_mask
from rigplan.suggest.bounds import INF, Bounds, PowerRoom, wall_feasible
from rigplan.suggest.breakeven import Breakeven, Score
from rigplan.suggest.candidates import candidates, psu_recommended
from rigplan.suggest.expert import Minimums, gpu_unknowns, stack_fails, strict_for
from rigplan.suggest.found import ORDER, Cancelled, Found, GpuOption, Stats, vendor_of
from rigplan.suggest.pricing import Pricing
from rigplan.suggest.pruning import EarliestBreakeven, PowerPruning
from rigplan.suggest.question import Goal, Question, SuggestError
from rigplan.suggest.relaxed import RestFloor

# Fields that do not change what the rules say about a GPU: GPUs that differ only in these share one completion.
_NOT_RULES = {"id", "name", "price", "manufacturer", "spec_source", "perf_source", "custom", "tdp_source"}


class Search(Pricing, PowerPruning, EarliestBreakeven, RestFloor):
    order = ORDER

    def __init__(
        self,
        catalog: Catalog,
        assumptions: Assumptions,
        question: Question,
        perf: PerfTable | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        only: frozenset[str] | None = None,
    ) -> None:
        """only: search these part ids alone (a reduced catalog, for the brute-force test). The vectorised filter
        caches per table object, so the search always runs on the catalog's own tables."""
        question.validate()
        self.catalog, self.a, self.q = catalog, assumptions, question
        self.perf = perf or load_perf(precision=assumptions.precision.value, workload=assumptions.workload.value)
        self.progress, self.cancelled = progress, cancelled
        self.stats = Stats()
        self.memo: dict[tuple[str, int], tuple[float, Found | None]] = {}
        self.failed_s: dict[int, float] = {}
        self.rate = self._budget_rate()
        self.only = only
        self.own: dict[str, Price] = dict(question.own_prices)
        self.bundled = bundled_prices(catalog)
        self.objective: Breakeven | None = None
        self.strict = strict_for(question)
        # The minimums every option shares (the fewest GPUs, no GPU memory): they narrow the lists once.
        self.minimums = Minimums.for_option(question, min(question.counts()), 0.0)
        self.rejected = 0  # complete builds check() passed that the strict verdicts turned down (a leaf test)
        if question.goal is Goal.BREAKEVEN and question.beat is not None:
            try:
                self.objective = Breakeven(question.beat, assumptions, self.perf)
            except ValueError as exc:
                raise SuggestError(str(exc)) from exc
        self.sub, self.lists = candidates(catalog, {k: self._priced(k) for k in ORDER})
        if question.platform_not:
            # Left out of the lists, not of the candidates' catalog: the other-platform runner-up then searches the
            # same candidate tables as the question itself, whose filter caches are warm.
            socks = self.sub.table(Kind.MOTHERBOARD).column("socket")
            drop = ("", question.platform_not)
            boards = self.lists[Kind.MOTHERBOARD]
            self.lists[Kind.MOTHERBOARD] = [(p, r) for p, r in boards if vendor_of(socks[r]) not in drop]
        self.options = self._gpu_options()
        cpus = self.sub.table(Kind.CPU)
        self._peaks: dict[Kind, dict[int, float]] = {}
        self._peak_arrays: dict[Kind, np.ndarray] = {}
        self._meets: dict[tuple[Minimums, Kind], list[tuple[float, int]]] = {}
        self.cpu_power_known = all(cpu_boost_w(cpus.part(r)) is not None for _, r in self.lists[Kind.CPU])  # type: ignore[arg-type]

    def _gpu_options(self) -> list[GpuOption]:
        table = self.catalog.table(Kind.GPU)
        prices = self._prices(Kind.GPU)
        forced = self._included(Kind.GPU)
        eff = self.a.scaling_desktop
        out = []
        for i, usd in enumerate(prices):
            if usd is None or (forced is not None and i not in forced) or (self.only and table.ids[i] not in self.only):
                continue
            gpu = table.part(i)
            assert isinstance(gpu, Gpu)
            if self.q.min_vram_gb and (gpu.vram_gb or 0) < self.q.min_vram_gb:
                self.stats.unknown_vram += gpu.vram_gb is None
                continue
            speed = gpu_speed(self.perf, gpu)
            if speed is None:
                self.stats.unknown_speed += 1
                continue
            if gpu_unknowns(gpu, self.strict.unknown):  # e.g. a hybrid card's radiator mount: not checked
                self.stats.missing_data_gpus += 1
                continue
            # The name is left out of the key but one rule reads it: open_air() looks up the product line by name.
            ws = open_air(gpu)
            sig = json.dumps({**gpu.model_dump(mode="json", exclude=_NOT_RULES), "ws": ws}, sort_keys=True)
            for n in self.q.counts():
                if stack_fails(gpu, n, self.strict):  # e.g. 3+ open-air cards packed together: fail in any build
                    self.stats.open_air_stacks += 1
                    continue
                if self.q.fit is not None:  # must fit the workload: memory per GPU on n GPUs (unknown: no)
                    need = self.q.fit.need(n)
                    if need is None or gpu.vram_gb is None or gpu.vram_gb < need[0]:
                        self.stats.too_small_for_fit += 1
                        continue
                vram = (gpu.vram_gb or 0.0) * n
                out.append(GpuOption(i, gpu, n, usd, speed.value * multi_gpu(self.perf, speed, n, eff)[0], vram, sig))
        if forced is not None and not out:
            raise SuggestError("the GPU you asked for has no price, no speed figure or too little memory")
        return out

    # -- one completion ----------------------------------------------------------------------------------------
    def complete(self, option: GpuOption, cap_usd: float) -> Found | None:
        """The cheapest valid build around `option` costing at most cap_usd in all, or None."""
        key = (option.signature, option.count)
        rest_cap = cap_usd - option.cost_usd
        hit = self.memo.get(key)
        if hit is not None:
            searched, found = hit
            if found is not None:
                rest = found.total_usd - found.option.cost_usd
                return self._rebase(found, option) if rest <= rest_cap + 1e-9 else None
            if rest_cap <= searched:
                return None
        if rest_cap < 0:
            return None
        found = self.timed(option.count, self._branch_and_bound, option, rest_cap)
        self.memo[key] = (rest_cap, found)
        return self._rebase(found, option) if found else None

    def _rebase(self, found: Found, option: GpuOption) -> Found:
        rest = found.total_usd - found.option.cost_usd
        return Found(option, found.parts, rest + option.cost_usd, own=self.own)

    def _branch_and_bound(self, option: GpuOption, rest_cap: float, incumbent: Score | None = None) -> Found | None:
        """The cheapest valid completion of `option` within rest_cap, or (goal BREAKEVEN) the one with the earliest
        break-even that beats `incumbent`."""
        self.stats.completions += 1
        sub = self.sub
        # The GPUs under one id for every option: the filter's caches are keyed by the facts a rule reads and the
        # parts' ids, so GPUs of other ids but equal facts (most SKUs of a chip, for most rules) share their masks.
        gpu_item = BuildItem(part=option.part.model_copy(update={"id": "suggest-gpus"}), quantity=option.count)
        base = Build(items=(gpu_item,), assumptions=self.a)
        need = Minimums.for_option(self.q, option.count, option.vram_gb)
        strict = self.strict
        lists: list[list[tuple[float, int]]] = []
        # Each kind's cheapest part that can go with these GPUs, the others' cheapest at all: when that is over the
        # cap, or a kind has no part left (four 3-slot cards fit no board), the completion ends before the rest of
        # the lists are built (most GPU options of a 4-GPU question end at the board).
        cheapest = [
            lst[0][0] if lst and k is not Kind.COOLER else 0.0 for k, lst in ((k, self.lists[k]) for k in ORDER)
        ]
        for d, kind in enumerate(ORDER):
            mask = compatible_mask(base, kind, sub)
            table = sub.table(kind)
            if strict.active:
                mask = strict.mask(base, table, kind in SINGLE, mask)
            fit = [(p, r) for p, r in self._meeting(need, kind) if mask[r]]
            if kind is Kind.PSU and strict.recommends and self.cpu_power_known:
                fit = psu_recommended(base, [*lists, fit, *(self.lists[k] for k in ORDER[d + 1 :])], sub, self._peak)
            if not fit and kind is not Kind.COOLER:
                return None
            lists.append(fit)
            if kind is not Kind.COOLER:
                cheapest[d] = fit[0][0]
            if sum(cheapest) > rest_cap + 1e-9:
                return None
        bound = Bounds(sub, lists)
        best: list[object] = [rest_cap + 1e-9, None, incumbent]  # [cost cap of the rest, parts, score]
        if incumbent is not None:
            best[0] = self._cap_for(option, incumbent, rest_cap)
        chosen: list[tuple[Part, float]] = []
        objective = self.objective

        def leaf(cost: float) -> None:
            if objective is None:
                if cost <= best[0]:  # type: ignore[operator]
                    best[0], best[1] = cost, tuple(chosen)
                return
            total = cost + option.cost_usd
            score = objective.score(Found(option, tuple(chosen), total, own=self.own).build(self.a), total)
            if self.better(score, best[2]):  # type: ignore[arg-type]
                best[0], best[1], best[2] = self._cap_for(option, score, rest_cap), tuple(chosen), score

        def rec(depth: int, cost: float, items: tuple[BuildItem, ...], lists: list[list[tuple[float, int]]]) -> None:
            # lists[d]: the candidates of ORDER[d] still possible, cheapest first. Look ahead: keep, for every kind
            # still to choose, only the parts compatible with what is chosen so far; the sum of their cheapest is a
            # lower bound on the rest (rules are monotone: a part that errors now errors in every completion).
            self.stats.nodes += 1
            self.stats.depth[depth] = self.stats.depth.get(depth, 0) + 1
            if self.cancelled is not None and self.cancelled():
                raise Cancelled
            build = Build(items=items, assumptions=self.a)
            ahead = list(lists)
            kind = ORDER[depth]
            # This level's own tests first: they are cheaper than the look-ahead and often leave nothing.
            if kind in (Kind.MEMORY, Kind.COOLER):  # the minimums that pair a part with the chosen CPU
                chosen_cpu = build.first(Kind.CPU)
                cpu_part = chosen_cpu if isinstance(chosen_cpu, Cpu) else None
                tab = sub.table(kind)
                ahead[depth] = [(p, r) for p, r in ahead[depth] if need.with_cpu(cpu_part, tab.part(r))]
            if not ahead[depth] and kind is not Kind.COOLER:
                return
            new = ORDER[depth - 1]  # the kind just chosen: only the rules that read it can change a verdict ahead
            for d in range(depth, len(ORDER)):
                # The strict verdicts (warnings and unknowns that fail a part) narrow the lists ahead too, so the
                # bound below counts the cheapest part that can really be chosen, not one the scan will refuse.
                mask = self._ahead_mask(build, ORDER[d], new, own=d == depth)
                rows = [r for _, r in ahead[d]]
                if strict.active:
                    within = np.zeros(len(mask), dtype=bool)
                    within[rows] = mask[rows]
                    mask = strict.mask(
                        build, sub.table(ORDER[d]), ORDER[d] in SINGLE, within, None if d == depth else new
                    )
                ahead[d] = list(compress(ahead[d], mask[rows].tolist()))
                if not ahead[d] and ORDER[d] is not Kind.COOLER:
                    return
            if ORDER[depth] is Kind.PSU and self.cpu_power_known:
                ahead[depth] = wall_feasible(build, ahead[depth], sub.table(Kind.PSU))
                if strict.recommends:  # the lightest CPU, kit and drive this board still allows
                    ahead[depth] = psu_recommended(build, ahead, sub, self._peak)
                if not ahead[depth]:
                    return
            room = PowerRoom(build, strict.recommends) if depth >= 2 and self.cpu_power_known else None
            if room is not None and room.ok and not self._power_room(depth, room, ahead):
                return
            powered = room is not None and room.ok
            cpu = build.first(Kind.CPU)
            # A cooler costs nothing until the CPU is chosen, and nothing when the CPU comes with one.
            boxed = cpu is None or (isinstance(cpu, Cpu) and bool(cpu.includes_cooler))
            mins = [
                (0.0 if boxed else (lst[0][0] if lst else INF)) if ORDER[d] is Kind.COOLER else lst[0][0]
                for d, lst in enumerate(ahead)
            ]
            rest = sum(mins[depth + 1 :])
            # Goal BREAKEVEN: the chosen parts' power tightens the cap below this node (docs/suggest.md).
            floor = objective.own_day_floor(build) if objective is not None and depth >= 2 else None

            def limit() -> float:
                if floor is None or best[2] is None:
                    return best[0]  # type: ignore[return-value]
                return min(best[0], self._cap_for(option, best[2], rest_cap, floor))  # type: ignore[arg-type,call-overload]

            if cost + rest + mins[depth] > limit():
                return
            if ORDER[depth] is Kind.COOLER and cpu is not None and boxed and self._passes(build):
                leaf(cost)  # the boxed cooler will do
            table = sub.table(ORDER[depth])
            # The strict verdicts (warnings and unknowns that fail a part) are asked of each candidate as the scan
            # reaches it: most of a level's candidates are never reached, the bound stops the scan first.
            judge = strict.judge(build, table, kind in SINGLE, power_only=True) if strict.active else None
            for price, row in ahead[depth]:
                if cost + price + rest > limit():
                    break
                if powered:  # this part's watts may leave room only for dearer parts after it
                    assert room is not None
                    if cost + price + self._rest_that_fits(room, depth, self._peak(ORDER[depth], row), ahead) > limit():
                        continue
                if judge is not None and not judge(row):
                    continue
                part = table.part(row)
                chosen.append((part, price))
                with_part = (*items, BuildItem(part=part))
                if depth + 1 == len(ORDER):
                    if self._passes(Build(items=with_part, assumptions=self.a)):
                        leaf(cost + price)
                else:
                    rec(depth + 1, cost + price, with_part, ahead)
                chosen.pop()

        # The board level: boards in the order of their own lower bound, so the scan stops at the first too dear.
        boards = sorted((bound.with_board(r, p), p, r) for p, r in lists[0])
        board_table = sub.table(Kind.MOTHERBOARD)
        for lb, price, row in boards:
            if lb[0] > best[0]:  # type: ignore[operator]
                break
            part = board_table.part(row)
            chosen.append((part, price))
            rec(1, price, (gpu_item, BuildItem(part=part)), lists)
            chosen.pop()
        if best[1] is None:
            return None
        parts: tuple[tuple[Part, float], ...] = best[1]  # type: ignore[assignment]
        if objective is not None:
            score: Score = best[2]  # type: ignore[assignment]
            return Found(option, parts, score.total_usd, score=score, own=self.own)
        return Found(option, parts, float(best[0]) + option.cost_usd, own=self.own)  # type: ignore[arg-type]

    def _meeting(self, need: Minimums, kind: Kind) -> list[tuple[float, int]]:
        """The candidates of a kind that meet the per-part minimums for an option (cached: options share them)."""
        key = (need, kind)
        hit = self._meets.get(key)
        if hit is None:
            table = self.sub.table(kind)
            hit = self._meets[key] = [(p, r) for p, r in self.lists[kind] if need.part_ok(table.part(r))]
        return hit

    def _ahead_mask(self, build: Build, kind: Kind, new: Kind, own: bool) -> np.ndarray:
        """The candidates of `kind` that add no error next to `build`: all rules at the level being chosen (`own`);
        further ahead, the rules that read the kind just chosen (`new`) but power, which the power pruning below
        bounds (bounds.PowerRoom). The lists ahead were already narrowed by every rule at the levels above."""
        if own:
            return compatible_mask(build, kind, self.sub)
        table = self.sub.table(kind)
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
        if self.strict.failures(report):
            self.rejected += 1
            return False
        return True

    # -- the goal ----------------------------------------------------------------------------------------------
    def value(self, o: GpuOption) -> tuple[float, float]:
        """What the goal maximises, best first: (main value, second value)."""
        if self.q.goal is Goal.VRAM:
            return (o.vram_gb, o.throughput)
        return (o.throughput, o.vram_gb)

    def meets(self, o: GpuOption) -> bool:
        if self.q.goal is Goal.CHEAPEST_THROUGHPUT:
            return o.throughput >= (self.q.target or 0) - 1e-9
        if self.q.goal is Goal.CHEAPEST_VRAM:
            return o.vram_gb >= (self.q.target or 0) - 1e-9
        return True

    def best(self, options: list[GpuOption] | None = None, cap_usd: float | None = None) -> Found | None:
        """The best valid build among `options` (all by default) within cap_usd (the budget by default)."""
        options = self.options if options is None else options
        cap = self.budget_usd() if cap_usd is None else cap_usd
        floor = self.floor_usd()
        if self.q.goal in (Goal.CHEAPEST_THROUGHPUT, Goal.CHEAPEST_VRAM):
            return self._cheapest([o for o in options if self.meets(o)], cap, floor)
        if self.q.goal is Goal.BREAKEVEN:
            return self._earliest(options, cap, floor)
        ranked = sorted(options, key=lambda o: (-self.value(o)[0], -self.value(o)[1], o.cost_usd, o.row))
        best: Found | None = None
        for n, o in enumerate(ranked):
            if self.progress is not None and n % 50 == 0:
                self.progress(n, len(ranked))
            if best is not None and self.value(o) < self.value(best.option):
                break
            limit = cap if best is None else min(cap, best.total_usd)
            if o.cost_usd + max(floor, self.rest_floor(o.count, limit)) > limit + 1e-9:
                continue
            found = self.complete(o, limit)
            if found is not None and (best is None or found.total_usd < best.total_usd - 1e-9):
                best = found
        return best

    def _cheapest(self, options: list[GpuOption], cap: float, floor: float) -> Found | None:
        best: Found | None = None
        for o in sorted(options, key=lambda o: (o.cost_usd, -o.throughput, o.row)):
            limit = cap if best is None else min(cap, best.total_usd)
            if o.cost_usd + floor > limit + 1e-9:
                break  # sorted by GPU cost: no later option can be cheaper in all
            if o.cost_usd + self.rest_floor(o.count, limit) > limit + 1e-9:
                continue
            found = self.complete(o, limit)
            if found is not None and (best is None or found.total_usd < best.total_usd - 1e-9):
                best = found
        return best

    def floor_usd(self) -> float:
        """The cheapest the non-GPU parts can cost (each kind's cheapest priced part): a bound for every option."""
        if any(not lst for k, lst in self.lists.items() if k is not Kind.COOLER):
            return float("inf")
        return sum(lst[0][0] for k, lst in self.lists.items() if k is not Kind.COOLER)
