"""The two pruning layers the exact search gained with the break-even goal, as mixins of suggest.search.Search.

- PowerPruning: power as a shared resource (docs/suggest.md, "Power is a shared resource"): drop candidates that
  cannot fit under the PSU beside the lightest remaining parts, and bound the later kinds' cost by their cheapest
  part that still fits.
- EarliestBreakeven: the scan over GPU options for the goal BREAKEVEN, in the order of a lower bound on their day
  (suggest.breakeven), and the cost cap that turns the best day found into the most a completion may cost.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from rigplan.model.parts import Kind
from rigplan.suggest.bounds import BOXED_FAN_W, INF, PowerRoom, peak_w
from rigplan.suggest.breakeven import Breakeven, Score
from rigplan.suggest.found import Found, GpuOption

if TYPE_CHECKING:
    from collections.abc import Callable

    from rigplan.catalog.loader import Catalog


class PowerPruning:
    sub: Catalog  # the candidates (search.candidates)
    _peaks: dict[Kind, dict[int, float]]
    _peak_arrays: dict[Kind, np.ndarray]
    order: tuple[Kind, ...]

    def _peak(self, kind: Kind, row: int) -> float:
        cache = self._peaks.setdefault(kind, {})
        if row not in cache:
            cache[row] = peak_w(self.sub.table(kind).part(row))
        return cache[row]

    def _peak_array(self, kind: Kind) -> np.ndarray:
        """Every candidate's peak load of a kind, by row (numpy, for the per-node minimums and filters)."""
        arr = self._peak_arrays.get(kind)
        if arr is None:
            arr = self._peak_arrays[kind] = np.array(
                [self._peak(kind, r) for r in range(len(self.sub.table(kind)))], dtype=float
            )
        return arr

    def _power_room(self, depth: int, room: PowerRoom, ahead: list[list[tuple[float, int]]]) -> bool:
        """Drop this level's candidates that cannot fit under the PSU with the lightest part of every later kind
        (bounds.PowerRoom); False when none is left (or the lightest set already fails)."""
        need = []
        for d in range(depth, len(self.order)):
            peaks = self._peak_array(self.order[d])[[r for _, r in ahead[d]]]
            least = float(peaks.min()) if len(peaks) else INF
            if self.order[d] is Kind.COOLER and room.boxed_possible:
                least = min(least, BOXED_FAN_W)
            need.append(least)
        later = sum(need[1:])
        room.need = {depth + i: w for i, w in enumerate(need)}
        if room.over(need[0] + later):
            return False
        kind = self.order[depth]
        head = room.headroom() - later
        peaks = self._peak_array(kind)
        # Below the headroom a part fits for sure; only those near it take the exact test.
        ahead[depth] = [(p, r) for p, r in ahead[depth] if peaks[r] <= head or not room.over(float(peaks[r]) + later)]
        return bool(ahead[depth]) or (kind is Kind.COOLER and room.boxed_possible)

    def _rest_that_fits(
        self, room: PowerRoom, depth: int, extra_w: float, ahead: list[list[tuple[float, int]]]
    ) -> float:
        """A lower bound on what the kinds after `depth` cost once a part of extra_w is added, that knows about
        power: each later kind's cheapest candidate whose peak fits under the PSU beside the lightest part of every
        other later kind (a cooler: nothing when the CPU's own fan fits). INF: no completion fits. The plain bound
        (each kind's cheapest) misses that near the PSU's limit a cheap part with a fan leaves room only for a
        dearer one without."""
        key = (depth, extra_w)
        if key in room.rest_cache:
            return room.rest_cache[key]
        later = range(depth + 1, len(self.order))
        total = 0.0
        for d in later:
            others = sum(room.need[e] for e in later if e != d)
            price = INF
            if self.order[d] is Kind.COOLER and room.boxed_possible and not room.over(extra_w + others + BOXED_FAN_W):
                price = 0.0
            else:
                for p, row in ahead[d]:
                    if not room.over(extra_w + others + self._peak(self.order[d], row)):
                        price = p
                        break
            total += price
            if total == INF:
                break
        room.rest_cache[key] = total
        return total


class EarliestBreakeven:
    objective: Breakeven | None
    progress: Callable[[int, int], None] | None
    if TYPE_CHECKING:

        def timed(self, count: int, complete: Callable[..., Found | None], *args: Any) -> Found | None: ...

        def rest_floor(self, count: int, cap_usd: float, eager: bool = False) -> float: ...

        def _branch_and_bound(
            self, option: GpuOption, rest_cap: float, incumbent: Score | None = None
        ) -> Found | None: ...

    def _cap_for(self, option: GpuOption, score: Score, rest_cap: float, own_floor: float | None = None) -> float:
        """Goal BREAKEVEN: the most the non-GPU parts may cost for a build with this option to beat `score` (an
        equal day at a lower price included); own_floor: the electricity floor below a node."""
        assert self.objective is not None
        o = self.objective
        if math.isinf(score.days):  # renting always wins so far: a build that breaks even at all, or a cheaper one
            cap = max(o.cap_usd(option.part, option.count, option.throughput, o.horizon, own_floor), score.total_usd)
        else:
            cap = o.cap_usd(option.part, option.count, option.throughput, score.days, own_floor)
        return min(rest_cap, cap - option.cost_usd) + 1e-9

    @staticmethod
    def better(a: Score, b: Score | None) -> bool:
        """Earlier break-even first, then the lower price."""
        if b is None:
            return True
        if a.days == b.days or abs(a.days - b.days) <= 1e-9:
            return a.total_usd < b.total_usd - 1e-9
        return a.days < b.days

    def day_bound(self, o: GpuOption, total_usd: float) -> float:
        assert self.objective is not None
        return self.objective.bound(o.part, o.count, o.throughput, total_usd)

    def _earliest(self, options: list[GpuOption], cap: float, floor: float) -> Found | None:
        """Goal BREAKEVEN: options in the order of the earliest day they could break even (their GPUs plus the
        cheapest other parts, at the least power); the scan stops at the first that cannot beat the best found."""
        ranked = sorted(
            ((self.day_bound(o, o.cost_usd + floor), o.cost_usd, o.row, o) for o in options), key=lambda t: t[:3]
        )
        best: Found | None = None
        for n, (lb, _, _, o) in enumerate(ranked):
            if self.progress is not None and n % 50 == 0:
                self.progress(n, len(ranked))
            beaten = best is not None and best.score is not None
            if beaten and not self.better(Score(lb, None, o.cost_usd + floor), best.score):  # type: ignore[union-attr]
                if lb > best.score.days + 1e-9:  # type: ignore[union-attr]
                    break  # ranked by the bound: no later option can break even sooner
                continue
            # The bound for this GPU count (suggest.relaxed), once searched: over the budget, or no sooner.
            least = o.cost_usd + max(floor, self.rest_floor(o.count, cap))
            if least > cap + 1e-9:
                continue
            if beaten and not self.better(Score(self.day_bound(o, least), None, least), best.score):  # type: ignore[union-attr]
                continue
            found = self.timed(o.count, self._branch_and_bound, o, cap - o.cost_usd, best.score if best else None)
            if found is not None:
                best = found
        return best
