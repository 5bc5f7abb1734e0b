"""The build's workload in words, for the exports: what it sizes, the verdict, the speed, and one job's hours and
cost on the build and on the offers of the chart. Exports do not import rigplan.workload (sibling layers): the
caller puts these lines in the Plan (`plan_lines`), and the exports print them when there are any."""

from __future__ import annotations

from rigplan.model.assumptions import Pricing
from rigplan.model.build import Build
from rigplan.model.offers import Offer
from rigplan.workload.jobs import JobComparison, compare
from rigplan.workload.models import WorkloadError


def plan_lines(build: Build, offers: list[tuple[Offer, Pricing]]) -> list[str]:
    """The lines of the build's saved workload against `offers`; none when no workload is saved."""
    if build.workload is None:
        return []
    try:
        return workload_lines(compare(build, build.workload, offers))
    except WorkloadError as exc:
        return [f"Workload {build.workload.model}, {build.workload.task.value}: not estimated ({exc})."]


def workload_lines(c: JobComparison | None) -> list[str]:
    if c is None:
        return []
    e, s = c.own, c.own.setup
    what = f"{e.model.name}, {s.task.value}" + (f" ({s.weights.value} weights)" if s.task.value == "inference" else "")
    what += f", sequence {s.seq:,}, micro-batch {s.batch}, {s.gpus}x {e.hardware.gpu.name} ({s.strategy.value})"
    parts = ", ".join(f"{k.replace('_', ' ')} {v:.1f}" for k, v in e.memory.parts.items() if v > 0)
    out = [f"{what}: {e.summary} (GB per GPU: {parts})."]
    sp = e.speed
    if sp.tokens_per_s is not None:
        kind = "decode" if s.task.value == "inference" else "training"
        line = f"Speed ({sp.kind}): {sp.tokens_per_s:,.0f} tokens/s {kind}"
        if e.hours is not None and e.tokens is not None:
            elec = "" if c.own_electricity is None else f", {c.currency} {c.own_electricity:,.2f} of electricity"
            line += f"; one job of {e.tokens:,.0f} tokens takes {e.hours:,.2f} h{elec}"
        out.append(line + ".")
    for o in c.offers:
        name = o.offer.label.split(": ")[0] + f" ({o.pricing.value})"
        oe, j = o.estimate, o.job
        if oe is None or j is None or j.cloud_cost is None or oe.hours is None:
            why = o.problem or (oe.summary if oe else "no estimate")
            out.append(f"{name}: {why if e.tokens is not None else oe.summary if oe else why}.")
            continue
        change = f", with {oe.change}" if oe.change else ""
        win = f"owning wins after {j.jobs_to_win} jobs" if j.jobs_to_win else "owning never wins"
        out.append(f"{name}: {oe.hours:,.2f} h{change}, {c.currency} {j.cloud_cost:,.2f} a job; {win}.")
    return out
