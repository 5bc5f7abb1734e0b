"""The cost model: cumulative cost of owning the build vs renting the same work, day by day (numpy).

Formulas, defaults and a worked example: docs/cost-model.md. In short, with h hours of work a day, idle hours i,
electricity price p per kWh, speed ratio s (desktop throughput / instance throughput), k units of the report currency
per USD and day d:

    own(d)   = upfront + d * (P_load * h + P_idle * i) * p            (minus resale at the horizon)
    cloud(d) = d * h * s * rate * k / (1 - overhead if spot)  +  d / 30.4375 * (storage + egress per month) * k

with k here the rate of the offer's price date times (1 + the VAT/tax share on the cloud bill).

A desktop hour at speed ratio s replaces s instance hours. Break-even is the first day cloud(d) >= own(d). An offer
whose speed ratio is unknown gets no curve: only the instance hours its price buys for the cost of the build.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rigplan.costs.commitment import commitment_curve, first_crossing, instances_needed, term_days
from rigplan.costs.fx import electricity_price, rate_for
from rigplan.costs.resale import resale_share
from rigplan.model.assumptions import Assumptions, Pricing
from rigplan.wording import BreakEven

DAYS_PER_MONTH = 365.25 / 12
RESNET50_IMAGES_PER_S = 833.0  # 1x V100 16GB, fp16, Lambda 2025-12-10 set: one reference-GPU-hour = 3.0 M images


@dataclass(frozen=True)
class OwnInputs:
    """What owning costs, in USD and watts, before the assumptions turn it into a curve."""

    parts_usd: float
    load_wall_w: float
    idle_wall_w: float
    throughput: float | None = None  # desktop training throughput, in reference-GPU units (1x V100 = 1)
    unpriced: tuple[str, ...] = ()  # parts with no price: the parts cost is then a lower bound
    # The part of parts_usd that is never resold: the Other items (OS licence, cables, shipping, a monitor kept for
    # the next machine...), docs/cost-model.md "Other items".
    not_resold_usd: float = 0.0


@dataclass(frozen=True)
class OfferInput:
    id: str
    label: str
    hourly_usd: float
    speedup: float | None  # desktop throughput / instance throughput; None: unknown
    pricing: Pricing = Pricing.ON_DEMAND
    throughput: float | None = None  # instance throughput in reference-GPU units
    speedup_basis: str = ""
    upfront_usd: float = 0.0  # per instance and term, for a reserved pricing with an upfront part
    speedup_kind: str = "measured"  # "measured" (both sides), "estimate" (either side), "set by the user", "unknown"
    fx_per_usd: float | None = None  # units of the report currency per USD at the price's date; None: the report's
    fx_basis: str = ""


@dataclass
class OfferResult:
    id: str
    label: str
    pricing: Pricing
    hourly: float  # in the chosen currency
    speedup: float
    curve: np.ndarray
    slope_per_day: float
    breakeven_days: float | None
    breakeven_hours: float | None  # hours of work on the desktop
    status: BreakEven  # never SPEED_UNKNOWN here: that is UnknownSpeedResult
    cost_at_horizon: dict[str, float]
    work_per_money: float | None  # reference-GPU-hours per unit of currency
    speedup_basis: str = ""
    upfront: float = 0.0  # a commitment's payments at the start of its terms (so far: the first), for cost_at
    speedup_kind: str = "measured"


@dataclass
class UnknownSpeedResult:
    """An offer whose speed against the desktop is unknown: no curve, no day; only what its price buys."""

    id: str
    label: str
    pricing: Pricing
    hourly: float  # effective, in the chosen currency (spot overhead included)
    breakeven_instance_hours: float  # instance hours that cost as much as the build up front (electricity aside)
    speedup_basis: str = ""
    status: BreakEven = BreakEven.SPEED_UNKNOWN


@dataclass
class CostReport:
    currency: str
    days: np.ndarray
    hours: np.ndarray  # hours of work done by the desktop at each day
    own_curve: np.ndarray  # cumulative, resale applied on the last day
    own_slope_per_day: float
    upfront: float
    resale: float
    own_breakdown: dict[str, float]
    own_work_per_money: float | None
    offers: list[OfferResult] = field(default_factory=list)
    speed_unknown: list[UnknownSpeedResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    fx_basis: str = ""
    resale_share: float = 0.0
    resale_basis: str = ""
    unpriced: tuple[str, ...] = ()  # parts with no price (issue 19): the totals are then "at least"


def horizon_days(a: Assumptions) -> int:
    return int(round(a.horizon_years * 365))


def own_terms(own: OwnInputs, a: Assumptions) -> tuple[float, float, float]:
    """(upfront, cost per day, resale) in the chosen currency."""
    parts = own.parts_usd * rate_for(a).per_usd
    upfront = parts * (1 + a.tax_fraction) + a.shipping
    per_day = (
        (own.load_wall_w * a.hours_per_day + own.idle_wall_w * a.idle_hours_per_day) / 1000 * electricity_price(a)[0]
    )
    resold = max(own.parts_usd - own.not_resold_usd, 0.0) * rate_for(a).per_usd
    return upfront, per_day, resold * resale_share(a)[0]


def cloud_k(o: OfferInput, a: Assumptions) -> float:
    """Report-currency units per USD of this offer's bill: the rate of its price's date (or the report's), with the
    VAT/tax share on the cloud bill."""
    k = o.fx_per_usd if o.fx_per_usd is not None else rate_for(a).per_usd
    return k * (1 + a.cloud_tax_fraction)


def cloud_slope(o: OfferInput, a: Assumptions) -> tuple[float, float, float]:
    """(compute, storage, egress) cost per day for renting the desktop's daily work (speed ratio known), tax
    included."""
    k = cloud_k(o, a)
    lost = a.spot_overhead if o.pricing is Pricing.SPOT else 0.0  # < 1: the model refuses 1
    compute = a.hours_per_day * (o.speedup or 0.0) * o.hourly_usd * k / (1 - lost)
    storage = a.storage_gb * a.storage_per_gb_month * k / DAYS_PER_MONTH
    egress = a.egress_gb_month * a.egress_per_gb * k / DAYS_PER_MONTH
    return compute, storage, egress


def breakeven(
    upfront: float, own_day: float, resale: float, cloud_day: float, horizon: int
) -> tuple[float | None, BreakEven]:
    """First day the cumulative cloud cost reaches the cost of owning, and how it was reached."""
    gain = cloud_day - own_day
    if upfront <= 0 and gain >= 0:
        return 0.0, BreakEven.FROM_DAY_ONE
    if gain > 0:
        d = upfront / gain
        if d <= horizon:
            return d, BreakEven.BREAKS_EVEN
    if cloud_day * horizon >= upfront + own_day * horizon - resale:
        return float(horizon), BreakEven.AT_HORIZON_WITH_RESALE
    return None, BreakEven.NEVER


def compute(own: OwnInputs, offers: list[OfferInput], a: Assumptions) -> CostReport:
    horizon = horizon_days(a)
    days = np.arange(horizon + 1, dtype=float)
    upfront, own_day, resale = own_terms(own, a)
    k = rate_for(a)
    share, share_basis = resale_share(a)
    own_curve = upfront + own_day * days
    own_curve[-1] -= resale
    report = CostReport(
        currency=a.currency,
        days=days,
        hours=days * a.hours_per_day,
        own_curve=own_curve,
        own_slope_per_day=own_day,
        upfront=upfront,
        resale=resale,
        own_breakdown={
            "parts": own.parts_usd * k.per_usd,
            "tax_and_shipping": upfront - own.parts_usd * k.per_usd,
            "electricity": own_day * horizon,
            "resale": -resale,
            "total": upfront + own_day * horizon - resale,
        },
        own_work_per_money=None,
        fx_basis=f"{k.currency} {k.per_usd:g} per USD ({k.basis})",
        resale_share=share,
        resale_basis=share_basis,
        unpriced=own.unpriced,
    )
    total_own = report.own_breakdown["total"]
    work_hours = a.hours_per_day * horizon
    if own.throughput and total_own > 0:
        report.own_work_per_money = own.throughput * work_hours / total_own
    if own.unpriced:
        report.notes.append(
            f"no price for {', '.join(own.unpriced)}: the parts cost is a lower bound, so break-even comes later"
        )
    for o in offers:
        if o.speedup is None:
            lost = a.spot_overhead if o.pricing is Pricing.SPOT else 0.0
            hourly = o.hourly_usd * cloud_k(o, a) / (1 - lost)
            report.speed_unknown.append(
                UnknownSpeedResult(o.id, o.label, o.pricing, hourly, upfront / hourly, o.speedup_basis)
            )
    offers = [o for o in offers if o.speedup is not None]
    if not offers:
        return report
    slopes = np.array([cloud_slope(o, a) for o in offers])  # (n, 3)
    per_day = slopes.sum(axis=1)
    curves = per_day[:, None] * days[None, :]  # all offers at once
    for o, row, curve, (c_compute, c_storage, c_egress) in zip(offers, per_day, curves, slopes, strict=True):
        d, status = breakeven(upfront, own_day, resale, float(row), horizon)
        lost = a.spot_overhead if o.pricing is Pricing.SPOT else 0.0
        rate = o.hourly_usd * cloud_k(o, a)
        assert o.speedup is not None
        term = term_days(o.pricing)
        if term is not None:
            report.offers.append(_committed(report, o, a, term, rate, (c_storage, c_egress), horizon))
            continue
        report.offers.append(
            OfferResult(
                id=o.id,
                label=o.label,
                pricing=o.pricing,
                hourly=rate,
                speedup=o.speedup,
                curve=curve,
                slope_per_day=float(row),
                breakeven_days=d,
                breakeven_hours=None if d is None else d * a.hours_per_day,
                status=status,
                cost_at_horizon={
                    "compute": c_compute * horizon * (1 - lost),
                    "spot_overhead": c_compute * horizon * lost,
                    "storage": c_storage * horizon,
                    "egress": c_egress * horizon,
                    "total": float(row) * horizon,
                },
                work_per_money=(o.throughput / (rate / (1 - lost))) if o.throughput and rate > 0 else None,
                speedup_basis=o.speedup_basis,
                speedup_kind=o.speedup_kind,
            )
        )
    return report


def _committed(
    report: CostReport,
    o: OfferInput,
    a: Assumptions,
    term: int,
    rate: float,
    extras: tuple[float, float],
    horizon: int,
) -> OfferResult:
    """A reserved pricing: n instances paid around the clock for whole terms (rigplan.costs.commitment)."""
    assert o.speedup is not None
    k = cloud_k(o, a)
    days = report.days
    c_storage, c_egress = extras
    n = instances_needed(a.hours_per_day, o.speedup)
    per_day = n * 24 * rate
    up = n * o.upfront_usd * k
    curve, rest, terms = commitment_curve(days, per_day, up, term)
    curve = curve + (c_storage + c_egress) * days
    d, status = first_crossing(report.own_curve, curve)
    used = a.hours_per_day * o.speedup / (24 * n)
    report.notes.append(
        f"{o.label} {o.pricing.value}: {n} instance(s) committed 24 h a day for {term // 365} year(s) per term, "
        f"paid whether used or not; the desktop's work uses {used:.0%} of the committed hours"
        + (f"; {rest:,.0f} of the last term is still owed at the horizon" if rest > 0 else "")
    )
    return OfferResult(
        id=o.id,
        label=o.label,
        pricing=o.pricing,
        hourly=rate,
        speedup=o.speedup,
        curve=curve,
        slope_per_day=per_day + c_storage + c_egress,
        breakeven_days=d,
        breakeven_hours=None if d is None else d * a.hours_per_day,
        status=status,
        # The chart keys (compute, storage, egress) hold everything; the "of_which_" keys split compute, not add to it.
        cost_at_horizon={
            "compute": per_day * horizon + up * terms + rest,
            "storage": c_storage * horizon,
            "egress": c_egress * horizon,
            "total": float(curve[-1]),
            "of_which_upfront": up * terms,
            "of_which_owed_after_horizon": rest,
        },
        work_per_money=(o.throughput * a.hours_per_day * horizon / float(curve[-1]))
        if o.throughput and curve[-1] > 0
        else None,
        speedup_basis=o.speedup_basis,
        upfront=up,
        speedup_kind=o.speedup_kind,
    )


def cost_at(report: CostReport, offer: OfferResult, day: float) -> tuple[float, float]:
    """Both cumulative costs at a (fractional) day before the horizon: own, cloud."""
    return report.upfront + report.own_slope_per_day * day, offer.upfront + offer.slope_per_day * day
