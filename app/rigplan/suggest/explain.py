"""The answer with its reasons: what binds, what more money would buy, runners-up with another GPU count."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from rigplan.model.assumptions import Assumptions
from rigplan.rules.power import CONTINUOUS_SHARE
from rigplan.suggest.blocker import blocker
from rigplan.suggest.bounds import INF
from rigplan.suggest.expert import STACK_RULES
from rigplan.suggest.found import GpuOption
from rigplan.suggest.question import Goal, SuggestError
from rigplan.suggest.search import Found, Search
from rigplan.suggest.tight import room_said, tight_alternative
from rigplan.wording import BreakEven, money

NEXT_STEPS = (100.0, 500.0)


@dataclass(frozen=True)
class Alternative:
    why: str  # "2 GPUs", "$100 more"
    found: Found


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


def _why_none(s: Search, searched: bool = True) -> str:
    """Why no build answers (searched=False: only the question's own words, for a caller that names the blocker),
    and, for a workload held to the expert's headroom, the best build that fits it only tighter (suggest.tight)."""
    why = _why_none_said(s, searched)
    tight = tight_alternative(s) if searched else ""
    return f"{why}; {tight}" if tight else why


def _why_none_said(s: Search, searched: bool) -> str:
    q = s.q
    what = f"no priced {_gpus(q.gpus)}build"
    if q.min_vram_gb:
        what += f" with {q.min_vram_gb:g} GB per GPU"
    if q.fit is not None:
        sizes = ", ".join(f"{gb:.1f} GB per GPU on {n}" for n, gb, _ in q.fit.per_gpu_gb if n in q.counts())
        what += f" that fits {q.fit.label}{room_said(s)} ({sizes})"
    if q.goal is Goal.CHEAPEST_THROUGHPUT:
        what += f" reaching {q.target:g} V100-equivalents"
    elif q.goal is Goal.CHEAPEST_VRAM:
        what += f" with {q.target:g} GB of GPU memory"
    if not s.options:  # no GPU qualifies at all: say that, not "no build passes"
        gpu = f"GPU with {q.min_vram_gb:g} GB or more" if q.min_vram_gb else "GPU"
        if q.fit is not None and room_said(s):
            return f"{what}: the catalog has no priced {gpu} with a speed figure that holds it with that headroom"
        fit = " big enough for the workload" if q.fit is not None else ""
        return f"{what}: the catalog has no priced {gpu}{fit} with a speed figure"
    if not searched:
        return what
    cheapest = Search(s.catalog, s.a, replace(q, budget=None, goal=Goal.CHEAPEST_VRAM, target=1e-9)).best(
        options=[o for o in s.options if s.meets(o)]
    )
    if cheapest is None:
        named = blocker(s, [o for o in s.options if s.meets(o)])
        if named:
            return f"{what} passes the checks at any price: {named}"
        why = f"{what} passes the checks and the expert's minimums" if q.expert else f"{what} passes the checks"
        fewest = min((o.count for o in s.options if s.meets(o)), default=0)
        if fewest >= 3 and q.expert:
            why += (
                f" (every option needs {fewest}+ GPUs: blower, liquid or passive cards at x8 each, on a Threadripper or"
                " Xeon W platform whose board has the slot positions)"
            )
        return why + " (with these constraints and assumptions)"
    budget = money(q.currency, q.budget or 0, 0)
    o = cheapest.option
    return (
        # rounded up: the price said buys the build when asked as the budget
        f"{what} fits {budget}: the cheapest is {money(q.currency, math.ceil(s.from_usd(cheapest.total_usd)), 0)} "
        f"({o.count}x {o.part.name})"
    )


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
        wall = _wall_buys(s, found)  # the options are cut by the circuit: a bigger one may allow better GPUs
        if wall is not None:
            return "wall circuit", _wall_text(s, wall)
        return "catalog", "nothing in the catalog's priced parts does better under these constraints"
    # The cheapest better build within the budget's largest next step first: found there, it is the cheapest at any
    # price, and the completions under a cap end far sooner than the uncapped ones (and the next steps reuse them).
    caps = [s.to_usd(q.budget + NEXT_STEPS[-1])] if q.budget is not None else []
    cheapest = None
    for cap in (*caps, INF):
        cheapest = s.cheapest(better, cap, s.floor_usd())
        if cheapest is not None:
            break
    if cheapest is not None:
        return "budget", f"the next step up costs {describe(cheapest, s)}"
    on_wall: Found | bool | None = _wall_buys(s, found)
    if on_wall is None and Search(s.catalog, _wall(s), replace(q, budget=1e12)).best(options=better, cap_usd=INF):
        on_wall = True  # a better build exists on 240 V, only above the budget
    if on_wall is not None:
        return "wall circuit", _wall_text(s, on_wall)
    if q.gpus is not None:
        n = f"{q.gpus} GPU{'s' if q.gpus > 1 else ''}"
        # Every better option has the count asked for and none passes: another count may do better within the budget.
        other = Search(s.catalog, s.a, replace(q, gpus=None), perf=s.perf)
        more = [o for o in other.options if o.count != q.gpus and other.value(o) > s.value(found.option)]
        alt = other.cheapest(more, other.budget_usd(), other.floor_usd()) if more else None
        if alt is not None:
            return "gpu count", f"no faster set of {n} passes the checks; another count does better: {describe(alt, s)}"
        return "checks", f"no faster set of {n} passes the checks in any priced build (slots, power, fit)"
    return "checks", "no faster GPU set passes the checks in any priced build (slots, power, fit)"


def _wall(s: Search) -> Assumptions:
    return s.a.model_copy(update={"wall_voltage": 240.0, "wall_amps": 30.0})


def _wall_buys(s: Search, found: Found) -> Found | None:
    """The best build within the budget on a 240 V / 30 A circuit (NEMA 6-30) with a better GPU set than `found`;
    None when the question is asked on that circuit already or none is better there."""
    if (s.a.wall_voltage, s.a.wall_amps) == (240.0, 30.0):
        return None
    bigger = Search(s.catalog, _wall(s), s.q, perf=s.perf)
    ups = [o for o in bigger.options if bigger.value(o) > s.value(found.option)]
    return bigger.best(options=ups) if ups else None


def _wall_text(s: Search, on_wall: Found | bool) -> str:
    """The circuit as the binding limit, with its continuous figure and what a 240 V / 30 A circuit would buy."""
    limit = s.a.wall_voltage * s.a.wall_amps * CONTINUOUS_SHARE
    said = (
        f"the {s.a.wall_voltage:g} V / {s.a.wall_amps:g} A circuit binds: it carries {limit:,.0f} W continuously"
        " (80 % of the breaker, US NEC 210.19/210.20), and a faster GPU set draws more"
    )
    if isinstance(on_wall, Found):
        said += f"; on a 240 V / 30 A circuit (NEMA 6-30) the same budget buys {describe(on_wall, s)}"
    return said


def _rank(s: Search, f: Found) -> tuple[float, ...]:
    if s.q.goal is Goal.BREAKEVEN and f.score is not None:
        return f.score.key()
    if s.q.goal in (Goal.CHEAPEST_THROUGHPUT, Goal.CHEAPEST_VRAM):
        return (f.total_usd,)
    return tuple(-v for v in s.value(f.option))


# A runner-up with another GPU count is shown when it reaches at least this share of the answer's main value (the
# goal's: throughput, or GPU memory): below it, it is a smaller budget's answer, not an alternative to this one
# (issue 37, fifth round: "$2,500, most GPU memory" listed 3x Quadro P1000, 12 GB and 0.10 V100-equivalents, beside
# the answer's RTX 5090, 32 GB and 2.89). RigPlan's line, not a sourced figure; the answer says what it left out.
RUNNER_UP_SHARE = 0.5


def _runners_up(s: Search, found: Found) -> tuple[list[Alternative], list[str]]:
    """The best build with each other GPU count (when the count is free), best first, two at most, each reaching
    RUNNER_UP_SHARE of the answer's main value; and the best build on the other CPU platform (AMD or Intel), which
    answers "what if I stay with the maker I know". Also the counts left out for falling short of the share."""
    out, short = _count_runners_up(s, found)
    vendor = found.vendor
    if vendor:
        try:
            other = Search(s.catalog, s.a, replace(s.q, platform_not=vendor), perf=s.perf).best()
        except SuggestError:
            other = None
        if other is not None and other.vendor:
            out.append(Alternative(f"{other.vendor} platform", other))
    return out, short


def _count_runners_up(s: Search, found: Found) -> tuple[list[Alternative], list[str]]:
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
    if s.q.goal not in (Goal.THROUGHPUT, Goal.VRAM):
        return out, []
    value = s.value(found.option)[0]
    short = [a.why for a in out if not listed(s.value(a.found.option)[0], value)]
    return [a for a in out if a.why not in short], short


def listed(value: float, answer: float) -> bool:
    """A runner-up by count is listed when its main value reaches RUNNER_UP_SHARE of the answer's."""
    return value >= RUNNER_UP_SHARE * answer - 1e-9


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
    if s.pricing.cases is not None and s.pricing.cases.how:
        out.append(s.pricing.cases.how)
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
