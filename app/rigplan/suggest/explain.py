"""The answer with its reasons: what binds, what more money would buy, runners-up with another GPU count."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from rigplan.catalog.loader import Catalog
from rigplan.model.assumptions import Assumptions
from rigplan.model.build import Build, ChartOffer
from rigplan.rules import check
from rigplan.rules.findings import Report, Severity
from rigplan.suggest.bounds import INF
from rigplan.suggest.expert import STACK_RULES, Minimums
from rigplan.suggest.found import GpuOption
from rigplan.suggest.question import Goal, Question, SuggestError
from rigplan.suggest.search import Found, Search
from rigplan.wording import BreakEven, money, plural

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
    beat_text: str = ""  # goal BREAKEVEN: when the build breaks even against the offer
    report: Report | None = None  # check() of the final build: what the Findings panel will show
    minimums: list[str] = field(default_factory=list)  # the minimums the answer was held to, said
    fit_text: str = ""  # must fit a workload: which, and its memory per GPU against the GPU's

    @property
    def check_text(self) -> str:
        """Exactly what check() shows for the build: "passes every check", or "2 warnings: ...", and what it could
        not check."""
        return check_text(self.report) if self.report is not None else ""

    @property
    def breakeven_days(self) -> float | None:
        sc = self.found.score
        return None if sc is None or math.isinf(sc.days) else sc.days


def check_text(report: Report) -> str:
    """What a check() report shows, in one sentence the Findings panel cannot contradict."""
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    warnings = [f for f in report.findings if f.severity is Severity.WARNING]
    if errors:  # never for a suggestion (the search verifies it), said all the same if it happened
        head = f"{plural(len(errors), 'error')}: " + "; ".join(f.message for f in errors)
    elif warnings:
        head = f"{plural(len(warnings), 'warning')}: " + "; ".join(f"{f.rule}: {f.message}" for f in warnings)
    else:
        head = "passes every check (no errors, no warnings)"
    if report.not_checked:
        rules = sorted({n.rule for n in report.not_checked})
        head += f"; not checked ({len(rules)}): " + "; ".join(
            f"{r}: {next(n.reason for n in report.not_checked if n.rule == r)}" for r in rules
        )
    return head


def fit_text(q: Question, found: Found) -> str:
    """Which workload the build fits and the memory per GPU it needs there ("" without one)."""
    if q.fit is None:
        return ""
    o = found.option
    need = q.fit.need(o.count)
    if need is None:  # never: the search takes only counts the table sizes
        return f"fits {q.fit.label}: not sized for {o.count} GPUs"
    gb, how = need
    spread = "" if o.count == 1 else f", {how} across {o.count} GPUs"
    return f"fits {q.fit.label}: {gb:.1f} GB per GPU of the {o.part.vram_gb:g} GB each card has{spread}"


def breakeven_text(found: Found, s: Search) -> str:
    """When owning this build beats renting the offer, in the cost model's terms ("" for other goals)."""
    sc, offer = found.score, s.q.beat
    if sc is None or offer is None:
        return ""
    if math.isinf(sc.days):
        return f"never breaks even against {offer.id} within {s.a.horizon_years:g} years"
    if sc.status is BreakEven.AT_HORIZON_WITH_RESALE:
        return f"breaks even against {offer.id} only at the {s.a.horizon_years:g}-year horizon, with resale"
    months = sc.days / (365.25 / 12)
    hours = sc.days * s.a.hours_per_day
    return (
        f"breaks even against {offer.id} after {sc.days:,.0f} days ({months:.1f} months; "
        f"{hours:,.0f} hours of work at {s.a.hours_per_day:g} h a day)"
    )


def describe(found: Found, s: Search) -> str:
    o = found.option
    text = (
        f"{o.count}x {o.part.name}: {o.throughput:.2f} V100-equivalents, {o.vram_gb:g} GB GPU memory, "
        f"{money(s.q.currency, s.from_usd(found.total_usd), 0)}"
    )
    be = breakeven_text(found, s)
    return f"{text}; {be}" if be else text


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
    if found.score is not None and math.isinf(found.score.days):
        raise SuggestError(_never(s, found))
    total = s.from_usd(found.total_usd)
    build = found.build(assumptions)
    if question.beat is not None:  # the chart of the suggested build shows the offer it was chosen to beat
        build = build.model_copy(
            update={"comparison": (ChartOffer(offer=question.beat.id, pricing=assumptions.pricing),)}
        )
    sug = Suggestion(question, found, build, question.currency, total, "", "")
    sug.report = check(build)
    sug.minimums = Minimums.for_option(question, found.option.count, found.option.vram_gb).lines()
    sug.notes = _notes(s)
    if platform_note(s, found):
        sug.notes.insert(0, platform_note(s, found))
    sug.beat_text = breakeven_text(found, s)
    sug.fit_text = fit_text(question, found)
    if question.own_prices:
        used = sum(1 for i in sug.build.items if i.price_override)
        sug.notes.append(f"your own prices replace the catalog's for {used} of the build's parts")
    if explain:
        sug.binding, sug.binding_text = _binding(s, found)
        if question.budget is not None and question.goal in (Goal.THROUGHPUT, Goal.VRAM, Goal.BREAKEVEN):
            for extra in NEXT_STEPS:
                # Unless the budget binds, no budget buys better (the binding search looked at any price).
                better = s.best(cap_usd=s.to_usd(question.budget + extra)) if sug.binding == "budget" else None
                step = better if better and _improves(s, better, found) else None
                sug.next_steps.append(
                    (extra, Alternative(f"{money(question.currency, extra, 0)} more", step) if step else None)
                )
        sug.runners_up = _runners_up(s, found)
    sug.seconds = time.perf_counter() - started
    return sug


def _improves(s: Search, a: Found, b: Found) -> bool:
    if s.q.goal is Goal.BREAKEVEN:
        return a.score is not None and (b.score is None or a.score.days < b.score.days)  # strictly sooner
    return s.value(a.option) > s.value(b.option)


def _never(s: Search, found: Found) -> str:
    offer = s.q.beat
    assert offer is not None
    limit = f" within {money(s.q.currency, s.q.budget, 0)}" if s.q.budget else ""
    return (
        f"no priced {_gpus(s.q.gpus)}build{limit} breaks even against {offer.id} within {s.a.horizon_years:g} "
        f"years at {s.a.hours_per_day:g} h a day: renting is cheaper for this work (the cheapest build that "
        f"passes is {money(s.q.currency, s.from_usd(found.total_usd), 0)})"
    )


def _why_none(s: Search) -> str:
    q = s.q
    what = f"no priced {_gpus(q.gpus)}build"
    if q.min_vram_gb:
        what += f" with {q.min_vram_gb:g} GB per GPU"
    if q.fit is not None:
        sizes = ", ".join(f"{gb:.1f} GB per GPU on {n}" for n, gb, _ in q.fit.per_gpu_gb if n in q.counts())
        what += f" that fits {q.fit.label} ({sizes})"
    if q.goal is Goal.CHEAPEST_THROUGHPUT:
        what += f" reaching {q.target:g} V100-equivalents"
    elif q.goal is Goal.CHEAPEST_VRAM:
        what += f" with {q.target:g} GB of GPU memory"
    if not s.options:  # no GPU qualifies at all: say that, not "no build passes"
        gpu = f"GPU with {q.min_vram_gb:g} GB or more" if q.min_vram_gb else "GPU"
        fit = " big enough for the workload" if q.fit is not None else ""
        return f"{what}: the catalog has no priced {gpu}{fit} with a speed figure"
    cheapest = Search(s.catalog, s.a, replace(q, budget=None, goal=Goal.CHEAPEST_VRAM, target=1e-9)).best(
        options=[o for o in s.options if s.meets(o)]
    )
    if cheapest is None:
        why = f"{what} passes the checks and the expert's minimums" if q.expert else f"{what} passes the checks"
        if (q.gpus or 0) >= 3 and q.expert:
            why += " (x8 per GPU needs a Threadripper or Xeon W platform)"
        return why + " (with these constraints and assumptions)"
    budget = money(q.currency, q.budget or 0, 0)
    return f"{what} fits {budget}: the cheapest is {money(q.currency, s.from_usd(cheapest.total_usd), 0)}"


def _binding(s: Search, found: Found) -> tuple[str, str]:
    q = s.q
    if q.goal in (Goal.CHEAPEST_THROUGHPUT, Goal.CHEAPEST_VRAM):
        return "target", "the cheapest build that reaches the target; the budget is not what limits it"
    if q.goal is Goal.BREAKEVEN:
        if q.budget is not None:
            free = s.best(cap_usd=float("inf"))
            if free is not None and _improves(s, free, found):
                return "budget", f"a dearer build breaks even sooner: {describe(free, s)}"
        return "catalog", "no priced build under these constraints breaks even sooner, at any price"
    better = [o for o in s.options if s.value(o) > s.value(found.option)]
    if not better:
        return "catalog", "nothing in the catalog's priced parts does better under these constraints"
    # The cheapest better build within the budget's largest next step first: found there, it is the cheapest at any
    # price, and the completions under a cap end far sooner than the uncapped ones (and the next steps reuse them).
    caps = [s.to_usd(q.budget + NEXT_STEPS[-1])] if q.budget is not None else []
    cheapest = None
    for cap in (*caps, INF):
        cheapest = s._cheapest(better, cap, s.floor_usd())
        if cheapest is not None:
            break
    if cheapest is not None:
        return "budget", f"the next step up costs {describe(cheapest, s)}"
    wall = s.a.model_copy(update={"wall_voltage": 240.0, "wall_amps": 30.0})
    if Search(s.catalog, wall, replace(q, budget=1e12)).best(options=better, cap_usd=float("inf")):
        return "wall circuit", (
            f"a faster build draws more than a {s.a.wall_voltage:g} V / {s.a.wall_amps:g} A circuit carries"
        )
    if q.gpus is not None:
        n = f"{q.gpus} GPU{'s' if q.gpus > 1 else ''}"
        # Every better option has the count asked for and none passes: another count may do better within the budget.
        other = Search(s.catalog, s.a, replace(q, gpus=None), perf=s.perf)
        more = [o for o in other.options if o.count != q.gpus and other.value(o) > s.value(found.option)]
        alt = other._cheapest(more, other.budget_usd(), other.floor_usd()) if more else None
        if alt is not None:
            return "gpu count", f"no faster set of {n} passes the checks; another count does better: {describe(alt, s)}"
        return "checks", f"no faster set of {n} passes the checks in any priced build (slots, power, fit)"
    return "checks", "no faster GPU set passes the checks in any priced build (slots, power, fit)"


def _rank(s: Search, f: Found) -> tuple[float, ...]:
    if s.q.goal is Goal.BREAKEVEN and f.score is not None:
        return f.score.key()
    if s.q.goal in (Goal.CHEAPEST_THROUGHPUT, Goal.CHEAPEST_VRAM):
        return (f.total_usd,)
    return tuple(-v for v in s.value(f.option))


def _runners_up(s: Search, found: Found) -> list[Alternative]:
    """The best build with each other GPU count (when the count is free), best first, two at most; and the best
    build on the other CPU platform (AMD or Intel), which answers "what if I stay with the maker I know"."""
    out: list[Alternative] = []
    if s.q.goal in (Goal.THROUGHPUT, Goal.VRAM, Goal.BREAKEVEN) and s.q.gpus is None:
        counts = {n: [o for o in s.options if o.count == n] for n in s.q.counts() if n != found.option.count}
        # The most promising counts first (by a bound from the cheapest other parts), so that the two best are
        # found early and the counts that cannot place are skipped; ties are ranked by count below, so the answer
        # does not depend on this order.
        for n in sorted((n for n in counts if counts[n]), key=lambda n: _best_possible(s, counts[n], s.floor_usd())):
            mine = counts[n]
            if _cannot_place(s, mine, out):
                continue
            alt = s.best(options=mine)
            if alt is not None and not (alt.score is not None and math.isinf(alt.score.days)):
                out.append(Alternative(f"{n} GPU{'s' if n > 1 else ''}", alt))
    out = sorted(out, key=lambda a: (_rank(s, a.found), a.found.option.count))[:2]
    vendor = found.vendor
    if vendor:
        try:
            other = Search(s.catalog, s.a, replace(s.q, platform_not=vendor), perf=s.perf).best()
        except SuggestError:
            other = None
        if other is not None and other.vendor:
            out.append(Alternative(f"{other.vendor} platform", other))
    return out


def _best_possible(s: Search, mine: list[GpuOption], least: float) -> float:
    """A bound on the first term of the rank (_rank) of any build of these options whose other parts cost at least
    `least`: the goal's main value, negated, of the best option that fits the budget, or its earliest break-even
    day (INF: none fits)."""
    cap = s.budget_usd()
    fits = [o for o in mine if o.cost_usd + least <= cap + 1e-9]
    if not fits:
        return INF
    if s.q.goal is Goal.BREAKEVEN:
        return min(s.day_bound(o, o.cost_usd + least) for o in fits)
    return -max(s.value(o)[0] for o in fits)


def _cannot_place(s: Search, mine: list[GpuOption], out: list[Alternative]) -> bool:
    """Two runners-up found already, and no build of these options can rank ahead of the second: the first term of
    its rank is strictly worse even with the count's bound on the other parts (suggest.relaxed), searched now.
    The search for the count is then skipped; the answer is the same."""
    if len(out) < 2:
        return False
    second = sorted(_rank(s, a.found) for a in out)[1][0]
    least = max(s.floor_usd(), s.rest_floor(mine[0].count, s.budget_usd(), eager=True))
    return _best_possible(s, mine, least) > second


def _notes(s: Search) -> list[str]:
    st = s.stats
    out = [f"{sum(st.unpriced.values()):,} catalog parts have no price and were skipped"]
    if st.unknown_speed:
        out.append(f"{st.unknown_speed} priced GPUs have no speed figure and were skipped (never taken as speed 1)")
    out.append("a build holds identical GPUs, one memory kit and one drive (docs/suggest.md)")
    if st.open_air_stacks:
        out.append(
            f"{st.open_air_stacks} options of 3+ open-air cards (or of unknown cooling) were left out: packed side by "
            f"side they throttle ({STACK_RULES}); 3+ GPUs are blower, liquid-cooled or passive cards"
        )
    if s.q.allow_missing_data:
        out.append("parts with missing data allowed: every rule they leave unchecked is listed under 'not checked'")
    elif s.strict.unknown:
        out.append(
            "parts whose data leaves a rule that matters unchecked were not chosen (allow them with missing data)"
        )
    return out


def platform_note(s: Search, found: Found) -> str:
    """Say when x8 per GPU needs a workstation platform (Threadripper, Xeon W): more GPUs than a desktop CPU's 16 or
    20 graphics lanes can give x8 each."""
    n = found.option.count if found else (s.q.gpus or 0)
    if n >= 3 and s.q.expert:
        return (
            f"{n} GPUs at x8 or better need {8 * n} CPU lanes for graphics: desktop CPUs give 16 to 20, so this is a "
            "workstation platform (AMD Threadripper, Intel Xeon W / Core X)"
        )
    return ""
