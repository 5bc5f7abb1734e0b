"""A comparison of builds as a PDF (issue 29): the figures and the parts side by side (the same rows as the Markdown
in rigplan.exports.compare_text), then the chart of each build's cost against the same work, as vectors."""

from __future__ import annotations

import datetime as dt
from html import escape
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, QSize, QSizeF

from rigplan.exports.compare import Comparison, figure_rows
from rigplan.exports.compare_text import part_table
from rigplan.render.images import comparison_plot, lay_out, paint
from rigplan.render.pdf import _doc, _Pages, _table
from rigplan.wording import money


def compare_html(cmp: Comparison, today: dt.date | None = None) -> str:
    day = (today or dt.date.today()).isoformat()
    names = cmp.names
    html = [f"<h2>Builds compared: {escape(', '.join(names))}</h2>"]
    html.append(f"<p><i>Made by RigPlan on {day}. Amounts in {escape(cmp.currency)}; estimates, not quotes.</i></p>")
    html.append("<h3>Figures</h3>" + _table(["", *names], figure_rows(cmp), set(range(1, len(names) + 1))))
    head, rows = part_table(cmp)
    html.append("<h3>Parts</h3>" + _table(head, rows, set()))
    if cmp.notes:
        html.append("<h3>Notes</h3><ul>" + "".join(f"<li>{escape(n)}</li>" for n in cmp.notes) + "</ul>")
    html.append(
        "<p>Throughput is in V100-equivalents (the speed of one NVIDIA V100 training the same models); work per "
        f"{escape(money(cmp.currency, 1000, 0))} is the hours of such work that much money buys over the horizon.</p>"
    )
    return "".join(html)


def write_compare_pdf(cmp: Comparison, path: Path, today: dt.date | None = None) -> None:
    pages = _Pages(path, "Builds compared")
    try:
        pages.flow(_doc(compare_html(cmp, today), pages.width))
        pages.new_page()
        h = pages.height * 0.6
        w = comparison_plot(cmp)
        lay_out(w, QSize(round(pages.width), round(h)))
        paint(w, pages.painter, QRectF(QPointF(0, 0), QSizeF(pages.width, h)))
        w.close()
        w.deleteLater()
    finally:
        pages.finish()
