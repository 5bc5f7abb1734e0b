"""The package's entry point: `suggest()` searches, explains and returns a `Suggestion` (what the CLI, the GUI and
the exports show). The search is suggest.search, the reasons suggest.explain."""

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
from rigplan.suggest.balance import Balance, balance
from rigplan.suggest.blocker import slots_block
from rigplan.suggest.expert import FULL_SHARE, Minimums, fits_with_room
from rigplan.suggest.explain import (
    NEXT_STEPS,
    Alternative,
    _binding,
    _improves,
    _never,
    _notes,
    _runners_up,
    _why_none,
    breakeven_text,
    platform_note,
)
from rigplan.suggest.found import GpuOption
from rigplan.suggest.older import OlderAlternative, older_alternative
from rigplan.suggest.question import Goal, Question, SuggestError
from rigplan.suggest.quote import Quote, quote_current
from rigplan.suggest.said import ListPrice, list_prices, older_fallback, said
from rigplan.suggest.search import Found, Search
from rigplan.suggest.spending import short_essential
from rigplan.suggest.spending import text as spending_text
from rigplan.wording import money, plural


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
    spending: list[str] = field(default_factory=list)  # the split and the balance stage's steps (suggest.balance)
    assumed: list[str] = field(default_factory=list)  # what the answer takes as given: PSU figure, tax, inferred data
    unchecked_extra: list[str] = field(default_factory=list)  # what no rule checks but an expert would (cooler)
    older: OlderAlternative | None = None  # from $5,000: the older platform's best build, named beside the answer
    quote: Quote | None = None  # answered on an older platform: the current workstation platform to quote (quote.py)
    list_priced: list[ListPrice] = field(default_factory=list)  # parts priced at a maker's list price (said)
    runners_up_basis: str = ""  # how the runners-up compare with the answer ("" when the answer is as searched)

    @property
    def check_text(self) -> str:
        """Exactly what check() shows for the build: "passes every check", or "2 warnings: ...", and what it could
        not check."""
        if self.report is None:
            return ""
        return check_text(self.report, self.unchecked_extra)

    @property
    def breakeven_days(self) -> float | None:
        sc = self.found.score
        return None if sc is None or math.isinf(sc.days) else sc.days


def check_text(report: Report, extra: list[str] | tuple[str, ...] = ()) -> str:
    """What a check() report shows, in one sentence the Findings panel cannot contradict."""
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    warnings = [f for f in report.findings if f.severity is Severity.WARNING]
    if errors:  # never for a suggestion (the search verifies it), said all the same if it happened
        head = f"{plural(len(errors), 'error')}: " + "; ".join(f.message for f in errors)
    elif warnings:
        head = f"{plural(len(warnings), 'warning')}: " + "; ".join(f"{f.rule}: {f.message}" for f in warnings)
    else:
        head = "passes every check (no errors, no warnings)"
    if report.not_checked or extra:
        rules = sorted({n.rule for n in report.not_checked})
        head += f"; not checked ({len(rules) + len(extra)}): " + "; ".join(
            [f"{r}: {next(n.reason for n in report.not_checked if n.rule == r)}" for r in rules] + list(extra)
        )
    notes = [f for f in report.findings if f.severity is Severity.NOTE]
    if notes:  # what the Findings panel shows as notes (the lanes each GPU runs at, among them)
        head += "; notes: " + "; ".join(f"{f.rule}: {f.message}" for f in notes)
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
    vram = o.part.vram_gb
    share = f" ({gb / vram:.0%})" if vram else ""
    text = f"fits {q.fit.label}: {gb:.1f} GB per GPU of the {vram:g} GB each card has{share}{spread}"
    if vram and not fits_with_room(gb, vram):  # only with the expert's minimums off
        text += (
            f"; it fills {gb / vram:.0%} of each card's memory: a real file, the CUDA context and "
            f"fragmentation may not fit (an expert leaves at least {1 - FULL_SHARE:.0%}; with the expert's minimums "
            "on, this build is not offered)"
        )
    return text


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
    slots = slots_block(s, s.options)
    if slots:  # no board can carry any option: said at once, without a search that can only fail
        raise SuggestError(f"{_why_none(s, searched=False)}: {slots}")
    current = s
    s, older, found = _platform(s, s.best(), progress, cancelled)
    if found is None:
        raise SuggestError(_why_none(s))
    if found.score is not None and math.isinf(found.score.days):
        raise SuggestError(_never(s, found))
    essentials = _essentials_only(s)
    least, spent, spending = _balanced(s, found, older, essentials)
    if spent is not None:
        found = spent.found
        if s.objective is not None:  # the break-even day of the build answered, essentials included
            found = replace(found, score=s.objective.score(found.build(s.a), found.total_usd))
    sug = _answer(s, found)
    sug.spending = spending
    if s is older:
        sug.notes.insert(0, older_fallback(s, found))
        if explain and s.q.expert:
            sug.quote = quote_current(current, found)
    if explain:
        # What binds, the next steps and the runners-up compare searched builds with searched builds: for the goals
        # that buy only the essentials, the answer as searched, so their few dollars never make a rival look better.
        _explain(sug, s, least if essentials else found, least)
        if essentials and spent is not None and spent.found is not least and s.objective is not None:
            sug.notes.append(
                "the break-even days of what binds and of the runners-up are of their builds before the essentials "
                "(RAM, cooler); the answer's own day includes them"
            )
        if older is not None and s is not older:
            sug.older = older_alternative(s, older, least, found, essentials)
    sug.seconds = time.perf_counter() - started
    return sug


def _balanced(
    s: Search, found: Found, older: Search | None, essentials: bool
) -> tuple[Found, Balance | None, list[str]]:
    """The balance stage on the searched answer, with the trade for the essentials when it is taken (_trade):
    (the answer as searched, the balance or None with the minimums off, the spending said)."""
    spent = balance(s, found, essentials_only=essentials) if s.q.expert else None
    if spent is None:
        return found, None, []
    trade = _trade(s, spent) if not essentials else None
    if isinstance(trade, tuple):
        found, spent, _ = trade
        if older is not None:  # the older platform's alternative is held to the same essentials
            older.q = older.pricing.q = replace(older.q, essentials=True)
    spending = spending_text(spent, lambda usd: money(s.q.currency, s.from_usd(usd), 0))
    if trade is not None:  # the trade, or why none, said before what is left unspent, which stays the last line
        spending.insert(len(spending) - 1, trade if isinstance(trade, str) else trade[2])
    return found, spent, spending


# The most of the GPUs' throughput and memory a trade for the essentials may give up: RigPlan's line, not a measured
# one (an expert takes 2x RTX 3090 with 96 GB over 2x RTX 3090 Ti with 48 GB, -13 %, but not 2x Radeon PRO W7800 over
# 4x RTX A4000 for 128 GB of RAM, -56 % of the throughput); beyond it the first answer stands, its shortfall said.
TRADE_KEEPS = 0.85


def kept_share(new: GpuOption, old: GpuOption) -> float:
    """What a trade keeps of the first answer's GPUs: the smaller of its throughput and GPU memory shares (a trade is
    taken when this is TRADE_KEEPS or more)."""
    return min(
        new.throughput / old.throughput if old.throughput else 1.0, new.vram_gb / old.vram_gb if old.vram_gb else 1.0
    )


def keeps_enough(new: GpuOption, old: GpuOption) -> bool:
    """Whether a trade for the essentials is taken: it keeps TRADE_KEEPS or more of the first answer's GPUs."""
    return kept_share(new, old) >= TRADE_KEEPS


def _trade(s: Search, spent: Balance) -> tuple[Found, Balance, str] | str | None:
    """An expert trades a non-essential for an essential: when the best GPUs leave an essential (RAM toward twice
    the GPU memory, 4 cores per GPU, a rated cooler) over the budget, the price said is the exact cheapest build of
    those GPUs that has it (balance._step: every other part, board, PSU, drive and case, at the cheapest that
    passes), so no non-essential part can give the money back; the GPUs are traded instead: the exact search again
    with the essentials as minimums (Question.essentials), its answer balanced, when it keeps TRADE_KEEPS of the
    first answer's throughput and GPU memory. Returns (the new answer before the balance stage, balanced, the trade
    said); a sentence when the trade gives up too much (the first answer stands); None (no essential short, or no
    GPU set has them all). After a trade the search keeps the essentials on, so what binds, the next steps and the
    runners-up compare builds that have them."""
    missed = short_essential(spent)
    if missed is None or missed.over_usd is None:
        return None
    q, before = s.q, spent.found
    s.q = s.pricing.q = replace(q, essentials=True)
    # The options better than the answer's had no build within the budget at the looser minimums: none has one now.
    alt = s.best(options=[o for o in s.options if s.value(o) <= s.value(before.option)])
    got = balance(s, alt) if alt is not None else None
    if got is None or alt is None or any(st.essential and not st.bought for st in got.steps):
        s.q = s.pricing.q = q  # no GPU set has every essential within the budget: the first answer stands
        return None
    o, mine = got.found.option, before.option
    them = f"{o.count}x {o.part.name} ({o.throughput:.2f} V100-equivalents, {o.vram_gb:g} GB)"
    kept = kept_share(o, mine)
    if not keeps_enough(o, mine):
        s.q = s.pricing.q = q
        return (
            f"not traded for the essentials: the best GPUs that have them all, {them}, keep {kept:.0%} of this "
            f"answer's throughput or GPU memory (RigPlan trades only when {TRADE_KEEPS:.0%} or more is kept)"
        )
    # The exact cheapest build of the first answer's GPUs with every essential (the same completion what binds
    # reads, so it costs no second search): what it lacks is what no non-essential part could give back.
    full = s.complete(before.option, s.budget_usd() * 1.25)
    cost = (
        f"with every essential cost at least {money(q.currency, s.from_usd(full.total_usd), 0)}, "
        f"{money(q.currency, s.from_usd(full.total_usd - s.budget_usd()), 0)} over the budget"
        if full is not None
        else f"leave {missed.what} {money(q.currency, s.from_usd(missed.over_usd), 0)} over the budget"
    )
    text = (
        f"traded for the essentials: {mine.count}x {mine.part.name} ({mine.throughput:.2f} V100-equivalents) {cost}, "
        "and that cheapest build already takes the cheapest board, PSU, drive and case that pass, so no "
        f"non-essential part gives the money back; this answer takes {them} "
        f"({o.throughput - mine.throughput:+.2f} V100-equivalents) with every essential"
    )
    return alt, got, text


def _platform(
    s: Search,
    found: Found | None,
    progress: Callable[[int, int], None] | None,
    cancelled: Callable[[], bool] | None,
) -> tuple[Search, Search | None, Found | None]:
    """(the search the answer comes from, the older-platform search or None, the answer). At $5,000 and more an
    older platform is only the named alternative (suggest.older), unless no current one carries the question at all:
    then it is the answer, said."""
    q = s.q
    if s.older_platforms or q.older_platforms is not None:
        return s, None, found
    older = Search(s.catalog, s.a, replace(q, older_platforms=True), s.perf, progress, cancelled)
    if found is None:
        return older, older, older.best()
    return s, older, found


def _answer(s: Search, found: Found) -> Suggestion:
    """The Suggestion for a found build: the build, its check, the minimums, notes and what it takes as given."""
    q, a = s.q, s.a
    build = found.build(a)
    if q.beat is not None:  # the chart of the suggested build shows the offer it was chosen to beat
        build = build.model_copy(update={"comparison": (ChartOffer(offer=q.beat.id, pricing=a.pricing),)})
    sug = Suggestion(q, found, build, q.currency, s.from_usd(found.total_usd), "", "")
    sug.report = check(build)
    sug.minimums = Minimums.for_option(q, found.option.count, found.option.vram_gb, found.option.part).lines()
    sug.notes = _notes(s)
    if platform_note(s, found):
        sug.notes.insert(0, platform_note(s, found))
    sug.beat_text = breakeven_text(found, s)
    sug.fit_text = fit_text(q, found)
    sug.assumed = said(s, found, build)
    sug.list_priced = list_prices(build)
    if q.own_prices:
        used = sum(1 for i in sug.build.items if i.price_override)
        sug.notes.append(f"your own prices replace the catalog's for {used} of the build's parts")
    return sug


def _explain(sug: Suggestion, s: Search, found: Found, searched: Found) -> None:
    """What binds, what the next $100 / $500 buy, the runners-up (searched: the answer before the balance stage,
    whose total the runners-up, searched builds, are compared with)."""
    q = s.q
    sug.binding, sug.binding_text = _binding(s, found)
    if q.budget is not None and q.goal in (Goal.THROUGHPUT, Goal.VRAM, Goal.BREAKEVEN):
        for extra in NEXT_STEPS:
            # Unless the budget binds, no budget buys better (the binding search looked at any price).
            better = s.best(cap_usd=s.to_usd(q.budget + extra)) if sug.binding == "budget" else None
            step = better if better and _improves(s, better, found) else None
            sug.next_steps.append((extra, Alternative(f"{money(q.currency, extra, 0)} more", step) if step else None))
    sug.runners_up, short = _runners_up(s, found)
    if short:
        what = "GPU memory" if q.goal is Goal.VRAM else "throughput"
        one = len(short) == 1
        sug.notes.append(
            f"the best build{'' if one else 's'} with {' and '.join(short)} reach{'es' if one else ''} less than half "
            f"this answer's {what}: not listed as runner{'' if one else 's'}-up"
        )
    if sug.runners_up and abs(searched.total_usd - found.total_usd) >= 0.5:
        # Like with like: a runner-up is the cheapest build around its GPUs, before any balance stage; the answer's
        # total is after it. Said with the runners-up, with the answer's own total as searched (issue 37, third
        # round: "AMD platform: the same card, $2,531" read as a cheaper equal build beside a $2,765 answer).
        was = money(s.q.currency, s.from_usd(searched.total_usd), 0)
        sug.runners_up_basis = (
            "priced as searched (the cheapest build around their GPUs, before the balance stage); this answer as "
            f"searched: {was}"
        )


def _essentials_only(s: Search) -> bool:
    """The balance stage buys the essentials alone (suggest.balance) for the goals that do not rank GPUs (break-even,
    cheapest-...: every dollar more is a worse answer there) and for a throughput or GPU-memory question without
    a budget; the whole order only for those with one."""
    return s.q.budget is None or s.q.goal not in (Goal.THROUGHPUT, Goal.VRAM)
