"""The Workload panel's measured models (ResNet-50, BERT, Tacotron 2...: rigplan.workload.measured): their group in
the model list, the table of speeds and one job's hours and cost, and the cost bars. Memory is not modelled for them,
and the panel says so instead of drawing a bar."""

from __future__ import annotations

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox

from rigplan.gui.workload.jobs_model import Names, offer_name
from rigplan.wording import symbol
from rigplan.workload.measured import MeasuredComparison, Side, measured_models

GROUP = "Measured (Lambda)"
HEADERS = ["Machine", "Speed vs 1x V100", "Kind", "Hours/job", "Cost/job", "Jobs to win"]


def add_group(box: QComboBox) -> None:
    """A separator, a header that cannot be chosen, then each measured model (its id as the item's data)."""
    box.insertSeparator(box.count())
    box.addItem(f"{GROUP}:", None)
    item = box.model().item(box.count() - 1)  # type: ignore[attr-defined]
    item.setEnabled(False)
    for w in measured_models().values():
        box.addItem(f"  {w.label}", w.id)
        box.setItemData(box.count() - 1, f"{w.label}: measured speeds, in {w.unit} (Lambda's training benchmarks)", 3)


def speed_text(c: MeasuredComparison) -> str:
    s = c.own
    if s.speed is None:
        return f"Speed: unknown ({s.basis})"
    text = f"Speed ({s.kind}): {s.speed:,.2f}x one V100's {c.workload.unit} ({c.precision} precision)"
    if s.hours is not None:
        elec = "" if c.own_electricity is None else f", {symbol(c.currency)}{c.own_electricity:,.2f} electricity"
        text += f"; one job of {c.v100_hours:,g} h on a V100: {s.hours:,.2f} h{elec}"
    return text


def verdict_text(c: MeasuredComparison) -> str:
    return (f"<b>Memory: not modelled</b> (the measured table holds speeds only, no memory figures)<br>"
            f"{c.workload.label}, measured model")  # fmt: skip


def _cells(s: Side, currency: str, names: Names | None = None) -> list[str]:
    j = s.job
    speed = "unknown" if s.speed is None else f"{s.speed:,.2f}x"
    hours = "-" if s.hours is None else f"{s.hours:,.2f}"
    cost = "-" if j is None or j.cloud_cost is None else f"{symbol(currency)}{j.cloud_cost:,.2f}"
    win = "-" if j is None else ("never" if j.status == "never" else str(j.jobs_to_win or "-"))
    name = s.label if s.pricing is None else offer_name(names, s.label, s.pricing)
    return [name, speed, s.kind, hours, cost if s.pricing else "-", win if s.pricing else "-"]


def table_model(c: MeasuredComparison, names: Names | None = None) -> QStandardItemModel:
    m = QStandardItemModel(0, len(HEADERS))
    m.setHorizontalHeaderLabels(HEADERS)
    for s in [c.own, *c.offers]:
        row = [QStandardItem(t) for t in _cells(s, c.currency, names)]
        for item in row:
            item.setEditable(False)
            item.setToolTip(s.problem or s.basis)
        m.appendRow(row)
    return m


def cost_rows(c: MeasuredComparison, names: Names | None = None) -> list[tuple[str, float | None, str]]:
    cur = c.currency
    own = c.own
    if own.hours is not None:
        text = f"{symbol(cur)}{c.own_electricity or 0:,.2f} electricity, {own.hours:,.1f} h"
        rows = [("This build", c.own_electricity, text)]
    else:
        rows = [("This build", None, "unknown: " + ("no speed" if own.speed is None else "give the hours per job"))]
    for s in c.offers:
        name = offer_name(names, s.label, s.pricing, with_pricing=False)
        j = s.job
        if j is not None and j.cloud_cost is not None and s.hours is not None:
            rows.append((name, j.cloud_cost, f"{symbol(cur)}{j.cloud_cost:,.2f}, {s.hours:,.1f} h"))
        else:
            rows.append((name, None, f"unknown: {s.problem or 'give the hours per job'}"))
    return rows
