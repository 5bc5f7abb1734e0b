"""CSV exports for spreadsheets: the parts, and the cost curves (day, own, each offer)."""

from __future__ import annotations

import csv
import io

from rigplan.exports.plan import Plan
from rigplan.printable import printable

# OWASP "CSV Injection": a cell a spreadsheet would run as a formula starts with one of these; a leading ' makes
# it text. Applied to every text cell (names, sources, offer ids in headers); numbers are written by us.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    """A text cell a spreadsheet shows as typed, never runs: '=HYPERLINK(...)' -> "'=HYPERLINK(...)". A carriage
    return inside becomes a line feed, which the writer quotes (with "\n" rows it would leave a lone CR bare)."""
    value = "'" + value if value.startswith(FORMULA_START) else value
    return value.replace("\r\n", "\n").replace("\r", "\n")


PARTS_HEADER = ["kind", "name", "quantity", "unit_price", "currency", "price_date", "source"]


def parts_csv(plan: Plan) -> str:
    """One row a build line, the Other items after the parts (kind "other/fan", "other/os"...: issue 29); an unknown
    price is an empty cell (never 0)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(PARTS_HEADER)
    lines = [(i.kind.value, i.part.name, i.quantity, i.unit_price) for i in plan.build.items]
    lines += [(f"other/{o.category.value}", o.name, o.quantity, o.price) for o in plan.build.other]
    for kind, name, quantity, p in lines:
        w.writerow(
            [
                kind,
                text_cell(name),
                quantity,
                "" if p is None else f"{p.amount:.2f}",
                "" if p is None else p.currency,
                "" if p is None or p.date is None else p.date.isoformat(),
                "" if p is None else text_cell(p.source),
            ]
        )
    return printable(buf.getvalue())  # ESC, C1 and bidi characters as visible escapes (rigplan.printable)


def curve_columns(plan: Plan) -> list[str]:
    cur = plan.currency
    offers = [text_cell(f"{o.id} {o.pricing.value} ({cur})") for o in plan.cost.offers]
    return ["day", "hours_of_training", f"own_{cur}", *offers]


def costs_csv(plan: Plan, step: int = 1) -> str:
    """Cumulative costs by day, as charted: owning (resale on the last day) and renting the same work from each
    offer whose speed ratio is known (the others have no curve, see docs/cost-model.md)."""
    cost = plan.cost
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(curve_columns(plan))
    last = len(cost.days) - 1
    for i in list(range(0, last, step)) + [last]:
        row = [f"{cost.days[i]:.0f}", f"{cost.hours[i]:.2f}", f"{cost.own_curve[i]:.2f}"]
        w.writerow(row + [f"{o.curve[i]:.2f}" for o in cost.offers])
    return printable(buf.getvalue())
