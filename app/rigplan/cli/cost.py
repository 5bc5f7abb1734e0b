"""`rigplan cost`: owning vs renting, from a build file or a quick estimate, by the day or by the job."""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from typing import Any

from rigplan.cli.assumption_flags import add_assumption_flags, apply_assumption_flags
from rigplan.cli.main import UsageError
from rigplan.cli.output import json_text, table
from rigplan.exports.plan import unpriced_other
from rigplan.model.assumptions import Pricing
from rigplan.model.common import MAX_AMOUNT
from rigplan.wording import BreakEven, at_least, least, money


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


def _pick_offer(catalog: Any, name: str, region: str | None, pricing: Pricing, hourly: float | None) -> Any:
    if catalog.get(name):
        return catalog.get(name)
    hits = catalog.find(instance=name, region=region)
    if not hits:
        where = f" in {region}" if region else ""
        raise UsageError(f"unknown instance {name!r}{where}; see 'rigplan instances list'")

    def rank(o: Any) -> tuple:
        priced = hourly is not None or o.hourly(pricing) is not None
        # a flagged odd price (no second source) is never the default pick; an explicit offer id still gets it
        odd = o.odd_price is not None
        return (not priced, odd, o.snapshot != "current", o.region != "us-east-1", o.hourly(pricing) or math.inf)

    return sorted(hits, key=rank)[0]


def _r(v: float | None, nd: int = 2) -> float | None:
    """Rounded, and never NaN or infinity in the JSON (a non-finite value here is a bug, not an answer)."""
    if v is None:
        return None
    if not math.isfinite(v):
        raise ValueError(f"internal: non-finite figure {v}")
    return round(v, nd) + 0.0  # + 0.0: no "-0.0" in the output


def cmd_cost(ns: argparse.Namespace) -> int:
    from rigplan.costs.analysis import cost_build, perf_for
    from rigplan.costs.jobs import job_defined, jobs
    from rigplan.costs.model import compute

    build, a, k, warnings = _build_and_assumptions(ns)
    perf = perf_for(a)
    costing = cost_build(build, perf)
    own = _own_inputs(ns, a, k, costing.own)
    offers, inputs = _offers(ns, a, perf, own, costing.throughput_kind)
    report = compute(own, inputs, a)
    job_results = {j.id: j for j in jobs(own, inputs, a)}
    # A quick estimate has no parts: the build's power notes ("no PSU chosen") would only confuse.
    notes = warnings + (list(costing.notes) if ns.build else []) + report.notes
    notes += [  # a dated price converts at its own date's rate: the table says which
        f"{i.id}: converted at {a.currency} {i.fx_per_usd:g} per USD ({i.fx_basis})"
        for i in inputs
        if i.fx_per_usd is not None and i.fx_basis != k.basis
    ]
    results = _results(offers, inputs, report, job_results)
    for w in warnings:
        print(f"rigplan: warning: {w}", file=sys.stderr)
    if ns.json:
        out = _json_out(build, a, k, own, costing, report, results, notes)
        sys.stdout.write(json_text(out) + "\n")
        return 0
    other = unpriced_other(build, report.unpriced)  # "2 parts and 1 other item without a price" (issue 29)
    _print_text(build.name, a, own, report, results, notes, job_defined(a), other)
    _print_speeds(own, costing)
    return 0


def _build_and_assumptions(ns: argparse.Namespace) -> tuple[Any, Any, Any, list[str]]:
    """The build (a file, or a quick estimate from --build-cost) with the flags' assumptions; the rate; warnings."""
    from rigplan.costs.fx import NoRate, electricity_price, rate_for
    from rigplan.files import load
    from rigplan.model.build import Build

    if not ns.build and ns.build_cost is None:
        raise UsageError("give a BUILD file or --build-cost")
    build = load(ns.build) if ns.build else Build(name="quick estimate")
    try:
        a = apply_assumption_flags(ns, build.assumptions)
        k = rate_for(a)
        electricity_price(a)  # refused here, in one line, if the flags leave no price
    except (ValueError, NoRate) as exc:
        raise UsageError(str(exc)) from None
    warnings: list[str] = []
    if not ns.build and a.load_watts is None:
        warnings.append(
            "--build-cost without --load-watts: electricity counted at 0 W (load and idle); give --load-watts and "
            "--idle-watts for the running cost"
        )
    return build.model_copy(update={"assumptions": a}), a, k, warnings


def _own_inputs(ns: argparse.Namespace, a: Any, k: Any, own: Any) -> Any:
    """What owning costs: the build's, or --build-cost and the watts given for a quick estimate."""
    from rigplan.costs.model import OwnInputs

    if ns.build_cost is not None:
        own = OwnInputs(ns.build_cost / k.per_usd, own.load_wall_w, own.idle_wall_w, own.throughput, ())
    if not ns.build:
        own = replace(own, load_wall_w=a.load_watts or 0.0, idle_wall_w=a.idle_watts or 0.0)
    return own


def _offers(ns: argparse.Namespace, a: Any, perf: Any, own: Any, own_kind: str) -> tuple[list[Any], list[Any]]:
    """The --instance offers from the offers in use (bundled, or the user's updated prices) and their inputs."""
    from rigplan.cloud.store import offers_in_use
    from rigplan.costs.analysis import CostInputError, offer_input

    catalog = offers_in_use()
    if catalog.problem and not len(catalog):
        raise UsageError(catalog.problem)
    offers = [_pick_offer(catalog, name, ns.region, a.pricing, ns.hourly) for name in ns.instance]
    try:
        inputs = [offer_input(o, a, perf, own.throughput, hourly=ns.hourly, own_kind=own_kind) for o in offers]
    except CostInputError as exc:
        raise UsageError(str(exc)) from None
    return offers, inputs


def _results(offers: list[Any], inputs: list[Any], report: Any, job_results: dict[str, Any]) -> list[dict[str, Any]]:
    by_id = {o.id: o for o in offers}
    fx = {i.id: {"per_usd": _r(i.fx_per_usd, 6), "basis": i.fx_basis} for i in inputs}
    kinds = {i.id: i.speedup_kind for i in inputs}
    results = [_result(by_id[r.id], r, job_results.get(r.id)) for r in report.offers]
    results += [_unknown(by_id[u.id], u, job_results.get(u.id)) for u in report.speed_unknown]
    for r in results:
        r["exchange_rate"] = fx[r["offer_id"]]
        r["speedup_kind"] = kinds[r["offer_id"]]
    return results


def _json_out(
    build: Any, a: Any, k: Any, own: Any, costing: Any, report: Any, results: list, notes: list
) -> dict[str, Any]:
    from rigplan.costs.fx import electricity_price
    from rigplan.costs.jobs import job_defined

    kwh, kwh_basis = electricity_price(a)
    return {
        "currency": a.currency,
        "exchange_rate": {"per_usd": k.per_usd, "basis": k.basis},
        "build_cost": _r(report.upfront),
        # Issue 19: build_cost is a lower bound when parts have no price; these say which.
        "build_cost_is_lower_bound": bool(report.unpriced),
        "unpriced_parts": list(report.unpriced),
        # Issue 29: the Other items counted in build_cost (never resold: docs/cost-model.md)
        "other_items": [o.to_json() for o in build.other],
        "other_items_cost": _r(own.not_resold_usd * k.per_usd),
        "assumptions": {
            **a.model_dump(mode="json"),
            "load_wall_watts": _r(own.load_wall_w, 1),
            "idle_wall_watts": _r(own.idle_wall_w, 1),
            "horizon_days": int(report.days[-1]),
            "desktop_throughput_v100": _r(own.throughput, 3),
            "desktop_throughput_basis": costing.throughput_basis,
            "desktop_throughput_kind": costing.throughput_kind,
            "electricity_per_kwh_used": _r(kwh, 6),
            "electricity_basis": kwh_basis,
            "resale_share": _r(report.resale_share, 4),
            "resale_basis": report.resale_basis,
        },
        "gpu_speeds": [_gpu_speed(g, s) for g, s in costing.gpu_speeds],
        "own_cost_at_horizon": {k2: _r(v) for k2, v in report.own_breakdown.items()},
        "own_work_per_money": _r(report.own_work_per_money, 4),
        "work_unit": "V100-hours of training per unit of currency (1 V100-hour is about 3.0 million ResNet-50 images)",
        "job_mode": job_defined(a),
        "results": results,
        "notes": notes,
    }


def _gpu_speed(gpu: str, s: Any) -> dict[str, Any]:
    return {
        "gpu": gpu,
        "speed_v100": None if s is None else _r(s.value, 3),
        "kind": s.kind if s else "unknown",
        "basis": s.basis if s else "no measurement and no specs",
    }


def _print_speeds(own: Any, costing: Any) -> None:
    speeds = ", ".join(
        f"{g}: {'unknown' if sp is None else f'{sp.value:.2f} ({sp.kind})'}" for g, sp in costing.gpu_speeds
    )
    if speeds:
        total = "unknown" if own.throughput is None else f"{own.throughput:.2f}"
        print(f"Desktop speed: {total} V100-equivalents ({costing.throughput_basis}); per card: {speeds}.")


def _job(j: Any) -> dict[str, Any] | None:
    if j is None:
        return None
    return {
        "instance_hours": _r(j.instance_hours),
        "cloud_cost": _r(j.cloud_cost),
        "own_hours": _r(j.own_hours),
        "own_cost": _r(j.own_cost),
        "jobs_to_win": j.jobs_to_win,
        "jobs_to_win_with_resale": j.jobs_to_win_with_resale,
        "years_to_win": _r(j.years_to_win),
        "status": j.status,
    }


def _common(o: Any, pricing: Pricing, hourly: float, basis: str) -> dict[str, Any]:
    return {
        "instance": o.instance_type,
        "offer_id": o.id,
        "provider": o.provider,
        "region": o.region,
        "gpus": f"{o.gpu_count}x {o.gpu_model}" if o.gpu_model else None,
        "price_date": o.date_text,
        "pricing": pricing.value,
        "hourly": _r(hourly, 6),
        "speedup_basis": basis,
        "quirks": list(o.quirks),
    }


def _result(o: Any, r: Any, j: Any) -> dict[str, Any]:
    return {
        **_common(o, r.pricing, r.hourly, r.speedup_basis),
        "speedup": _r(r.speedup, 4),
        "breakeven_hours": _r(r.breakeven_hours),
        "breakeven_days": _r(r.breakeven_days),
        "breakeven_instance_hours": None if r.breakeven_hours is None else _r(r.breakeven_hours * r.speedup),
        "breakeven_status": r.status,
        "cost_at_horizon": {k: _r(v) for k, v in r.cost_at_horizon.items()},
        "work_per_money": _r(r.work_per_money, 4),
        "job": _job(j),
    }


def _unknown(o: Any, u: Any, j: Any) -> dict[str, Any]:
    return {
        **_common(o, u.pricing, u.hourly, u.speedup_basis),
        "speedup": None,
        "breakeven_hours": None,
        "breakeven_days": None,
        "breakeven_instance_hours": _r(u.breakeven_instance_hours),
        "breakeven_status": BreakEven.SPEED_UNKNOWN,
        "cost_at_horizon": None,
        "work_per_money": None,
        "job": _job(j),
    }


def _estimate_mark(r: dict[str, Any]) -> str:
    return " (estimate)" if r.get("speedup_kind") == "estimate" else ""


def _print_text(
    name: str, a: Any, own: Any, report: Any, results: list, notes: list, job_mode: bool, other: int = 0
) -> None:
    from rigplan.costs.fx import electricity_price

    cur = a.currency
    n = len(report.unpriced)  # issue 19: parts without a price make the owning figures lower bounds
    print(
        f"{name}: {at_least(money(cur, report.upfront), n, other)} up front, {money(cur, report.own_slope_per_day)} "
        "per day to run "
        f"({a.hours_per_day:g} h/day at {own.load_wall_w:.0f} W, {a.idle_hours_per_day:g} h idle at "
        f"{own.idle_wall_w:.0f} W, {money(cur, electricity_price(a)[0], 3)}/kWh); horizon {a.horizon_years:g} years; "
        f"{report.fx_basis}."
    )
    rows = [_row(r, cur, report.upfront, job_mode) for r in results]
    head = ["Offer", "Pricing", f"{cur}/h", "Speed ratio", "Break-even", "Rent at horizon"]
    print(table(rows, head + (["Jobs"] if job_mode else [])))
    print(
        f"Owning at the horizon: {least(n)}{money(cur, report.own_breakdown['total'], 0)} after resale of "
        f"{report.resale_share:.0%} ({report.resale_basis.split(' (')[0]})."
    )
    if any(r.get("speedup_kind") == "estimate" for r in results):
        print("Speed ratios marked (estimate) rest on at least one estimated GPU speed: see speedup_basis (--json).")
    for note in notes:
        print(f"note: {note}")


def _row(r: dict[str, Any], cur: str, upfront: float, job_mode: bool) -> list[str]:
    """One offer's row of the text table."""
    status = BreakEven(r["breakeven_status"])
    if status is BreakEven.SPEED_UNKNOWN:
        be = f"{status.words}: {money(cur, upfront, 0)} rents {r['breakeven_instance_hours']:,.0f} instance h"
    elif status is BreakEven.BREAKS_EVEN:
        be = f"{r['breakeven_days']:,.0f} days ({r['breakeven_hours']:,.0f} h)"
    else:
        be = status.words
    row = [
        r["offer_id"],
        r["pricing"],
        f"{r['hourly']:,.3f}",
        "unknown" if r["speedup"] is None else f"{r['speedup']:.2f}" + _estimate_mark(r),
        be,
        "-" if r["cost_at_horizon"] is None else money(cur, r["cost_at_horizon"]["total"], 0),
    ]
    if job_mode:
        j = r["job"]
        row.append(
            f"{money(cur, j['cloud_cost'], 0)}/job; owning wins after {j['jobs_to_win']} jobs"
            if j and j["jobs_to_win"]
            else ("never" if j and j["status"] == "never" else "unknown")
        )
    return row


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cost",
        help="when does owning beat renting the same work?",
        description="Owning a build vs renting the same work, by the day or by the job (docs/cost-model.md).",
    )
    p.add_argument("build", nargs="?", help="a .rigplan build (parts cost, watts, GPUs)")
    p.add_argument("--build-cost", type=_positive("--build-cost"), help="parts cost, in the chosen currency")
    p.add_argument(
        "--instance",
        action="append",
        required=True,
        metavar="TYPE",
        help="instance type (e.g. p3.2xlarge) or offer id; repeatable",
    )
    p.add_argument("--region", help="region of the instances (default: us-east-1 when offered)")
    p.add_argument("--hourly", type=_positive("--hourly", allow_zero=False), help="override the instance's USD/h")
    p.add_argument("--json", action="store_true")
    add_assumption_flags(p)
    p.set_defaults(func=cmd_cost)
