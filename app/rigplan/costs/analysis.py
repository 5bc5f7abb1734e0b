"""From a build and chosen offers to a CostReport: parts cost, wall watts, speed ratios, sensitivity."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rigplan.costs.fx import Rate, convert, electricity_price, rate_for_date
from rigplan.costs.model import (
    CostReport,
    OfferInput,
    OwnInputs,
    breakeven,
    cloud_slope,
    compute,
    horizon_days,
    own_terms,
)
from rigplan.costs.perf import PerfTable, Speed, gpu_speed, load_perf, multi_gpu, offer_speed
from rigplan.model.assumptions import Assumptions, Pricing
from rigplan.model.build import Build
from rigplan.model.common import Price
from rigplan.model.offers import Offer
from rigplan.model.other import POWERED, PSU_FED
from rigplan.model.parts import Gpu, Kind
from rigplan.rules.power import estimate_power


class CostInputError(ValueError):
    """A value the cost model cannot use (no price for that pricing, unknown instance...): one line for the user."""


@dataclass(frozen=True)
class BuildCosting:
    own: OwnInputs
    gpu_speeds: tuple[tuple[str, Speed | None], ...]
    notes: tuple[str, ...]
    throughput_basis: str = ""
    throughput_kind: str = "unknown"  # "measured", "estimate" (any card estimated), "unknown"


def perf_for(a: Assumptions, perf: PerfTable | None = None) -> PerfTable:
    """The speed table of the assumptions' precision and workload (the one given, if it matches)."""
    if perf is not None and perf.precision == a.precision.value and perf.workload == a.workload.value:
        return perf
    return load_perf(precision=a.precision.value, workload=a.workload.value)


def _to_usd(price: Price, a: Assumptions) -> float | None:
    """A price in USD: the user's own rate for their own currency, else the reference rates (never relabelled)."""
    if price.currency == a.currency and a.fx_rate is not None:
        return price.amount / a.fx_rate  # the user's own rate applies to their own prices
    return convert(price.amount, price.currency, Rate("USD", 1.0, "prices are in USD"))


def parts_cost_usd(build: Build, a: Assumptions) -> tuple[float, tuple[str, ...], list[str]]:
    """Parts cost in USD, Other items included (the model converts to the report currency once); prices in other
    currencies go through the reference rates, never relabelled."""
    total, unpriced, notes = 0.0, [], []
    for _, name, quantity, price in build.priced_lines():
        if price is None:
            unpriced.append(name)
            continue
        amount = _to_usd(price, a)
        if amount is None:
            unpriced.append(name)
            notes.append(f"{name}: no exchange rate for {price.currency}; give its price in USD")
            continue
        total += amount * quantity
    return total, tuple(unpriced), notes


def other_items_usd(build: Build, a: Assumptions) -> float:
    """What the Other items cost, in USD: counted in the parts cost, never resold (docs/cost-model.md)."""
    priced = ((o.price, o.quantity) for o in build.other if o.price is not None)
    return sum((usd * n for p, n in priced if (usd := _to_usd(p, a)) is not None), 0.0)


def other_items_watts(build: Build) -> tuple[float, list[str]]:
    """The wall watts the Other items add while the machine is on (at work and idle), and a note for each whose
    power is not given: not counted, never taken as 0 W silently. Case fans are fed by the PSU: the power estimate
    counts them (rules/power.py other_fan_lines, through the PSU's efficiency), so they are not added here again."""
    wall = [o for o in build.other if o.category not in PSU_FED]
    watts = sum(o.watts * o.quantity for o in wall if o.watts is not None)
    unknown = [o.name for o in wall if o.watts is None and o.category in POWERED]
    notes = [f"no power given for {', '.join(unknown)}: not counted in the electricity cost"] if unknown else []
    return watts, notes


def desktop_throughput(
    build: Build, perf: PerfTable, a: Assumptions
) -> tuple[float | None, list[tuple[str, Speed | None]], str]:
    speeds: list[tuple[str, Speed | None]] = []
    per_card: list[tuple[float, Speed]] = []
    for item in build.of_kind(Kind.GPU):
        gpu = item.part
        assert isinstance(gpu, Gpu)
        s = gpu_speed(perf, gpu)
        speeds.append((gpu.name, s))
        if s is None:
            return None, speeds, f"no speed figure for {gpu.chipset or gpu.name}: unknown"
        per_card += [(s.value, s)] * item.quantity
    if not per_card:
        return None, speeds, "no GPU in the build"
    n = len(per_card)
    mean = sum(v for v, _ in per_card) / n
    # Mixed cards: the first card's scaling stands for all (they share one PCIe host either way).
    factor, how = multi_gpu(perf, per_card[0][1], n, a.scaling_desktop)
    return mean * factor, speeds, f"{perf.precision}, {perf.workload_label}" + (f", {how}" if how else "")


def side_kind(speeds: list[Speed | None]) -> str:
    """'measured' when every speed on a side is measured, 'estimate' when any is estimated, else 'unknown'."""
    if not speeds or any(s is None for s in speeds):
        return "unknown"
    return "estimate" if any(s.kind == "estimate" for s in speeds if s) else "measured"


def cost_build(build: Build, perf: PerfTable | None = None) -> BuildCosting:
    a = build.assumptions
    perf = perf_for(a, perf)
    usd, unpriced, notes = parts_cost_usd(build, a)
    power = estimate_power(build)
    extra_w, power_notes = other_items_watts(build)
    if build.other:
        n = sum(o.quantity for o in build.other)
        notes.append(
            f"the parts cost includes {n} Other item{'s' if n != 1 else ''} "
            f"({', '.join(dict.fromkeys(o.label for o in build.other))}), never resold at the horizon"
            + (f"; they add {extra_w:,.0f} W at the wall" if extra_w else "")
        )
    notes += power_notes
    if extra_w and (a.load_watts is not None or a.idle_watts is not None):
        notes.append(f"your wall watts are used as given: the Other items' {extra_w:,.0f} W are not added to them")
    load_w = a.load_watts if a.load_watts is not None else power.wall_load_w + extra_w
    idle_w = a.idle_watts if a.idle_watts is not None else power.wall_idle_w + extra_w
    throughput, speeds, basis = desktop_throughput(build, perf, a)
    own = OwnInputs(usd, load_w, idle_w, throughput, unpriced, not_resold_usd=other_items_usd(build, a))
    kind = side_kind([s for _, s in speeds])
    return BuildCosting(own, tuple(speeds), tuple(notes) + power.notes, basis, kind)


def offer_input(
    offer: Offer,
    a: Assumptions,
    perf: PerfTable | None,
    own_throughput: float | None,
    *,
    pricing: Pricing | None = None,
    hourly: float | None = None,
    speedup: float | None = None,
    own_kind: str = "measured",
    own_label: str = "desktop",
) -> OfferInput:
    """One offer against the desktop. The speed basis names both sides and says "estimate" when either side is one
    (the desktop's kind comes from cost_build: `own_kind`)."""
    perf = perf_for(a, perf)
    pricing = pricing or a.pricing
    rate = hourly if hourly is not None else offer.hourly(pricing)
    if rate is None:
        raise CostInputError(f"{offer.id} has no {pricing.value} price; choose another pricing or give --hourly")
    s = offer_speed(perf, offer)
    inst, how = None, ""
    if s is not None:
        factor, how = multi_gpu(perf, s, offer.gpu_count, a.scaling_cloud, offer.instance_type)
        inst = s.value * factor
    ratio: float | None
    kind = "set by the user"
    if speedup is not None or a.speedup is not None:
        ratio, basis = float(speedup if speedup is not None else a.speedup), "set by the user"  # type: ignore[arg-type]
    elif own_throughput and inst and s is not None:
        ratio = own_throughput / inst
        kind = "estimate" if "estimate" in (own_kind, s.kind) else "measured"
        inst_side = f"{offer.gpu_count}x {s.model}: {s.kind}" + (f"; {how}" if how else "")
        basis = (
            f"{'ESTIMATE' if kind == 'estimate' else 'measured'}: {own_label} {own_throughput:.2f} ({own_kind}) / "
            f"instance {inst:.2f} ({inst_side}) V100-equivalents; {perf.precision}, {perf.workload_label}"
        )
    else:
        ratio, kind = None, "unknown"
        missing = "the desktop's GPUs" if not own_throughput else (offer.gpu_model or "this instance's GPU")
        basis = f"speed ratio unknown: no measurement or spec for {missing}; enter a ratio to compare by the day"
    upfront = offer.upfront.get(pricing, 0.0) if hourly is None else 0.0
    # A dated price converts at the rate of its date (a 2018 quote at the 2018 rate); --hourly is today's.
    fx = rate_for_date(a, offer.data_date if hourly is None else None)
    return OfferInput(offer.id, offer.label, rate, ratio, pricing, inst, basis, upfront, kind, fx.per_usd, fx.basis)


def analyse(
    build: Build, offers: list[Offer], perf: PerfTable | None = None, pricing: Pricing | None = None
) -> CostReport:
    costing = cost_build(build, perf)
    a = build.assumptions
    inputs = [
        offer_input(o, a, perf, costing.own.throughput, pricing=pricing, own_kind=costing.throughput_kind)
        for o in offers
        if o.hourly(pricing or a.pricing) is not None
    ]
    report = compute(costing.own, inputs, a)
    report.notes.extend(costing.notes)
    skipped = [o.id for o in offers if o.hourly(pricing or a.pricing) is None]
    if skipped:
        report.notes.append(f"no {(pricing or a.pricing).value} price for {', '.join(skipped)}: left out")
    return report


@dataclass(frozen=True)
class SensitivityBar:
    name: str
    low_label: str
    high_label: str
    low_days: float | None  # break-even (days) with the assumption moved down
    high_days: float | None
    base_days: float | None


def sensitivity(own: OwnInputs, offer: OfferInput, a: Assumptions, pct: float = 0.2) -> list[SensitivityBar]:
    """Break-even days with each main assumption moved by -pct and +pct (the data of a tornado chart). An offer with
    an unknown speed ratio has no break-even day to move: no bars."""
    if offer.speedup is None:
        return []
    horizon = horizon_days(a)

    def days(o: OwnInputs, off: OfferInput, asm: Assumptions) -> float | None:
        up, per_day, resale = own_terms(o, asm)
        return breakeven(up, per_day, resale, sum(cloud_slope(off, asm)), horizon)[0]

    base = days(own, offer, a)
    lo, hi = 1 - pct, 1 + pct
    variants = [
        (
            "Parts cost",
            replace(own, parts_usd=own.parts_usd * lo, not_resold_usd=own.not_resold_usd * lo),
            replace(own, parts_usd=own.parts_usd * hi, not_resold_usd=own.not_resold_usd * hi),
            offer,
            offer,
            a,
            a,
        ),
        (
            "Cloud price",
            own,
            own,
            replace(offer, hourly_usd=offer.hourly_usd * lo),
            replace(offer, hourly_usd=offer.hourly_usd * hi),
            a,
            a,
        ),
        (
            "Speed ratio",
            own,
            own,
            replace(offer, speedup=offer.speedup * lo),
            replace(offer, speedup=offer.speedup * hi),
            a,
            a,
        ),
        (
            "Electricity price",
            own,
            own,
            offer,
            offer,
            a.model_copy(update={"electricity_per_kwh": electricity_price(a)[0] * lo}),
            a.model_copy(update={"electricity_per_kwh": electricity_price(a)[0] * hi}),
        ),
        (
            "Hours per day",
            own,
            own,
            offer,
            offer,
            a.model_copy(update={"hours_per_day": a.hours_per_day * lo}),
            a.model_copy(update={"hours_per_day": min(24.0 - a.idle_hours_per_day, a.hours_per_day * hi)}),
        ),
        (
            "Power draw",
            replace(own, load_wall_w=own.load_wall_w * lo, idle_wall_w=own.idle_wall_w * lo),
            replace(own, load_wall_w=own.load_wall_w * hi, idle_wall_w=own.idle_wall_w * hi),
            offer,
            offer,
            a,
            a,
        ),
    ]
    out = []
    for name, o_lo, o_hi, f_lo, f_hi, a_lo, a_hi in variants:
        out.append(
            SensitivityBar(name, f"-{pct:.0%}", f"+{pct:.0%}", days(o_lo, f_lo, a_lo), days(o_hi, f_hi, a_hi), base)
        )
    spread = [(abs((b.high_days or horizon) - (b.low_days or horizon)), b) for b in out]
    return [b for _, b in sorted(spread, key=lambda t: -t[0])]
