"""The answer with its reasons: what binds, what more money would buy, runners-up with another GPU count."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from rigplan.catalog.loader import Catalog
from rigplan.model.assumptions import Assumptions
from rigplan.model.build import Build
from rigplan.suggest.question import Goal, Question, SuggestError
from rigplan.suggest.search import Found, Search

NEXT_STEPS = (100.0, 500.0)


@dataclass(frozen=True)
class Alternative:
    why: str  # "2 GPUs", "$100 more"
    found: Found


@dataclass
class Suggestion:
    question: Question
    found: Found
    build: Build
    currency: str
    total: float  # in `currency`
    binding: str  # "budget", "gpu count", "wall circuit", "catalog"
    binding_text: str
    next_steps: list[tuple[float, Alternative | None]] = field(default_factory=list)
    runners_up: list[Alternative] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


def money(amount: float, currency: str) -> str:
    return f"${amount:,.0f}" if currency == "USD" else f"{amount:,.0f} {currency}"


def describe(found: Found, s: Search) -> str:
    o = found.option
    return (
        f"{o.count}x {o.part.name}: {o.throughput:.2f} V100-equivalents, {o.vram_gb:g} GB GPU memory, "
        f"{money(s.from_usd(found.total_usd), s.q.currency)}"
    )


def _gpus(n: int | None) -> str:
    return "" if n is None else f"{n}-GPU "


def suggest(
    catalog: Catalog,
    assumptions: Assumptions,
    question: Question,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    explain: bool = True,
) -> Suggestion:
    """The best build for the question, explained. Raises SuggestError (one line) when nothing qualifies."""
    started = time.perf_counter()
    s = Search(catalog, assumptions, question, progress=progress, cancelled=cancelled)
    found = s.best()
    if found is None:
        raise SuggestError(_why_none(s))
    total = s.from_usd(found.total_usd)
    sug = Suggestion(question, found, found.build(assumptions), question.currency, total, "", "")
    sug.notes = _notes(s)
    if explain:
        sug.binding, sug.binding_text = _binding(s, found)
        if question.budget is not None and question.goal in (Goal.THROUGHPUT, Goal.VRAM):
            for extra in NEXT_STEPS:
                better = s.best(cap_usd=s.to_usd(question.budget + extra))
                step = better if better and s.value(better.option) > s.value(found.option) else None
                sug.next_steps.append(
                    (extra, Alternative(f"{money(extra, question.currency)} more", step) if step else None)
                )
        sug.runners_up = _runners_up(s, found)
    sug.seconds = time.perf_counter() - started
    return sug


def _why_none(s: Search) -> str:
    q = s.q
    what = f"no priced {_gpus(q.gpus)}build"
    if q.min_vram_gb:
        what += f" with {q.min_vram_gb:g} GB per GPU"
    if q.goal is Goal.CHEAPEST_THROUGHPUT:
        what += f" reaching {q.target:g} V100-equivalents"
    elif q.goal is Goal.CHEAPEST_VRAM:
        what += f" with {q.target:g} GB of GPU memory"
    cheapest = Search(s.catalog, s.a, replace(q, budget=None, goal=Goal.CHEAPEST_VRAM, target=1e-9)).best(
        options=[o for o in s.options if s.meets(o)]
    )
    if cheapest is None:
        return f"{what} passes the checks (with these constraints and assumptions)"
    budget = money(q.budget or 0, q.currency)
    return f"{what} fits {budget}: the cheapest is {money(s.from_usd(cheapest.total_usd), q.currency)}"


def _binding(s: Search, found: Found) -> tuple[str, str]:
    q = s.q
    if q.goal in (Goal.CHEAPEST_THROUGHPUT, Goal.CHEAPEST_VRAM):
        return "target", "the cheapest build that reaches the target; the budget is not what limits it"
    better = [o for o in s.options if s.value(o) > s.value(found.option)]
    if not better:
        return "catalog", "nothing in the catalog's priced parts does better under these constraints"
    cheapest = s._cheapest(better, float("inf"), s.floor_usd())
    if cheapest is not None:
        return "budget", f"the next step up costs {describe(cheapest, s)}"
    if q.gpus is not None:
        return "gpu count", f"more would need more than {q.gpus} GPU{'s' if q.gpus > 1 else ''}"
    wall = s.a.model_copy(update={"wall_voltage": 240.0, "wall_amps": 30.0})
    if Search(s.catalog, wall, replace(q, budget=None)).best(options=better, cap_usd=float("inf")):
        return "wall circuit", (
            f"a faster build draws more than a {s.a.wall_voltage:g} V / {s.a.wall_amps:g} A circuit carries"
        )
    return "checks", "no faster GPU set passes the checks in any priced build (slots, power, fit)"


def _runners_up(s: Search, found: Found) -> list[Alternative]:
    out = []
    if s.q.goal in (Goal.THROUGHPUT, Goal.VRAM) and s.q.gpus is None:
        for n in s.q.counts():
            if n == found.option.count:
                continue
            alt = s.best(options=[o for o in s.options if o.count == n])
            if alt is not None:
                out.append(Alternative(f"{n} GPU{'s' if n > 1 else ''}", alt))
    return sorted(out, key=lambda a: tuple(-v for v in s.value(a.found.option)))[:3]


def _notes(s: Search) -> list[str]:
    st = s.stats
    out = [f"{sum(st.unpriced.values()):,} catalog parts have no price and were skipped"]
    if st.unknown_speed:
        out.append(f"{st.unknown_speed} priced GPUs have no speed figure and were skipped (never taken as speed 1)")
    out.append("a build holds identical GPUs, one memory kit and one drive (docs/suggest.md)")
    return out
