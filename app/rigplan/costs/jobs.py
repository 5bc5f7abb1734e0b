"""Job mode: the cost of one job of work on the desktop and on each offer, and after how many jobs owning wins.

A job is either `job_hours` hours of work on the reference GPU (1x V100 16 GB: "one 400-GPU-hour run") or `job_days`
days of the desktop's work at `hours_per_day` ("a 12-day project"). Formulas: docs/cost-model.md, "Job mode".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rigplan.costs.fx import electricity_price
from rigplan.costs.model import OfferInput, OwnInputs, cloud_k, own_terms
from rigplan.model.assumptions import Assumptions, Pricing


@dataclass(frozen=True)
class JobResult:
    id: str
    label: str
    pricing: Pricing
    instance_hours: float | None  # instance hours one job takes
    cloud_cost: float | None  # renting one job, in the report currency (spot overhead included)
    own_hours: float | None  # desktop hours one job takes
    own_cost: float | None  # electricity for one job on the desktop
    jobs_to_win: int | None  # jobs after which owning has cost less (upfront paid, no resale)
    jobs_to_win_with_resale: int | None  # the same, counting the resale at the horizon
    years_to_win: float | None  # jobs_to_win / jobs_per_year
    status: str  # "owning-wins-after", "never", "speed-unknown"


def job_defined(a: Assumptions) -> bool:
    return a.job_hours is not None or a.job_days is not None


def _own_hours(own: OwnInputs, a: Assumptions) -> float | None:
    if a.job_days is not None:
        return a.job_days * a.hours_per_day
    if a.job_hours is not None and own.throughput:
        return a.job_hours / own.throughput
    return None


def _instance_hours(o: OfferInput, own: OwnInputs, a: Assumptions, own_hours: float | None) -> float | None:
    if a.job_hours is not None and o.throughput:
        return a.job_hours / o.throughput
    if own_hours is not None and o.speedup is not None:
        return own_hours * o.speedup  # a desktop hour does the work of s instance hours
    return None


def jobs(own: OwnInputs, offers: list[OfferInput], a: Assumptions) -> list[JobResult]:
    if not job_defined(a):
        return []
    upfront, _, resale = own_terms(own, a)
    own_hours = _own_hours(own, a)
    own_cost = None if own_hours is None else own_hours * own.load_wall_w / 1000 * electricity_price(a)[0]
    out = []
    for o in offers:
        lost = a.spot_overhead if o.pricing is Pricing.SPOT else 0.0
        inst_hours = _instance_hours(o, own, a, own_hours)
        cloud = None if inst_hours is None else inst_hours * o.hourly_usd * cloud_k(o, a) / (1 - lost)
        win = win_resale = None
        years = None
        if cloud is None or own_cost is None:
            status = "speed-unknown"
        elif cloud <= own_cost:
            status = "never"
        else:
            gap = cloud - own_cost
            win = max(1, math.ceil(upfront / gap - 1e-9))
            win_resale = max(1, math.ceil(max(upfront - resale, 0.0) / gap - 1e-9))
            years = None if a.jobs_per_year is None else win / a.jobs_per_year
            status = "owning-wins-after"
        out.append(
            JobResult(o.id, o.label, o.pricing, inst_hours, cloud, own_hours, own_cost, win, win_resale, years, status)
        )
    return out
