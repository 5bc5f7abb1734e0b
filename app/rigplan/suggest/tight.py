"""A workload that fits only tight (issue 37): with the expert's minimums on, a GPU option qualifies for "must fit
this workload" when the workload fills at most expert.FULL_SHARE (90 %) of each card's memory. When no build has
that headroom, the no-answer names the best build that fits tighter, with how full it runs, as the alternative the
user may take at their own risk (without the expert's minimums). It is never the answer itself: the search treats
every expert's minimum as a hard test, and an answer that may run out of memory on its first step is not one an
expert sells (docs/suggest.md, "Headroom for a workload")."""

from __future__ import annotations

from dataclasses import replace

from rigplan.suggest.expert import FULL_SHARE, fits_with_room
from rigplan.suggest.found import Found, GpuOption
from rigplan.suggest.search import Search
from rigplan.wording import money


def room_said(s: Search) -> str:
    """ " with 10 % headroom per card" when the search holds the workload to it, else ""."""
    return f" with {1 - FULL_SHARE:.0%} headroom per card" if s.minimums.fit_room else ""


def _left_out(s: Search, o: GpuOption) -> bool:
    """The headroom alone leaves this option out: the workload fits its cards, above FULL_SHARE of their memory."""
    need = s.q.fit.need(o.count) if s.q.fit is not None else None
    if need is None or not o.part.vram_gb:
        return False
    return not fits_with_room(need[0], o.part.vram_gb)


def tight_build(s: Search) -> Found | None:
    """The best build for the question among the options the headroom alone left out, within the budget (at any
    price for a question without one), every other minimum kept; None when the headroom left none out or none of
    them has a build."""
    if s.q.fit is None or not s.minimums.fit_room or not s.stats.tight_for_fit:
        return None
    loose = Search(s.catalog, s.a, replace(s.q, fit_room=False), perf=s.perf)
    tight = [o for o in loose.options if _left_out(loose, o)]
    return loose.best(options=tight) if tight else None


def tight_alternative(s: Search) -> str:
    """The tight build said for the no-answer ("" when there is none)."""
    found = tight_build(s)
    if found is None:
        return ""
    o, q = found.option, s.q
    need = q.fit.need(o.count) if q.fit is not None else None
    vram = o.part.vram_gb
    assert need is not None and vram  # the option was sized for its count and left out for its memory share
    where = f"within {money(q.currency, q.budget, 0)}" if q.budget is not None else "at any price"
    return (
        f"the best build {where} that fits it only tighter is {o.count}x {o.part.name} "
        f"({money(q.currency, s.from_usd(found.total_usd), 0)}, every other minimum met): {need[0]:.1f} GB per GPU "
        f"of the {vram:g} GB each card has, {need[0] / vram:.0%} full, too little left for the CUDA context and "
        "fragmentation; a build that full is answered only without the expert's minimums (--no-expert-minimums, "
        "which drops the others too), at your own risk"
    )
