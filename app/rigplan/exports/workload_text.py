"""The build's workload in words, for every export: what it sizes, the verdict, the speed, and one job's hours and
cost on the build and on the offers of the chart (rigplan.workload)."""

from __future__ import annotations

from rigplan.model.build import Build
from rigplan.workload import WorkloadError
from rigplan.workload.jobs import JobComparison, compare


def workload_comparison(build: Build, offers: list, notes: list[str]) -> JobComparison | None:  # noqa: ANN001
    """The comparison of the build's saved workload, or None (none saved; a problem goes to `notes`)."""
    if build.workload is None:
        return None
    try:
        return compare(build, build.workload, offers)
    except WorkloadError as exc:
        notes.append(f"workload not estimated: {exc}")
        return None


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
