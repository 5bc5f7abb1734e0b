"""Exact search for the best build: GPU options ranked by the goal, each completed by a cost-ordered branch and bound.

Why it is exact (docs/suggest.md):
- The goal (throughput, total VRAM) depends only on the GPUs (n identical cards of one catalog part). The options
  are tried best first; the first option with a valid completion within the budget wins, and options of equal value
  are all tried so the cheapest of them wins.
- For one option, the completion (board, CPU, memory, case, PSU, storage, cooler) is a depth-first branch and bound
  (suggest.complete), sound because the rules are monotone; tests/test_suggest_bruteforce.py holds the answers
  equal to brute force.

The search is composed, not mixed in: it is given (or builds, from the question) its budget (pricing.Budget), its
candidates (complete.Candidates), the power pruner (pruning.PowerPruner), the bound per GPU count
(relaxed.RestFloor) and the strictness (expert.Strict); each completion is given its objective and incumbent.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from rigplan.catalog.loader import Catalog
from rigplan.costs.perf import PerfTable, gpu_speed, load_perf, multi_gpu
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Gpu, Kind
from rigplan.rules import check
from rigplan.rules.context import open_air
from rigplan.rules.power import cpu_boost_w
from rigplan.suggest.breakeven import Breakeven, Score, better
from rigplan.suggest.candidates import candidates, most_x16
from rigplan.suggest.complete import Candidates, Completion, Context
from rigplan.suggest.expert import FULL_SHARE, Minimums, fits_with_room, gpu_unknowns, stack_fails, strict_for
from rigplan.suggest.found import CURRENT_FROM_USD, ORDER, Cancelled, Found, GpuOption, Stats, is_current, vendor_of
from rigplan.suggest.pricing import Budget, Pricing
from rigplan.suggest.pruning import PowerPruner
from rigplan.suggest.question import Goal, Question, SuggestError
from rigplan.suggest.relaxed import RestFloor

__all__ = ["Cancelled", "Found", "Search"]

# Fields that do not change what the rules say about a GPU: GPUs that differ only in these share one completion.
_NOT_RULES = {"id", "name", "price", "manufacturer", "spec_source", "perf_source", "custom", "tdp_source", "inferred"}


class Search:
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
        self.progress = progress
        self.stats = Stats()
        self.budget = Budget.of(question, assumptions)
        self.strict = strict_for(question)
        # The minimums every option shares (the fewest GPUs, no GPU memory): they narrow the lists once.
        self.minimums = Minimums.for_option(question, min(question.counts()), 0.0)
        self.pricing = Pricing(catalog, assumptions, question, self.minimums, self.stats, only)
        self.objective: Breakeven | None = None
        if question.goal is Goal.BREAKEVEN and question.beat is not None:
            try:
                self.objective = Breakeven(question.beat, assumptions, self.perf)
            except ValueError as exc:
                raise SuggestError(str(exc)) from exc
        sub, lists = candidates(catalog, {k: self.pricing.priced(k) for k in ORDER})
        if question.platform_not:
            # Left out of the lists, not of the candidates' catalog: the other-platform runner-up then searches the
            # same candidate tables as the question itself, whose filter caches are warm.
            socks = sub.table(Kind.MOTHERBOARD).column("socket")
            drop = ("", question.platform_not)
            lists[Kind.MOTHERBOARD] = [(p, r) for p, r in lists[Kind.MOTHERBOARD] if vendor_of(socks[r]) not in drop]
        # An expert's judgement: with the minimums off, or without a budget (the cheapest-... goals), every platform.
        self.older_platforms = (
            question.older_platforms
            if question.older_platforms is not None
            else not question.expert or question.budget is None or self.budget.usd() < CURRENT_FROM_USD - 1e-9
        )
        if not self.older_platforms:  # left out of the lists, as above: the candidate tables stay shared
            for kind in (Kind.MOTHERBOARD, Kind.CPU):
                socks = sub.table(kind).column("socket")
                lists[kind] = [(p, r) for p, r in lists[kind] if is_current(socks[r])]
        cpus = sub.table(Kind.CPU)
        known = all(cpu_boost_w(cpus.part(r)) is not None for _, r in lists[Kind.CPU])  # type: ignore[arg-type]
        self.cands = Candidates(sub, lists, known)
        self.ctx = Context(
            assumptions,
            self.cands,
            self.strict,
            PowerPruner(sub),
            self.stats,
            self.pricing.own,
            self.strict.recommends,
            cancelled,
        )
        self.options = self._gpu_options()
        # Per (GPU facts, count, minimums): the cap a cost-ordered completion was searched under and what it found.
        self.memo: dict[tuple[str, int, Minimums], tuple[float, Found | None]] = {}
        self.rest_floor = RestFloor(self.options, self.strict.unknown, self.complete)
        self._most_x16: tuple[int | None] | None = None

    # -- what the search is given, for the explanation -----------------------------------------------------------
    @property
    def own(self) -> dict:  # type: ignore[type-arg]
        return self.pricing.own

    @property
    def lists(self) -> dict[Kind, list[tuple[float, int]]]:
        return self.cands.lists

    def to_usd(self, amount: float) -> float:
        return self.budget.to_usd(amount)

    def from_usd(self, amount: float) -> float:
        return self.budget.from_usd(amount)

    def budget_usd(self) -> float:
        return self.budget.usd()

    def _gpu_options(self) -> list[GpuOption]:
        table = self.catalog.table(Kind.GPU)
        prices = self.pricing.prices(Kind.GPU)
        forced = self.pricing.included(Kind.GPU)
        eff = self.a.scaling_desktop
        out = []
        for i, usd in enumerate(prices):
            if (
                usd is None
                or (forced is not None and i not in forced)
                or (self.pricing.only and table.ids[i] not in self.pricing.only)
            ):
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
                    if self.minimums.fit_room and not fits_with_room(need[0], gpu.vram_gb):
                        self.stats.tight_for_fit += 1  # fits, but fills more than FULL_SHARE of each card
                        continue
                vram = (gpu.vram_gb or 0.0) * n
                out.append(GpuOption(i, gpu, n, usd, speed.value * multi_gpu(self.perf, speed, n, eff)[0], vram, sig))
        if forced is not None and not out:
            if self.stats.tight_for_fit:  # it fits the workload, only without the expert's headroom
                raise SuggestError(
                    f"the GPU you asked for fits the workload only above {FULL_SHARE:.0%} of its memory (the "
                    f"expert's minimum leaves {1 - FULL_SHARE:.0%} for the CUDA context and fragmentation; "
                    "--no-expert-minimums drops it)"
                )
            raise SuggestError("the GPU you asked for has no price, no speed figure or too little memory")
        return out

    # -- one completion ----------------------------------------------------------------------------------------
    def complete(self, option: GpuOption, cap_usd: float, need: Minimums | None = None) -> Found | None:
        """The cheapest valid build around `option` costing at most cap_usd in all, or None (need: minimums above
        the question's for this option, the balance stage's)."""
        need = need or Minimums.for_option(self.q, option.count, option.vram_gb, option.part)
        key = (option.signature, option.count, need)
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
        found = self._run(option, rest_cap, need)
        self.memo[key] = (rest_cap, found)
        return self._rebase(found, option) if found else None

    def _run(
        self,
        option: GpuOption,
        rest_cap: float,
        need: Minimums,
        objective: Breakeven | None = None,
        incumbent: Score | None = None,
    ) -> Found | None:
        """One branch and bound; its nodes count toward the count's patience when it finds nothing."""
        completion = Completion(self.ctx, option, rest_cap, need, objective, incumbent)
        found = completion.run()
        if option.row >= 0:  # the loosest card's own completion is not a fruitless completion of a real option
            self.rest_floor.spent(option.count, completion.nodes + 1, found)
        return found

    def accepts(self, found: Found) -> bool:
        """A complete build the search would take: no error in check(), no strict warning or unknown."""
        build = found.build(self.a)
        report = check(build)
        return report.ok and not self.strict.failures(report, build)

    def _rebase(self, found: Found, option: GpuOption) -> Found:
        rest = found.total_usd - found.option.cost_usd
        return Found(option, found.parts, rest + option.cost_usd, own=self.own)

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
        options = self.placeable(self.options if options is None else options)
        cap = self.budget.usd() if cap_usd is None else cap_usd
        floor = self.floor_usd()
        if self.q.goal in (Goal.CHEAPEST_THROUGHPUT, Goal.CHEAPEST_VRAM):
            return self.cheapest([o for o in options if self.meets(o)], cap, floor)
        if self.q.goal is Goal.BREAKEVEN:
            return self.earliest(options, cap, floor)
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

    def placeable(self, options: list[GpuOption]) -> list[GpuOption]:
        """The options whose count some priced board that fits the asked cases has x16 slots for (the others have no
        build: blocker.most_x16; all of them with missing data allowed)."""
        if self._most_x16 is None:
            self._most_x16 = (most_x16(self.cands.sub, self.cands.lists, self.q.allow_missing_data),)
        most = self._most_x16[0]
        return options if most is None else [o for o in options if o.count <= most]

    def cheapest(self, options: list[GpuOption], cap: float, floor: float) -> Found | None:
        best: Found | None = None
        for o in sorted(self.placeable(options), key=lambda o: (o.cost_usd, -o.throughput, o.row)):
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
        if any(not lst for k, lst in self.cands.lists.items() if k is not Kind.COOLER):
            return float("inf")
        return sum(lst[0][0] for k, lst in self.cands.lists.items() if k is not Kind.COOLER)

    def day_bound(self, o: GpuOption, total_usd: float) -> float:
        assert self.objective is not None
        return self.objective.day_bound(o, total_usd)

    def earliest(self, options: list[GpuOption], cap: float, floor: float) -> Found | None:
        """Goal BREAKEVEN: options in the order of the earliest day they could break even (their GPUs plus the
        cheapest other parts, at the least power); the scan stops at the first that cannot beat the best found."""
        objective = self.objective
        assert objective is not None
        ranked = sorted(
            ((objective.day_bound(o, o.cost_usd + floor), o.cost_usd, o.row, o) for o in options), key=lambda t: t[:3]
        )
        best: Found | None = None
        for n, (lb, _, _, o) in enumerate(ranked):
            if self.progress is not None and n % 50 == 0:
                self.progress(n, len(ranked))
            score = best.score if best is not None else None
            if score is not None and not better(Score(lb, None, o.cost_usd + floor), score):
                if lb > score.days + 1e-9:
                    break  # ranked by the bound: no later option can break even sooner
                continue
            # The bound for this GPU count (suggest.relaxed), once searched: over the budget, or no sooner.
            least = o.cost_usd + max(floor, self.rest_floor(o.count, cap))
            if least > cap + 1e-9:
                continue
            if score is not None and not better(Score(objective.day_bound(o, least), None, least), score):
                continue
            need = Minimums.for_option(self.q, o.count, o.vram_gb, o.part)
            found = self._run(o, cap - o.cost_usd, need, objective, score)
            if found is not None:
                best = found
        return best
