"""What the Costs tab writes about a cost report: the summary line, the break-even cells and the totals at a point
of the chart's x axis (plain functions over rigplan.costs.model.CostReport, no widgets)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rigplan.costs.model import CostReport
from rigplan.costs.offers import OfferCatalog
from rigplan.gui.chart_style import DAYS_PER_MONTH
from rigplan.gui.offers_model import provider_name
from rigplan.model.build import ChartOffer


def short_names(offers: OfferCatalog, drawn: list[ChartOffer]) -> list[str]:
    """ "AWS g5.xlarge" per drawn offer, with the pricing added when an instance is there twice."""
    out = []
    for c in drawn:
        o = offers.get(c.offer)
        out.append(f"{provider_name(o.provider)} {o.instance_type}" if o else c.offer)
    return [f"{n} {c.pricing.value}" if out.count(n) > 1 else n for n, c in zip(out, drawn, strict=True)]


def summary_html(r: CostReport, names: list[str], money: Callable[[float], str], horizon_years: float) -> str:
    bits = [
        f"Owning: <b>{money(r.upfront)}</b> up front, {money(r.own_slope_per_day)} a day to run; "
        f"{money(r.own_breakdown['total'])} after {horizon_years:g} years and resale."
    ]
    best = [(o.breakeven_days, n) for n, o in zip(names, r.offers, strict=True) if o.breakeven_days]
    if best:
        days, name = min(best)
        bits.append(f"Earliest break-even: <b>{days / DAYS_PER_MONTH:.1f} months</b> against {name}.")
    elif r.offers:
        bits.append("No offer on the chart breaks even within the horizon.")
    else:
        bits.append("Tick offers in the table below to compare.")
    text = " ".join(bits)
    return text + ("<br><i>" + "; ".join(r.notes) + "</i>" if r.notes else "")


def breakeven_cells(r: CostReport, by_months: bool) -> list[str]:
    """One cell per offer of the report: when owning becomes cheaper, on the chart's x axis."""
    out = []
    for o in r.offers:
        if o.status == "from-day-one":
            out.append("day one")
        elif o.breakeven_days is None:
            out.append("never")
        elif by_months:
            out.append(f"{o.breakeven_days / DAYS_PER_MONTH:,.1f} mo")
        else:
            out.append(f"{o.breakeven_hours:,.0f} h")
    return out


def axis_x(r: CostReport, by_months: bool) -> np.ndarray:
    return r.days / DAYS_PER_MONTH if by_months else r.hours


def totals_at(r: CostReport, by_months: bool, x: float) -> list[float]:
    """Cumulative cost of owning, then of each offer, at x on the chart's x axis (clamped to the chart: never a
    negative month, never past the horizon). Interpolated on the daily curves, so the hours axis reads the totals
    at that hour of work."""
    xs = axis_x(r, by_months)
    x = min(max(x, 0.0), float(xs[-1]))
    return [float(np.interp(x, xs, r.own_curve))] + [float(np.interp(x, xs, o.curve)) for o in r.offers]
