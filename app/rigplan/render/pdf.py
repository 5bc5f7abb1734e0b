"""The PDF report: text laid out by QTextDocument (tables, wrapping, pagination), charts painted by pyqtgraph's scene
into the same QPainter, so they stay vector graphics. A4 portrait:

  page 1: build name and date, parts table with the total, power, findings, owning vs renting, the workload
  page 2: the break-even chart and the cost breakdown at the horizon
  page 3: the assumptions and every data source with its date

The figures and wording come from the exports layer (rigplan.exports), the same as the Markdown and the CLI.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

from rigplan import __version__
from rigplan.exports.context import context_lines, hourly_price, line_price
from rigplan.exports.plan import (
    Plan,
    breakeven_text,
    data_sources,
    instance_text,
    job_lines,
    power_line,
    total_note,
)
from rigplan.model.assumptions import DEFAULT_SOURCES
from rigplan.render.images import breakdown_plot, breakeven_plot, lay_out, paint
from rigplan.wording import least, money, unpriced_text

DPI = 96  # layout units: 1 px = 1/96 in, so the point sizes below print at their size
MARGIN_MM = 15
CSS = """
body { font-family: 'DejaVu Sans', sans-serif; font-size: 9pt; color: #111; }
h1 { font-size: 16pt; margin: 0 0 2px 0; }
h2 { font-size: 11.5pt; margin: 12px 0 4px 0; color: #1f3b63; }
p.meta { color: #555; margin: 0 0 6px 0; }
table { border-collapse: collapse; }
th { background: #e8edf3; text-align: left; padding: 3px 5px; font-weight: bold; }
td { padding: 2px 5px; border-bottom: 1px solid #dde; vertical-align: top; }
td.n { text-align: right; white-space: nowrap; }
tr.total td { font-weight: bold; border-top: 1px solid #555; }
.error { color: #b00020; font-weight: bold; } .warning { color: #a15c00; font-weight: bold; } .note { color: #555; }
"""


def _doc(html: str, width: float, points: float = 9) -> QTextDocument:
    doc = QTextDocument()
    doc.setDefaultStyleSheet(CSS.replace("font-size: 9pt", f"font-size: {points:g}pt"))
    doc.setDefaultFont(QFont("DejaVu Sans", int(points)))  # whole points, as Qt's QFont(family, size) takes
    doc.setDocumentMargin(0)
    doc.setHtml(f"<html><body>{html}</body></html>")
    doc.setTextWidth(width)
    return doc


def _cell(text: str, whole: bool) -> str:
    """A cell's HTML; `whole`: each comma-separated piece stays on one line ("us-east-1" never breaks at a hyphen)."""
    if not whole:
        return escape(text)
    return ", ".join(f'<span style="white-space: nowrap">{escape(p)}</span>' for p in text.split(", "))


def _table(
    head: list[str],
    rows: list[list[str]],
    numeric: set[int],
    total: list[str] | None = None,
    whole: frozenset = frozenset(),
) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = []
    for row in rows + ([total] if total else []):
        cls = ' class="total"' if total is not None and row is total else ""
        cells = "".join(
            f"<td{' class=n' if i in numeric else ''}>{_cell(c, i in whole)}</td>" for i, c in enumerate(row)
        )
        body.append(f"<tr{cls}>{cells}</tr>")
    return f'<table width="100%" cellspacing="0">{"<tr>" + th + "</tr>"}{"".join(body)}</table>'


def summary_html(plan: Plan) -> str:
    b, cost, cur = plan.build, plan.cost, plan.currency
    rows = []
    for label, name, quantity, p in b.priced_lines():  # the parts, then the Other items (issue 29)
        rows.append(
            [
                label,
                name,
                str(quantity),
                line_price(plan, p),  # in the report's currency (issue 40: USD lines beside a GBP total)
                (p.date.isoformat() if p.date else "date unknown") if p else "",
            ]
        )
    n = len(plan.costing.own.unpriced)
    conv = total_note(plan)
    # Issue 19's wording, split over the row so the narrow price column keeps its width: the count goes under Item.
    missing = f"({unpriced_text(*plan.unpriced)})" if n else ""
    total = [
        "Total",
        "; ".join(x for x in (missing, conv) if x),
        "",
        least(n) + money(cur, cost.own_breakdown["parts"]),
        "",
    ]
    out = [
        f"<h1>{escape(b.name)}</h1>",
        f'<p class="meta">Workstation plan, {plan.made.isoformat()}. Made with RigPlan {__version__}. Prices and '
        f"figures are estimates from the sources on the last page, not quotes.</p>",
        setting_html(plan),
        "<h2>Parts</h2>",
        _table(["Part", "Item", "Qty", "Unit price", "Price date"], rows, {2, 3}, total),
        "<h2>Power</h2>",
        f"<p>{escape(power_line(plan))}.</p>",
        f"<h2>Checks: {escape(plan.report.summary())}</h2>",
    ]
    items = [
        f'<li><span class="{f.severity.value}">{f.severity.value.capitalize()}</span>: {escape(f.message)} '
        f"<i>({escape(f.rule)})</i></li>"
        for f in plan.report.findings
    ]
    items += [
        f'<li><span class="note">Not checked</span>: {escape(n.reason)} <i>({escape(n.rule)})</i></li>'
        for n in plan.report.not_checked
    ]
    out.append(f"<ul>{''.join(items)}</ul>" if items else "<p>No problems found.</p>")
    a = b.assumptions
    out += [
        "<h2>Owning vs renting the same work</h2>",
        f"<p>{least(n)}{money(cur, cost.upfront)} up front and {money(cur, cost.own_slope_per_day)} a day to run "
        f"({a.hours_per_day:g} h of training a day); {money(cur, cost.own_breakdown['total'], 0)} over "
        f"{a.horizon_years:g} years after resale. The break-even chart is on the next page.</p>",
    ]
    speed = {(o.id, o.pricing): o.speedup for o in cost.offers}
    est = {(o.id, o.pricing) for o in cost.offers if o.speedup_kind == "estimate"}
    orows = []
    names = plan.offer_names()  # the charts' names; the instance and region in a column of their own
    for c in plan.offers:
        s = speed.get((c.offer.id, c.pricing))
        orows.append(
            [
                names[(c.offer.id, c.pricing)],
                instance_text(c.offer),
                c.pricing.value,
                hourly_price(plan, c.offer, c.pricing),
                "unknown" if s is None else f"{s:.2f}" + (" (estimate)" if (c.offer.id, c.pricing) in est else ""),
                breakeven_text(plan, c.offer.id, c.pricing),
            ]
        )
    if orows:
        out.append(
            _table(
                ["Cloud offer", "Instance", "Pricing", "Per hour", "Speed ratio", "Owning wins"],
                orows,
                {3, 4},
                whole=frozenset({1}),
            )
        )
    jobs = job_lines(plan)
    if jobs:
        out += ["<h2>By the job</h2>", "<ul>" + "".join(f"<li>{escape(j)}</li>" for j in jobs) + "</ul>"]
    return "".join(out)


def setting_html(plan: Plan) -> str:
    """The user's notes, then the electricity price with its region, the use and the rate (issue 40)."""
    lines = [f"<b>{escape(label)}:</b> {escape(text)}" for label, text in context_lines(plan)]
    return f'<p style="margin: 4px 0 0 0">{"<br>".join(lines)}</p>'


def workload_html(plan: Plan) -> str:
    """The build's saved workload (issue 28), as the Markdown export says it: model, task and options, memory per GPU
    with its breakdown and verdict, speed with its basis, one job's hours and cost here and on the chart's offers,
    and after how many jobs owning wins. Empty when the build has no workload."""
    lines = plan.workload_lines
    if not lines:
        return ""
    return (
        "<h2>Workload</h2>"
        '<p class="meta">Estimates of RigPlan\'s workload planner; the formulas, constants and their sources are in '
        "docs/workload.md.</p>" + "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>"
    )


# The assumptions in words a reader of the report (a grant committee) knows, not their field names (issue 29).
LABELS = {
    "fx_rate": "Exchange rate (units per USD)",
    "electricity_per_kwh": "Electricity price per kWh",
    "hours_per_day": "Hours of training a day",
    "idle_hours_per_day": "Hours idle a day",
    "horizon_years": "Horizon (years)",
    "resale_fraction": "Resale value at the horizon",
    "resale_curve": "Resale value by age",
    "tax_fraction": "Tax on parts",
    "spot_overhead": "Work lost on spot instances",
    "cloud_tax_fraction": "Tax on cloud bills",
    "storage_gb": "Cloud storage (GB)",
    "storage_per_gb_month": "Cloud storage price per GB-month",
    "egress_gb_month": "Data out of the cloud (GB a month)",
    "egress_per_gb": "Price of data out per GB",
    "speedup": "Speed of this build vs the cloud GPU",
    "scaling_desktop": "Multi-GPU scaling, this build",
    "scaling_cloud": "Multi-GPU scaling, cloud",
    "load_watts": "Power at the wall while training (W)",
    "idle_watts": "Power at the wall when idle (W)",
    "wall_voltage": "Wall circuit voltage (V)",
    "wall_amps": "Wall circuit breaker (A)",
}


def assumption_label(name: str) -> str:
    return LABELS.get(name, name.replace("_", " ").capitalize())


def sources_html(plan: Plan) -> str:
    a = plan.build.assumptions
    defaults = type(a)()
    rows = []
    for name, value in a.model_dump(mode="json").items():
        if value is None:
            continue
        who = "this build" if getattr(a, name) != getattr(defaults, name) else "default"
        rows.append([assumption_label(name), str(value), who, DEFAULT_SOURCES.get(name, "")])
    out = [
        "<h2>Assumptions</h2>",
        _table(["Assumption", "Value", "Set by", "Meaning and default's source"], rows, set()),
    ]
    notes = plan.notes
    if notes:
        out += ["<h2>RigPlan's notes</h2>", "<ul>" + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>"]
    out += ["<h2>Data sources</h2>", "<ul>" + "".join(f"<li>{escape(s)}</li>" for s in data_sources([plan])) + "</ul>"]
    return "".join(out)


class _Pages:
    """A QPdfWriter with a page counter and a footer on every page."""

    def __init__(self, path: Path, title: str) -> None:
        self.writer = QPdfWriter(str(path))
        self.writer.setResolution(DPI)
        self.writer.setTitle(title)
        self.writer.setCreator(f"RigPlan {__version__}")
        layout = QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
            QPageLayout.Unit.Millimeter,
        )
        self.writer.setPageLayout(layout)
        self.painter = QPainter()
        if not self.painter.begin(self.writer):
            raise OSError(f"could not write the PDF {path}")
        r = self.writer.pageLayout().paintRectPixels(DPI)
        self.width, self.height = float(r.width()), float(r.height()) - 22  # room for the footer
        self.title, self.page = title, 1

    def new_page(self) -> None:
        self.footer()
        self.writer.newPage()
        self.page += 1

    def footer(self) -> None:
        p = self.painter
        p.save()
        p.setFont(QFont("DejaVu Sans", 7))
        p.setPen(QColor("#666666"))
        line = QRectF(0, self.height + 6, self.width, 16)
        p.drawText(line, Qt.AlignmentFlag.AlignLeft, f"RigPlan report: {self.title}")
        p.drawText(line, Qt.AlignmentFlag.AlignRight, f"page {self.page}")
        p.restore()

    def flow(self, doc: QTextDocument) -> None:
        """Draw a document from the top of a fresh page, breaking pages where it overflows."""
        doc.setPageSize(QSizeF(self.width, self.height))
        for i in range(doc.pageCount()):
            if i:
                self.new_page()
            self.painter.save()
            self.painter.translate(0, -i * self.height)
            doc.drawContents(self.painter, QRectF(0, i * self.height, self.width, self.height))
            self.painter.restore()

    def finish(self) -> None:
        self.footer()
        self.painter.end()


def write_pdf(plan: Plan, path: Path) -> None:
    pages = _Pages(path, plan.build.name)
    try:
        pages.flow(_doc(summary_html(plan) + workload_html(plan), pages.width))
        pages.new_page()
        gap = 24.0
        h = (pages.height - gap) / 2
        # Laid out at the page's own size (layout units are 1/96 in): text at its point size, lines as vectors, and
        # the legend (which ignores the painter's scale) the same size as the axes.
        for n, make in enumerate((breakeven_plot, breakdown_plot)):
            w = make(plan)
            lay_out(w, QSize(round(pages.width), round(h)))
            paint(w, pages.painter, QRectF(QPointF(0, n * (h + gap)), QSizeF(pages.width, h)))
            w.close()
            w.deleteLater()
        pages.new_page()
        pages.flow(_doc(sources_html(plan), pages.width, 8))
    finally:
        pages.finish()
