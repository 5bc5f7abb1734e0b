"""What the Costs tab writes about a cost report: the summary line, the break-even cells and the totals at a point
of the chart's x axis (plain functions over rigplan.costs.model.CostReport, no widgets)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from rigplan.cloud.offers import OfferCatalog
from rigplan.costs.analysis import BuildCosting, CostInputError, offer_input, perf_for
from rigplan.costs.fx import NoRate, electricity_price
from rigplan.costs.jobs import jobs
from rigplan.costs.model import CostReport, OfferInput, UnknownSpeedResult
from rigplan.costs.perf import PerfTable
from rigplan.exports.plan import curve_labels
from rigplan.gui.costs.chart_style import COLORS, DAYS_PER_MONTH
from rigplan.gui.costs.offers_model import provider_name
from rigplan.gui.widgets.plain import as_plain, esc, tip
from rigplan.model import Assumptions, Build, Pricing
from rigplan.model.build import ChartOffer
from rigplan.model.electricity import DEFAULT_KWH
from rigplan.wording import BreakEven, at_least, least, symbol


def offer_names(offers: OfferCatalog, comparison: list[ChartOffer]) -> dict[str, str]:
    """Each compared offer's one name, by offer id: provider and GPUs ("Lambda 8x H100"), with the instance when two
    compared offers would read the same (exports.plan.curve_labels, which the exports use too). Named over the whole
    comparison, so the summary, the chart's labels, the side table, the bars and the tooltips say the same (issue
    29: the summary said "AWS g7e.12xlarge" where the chart said "AWS 2x RTXPRO6000")."""
    labels = curve_labels([(offers.get(c.offer), c.offer, c.pricing) for c in comparison])
    return dict(zip([c.offer for c in comparison], labels, strict=True))


def curve_tips(offers: OfferCatalog, drawn: list[ChartOffer], names: dict[str, str]) -> list[str]:
    """Each drawn offer's name, then its instance, source and price date, for its curve's tooltip (issue 17: every
    price shows its date)."""
    tips = []
    for c in drawn:
        o = offers.get(c.offer)
        head = names.get(c.offer, c.offer)
        tips.append(f"{head}\n{o.label}, {c.pricing.value}\n{o.source}\nPrices as of {o.date_text}" if o else head)
    return tips


def summary_html(
    r: CostReport,
    names: list[str],
    money: Callable[[float], str],
    horizon_years: float,
    more: Sequence[str] = (),
    other_unpriced: int = 0,
    errors: int = 0,
) -> str:
    """The owning line and the earliest break-even, then `more` (model_lines) on a line of its own, then the notes.
    Rich text for its layout: every piece of data in it is escaped (a name `<img src=...>` shows as typed). A build
    with errors gets no break-even date (its parts would not work as listed), an empty one is asked for parts
    (issue 40: "Earliest break-even 6.2 months" beside 5 errors; "0 h" break-evens of an empty build)."""
    if not r.upfront and not r.own_slope_per_day:
        return "Add parts on the Parts tab: an empty build costs nothing yet, so there is nothing to compare."
    n = len(r.unpriced)  # issue 19: with unpriced parts the owning figures are lower bounds and say so
    bits = [
        f"Owning: <b>{at_least(money(r.upfront), n, other_unpriced)}</b> up front, "
        f"{money(r.own_slope_per_day)} a day to run; "
        f"{least(n)}{money(r.own_breakdown['total'])} after {horizon_years:g} years and resale."
    ]
    best = [(o.breakeven_days, n) for n, o in zip(names, r.offers, strict=True) if o.breakeven_days]
    if best and errors:
        bits.append(
            f"<b>No break-even date while the build has {errors} error{'s' if errors != 1 else ''}</b>: its parts "
            "would not work as listed (see Findings on the Parts tab)."
        )
    elif best:
        days, name = min(best)
        bits.append(f"Earliest break-even: <b>{days / DAYS_PER_MONTH:.1f} months</b> against {esc(name)}.")
    elif r.offers:
        bits.append("No offer on the chart breaks even within the horizon.")
    elif not r.speed_unknown:
        bits.append("Tick offers in the table below to compare.")
    text = " ".join(bits) + ("<br>" + " ".join(more) if more else "")
    return text + ("<br><i>" + "; ".join(esc(n) for n in r.notes) + "</i>" if r.notes else "")


def summary_tip(lines: list[str], more: list[str], notes: list[str]) -> str:
    """The summary's tooltip: every model line and note, as plain text that shows data as typed."""
    return tip(as_plain("<br>".join([*lines, *more, *map(esc, notes)])))


def compare_rows(
    offers: OfferCatalog,
    comparison: list[ChartOffer],
    drawn: list[ChartOffer],
    names: dict[str, str],
    unknown_speed: list[UnknownSpeedResult],
) -> list[tuple[ChartOffer, str, str, str, list[Pricing]]]:
    """The side table's rows (CompareTable.set_rows): offer, name, colour ("" when not drawn), tooltip, pricings."""
    unknown = {u.id: u for u in unknown_speed}
    rows = []
    for c in comparison:
        o = offers.get(c.offer)
        if o is None:
            rows.append((c, c.offer, "", "Not in this RigPlan's cloud catalog: not drawn", [c.pricing]))
            continue
        n = drawn.index(c) if c in drawn else -1
        color = COLORS[n % len(COLORS)] if n >= 0 else ""
        name = names.get(c.offer, f"{provider_name(o.provider)} {o.instance_type}")
        tip = f"{name}\n{o.label}\n{o.source}; prices as of {o.date_text}"
        if c.offer in unknown:
            u = unknown[c.offer]
            tip += (
                f"\nSpeed ratio unknown ({u.speedup_basis}): not drawn. The build's price rents "
                f"{u.breakeven_instance_hours:,.0f} instance hours: its break-even in hours of renting."
            )
        elif n < 0:
            tip += f"\nNo {c.pricing.value} price: not drawn"
        rows.append((c, name, color, tip, [p for p in Pricing if o.hourly(p)] or [c.pricing]))
    return rows


def offer_inputs(
    offers: OfferCatalog, comparison: list[ChartOffer], a: Assumptions, perf: PerfTable, costing: BuildCosting
) -> tuple[list[OfferInput], list[ChartOffer], list[ChartOffer], list[str]]:
    """The cost model's inputs for the comparison: (inputs, drawn: known speed, unknown speed, notes on skipped)."""
    inputs: list[OfferInput] = []
    drawn: list[ChartOffer] = []
    unknown: list[ChartOffer] = []
    skipped: list[str] = []
    for c in comparison:
        offer = offers.get(c.offer)
        try:
            if offer is None:
                raise CostInputError(c.offer)
            inp = offer_input(
                offer, a, perf, costing.own.throughput, pricing=c.pricing, own_kind=costing.throughput_kind
            )
        except CostInputError:
            skipped.append(f"{offer.instance_type if offer else c.offer} has no {c.pricing.value} price")
            continue
        inputs.append(inp)
        (unknown if inp.speedup is None else drawn).append(c)
    return inputs, drawn, unknown, skipped


def currency_note(before: Assumptions, after: Assumptions) -> str:
    """What a currency switch did to the electricity price, said aloud (issue 40: 0.170 became 0.287 per kWh with only
    a tooltip to say why); empty when the user's own price is kept or nothing changed."""
    if before.currency == after.currency or after.electricity_per_kwh is not None:
        return ""
    try:
        old, new = electricity_price(before)[0], electricity_price(after)[0]
    except NoRate:
        return ""
    where = DEFAULT_KWH[after.currency].where if after.currency in DEFAULT_KWH else "the US price converted"
    return (
        f"Currency now {after.currency}: the electricity price follows it, {symbol(before.currency)}{old:.3f} → "
        f"{symbol(after.currency)}{new:.3f} per kWh ({where}). Type a price in Assumptions to keep your own."
    )


def no_rate_html(currency: str) -> str:
    return (
        f"<i>The ECB publishes no reference rate for {currency}: untick 'ECB' beside 'Rate per USD' in the "
        "assumptions and enter its rate per US dollar.</i>"
    )


def model_lines(
    r: CostReport,
    costing: BuildCosting,
    inputs: list[OfferInput],
    a: Assumptions,
    money: Callable[[float], str],
    names: dict[str, str] | None = None,
) -> tuple[list[str], list[str]]:
    """(lines for the summary, lines for its tooltip): offers of unknown speed (break-even in instance hours only),
    the job result where owning wins soonest (every offer's in the tooltip), the resale and the exchange rate. Offers
    are named by `names` (offer_names, by offer id), else by their instance."""
    known = names or {}

    def _short(offer_id: str, label: str) -> str:
        return known.get(offer_id) or label.split(":")[0]

    rents = [
        f"{esc(_short(u.id, u.label))} ({u.pricing.value}): speed ratio <b>unknown</b>; "
        f"{money(r.upfront)} rents {u.breakeven_instance_hours:,.0f} instance hours."
        for u in r.speed_unknown
    ]
    more = [f"{esc(_short(u.id, u.label))}: {esc(u.speedup_basis)}." for u in r.speed_unknown]
    if len(rents) > 1:
        # One sentence for all of them (a build with no GPU has no ratio to any offer): one per offer ran past the
        # summary's three lines at 1280x720 (issue 29). Each offer's hours are in the side table and the tooltip.
        shown = [
            f"Speed ratio <b>unknown</b> for {len(rents)} offers: the side table's Break-even gives the instance hours "
            f"{money(r.upfront)} rents (tooltip for each)."
        ]
        more = rents + more
    else:
        shown = rents
    estimated = [o for o in r.offers if o.speedup_kind == "estimate"]  # an estimated GPU speed on either side
    if estimated:
        listed = ", ".join(f"{esc(_short(o.id, o.label))} {o.speedup:.2f}x" for o in estimated)
        shown.append(f"Speed ratio <b>estimated</b> (not measured on both sides): {listed}.")
        more += [f"{esc(_short(o.id, o.label))}: {esc(o.speedup_basis)}." for o in estimated]
    results = sorted(jobs(costing.own, inputs, a), key=lambda j: (j.jobs_to_win is None, j.jobs_to_win or 0))
    for n, j in enumerate(results):
        if j.status == "owning-wins-after":
            when = f" ({j.years_to_win:.1f} years)" if j.years_to_win is not None else ""
            line = (
                f"Job on {esc(_short(j.id, j.label))}: {money(j.cloud_cost or 0)} rented vs {money(j.own_cost or 0)} "
                "of power; "
                f"owning wins after <b>{j.jobs_to_win} jobs</b>{when}, {j.jobs_to_win_with_resale} with the resale."
            )
        else:
            never = j.status == "never"
            line = f"Job on {esc(_short(j.id, j.label))}: " + (
                "renting costs less than the power." if never else "unknown."
            )
        (shown if n == 0 else more).append(line)
    if len(results) > 1:
        shown[-1] += f" ({len(results) - 1} more offers in the tooltip.)"
    rate = f"; {esc(r.fx_basis)}" if a.currency != "USD" else ""
    shown.append(f"Resale {r.resale_share:.0%} ({esc(r.resale_basis.split(' (')[0])}){rate}.")
    return shown, more


def form_hints(
    build: Build, costing: BuildCosting, perf: PerfTable, r: CostReport
) -> dict[str, tuple[float | None, str]]:
    """What the assumptions form's default boxes stand for with this build: shown greyed while in use."""
    scaling = perf_for(build.assumptions, perf).scaling
    pcie, sxm = scaling["pcie"].exponent, scaling["sxm"].exponent
    own = "the GPU's own measured multi-GPU runs where Lambda has them, else"
    return {
        "load_watts": (costing.own.load_wall_w, "the build's parts through its PSU's efficiency"),
        "idle_watts": (costing.own.idle_wall_w, "the build's idle estimate"),
        "scaling_desktop": (None, f"fitted: {own} n^{pcie:.2f} for PCIe cards ({scaling['pcie'].basis})"),
        "scaling_cloud": (None, f"fitted: {own} n^{sxm:.2f} for SXM/NVLink instances, n^{pcie:.2f} for PCIe ones"),
        "resale_fraction": (r.resale_share, r.resale_basis),
        "jobs_per_year": (None, "no yearly view"),
    }


def breakeven_cells(r: CostReport, by_months: bool) -> list[str]:
    """One cell per offer of the report: when owning becomes cheaper, on the chart's x axis ("add parts" for an
    empty build, not "0 h")."""
    out = []
    for o in r.offers:
        if not r.upfront and not r.own_slope_per_day:
            out.append("add parts")
        elif o.status is BreakEven.FROM_DAY_ONE:
            out.append("day one")
        elif o.breakeven_days is None:
            out.append("never")
        elif by_months:
            out.append(f"{o.breakeven_days / DAYS_PER_MONTH:,.1f} mo")
        else:
            out.append(f"{o.breakeven_hours:,.0f} h")
    return out


def instance_hours(r: CostReport) -> dict[str, str]:
    """The side table's cell of each offer of unknown speed: the instance hours the build's cost rents ("add parts"
    for an empty build, not "0 h")."""
    empty = not r.upfront and not r.own_slope_per_day
    return {u.id: "add parts" if empty else f"{u.breakeven_instance_hours:,.0f} h" for u in r.speed_unknown}


def axis_x(r: CostReport, by_months: bool) -> np.ndarray:
    return r.days / DAYS_PER_MONTH if by_months else r.hours


def totals_at(r: CostReport, by_months: bool, x: float) -> list[float]:
    """Cumulative cost of owning, then of each offer, at x on the chart's x axis (clamped to the chart: never a
    negative month, never past the horizon). Interpolated on the daily curves, so the hours axis reads the totals
    at that hour of work."""
    xs = axis_x(r, by_months)
    x = min(max(x, 0.0), float(xs[-1]))
    return [float(np.interp(x, xs, r.own_curve))] + [float(np.interp(x, xs, o.curve)) for o in r.offers]
