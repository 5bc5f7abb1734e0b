"""The balance stage's RAM step taken toward its target (issue 37): when no build within the budget has the full
system RAM the step asks (the larger of the RAM asked and twice the GPUs' memory, Puget Systems: "at least double the
total VRAM"), an expert still buys the most RAM the money reaches, above what the build has, swapping the board when
the kit needs another one, and says that the full target is out of reach and why (suggest.balance, docs/suggest.md).

The capacities tried are the ones priced kits offer (a build holds one kit), above the build's kit and below the full
target. The exact cheapest build with at least c GB (Search.complete) costs no less as c grows (a build with more RAM
has every smaller minimum too), so the capacities within the money are the smaller ones up to a line: a bisection
over the sorted capacities finds the largest reachable one with the same answer as trying them largest first, in
log2(n) searches instead of n. The capacities stop at 256 GB on the desktop platforms (AM5, LGA 1700, LGA 1851):
their boards hold at most 256 GB in four 64 GB UDIMMs as the makers' specifications (max_memory_gb in the catalog)
state; 384 GB needs a workstation platform's eight channels.

What "met" means: a partial step is not the essential. Its Step stays `bought=False` (balance.Step.toward says what
was bought toward it), so the trade for the essentials (answer._trade, spending.short_essential) and every reader of
`bought` see the full target missing, as before; only the build and the minimums the later steps keep change."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rigplan.model.parts import Kind, Memory
from rigplan.suggest.expert import Minimums
from rigplan.suggest.found import Found

if TYPE_CHECKING:
    from rigplan.suggest.search import Search


@dataclass(frozen=True)
class Toward:
    """What a RAM step not bought in full bought toward its target."""

    gb: float  # the capacity bought (the build's kit now)
    target_gb: float  # the step's full target
    usd: float  # what it added to the build (0: a kit swapped at the same price)
    next_gb: float | None  # the next priced capacity below the target, which no build within the budget has

    def said(self, what: str) -> str:
        """The step's text with the capacity bought: "system RAM >= 384 GB (...)" -> "system RAM 256 GB toward 384 GB
        (...)"."""
        full = f"{self.target_gb:g} GB"
        said = what.replace(f">= {full}", f"{self.gb:g} GB toward {full}", 1)
        return said if said != what else f"system RAM {self.gb:g} GB toward {what}"  # never ">= target" as bought


def kit_gb(found: Found) -> float:
    """The capacity of found's memory kit (0: no kit, or its capacity not known)."""
    return next((p.capacity_gb or 0.0 for p, _ in found.parts if isinstance(p, Memory)), 0.0)


def capacities(s: Search, above: float, below: float) -> list[float]:
    """The capacities the priced candidate kits offer strictly between `above` and `below`, ascending."""
    table = s.cands.sub.table(Kind.MEMORY)
    sizes = {getattr(table.part(row), "capacity_gb", None) for _, row in s.cands.lists[Kind.MEMORY]}
    return sorted(gb for gb in sizes if gb is not None and above + 1e-9 < gb < below - 1e-9)


def toward(
    s: Search, found: Found, need: Minimums, trial: Minimums, reach: Callable[[Minimums], Found | None]
) -> tuple[Found, Minimums, Toward] | None:
    """The largest capacity below trial's RAM that a build within the budget reaches (reach: the step's swap or exact
    search under the minimums, None when none within the budget), above found's kit: (that build, the minimums with
    its RAM, what was bought), or None when no capacity above the build's is within reach."""
    now = max(kit_gb(found), need.ram_gb)
    sizes = capacities(s, now, trial.ram_gb)
    lo, hi = 0, len(sizes)  # sizes[:lo] are known within reach (the smaller ones, by monotony), sizes[hi:] are not
    best: tuple[Found, Minimums] | None = None
    while lo < hi:
        mid = (lo + hi) // 2
        want = replace(need, ram_gb=sizes[mid])
        got = reach(want)
        if got is None:
            hi = mid
        else:
            best, lo = (got, want), mid + 1
    if best is None:
        return None
    got, want = best
    nxt = sizes[lo] if lo < len(sizes) else None
    return got, want, Toward(kit_gb(got), trial.ram_gb, got.total_usd - found.total_usd, nxt)
