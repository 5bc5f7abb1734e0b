"""The build's workload in words, for the exports: what it sizes, the verdict, the speed, and one job's hours and
cost on the build and on the offers of the chart. Exports do not import rigplan.workload (sibling layers): the
caller puts these lines in the Plan (`plan_lines`), and the exports print them when there are any."""

from __future__ import annotations

from rigplan.model.assumptions import Pricing
from rigplan.model.build import Build
from rigplan.model.offers import Offer
from rigplan.workload.jobs import JobComparison, compare
from rigplan.workload.measured import MeasuredComparison, compare_measured, is_measured
from rigplan.workload.models import WorkloadError

Names = dict[tuple[str, Pricing | None], str]  # an offer's name by (its label, pricing), as the export names it


def plan_lines(build: Build, offers: list[tuple[Offer, Pricing]], names: list[str] | None = None) -> list[str]:
    """The lines of the build's saved workload against `offers`; none when no workload is saved. `names`: each
    offer's name as the rest of the export writes it (Plan.offer_names, issue 29), else its instance."""
    if build.workload is None:
        return []
    known: Names = {}
    for (o, p), n in zip(offers, names or [], strict=False):  # a measured model's side is "<label> (<pricing>)"
        known[(o.label, p)] = known[(f"{o.label} ({p.value})", p)] = n
    try:
        if is_measured(build.workload.model):
            c = compare_measured(build, build.workload.model, build.workload.v100_hours, offers)
            return measured_lines(c, known)
        return workload_lines(compare(build, build.workload, offers), known)
    except WorkloadError as exc:
        return [f"Workload {build.workload.model}, {build.workload.task.value}: not estimated ({exc})."]


def _name(label: str, pricing: Pricing | None, names: Names | None) -> str:
    name = (names or {}).get((label, pricing)) or label.split(": ")[0]
    return name if pricing is None or name.endswith(pricing.value) else f"{name} ({pricing.value})"


def workload_lines(c: JobComparison | None, names: Names | None = None) -> list[str]:
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
        out.append(f"{line}. Basis: {sp.basis}.")
    else:
        out.append(f"Speed: unknown ({sp.basis}).")
    for o in c.offers:
        name = _name(o.offer.label, o.pricing, names)
        oe, j = o.estimate, o.job
        if oe is None or j is None or j.cloud_cost is None or oe.hours is None:
            why = o.problem or ("no estimate" if oe is None else oe.summary)
            if oe is not None and oe.speed.tokens_per_s is None:  # it may fit, but its hours are unknown: say why
                why += f"; {oe.speed.basis}"
            out.append(f"{name}: {why}.")
            continue
        change = f", with {oe.change}" if oe.change else ""
        win = f"owning wins after {j.jobs_to_win} jobs" if j.jobs_to_win else "owning never wins"
        out.append(f"{name}: {oe.hours:,.2f} h{change}, {c.currency} {j.cloud_cost:,.2f} a job; {win}.")
    return out


def measured_lines(c: MeasuredComparison, names: Names | None = None) -> list[str]:
    """A measured model (ResNet-50, BERT...): its measured speed, memory not modelled, one job here and per offer."""
    own = c.own
    speed = "unknown" if own.speed is None else f"{own.speed:,.2f}x one V100's {c.workload.unit}"
    out = [f"{c.workload.label}, training ({c.precision} precision), a measured model: speed ({own.kind}) {speed}; "
           "memory not modelled."]  # fmt: skip
    if own.hours is not None:
        elec = "" if c.own_electricity is None else f", {c.currency} {c.own_electricity:,.2f} of electricity"
        out.append(f"One job of {c.v100_hours:,g} h on a V100 takes {own.hours:,.2f} h here{elec}.")
    for o in c.offers:
        name = _name(o.label, o.pricing, names)
        j = o.job
        if o.speed is None:
            out.append(f"{name}: {o.problem or 'speed unknown'}.")
        elif j is None or j.cloud_cost is None or o.hours is None:
            out.append(f"{name}: {o.speed:,.2f}x a V100 ({o.kind}).")
        else:
            win = f"owning wins after {j.jobs_to_win} jobs" if j.jobs_to_win else "owning never wins"
            out.append(f"{name}: {o.speed:,.2f}x a V100 ({o.kind}), {o.hours:,.2f} h, "
                       f"{c.currency} {j.cloud_cost:,.2f} a job; {win}.")  # fmt: skip
    return out
