"""Two to four builds side by side: parts with differences marked, totals, power, throughput, work per money,
findings counts, and the cost of the same work by each build and each offer on one axis.

Builds differ in speed, so "day 100" is not the same work for two of them. The common axis is work done, in
reference-GPU-hours (1x V100 16 GB = 1, docs/cost-model.md): a build's own cost after d days has done
throughput * hours_per_day * d of work; an offer costs 1 / work_per_money per unit of work (the cost model's figure:
instance throughput over its hourly price, spot overhead included). Storage and egress are left out of this chart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rigplan.exports.compare_currency import Conversion
from rigplan.exports.plan import ExportError, Plan, curve_labels, unpriced_other
from rigplan.model.assumptions import Pricing
from rigplan.model.offers import Offer
from rigplan.model.other import OtherCategory, OtherItem
from rigplan.model.parts import Kind
from rigplan.rules import Severity
from rigplan.wording import BreakEven, at_least, least, money

MIN_BUILDS, MAX_BUILDS = 2, 4


def _breakeven_cell(b: dict[str, Any]) -> str:
    """ "412 days", or the status in the app's one wording ("never within the horizon")."""
    status = BreakEven(b["status"])
    if status is BreakEven.BREAKS_EVEN:
        return f"{b['days'] or 0:,.0f} days"
    return status.words


@dataclass(frozen=True)
class PartRow:
    kind: Kind | OtherCategory  # an Other item's row (issue 29) is labelled by its category; both have .label
    cells: tuple[str, ...]  # one per build; "" when the build has no such line
    differs: bool


@dataclass(frozen=True)
class Curve:
    label: str
    work: tuple[float, ...]  # reference-GPU-hours
    cost: tuple[float, ...]  # cumulative, in the common currency
    own: bool


@dataclass
class Comparison:
    plans: list[Plan]
    parts: list[PartRow]
    figures: list[dict[str, Any]]  # one per build, see build_figures
    curves: list[Curve]
    currency: str
    notes: list[str]  # the conversions' first (with their rates and dates), then the chart's
    conversions: list[Conversion] = field(default_factory=list)  # builds costed in another currency (issue 40)

    @property
    def names(self) -> list[str]:
        return [p.build.name for p in self.plans]


def two_figures(v: float) -> str:
    """Two significant figures with thousands separators: 5,190.4 -> "5,200"; 0.0123 -> "0.012"."""
    if v <= 0:
        return "0"
    digits = 1 - math.floor(math.log10(v))
    return f"{round(v, digits):,.{max(digits, 0)}f}"


def _line(item: Any) -> str:
    name = item.name if isinstance(item, OtherItem) else item.part.name
    return f"{item.quantity}x {name}" if item.quantity > 1 else name


def part_rows(plans: list[Plan]) -> list[PartRow]:
    """Slot by slot (the n-th GPU line of each build on one row), kinds in the app's order, then Other items."""
    rows = []
    for kind in Kind:
        lines = [p.build.of_kind(kind) for p in plans]
        for i in range(max(len(x) for x in lines)):
            items = [x[i] if i < len(x) else None for x in lines]
            keys = {(it.part.id, it.quantity) if it else None for it in items}
            rows.append(PartRow(kind, tuple(_line(it) if it else "" for it in items), len(keys) > 1))
    for cat in OtherCategory:  # then the Other items, category by category (fans, OS, cables, UPS...)
        others = [[o for o in p.build.other if o.category is cat] for p in plans]
        for i in range(max(len(x) for x in others)):
            extra = [x[i] if i < len(x) else None for x in others]
            same = {(o.name, o.quantity) if o else None for o in extra}
            rows.append(PartRow(cat, tuple(_line(o) if o else "" for o in extra), len(same) > 1))
    return rows


def build_figures(plan: Plan) -> dict[str, Any]:
    cost, power, counts = plan.cost, plan.report.power, plan.report.counts()
    own = plan.costing.own
    return {
        "name": plan.build.name,
        "parts_cost": cost.own_breakdown["parts"],
        "unpriced_parts": list(own.unpriced),  # every unpriced line, Other items too; "unpriced_other" of them
        "unpriced_other": unpriced_other(plan.build, own.unpriced),
        "upfront": cost.upfront,
        "own_cost_at_horizon": cost.own_breakdown["total"],
        "load_w": power.load_w if power else None,
        "wall_load_w": power.wall_load_w if power else None,
        "recommended_psu_w": power.recommended_psu_w if power else None,
        "power_lower_bound": bool(power and power.unknown),
        "throughput_v100": own.throughput,
        "throughput_kind": plan.costing.throughput_kind,  # "estimate" when any card's speed is estimated
        "work_per_money": cost.own_work_per_money,
        "errors": counts[Severity.ERROR],
        "warnings": counts[Severity.WARNING],
        "notes": counts[Severity.NOTE],
        "not_checked": len(plan.report.not_checked),
        "breakeven": {f"{o.id} {o.pricing.value}": {"days": o.breakeven_days, "status": o.status} for o in cost.offers},
    }


def offer_names(plans: Sequence[Plan]) -> dict[tuple[str, Pricing], str]:
    """Every charted offer of the compared builds, named as the Costs tab and the exports name it (curve_labels over
    all of them, so two that would read the same show their instance: issue 29), with its pricing once."""
    seen: dict[tuple[str, Pricing], Offer] = {}
    for p in plans:
        for c in p.offers:
            seen.setdefault((c.offer.id, c.pricing), c.offer)
    names = curve_labels([(o, key[0], key[1]) for key, o in seen.items()])
    out = {}
    for (key, _), name in zip(seen.items(), names, strict=True):
        out[key] = name if name.endswith(key[1].value) else f"{name}, {key[1].value}"
    return out


def compare(plans: list[Plan], conversions: Sequence[Conversion] = ()) -> Comparison:
    """The plans side by side. They must be costed in one currency: convert builds in others first
    (compare_currency.one_currency) and pass its conversions, which the comparison states with their rates."""
    if not MIN_BUILDS <= len(plans) <= MAX_BUILDS:
        raise ExportError(f"compare {MIN_BUILDS} to {MAX_BUILDS} builds, not {len(plans)}")
    currencies = sorted({p.currency for p in plans})
    if len(currencies) > 1:
        raise ExportError(f"the builds use different currencies ({', '.join(currencies)}): convert them to one first")
    notes: list[str] = [c.text() for c in conversions]
    curves: list[Curve] = []
    for p in plans:
        thr = p.costing.own.throughput
        if not thr:
            notes.append(f"{p.build.name}: desktop speed unknown, so it has no curve on the work axis")
            continue
        work = p.cost.hours * thr
        curves.append(Curve(p.build.name, tuple(map(float, work)), tuple(map(float, p.cost.own_curve)), True))
    top = max((c.work[-1] for c in curves), default=0.0)
    names = offer_names(plans)
    seen: set[str] = set()
    for p in plans:  # each offer once: its cost per unit of work does not depend on the build
        for o in p.cost.offers:
            key = f"{o.id} {o.pricing.value}"
            if key in seen or not o.work_per_money:
                continue
            seen.add(key)
            name = names.get((o.id, o.pricing)) or f"{o.label}, {o.pricing.value}"
            curves.append(Curve(name, (0.0, top), (0.0, top / o.work_per_money), False))
    figures = [build_figures(p) for p in plans]
    return Comparison(plans, part_rows(plans), figures, curves, currencies[0], notes, list(conversions))


def lower_bound(cells: list[str], figures: list[dict[str, Any]], full: bool = False) -> list[str]:
    """Issue 19: a sum over parts some of which have no price says "at least" (and, for the parts cost, how many)."""
    out = cells[:1]
    for text, x in zip(cells[1:], figures, strict=True):
        n = len(x["unpriced_parts"])
        if text == "unknown":
            out.append(text)
        else:
            out.append(at_least(text, n, x.get("unpriced_other", 0)) if full else least(n) + text)
    return out


def figure_rows(cmp: Comparison) -> list[list[str]]:
    """The figures as rows of text (label, then one cell a build): what `rigplan compare` and the GUI show."""
    cur = cmp.currency
    f = cmp.figures

    def row(label: str, key: str, fmt: Any) -> list[str]:
        return [label] + [("unknown" if x[key] is None else fmt(x[key])) for x in f]

    rows = [
        lower_bound(row("Parts cost", "parts_cost", lambda v: money(cur, v)), f, full=True),
        lower_bound(row("Up front", "upfront", lambda v: money(cur, v)), f),
        lower_bound(row("Owning at horizon", "own_cost_at_horizon", lambda v: money(cur, v, 0)), f),
        row("Full load (sizing)", "load_w", lambda v: f"{v:,.0f} W"),
        row("At the wall, training", "wall_load_w", lambda v: f"{v:,.0f} W"),
        row("Recommended PSU", "recommended_psu_w", lambda v: f"{v:,} W"),
        ["Throughput"]
        + [
            "unknown"
            if x["throughput_v100"] is None
            else f"{x['throughput_v100']:.2f} V100" + (" (estimate)" if x.get("throughput_kind") == "estimate" else "")
            for x in f
        ],
        # Issue 29: in words a buyer reads, rounded to what the estimate can tell: the hours of training, at the speed
        # of one V100 GPU (the unit every speed ratio uses), that 1,000 of the currency buys over the horizon.
        row(
            f"Training hours per {money(cur, 1000, 0)}",
            "work_per_money",
            lambda v: f"{two_figures(v * 1000)} at V100 speed",
        ),
        row("Errors", "errors", str),
        row("Warnings", "warnings", str),
        row("Notes", "notes", str),
        row("Not checked", "not_checked", str),
    ]
    keys = list(dict.fromkeys(k for x in f for k in x["breakeven"]))
    # The offer in words, as the Costs tab names it ("AWS 1x V100, spot"), not its id (issue 29)
    names = {f"{i} {p.value}": n for (i, p), n in offer_names(cmp.plans).items()}
    for k in keys:
        cells = []
        for x in f:
            b = x["breakeven"].get(k)
            cells.append("-" if b is None else _breakeven_cell(b))
        rows.append([f"Break-even vs {names.get(k, k)}"] + cells)
    return rows
