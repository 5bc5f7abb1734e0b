"""`rigplan cost`: owning vs renting, from a build file or a quick estimate."""

from __future__ import annotations

import argparse
import math
from typing import Any

from rigplan.cli.main import UsageError
from rigplan.cli.output import print_json, table
from rigplan.model.assumptions import Assumptions, Pricing
from rigplan.model.common import MAX_AMOUNT

MAX_WALL_WATTS = 100_000  # ten of the largest PSUs (rigplan.model.parts.MAX_WATTS) at the wall


def _positive(name: str, allow_zero: bool = True, upper: float = MAX_AMOUNT):  # noqa: ANN202 - argparse type
    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number, not {text!r}") from None
        if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
            raise argparse.ArgumentTypeError(
                f"{name} must be a finite number {'>= 0' if allow_zero else '> 0'}, not {text}"
            )
        if v > upper:  # bounds keep every sum finite (docs/reliability.md): never "inf" or "nan" in the output
            raise argparse.ArgumentTypeError(f"{name} must be at most {upper:,.0f}, not {text}")
        return v

    return parse


def _assumptions(ns: argparse.Namespace, base: Assumptions) -> Assumptions:
    upd: dict[str, Any] = {}
    if ns.hours_per_day is not None:
        if ns.hours_per_day > 24:
            raise UsageError("--hours-per-day must be at most 24")
        upd["hours_per_day"] = ns.hours_per_day
    if ns.idle_hours is not None:
        upd["idle_hours_per_day"] = ns.idle_hours
    hours = upd.get("hours_per_day", base.hours_per_day)
    idle = upd.get("idle_hours_per_day", base.idle_hours_per_day)
    if hours + idle > 24:
        if ns.idle_hours is not None:
            raise UsageError(f"{hours:g} hours at load plus {idle:g} idle hours exceed 24 per day")
        upd["idle_hours_per_day"] = 24 - hours  # the default idle hours give way to the hours asked for
    if ns.electricity is not None:
        upd["electricity_per_kwh"] = ns.electricity
    if ns.currency:
        if ns.rate is None and ns.currency.upper() != "USD":
            raise UsageError("--currency needs --rate (units of that currency per US dollar)")
        upd["currency"] = ns.currency
    if ns.rate is not None:
        upd["usd_rate"] = ns.rate
    if ns.pricing:
        upd["pricing"] = Pricing(ns.pricing)
    if ns.horizon is not None:
        upd["horizon_years"] = ns.horizon
    if ns.resale is not None:
        upd["resale_fraction"] = ns.resale
    if ns.speedup is not None:
        upd["speedup"] = ns.speedup
    try:
        return Assumptions.model_validate({**base.model_dump(), **upd})
    except ValueError as exc:
        first = str(exc).splitlines()
        raise UsageError(" ".join(first[1:3]).strip() or str(exc)) from None


def _pick_offer(catalog: Any, name: str, region: str | None, pricing: Pricing, hourly: float | None) -> Any:
    if catalog.get(name):
        return catalog.get(name)
    hits = catalog.find(instance=name, region=region)
    if not hits:
        where = f" in {region}" if region else ""
        raise UsageError(f"unknown instance {name!r}{where}; see 'rigplan instances list'")

    def rank(o: Any) -> tuple:
        priced = hourly is not None or o.hourly(pricing) is not None
        return (not priced, o.snapshot != "current", o.region != "us-east-1", o.hourly(pricing) or math.inf)

    return sorted(hits, key=rank)[0]


def cmd_cost(ns: argparse.Namespace) -> int:
    from rigplan.costs.analysis import CostInputError, cost_build, offer_input
    from rigplan.costs.model import OwnInputs, compute
    from rigplan.costs.offers import load_offers
    from rigplan.costs.perf import load_perf
    from rigplan.files import load
    from rigplan.model.build import Build

    if not ns.build and ns.build_cost is None:
        raise UsageError("give a BUILD file or --build-cost")
    build = load(ns.build) if ns.build else Build(name="quick estimate")
    a = _assumptions(ns, build.assumptions)
    build = build.model_copy(update={"assumptions": a})
    perf = load_perf()
    costing = cost_build(build, perf)
    own = costing.own
    if ns.build_cost is not None:
        own = OwnInputs(ns.build_cost / a.usd_rate, own.load_wall_w, own.idle_wall_w, own.throughput, ())
    if ns.load_watts is not None or not ns.build:
        own = OwnInputs(own.parts_usd, ns.load_watts or 0.0, ns.idle_watts or 0.0, own.throughput, own.unpriced)
    elif ns.idle_watts is not None:
        own = OwnInputs(own.parts_usd, own.load_wall_w, ns.idle_watts, own.throughput, own.unpriced)
    catalog = load_offers()
    if catalog.problem and not len(catalog):
        raise UsageError(catalog.problem)
    offers = [_pick_offer(catalog, name, ns.region, a.pricing, ns.hourly) for name in ns.instance]
    try:
        inputs = [offer_input(o, a, perf, own.throughput, hourly=ns.hourly, speedup=ns.speedup) for o in offers]
    except CostInputError as exc:
        raise UsageError(str(exc)) from None
    report = compute(own, inputs, a)
    # A quick estimate has no parts: the build's power notes ("no PSU chosen") would only confuse.
    notes = (list(costing.notes) if ns.build else []) + report.notes
    by_id = {o.id: o for o in offers}
    results = []
    for r in report.offers:
        o = by_id[r.id]
        results.append(
            {
                "instance": o.instance_type,
                "offer_id": o.id,
                "provider": o.provider,
                "region": o.region,
                "gpus": f"{o.gpu_count}x {o.gpu_model}" if o.gpu_model else None,
                "price_date": o.date_text,
                "pricing": r.pricing.value,
                "hourly": round(r.hourly, 6),
                "speedup": round(r.speedup, 4),
                "speedup_basis": r.speedup_basis,
                "breakeven_hours": None if r.breakeven_hours is None else round(r.breakeven_hours, 2),
                "breakeven_days": None if r.breakeven_days is None else round(r.breakeven_days, 2),
                "breakeven_status": r.status,
                "cost_at_horizon": {k: round(v, 2) for k, v in r.cost_at_horizon.items()},
                "work_per_dollar": None if r.work_per_money is None else round(r.work_per_money, 4),
                "quirks": list(o.quirks),
            }
        )
    out = {
        "currency": a.currency,
        "build_cost": round(report.upfront, 2),
        "assumptions": {
            **a.model_dump(mode="json"),
            "load_wall_watts": round(own.load_wall_w, 1),
            "idle_wall_watts": round(own.idle_wall_w, 1),
            "horizon_days": int(report.days[-1]),
            "desktop_throughput_v100": None if own.throughput is None else round(own.throughput, 3),
        },
        "own_cost_at_horizon": {k: round(v, 2) for k, v in report.own_breakdown.items()},
        "own_work_per_dollar": None if report.own_work_per_money is None else round(report.own_work_per_money, 4),
        "work_unit": "V100-hours of training per unit of currency (1 V100-hour is about 3.0 million ResNet-50 images)",
        "results": results,
        "notes": notes,
    }
    if ns.json:
        print_json(out)
        return 0
    print(
        f"{build.name}: {a.currency} {report.upfront:,.2f} up front, {report.own_slope_per_day:,.2f} per day to run "
        f"({a.hours_per_day:g} h/day at {own.load_wall_w:.0f} W, {a.idle_hours_per_day:g} h idle at "
        f"{own.idle_wall_w:.0f} W, {a.electricity_per_kwh:g}/kWh); horizon {a.horizon_years:g} years."
    )
    rows = []
    for r in results:
        be = (
            "never"
            if r["breakeven_days"] is None
            else f"{r['breakeven_days']:,.0f} days ({r['breakeven_hours']:,.0f} h)"
        )
        rows.append(
            [
                r["offer_id"],
                r["pricing"],
                f"{r['hourly']:,.3f}",
                f"{r['speedup']:.2f}",
                be,
                f"{r['cost_at_horizon']['total']:,.0f}",
            ]
        )
    print(table(rows, ["Offer", "Pricing", f"{a.currency}/h", "Speedup", "Break-even", "Rent at horizon"]))
    print(f"Owning at the horizon: {report.own_breakdown['total']:,.0f} {a.currency} (after resale).")
    for n in notes:
        print(f"note: {n}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cost", help="when does owning beat renting the same work?")
    p.add_argument("build", nargs="?", help="a .rigplan.yaml build (parts cost, watts, GPUs)")
    p.add_argument("--build-cost", type=_positive("--build-cost"), help="parts cost, in the chosen currency")
    p.add_argument(
        "--load-watts", type=_positive("--load-watts", upper=MAX_WALL_WATTS), help="watts at the wall under load"
    )
    p.add_argument(
        "--idle-watts", type=_positive("--idle-watts", upper=MAX_WALL_WATTS), help="watts at the wall when idle"
    )
    p.add_argument(
        "--instance",
        action="append",
        required=True,
        metavar="TYPE",
        help="instance type (e.g. p3.2xlarge) or offer id; repeatable",
    )
    p.add_argument("--region", help="region of the instances (default: us-east-1 when offered)")
    p.add_argument("--pricing", choices=[x.value for x in Pricing])
    p.add_argument("--hourly", type=_positive("--hourly", allow_zero=False), help="override the instance's USD/h")
    p.add_argument(
        "--speedup", type=_positive("--speedup", allow_zero=False), help="desktop throughput / instance throughput"
    )
    p.add_argument("--hours-per-day", type=_positive("--hours-per-day"), help="hours of work per day")
    p.add_argument("--idle-hours", type=_positive("--idle-hours"), help="hours per day powered on but idle")
    p.add_argument("--electricity", type=_positive("--electricity"), help="price per kWh, in the chosen currency")
    p.add_argument("--currency", help="ISO code of the currency to report in")
    p.add_argument("--rate", type=_positive("--rate", allow_zero=False), help="units of --currency per US dollar")
    p.add_argument("--horizon", type=_positive("--horizon", allow_zero=False), help="years")
    p.add_argument("--resale", type=_positive("--resale"), help="resale value at the horizon, fraction of parts cost")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_cost)
