"""Everything an export shows about one build, computed once by the real core (rules + costs), no Qt.

Every format (Markdown, CSV, PDF, chart images, comparison) reads a `Plan`, so the CLI and the GUI print the same
figures: the checks' Report, the costing (parts cost, wall watts, throughput) and the CostReport of the offers on the
break-even chart.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rigplan.cloud.offers import OfferCatalog
from rigplan.cloud.store import offers_in_use
from rigplan.costs.analysis import BuildCosting, CostInputError, cost_build, offer_input, perf_for
from rigplan.costs.fx import NoRate
from rigplan.costs.jobs import JobResult, job_defined, jobs
from rigplan.costs.model import CostReport, OfferInput, compute
from rigplan.costs.perf import PerfTable
from rigplan.model.assumptions import Pricing
from rigplan.model.build import Build
from rigplan.model.offers import PROVIDER_NAMES, Offer
from rigplan.rules import Report, check
from rigplan.rules.power import PSU_SIZES
from rigplan.wording import BreakEven, money

# The GUI's starting comparison (gui/costs/costs_view.py DEFAULT_OFFERS): used when a build file does not name the
# offers on its chart, so an export without --instance shows the same offers the Costs workspace starts with.
DEFAULT_CHART_OFFERS: tuple[tuple[str, Pricing], ...] = (
    ("aws:p3.2xlarge:us-east-1", Pricing.ON_DEMAND),
    ("aws:g5.xlarge:us-east-1", Pricing.SPOT),
    ("lambda:gpu_1x_a100:us-east-1", Pricing.ON_DEMAND),
)


class ExportError(ValueError):
    """Input an export cannot use (unknown offer, mixed currencies...): one line for the user."""


@dataclass(frozen=True)
class ChartOffer:
    offer: Offer
    pricing: Pricing

    @property
    def key(self) -> str:
        return f"{self.offer.id}|{self.pricing.value}"


@dataclass
class Plan:
    build: Build
    report: Report
    costing: BuildCosting
    cost: CostReport
    offers: list[ChartOffer]
    made: dt.date
    jobs: list[JobResult] = field(default_factory=list)  # job mode only
    inputs: list[OfferInput] = field(default_factory=list)  # the cost model's inputs of the charted offers
    notes: list[str] = field(default_factory=list)
    # The build's saved workload in words (rigplan.workload.describe.plan_lines, filled by the caller: exports and
    # workload are sibling layers); empty: none saved, or not asked for.
    workload_lines: list[str] = field(default_factory=list)
    # Issue 38: the data's dates, named by every export: the parts snapshot (commit, date), part prices, cloud prices.
    data_dates: str = ""

    @property
    def currency(self) -> str:
        return self.cost.currency

    @property
    def unpriced(self) -> tuple[int, int]:
        """(unpriced lines, of which Other items): the counts the exports' "without a price" wording takes."""
        names = self.costing.own.unpriced
        return len(names), unpriced_other(self.build, names)

    def offer_names(self) -> dict[tuple[str, Pricing], str]:
        """Each charted offer's name as every export writes it (chart labels, legend, bars, tables, job lines): the
        same curve_labels the Costs tab uses, so a reader meets one name per offer (issue 29)."""
        keys = [(c.offer.id, c.pricing) for c in self.offers]
        names = curve_labels([(c.offer, c.offer.id, c.pricing) for c in self.offers])
        return dict(zip(keys, names, strict=True))

    def offer_name(self, offer_id: str, pricing: Pricing, label: str = "") -> str:
        """One offer's name (offer_names); an offer not on the chart keeps its instance label's head."""
        return self.offer_names().get((offer_id, pricing)) or label.split(": ")[0] or offer_id


def chart_offers(
    build: Build, catalog: OfferCatalog, chosen: Sequence[tuple[str, Pricing]] | None = None
) -> tuple[list[ChartOffer], list[str]]:
    """The offers on the build's chart: those given, else the build's own comparison (a build file that saves one),
    else RigPlan's starting set. Unknown ids are an error when given, a note when read from the file."""
    notes: list[str] = []
    strict = chosen is not None
    if chosen is None:
        saved = getattr(build, "comparison", None)  # build files of format 2 carry the offers on their chart
        chosen = [(c.offer, c.pricing) for c in saved] if saved else list(DEFAULT_CHART_OFFERS)
    out: list[ChartOffer] = []
    for offer_id, pricing in chosen:
        offer = catalog.get(offer_id)
        if offer is None:
            if strict:
                raise ExportError(f"unknown offer {offer_id!r}; see 'rigplan instances list'")
            notes.append(f"offer {offer_id} is not in the cloud catalog: left out")
            continue
        if ChartOffer(offer, pricing) not in out:
            out.append(ChartOffer(offer, pricing))
    return out, notes


def make_plan(
    build: Build,
    chosen: Sequence[tuple[str, Pricing]] | None = None,
    *,
    catalog: OfferCatalog | None = None,
    perf: PerfTable | None = None,
    today: dt.date | None = None,
) -> Plan:
    """Check and cost a build against the offers on its chart (see chart_offers). Without a catalog: the offers in use
    (bundled, or the user's updated prices), the ones the Costs workspace and `rigplan cost` show."""
    catalog = catalog if catalog is not None else offers_in_use()
    offers, notes = chart_offers(build, catalog, chosen)
    a = build.assumptions
    perf = perf_for(a, perf)
    try:
        costing = cost_build(build, perf)
        inputs = []
        for c in offers:
            if c.offer.hourly(c.pricing) is None:
                notes.append(f"{c.offer.id} has no {c.pricing.value} price: left out")
                continue
            inputs.append(
                offer_input(
                    c.offer, a, perf, costing.own.throughput, pricing=c.pricing, own_kind=costing.throughput_kind
                )
            )
        cost = compute(costing.own, inputs, a)
        job_results = jobs(costing.own, inputs, a) if job_defined(a) else []
    except (CostInputError, NoRate) as exc:
        raise ExportError(str(exc)) from None
    priced = {i.id + "|" + i.pricing.value for i in inputs}
    offers = [c for c in offers if c.key in priced]
    return Plan(
        build=build,
        report=check(build),
        costing=costing,
        cost=cost,
        offers=offers,
        made=today or dt.date.today(),
        jobs=job_results,
        inputs=inputs,
        notes=notes + list(costing.notes) + cost.notes,
        data_dates=data_dates_line(catalog),
    )


def data_dates_line(offers: OfferCatalog) -> str:
    """'Data: parts: BuildCores OpenDB @136a77a (2026-08-17), shipped; part prices 2025-07-23; cloud prices: ...'."""
    from rigplan.catalog.overlay import about_in_use, snapshot_line

    return f"Data: {snapshot_line(about_in_use())}; cloud prices: {getattr(offers, 'origin', '') or 'unknown'}"


def price_source(source: str, date: dt.date | None) -> str:
    return f"{source or 'source unknown'}, {date.isoformat() if date else 'date unknown'}"


def data_sources(plans: Iterable[Plan]) -> list[str]:
    """Every data source with its date, once: part prices and specs, cloud prices, speed figures and rates."""
    seen: dict[str, None] = {}
    for plan in plans:
        if plan.data_dates:
            seen[plan.data_dates] = None
        prices: dict[str, int] = {}
        for _, _, _, p in plan.build.priced_lines():  # Other items' prices are sources too (issue 29)
            if p is not None:
                key = price_source(p.source, p.date)
                prices[key] = prices.get(key, 0) + 1
        for item in plan.build.items:
            if item.part.spec_source:
                seen[f"Specs: {item.part.spec_source}"] = None
        for key, n in prices.items():
            seen[f"Part prices ({n} line{'s' if n != 1 else ''} of {plan.build.name}): {key}"] = None
        for c in plan.offers:
            seen[f"Cloud price {c.offer.id}: {c.offer.source or 'source unknown'}, {c.offer.date_text}"] = None
        for name, s in plan.costing.gpu_speeds:
            seen[f"Speed of {name}: {s.basis if s else 'no measurement and no specs (unknown)'}"] = None
        if plan.currency != "USD":  # a USD build has no exchange rate: no "USD 1 per USD" line (issue 29)
            seen[f"Exchange rate: {plan.cost.fx_basis}"] = None
        seen[f"Resale: {plan.cost.resale_basis}"] = None
    return list(seen)


def breakeven_text(plan: Plan, offer_id: str, pricing: Pricing) -> str:
    """The break-even against one offer in words, as the cost CLI says it."""
    cur = plan.currency
    for r in plan.cost.offers:
        if r.id == offer_id and r.pricing is pricing:
            if r.status is BreakEven.BREAKS_EVEN and r.breakeven_days is not None:
                return f"after {r.breakeven_days:,.0f} days ({r.breakeven_hours or 0:,.0f} h of training)"
            return r.status.words
    for u in plan.cost.speed_unknown:
        if u.id == offer_id and u.pricing is pricing:
            if plan.cost.upfront <= 0:  # nothing priced yet: "$0 rents 0 hours" would say nothing
                return BreakEven.SPEED_UNKNOWN.words
            return (
                f"{BreakEven.SPEED_UNKNOWN.words}: {money(cur, plan.cost.upfront, 0)} rents "
                f"{u.breakeven_instance_hours:,.0f} instance hours"
            )
    return "no price"


def power_line(plan: Plan) -> str:
    """Sizing peak, running figures at the wall and the PSU's load, as `rigplan check` says them."""
    p = plan.report.power
    if p is None:
        return "Power: not estimated."
    least = "at least " if p.unknown else ""
    # As `rigplan check` says it: a need above the largest PSU sold is two PSUs, not a size that does not exist.
    rec = f"{p.recommended_psu_w} W" if p.recommended_psu_w <= PSU_SIZES[-1] else f"over {PSU_SIZES[-1]} W: two PSUs"
    psu = (
        f"{p.psu_w} W PSU at {p.sizing_w / p.psu_w:.0%} load (recommended {rec})"
        if p.psu_w
        else f"no PSU chosen (recommended {rec})"
    )
    return (
        f"{least}{p.load_w:.0f} W at full load ({p.sizing_w:.0f} W with GPU spikes, for PSU sizing); at the wall "
        f"{least}{p.wall_load_w:.0f} W training, {p.wall_idle_w:.0f} W idle; {psu}"
    )


def job_lines(plan: Plan) -> list[str]:
    """Job mode (docs/cost-model.md): per offer, one job's cost and after how many jobs owning wins."""
    cur = plan.currency
    out = []
    for j in plan.jobs:
        cost = f"{money(cur, j.cloud_cost)} a job to rent" if j.cloud_cost is not None else "job cost unknown"
        if j.jobs_to_win:
            win = f"owning wins after {j.jobs_to_win} jobs"
            if j.years_to_win is not None:
                win += f" ({j.years_to_win:.1f} years at {plan.build.assumptions.jobs_per_year:g} jobs a year)"
        else:
            win = "owning never wins" if j.status == "never" else "speed unknown"
        name = plan.offer_name(j.id, j.pricing, j.label)
        pricing = "" if name.endswith(j.pricing.value) else f" ({j.pricing.value})"  # named with it when there twice
        out.append(f"{name}{pricing}: {cost}; {win}")
    return out


def curve_labels(offers: Sequence[tuple[Offer | None, str, Pricing]]) -> list[str]:
    """The break-even chart's label per drawn offer (offer, its id, pricing): provider and GPUs ("Lambda 8x H100"),
    with the instance when two drawn offers would read the same, its region when the instance is there from two
    regions, and the pricing when the same offer is there twice (issues 29, 40). The Costs tab and the exported
    charts both name their curves with it."""
    base, full = [], []
    for o, offer_id, _ in offers:
        if o is None:
            base.append(offer_id)
            full.append(offer_id)
            continue
        provider = PROVIDER_NAMES.get(o.provider, o.provider.upper())
        # An offer whose GPU is unknown is named by its instance: "AWS GPU unknown" would say nothing of which one
        base.append(f"{provider} {o.gpus_text}" if o.gpu_model else f"{provider} {o.instance_type}")
        full.append(f"{provider} {o.instance_type} {o.gpus_text}" if o.gpu_model else base[-1])
    out = [f if base.count(b) > 1 else b for b, f in zip(base, full, strict=True)]
    # The same instance in two regions read the same twice ("AWS g6e.xlarge 1x L40S on-demand", issue 40): the
    # region goes in the name, then the snapshot, when the name is still shared by offers that differ in it.
    for attr in ("region", "snapshot"):
        keys = [getattr(o, attr) if o is not None else "" for o, _, _ in offers]
        out = [
            f"{n} {k}" if len({k2 for n2, k2 in zip(out, keys, strict=True) if n2 == n}) > 1 else n
            for n, k in zip(out, keys, strict=True)
        ]
    return [f"{n} {p.value}" if out.count(n) > 1 else n for n, (_, _, p) in zip(out, offers, strict=True)]


def name_lines(name: str, pricing: str) -> list[str]:
    """An offer's name (curve_labels) on short lines under its bar in the breakdown charts: the provider, the instance
    when the name has one, the GPUs, the pricing (once)."""
    words = name.split()
    if len(words) > 1 and words[-1] == pricing:
        words = words[:-1]
    # The GPUs start at their count ("2x RTXPRO6000", "0.5 of 1 A10G"); instance types start with a letter.
    gpus = next((i for i, w in enumerate(words) if i > 0 and re.match(r"\d[\d.]*x?$", w)), len(words))
    lines = [" ".join(words[:1]), " ".join(words[1:gpus]), " ".join(words[gpus:]), pricing]
    return [line for line in lines if line]


def unpriced_other(build: Build, unpriced: Sequence[str]) -> int:
    """How many of the cost model's unpriced lines (names, in Build.priced_lines order: parts, then Other items) are
    Other items, for "2 parts and 1 other item without a price" (issue 29)."""
    lines = build.priced_lines()
    parts = len(build.items)
    left = list(unpriced)
    other = 0
    for n, (_, name, _, price) in enumerate(lines):  # the names are a subsequence of the lines, in order
        if left and name == left[0] and (price is None or price.currency != "USD" or n >= parts):
            left.pop(0)
            other += n >= parts
    return other


def instance_text(o: Offer) -> str:
    """The instance behind an offer's name, for the tables beside it: "g5.xlarge, us-east-1" (and its snapshot)."""
    when = "" if o.snapshot == "current" else f" ({o.snapshot})"
    return f"{o.instance_type}, {o.region}{when}"


def total_note(plan: Plan) -> str:
    """Why the total is not the sum of the prices shown: parts priced in another currency are converted (the cost
    model's rate, docs/cost-model.md)."""
    currencies = {p.currency for _, _, _, p in plan.build.priced_lines() if p is not None}
    if currencies <= {plan.currency}:
        return ""
    return f"converted at {plan.cost.fx_basis.split(' (')[0]}"


def stack_label(rows: list[list[tuple[float, float]]], at: float, width: float, plot_width: float) -> tuple[int, float]:
    """Place one break-even label, in pixels, as the Costs tab and the exported charts both do: centred on its line
    (at `at` px) but kept inside a plot `plot_width` px wide; on the first row whose labels it does not overlap (6 px
    apart), else a new row. `rows` holds the spans taken so far and gains this one. Returns (row, horizontal anchor
    of the label's box, 0..1, which puts the line where it belongs)."""
    left = min(max(at - width / 2, 0.0), max(plot_width - width, 0.0))
    span = (left - 6, left + width + 6)
    row = next((r for r, taken in enumerate(rows) if all(span[1] < a or span[0] > b for a, b in taken)), None)
    if row is None:
        rows.append([])
        row = len(rows) - 1
    rows[row].append(span)
    return row, ((at - left) / width if width else 0.5)
