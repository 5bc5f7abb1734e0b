"""CSV exports for spreadsheets: the parts, and the cost curves (day, own, each offer)."""

from __future__ import annotations

import csv
import io

from rigplan.costs.fx import NoRate, convert, electricity_price, load_fx, rate_for
from rigplan.exports.plan import Plan
from rigplan.model.electricity import DEFAULT_KWH
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
SETTINGS_HEADER = ["setting", "value", "unit", "source"]


def parts_csv(plan: Plan) -> str:
    """One row a build line, the Other items after the parts (kind "other/fan", "other/os"...: issue 29); an unknown
    price is an empty cell (never 0). Then, after one blank row, the build's setting (issue 40): a second table of
    `setting,value,unit,source` rows (settings_rows), so a reader that wants only the parts stops at the blank row and
    no line is a '#' comment, which many CSV readers take for a part."""
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
    w.writerow([])
    w.writerow(SETTINGS_HEADER)
    w.writerows([[key, text_cell(value), unit, text_cell(source)] for key, value, unit, source in settings_rows(plan)])
    return printable(buf.getvalue())


def _number(v: float, decimals: int) -> str:
    """A plain number a spreadsheet reads: no thousands separator, no trailing zeros (0.1700 -> 0.17)."""
    text = f"{v:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def settings_rows(plan: Plan) -> list[tuple[str, str, str, str]]:
    """The build's setting as (setting, value, unit, source), what the Markdown and the PDF say in words
    (exports.context): the user's notes whole (never cut), the parts total in the build's currency, the electricity
    price with its currency, region and source, the hours of use, the speed figures, the saved workload and its
    estimates, the currency, and the rate (with its date) of every price quoted in another currency."""
    b, a, cur = plan.build, plan.build.assumptions, plan.currency
    rows = [("notes", b.notes.strip(), "", "your notes")] if b.notes.strip() else []
    unpriced = len(plan.costing.own.unpriced)
    said = f"the priced lines; {unpriced} without a price, so at least this" if unpriced else "every line priced"
    rows.append(("parts_total", _number(plan.cost.own_breakdown["parts"], 2), cur, said))
    kwh, source = electricity_price(a)
    rows.append(("electricity_price", _number(kwh, 4), f"{cur} per kWh", source))
    if a.electricity_per_kwh is None and cur in DEFAULT_KWH:
        rows.append(("electricity_region", DEFAULT_KWH[cur].where, "", "where the default price applies"))
    rows += [
        ("hours_of_training_per_day", f"{a.hours_per_day:g}", "h", ""),
        ("idle_hours_per_day", f"{a.idle_hours_per_day:g}", "h", ""),
        ("horizon_years", f"{a.horizon_years:g}", "years", ""),
        ("speed_figures", f"{a.precision.value} precision, workload {a.workload.value}", "", ""),
    ]
    if b.workload is not None:
        rows.append(("workload", f"{b.workload.model}, {b.workload.task.value}", "", "saved with the build"))
        rows += [("workload_estimate", line, "", "RigPlan's estimate") for line in plan.workload_lines]
    rows.append(("currency", cur, "", "every total and the electricity price"))
    return rows + rate_rows(plan)


def rate_rows(plan: Plan) -> list[tuple[str, str, str, str]]:
    """The rate of each currency the lines are quoted in, other than the build's, as the cost model converts them:
    units of the build's currency per 1 unit of the other, and the rates' date."""
    cur = plan.currency
    quoted = sorted({p.currency for _, _, _, p in plan.build.priced_lines() if p is not None} - {cur})
    if not quoted:
        return []
    try:
        rate = rate_for(plan.build.assumptions)
    except NoRate as exc:  # no rate: the lines keep their own currency, said so (never relabelled)
        return [("exchange_rate", "", "", f"not converted: {exc}")]
    table = load_fx()
    rows = []
    for other in quoted:
        value = convert(1.0, other, rate, table)
        basis = rate.basis if other == "USD" else f"ECB reference rate of {table.date} for {other}; {cur}: {rate.basis}"
        if value is None:
            rows.append(("exchange_rate", "", f"{cur} per {other}", f"no reference rate for {other}: not converted"))
        else:
            rows.append(("exchange_rate", _number(value, 6), f"{cur} per {other}", basis))
    if rate.basis.startswith("ECB") or any(o != "USD" for o in quoted):
        rows.append(("exchange_rate_date", table.date, "", table.source))
    return rows  # ESC, C1 and bidi characters as visible escapes (rigplan.printable)


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
