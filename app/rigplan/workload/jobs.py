"""One workload job on the build and on each cloud offer: hours, electricity, the cloud bill, and after how many
jobs owning wins. The sums are the cost model's job mode (rigplan.costs.jobs), with the job as the unit of work:
a job is one "reference hour", and each machine's throughput is jobs per hour from the workload estimate."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rigplan.costs.analysis import CostInputError, cost_build, offer_input
from rigplan.costs.fx import electricity_price
from rigplan.costs.jobs import JobResult, jobs
from rigplan.model.assumptions import Pricing
from rigplan.model.build import Build
from rigplan.model.offers import Offer
from rigplan.model.workload import WorkloadSpec
from rigplan.workload.hardware import build_hardware, offer_hardware
from rigplan.workload.models import WorkloadError
from rigplan.workload.plan import Estimate, estimate, r, to_json


@dataclass(frozen=True)
class OfferJob:
    offer: Offer
    pricing: Pricing
    estimate: Estimate | None  # None: no figures for the instance's GPU
    problem: str | None
    job: JobResult | None  # the cost model's job mode; None without hours on either side


@dataclass(frozen=True)
class JobComparison:
    own: Estimate
    currency: str
    own_electricity: float | None  # one job's electricity on the desktop
    offers: list[OfferJob]
    notes: tuple[str, ...]


def _on_instance(spec: WorkloadSpec, offer: Offer) -> tuple[Estimate | None, str | None]:
    try:
        # the instance's own GPUs, all of them: the user's --gpus and strategy describe the build
        return estimate(spec.model_copy(update={"gpus": None, "strategy": None}), offer_hardware(offer)), None
    except WorkloadError as exc:
        return None, str(exc)


def compare(build: Build, spec: WorkloadSpec, offers: list[tuple[Offer, Pricing]]) -> JobComparison:
    """The build's estimate and, with `spec.tokens`, one job's hours and cost here and on each offer."""
    hw = build_hardware(build, spec.gpus)
    own_est = estimate(spec, hw, available_gpus=build_hardware(build).count)
    a = build.assumptions
    cur = a.currency
    notes: list[str] = []
    results: list[OfferJob] = []
    costing = cost_build(build)
    electricity = None
    if own_est.hours is not None:
        electricity = own_est.hours * costing.own.load_wall_w / 1000 * electricity_price(a)[0]
    # job mode with one job = one reference hour: throughput in jobs per hour
    aj = a.model_copy(update={"job_hours": 1.0, "job_days": None})
    own = replace(costing.own, throughput=1 / own_est.hours if own_est.hours else None)
    for offer, pricing in offers:
        est, problem = _on_instance(spec, offer)
        job = None
        if est is not None and est.hours and offer.hourly(pricing) is not None:
            try:
                inp = offer_input(offer, aj, None, own.throughput, pricing=pricing)
            except CostInputError as exc:
                problem = str(exc)
            else:
                inp = replace(inp, throughput=1 / est.hours)
                job = jobs(own, [inp], aj)[0]
        elif est is not None and offer.hourly(pricing) is None:
            problem = f"no {pricing.value} price"
        results.append(OfferJob(offer, pricing, est, problem, job))
    if spec.tokens is None:
        notes.append("no --tokens: hours and cost per job need the number of tokens in one job")
    return JobComparison(own_est, cur, electricity, results, tuple(notes) + tuple(costing.notes))


def offer_json(o: OfferJob) -> dict[str, Any]:
    e, j = o.estimate, o.job
    return {
        "id": o.offer.id,
        "label": o.offer.label,
        "pricing": o.pricing.value,
        "hourly_usd": o.offer.hourly(o.pricing),
        "gpus": e.setup.gpus if e else o.offer.gpu_count,
        "gpu": e.hardware.gpu.name if e else o.offer.gpu_model,
        "interconnect": e.hardware.interconnect if e else None,
        "fits": e.fits if e else None,
        "verdict": e.verdict if e else None,
        "change": e.change if e else None,
        "memory_gb_per_gpu": r(e.memory.total) if e else None,
        "vram_gb_per_gpu": e.vram_gb if e else None,
        "tokens_per_s": r(e.speed.tokens_per_s, 1) if e else None,
        "hours": r(e.hours, 3) if e else None,
        "cloud_cost": r(j.cloud_cost) if j else None,
        "jobs_to_break_even": j.jobs_to_win if j else None,
        "jobs_to_break_even_with_resale": j.jobs_to_win_with_resale if j else None,
        "status": j.status if j else ("no-estimate" if e is None else "no-job"),
        "problem": o.problem,
    }


def comparison_json(c: JobComparison) -> dict[str, Any]:
    out = to_json(c.own)
    out["currency"] = c.currency
    out["electricity_per_job"] = r(c.own_electricity)
    out["offers"] = [offer_json(o) for o in c.offers]
    out["notes"] = out["notes"] + list(c.notes)
    return out
