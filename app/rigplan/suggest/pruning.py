"""Power as a shared resource (docs/suggest.md, "Power is a shared resource"): the power pruner the branch and bound
is given. It drops candidates that cannot fit under the PSU beside the lightest remaining parts, and bounds the later
kinds' cost by their cheapest part that still fits. Its peak-load caches belong to the candidate catalog it is made
for (one array per kind table)."""

from __future__ import annotations

import numpy as np

from rigplan.catalog.loader import Catalog
from rigplan.model.parts import Kind
from rigplan.suggest.bounds import BOXED_FAN_W, INF, PowerRoom, peak_w
from rigplan.suggest.found import ORDER


class PowerPruner:
    """The peak loads of a candidate catalog's parts, and the pruning that uses them (one pruner per catalog)."""

    def __init__(self, sub: Catalog) -> None:
        self.sub = sub
        self.order = ORDER
        # One array per kind table: every candidate's peak load (W), by row, built on first use.
        self._peaks: dict[Kind, np.ndarray] = {}

    def peak(self, kind: Kind, row: int) -> float:
        return float(self.peaks(kind)[row])

    def peaks(self, kind: Kind) -> np.ndarray:
        """Every candidate's peak load of a kind, by row (numpy, for the per-node minimums and filters)."""
        arr = self._peaks.get(kind)
        if arr is None:
            table = self.sub.table(kind)
            arr = self._peaks[kind] = np.array([peak_w(table.part(r)) for r in range(len(table))], dtype=float)
        return arr

    def power_room(self, depth: int, room: PowerRoom, ahead: list[list[tuple[float, int]]]) -> bool:
        """Drop this level's candidates that cannot fit under the PSU with the lightest part of every later kind
        (bounds.PowerRoom); False when none is left (or the lightest set already fails)."""
        need = []
        for d in range(depth, len(self.order)):
            peaks = self.peaks(self.order[d])[[r for _, r in ahead[d]]]
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
        peaks = self.peaks(kind)
        # Below the headroom a part fits for sure; only those near it take the exact test.
        ahead[depth] = [(p, r) for p, r in ahead[depth] if peaks[r] <= head or not room.over(float(peaks[r]) + later)]
        return bool(ahead[depth]) or (kind is Kind.COOLER and room.boxed_possible)

    def rest_that_fits(
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
                    if not room.over(extra_w + others + self.peak(self.order[d], row)):
                        price = p
                        break
            total += price
            if total == INF:
                break
        room.rest_cache[key] = total
        return total
