"""The measured models of issue 27 (ResNet-50, SSD, BERT, GNMT, Tacotron 2, WaveGlow) as workloads: their speed on
the build and on each offer from RigPlan's speed table (parts/gpu_perf.yaml, Lambda's PyTorch training benchmarks),
relative to one V100 SXM2 16 GB = 1.0 in the model's own unit (images/s, sequences/s...), with the model's own
multi-GPU scaling per interconnect. A job is a number of hours on one V100 ("a 10-hour ResNet-50 run on a V100"):
the cost model's job mode (`job_hours`, rigplan.costs.jobs) turns it into hours, electricity, the cloud bill and
break-even in jobs. Memory is not modelled for these: the speed table has no memory figures."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from rigplan.costs.analysis import CostInputError, cost_build, offer_input
from rigplan.costs.fx import electricity_price
from rigplan.costs.jobs import JobResult, jobs
from rigplan.costs.perf import MeasuredWorkload, load_perf, measured_workloads, multi_gpu, offer_speed
from rigplan.model.assumptions import Assumptions, Pricing, Workload
from rigplan.model.build import Build
from rigplan.model.offers import Offer
from rigplan.workload.models import WorkloadError

MEMORY = "not modelled"  # the speed table holds speeds only; a fit verdict here would be a guess
JOB_UNIT = "hours on 1x V100 SXM2 16 GB"


@cache
def measured_models(precision: str = "mixed") -> dict[str, MeasuredWorkload]:
    """Every measured model of the speed table by id ("all", the geometric mean, is not a model)."""
    return {w.id: w for w in measured_workloads(precision) if w.id != Workload.ALL.value}


def is_measured(model: str) -> bool:
    return model.strip().lower() in measured_models()


@dataclass(frozen=True)
class Side:
    """One machine running the measured model: speed in V100-equivalents, and one job's hours and money."""

    label: str
    speed: float | None  # x one V100's rate in the model's unit; None: no measurement for its GPU
    kind: str  # "measured", "estimate" or "unknown"
    basis: str
    hours: float | None  # one job; None without a job size or a speed
    pricing: Pricing | None = None  # offers only
    hourly_usd: float | None = None
    job: JobResult | None = None  # offers: the cost model's job mode
    problem: str | None = None


@dataclass(frozen=True)
class MeasuredComparison:
    workload: MeasuredWorkload
    precision: str
    v100_hours: float | None
    own: Side
    own_electricity: float | None
    currency: str
    offers: list[Side]
    notes: tuple[str, ...]


def measured_workload(model: str, precision: str) -> MeasuredWorkload:
    w = measured_models(precision).get(model.strip().lower())
    if w is None:
        raise WorkloadError(f"{model!r} is not a measured model; measured: {', '.join(measured_models(precision))}")
    return w


def _assumptions(a: Assumptions, w: MeasuredWorkload, v100_hours: float | None) -> Assumptions:
    # the model's own speeds and measured scaling: a user's speed ratio or per-GPU efficiency would override them
    return a.model_copy(
        update={"workload": Workload(w.id), "speedup": None, "scaling_desktop": None, "scaling_cloud": None,
                "job_hours": v100_hours or 1.0, "job_days": None}
    )  # fmt: skip


def _hours(v100_hours: float | None, speed: float | None) -> float | None:
    return v100_hours / speed if v100_hours is not None and speed else None


def on_offer(model: str, offer: Offer, pricing: Pricing, v100_hours: float | None, precision: str) -> Side:
    """The model on one cloud offer by itself (`rigplan workload --instance OFFER --model resnet50`)."""
    w = measured_workload(model, precision)
    perf = load_perf(precision=precision, workload=w.id)
    label = f"{offer.label} ({pricing.value})"
    s = offer_speed(perf, offer)
    if s is None:
        return Side(label, None, "unknown", f"no measurement of {offer.gpu_model or 'this GPU'} for {w.label}",
                    None, pricing, offer.hourly(pricing))  # fmt: skip
    factor, how = multi_gpu(perf, s, offer.gpu_count, instance=offer.instance_type)
    speed = s.value * factor
    basis = f"{offer.gpu_count}x {s.model}: {s.basis}" + (f"; {how}" if how else "")
    return Side(label, speed, s.kind, basis, _hours(v100_hours, speed), pricing, offer.hourly(pricing))


def compare_measured(
    build: Build, model: str, v100_hours: float | None, offers: list[tuple[Offer, Pricing]]
) -> MeasuredComparison:
    """The measured model on the build and on each offer; with `v100_hours`, one job's hours and cost on each."""
    precision = build.assumptions.precision.value
    w = measured_workload(model, precision)
    a = _assumptions(build.assumptions, w, v100_hours)
    b = build.model_copy(update={"assumptions": a})
    costing = cost_build(b)
    own_speed = costing.own.throughput
    cards = "; ".join(f"{name}: {sp.kind} {sp.value:.2f} ({sp.basis})" for name, sp in dict(costing.gpu_speeds).items()
                      if sp is not None)  # fmt: skip
    basis = f"{cards}; {costing.throughput_basis}" if cards else costing.throughput_basis
    own = Side("This build", own_speed, costing.throughput_kind, basis, _hours(v100_hours, own_speed))
    electricity = None
    if own.hours is not None:  # as the cost model's job mode: the build's hours at its wall watts
        electricity = own.hours * costing.own.load_wall_w / 1000 * electricity_price(a)[0]
    results: list[Side] = []
    for offer, pricing in offers:
        side = on_offer(w.id, offer, pricing, v100_hours, precision)  # the offer's own speed, kind and basis
        try:
            inp = offer_input(offer, a, None, own_speed, pricing=pricing, own_kind=costing.throughput_kind)
        except CostInputError as exc:
            results.append(Side(side.label, side.speed, side.kind, side.basis, side.hours, pricing, None, None,
                                str(exc)))  # fmt: skip
            continue
        job = jobs(costing.own, [inp], a)[0] if v100_hours is not None and side.speed else None
        problem = None if side.speed else side.basis
        results.append(Side(side.label, side.speed, side.kind, side.basis, side.hours, pricing, inp.hourly_usd, job,
                            problem))  # fmt: skip
    notes = () if v100_hours is not None else (f"no job size: give one job in {JOB_UNIT} (--hours-on-v100)",)
    return MeasuredComparison(w, precision, v100_hours, own, electricity, a.currency, results,
                              notes + tuple(costing.notes))  # fmt: skip


def r(v: float | None, nd: int = 2) -> float | None:
    return None if v is None else round(v, nd) + 0.0


def side_json(s: Side) -> dict[str, Any]:
    j = s.job
    return {
        "label": s.label,
        "pricing": s.pricing.value if s.pricing else None,
        "hourly_usd": s.hourly_usd,
        "speed_vs_v100": r(s.speed, 3),
        "speed_kind": s.kind,
        "basis": s.basis,
        "hours": r(s.hours, 3),
        "cloud_cost": r(j.cloud_cost) if j else None,
        "jobs_to_break_even": j.jobs_to_win if j else None,
        "jobs_to_break_even_with_resale": j.jobs_to_win_with_resale if j else None,
        "status": j.status if j else None,
        "problem": s.problem,
    }


def workload_json(w: MeasuredWorkload, precision: str, v100_hours: float | None) -> dict[str, Any]:
    return {
        "model": {"id": w.id, "name": w.label, "source": w.source},
        "measured_model": True,
        "unit": w.unit,
        "speed_unit": f"x 1x V100 SXM2 16 GB's {w.unit}",
        "precision": precision,
        "fits": None,
        "memory": MEMORY,
        "memory_gb_per_gpu": None,
        "job_unit": JOB_UNIT,
        "hours_on_v100": v100_hours,
        "scaling": {k: {"exponent": v.exponent, "basis": v.basis} for k, v in w.scaling.items()},
    }


def comparison_json(c: MeasuredComparison) -> dict[str, Any]:
    out = workload_json(c.workload, c.precision, c.v100_hours)
    own = side_json(c.own)
    out.update(
        speed_vs_v100=own["speed_vs_v100"], speed_kind=own["speed_kind"], basis=own["basis"], hours=own["hours"],
        currency=c.currency, electricity_per_job=r(c.own_electricity),
        offers=[side_json(o) for o in c.offers], notes=list(c.notes),
    )  # fmt: skip
    return out
