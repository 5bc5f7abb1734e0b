"""The table of one job on the build and on each offer: GPUs, fit, speed, hours, cost and jobs to break even."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from rigplan.exports.plan import curve_labels
from rigplan.model.assumptions import Pricing
from rigplan.model.offers import Offer
from rigplan.wording import symbol
from rigplan.workload.jobs import JobComparison

# An offer's name by (its label, pricing), as the Costs tab names it (issue 29: one name per offer everywhere)
Names = dict[tuple[str, Pricing | None], str]


def chart_names(chart: list[tuple[Offer, Pricing]]) -> Names:
    """The names of the chart's offers: curve_labels, as the Costs summary, chart and side table use them."""
    labels = curve_labels([(o, o.id, p) for o, p in chart])
    out: Names = {}
    for (o, p), n in zip(chart, labels, strict=True):  # a measured model's side is labelled "<label> (<pricing>)"
        out[(o.label, p)] = out[(f"{o.label} ({p.value})", p)] = n
    return out


def offer_name(names: Names | None, label: str, pricing: Pricing | None, with_pricing: bool = True) -> str:
    """The offer's name (its instance label's head when not on the chart), with its pricing once if asked."""
    name = (names or {}).get((label, pricing)) or label.split(": ")[0]
    if not with_pricing or pricing is None or name.endswith(pricing.value):
        return name
    return f"{name} ({pricing.value})"


Index = QModelIndex | QPersistentModelIndex
MACHINE, GPUS, FITS, SPEED, HOURS, COST, WIN = range(7)
HEADERS = ["Machine", "GPUs", "Memory", "Tokens/s", "Hours/job", "Cost/job", "Jobs to win"]
VERDICT = {"fits": "fits", "fits-with-change": "with a change", "does-not-fit": "does not fit", "memory-unknown": "?"}


class JobsModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[Any]] = []  # display values; raw numbers under UserRole for sorting
        self.tips: list[str] = []

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        v = self.rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return _text(index.column(), v)
        if role == Qt.ItemDataRole.UserRole:
            return v[0] if index.column() == COST else v
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tips[index.row()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() >= SPEED:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def set_comparison(self, c: JobComparison | None, names: Names | None = None) -> None:
        self.beginResetModel()
        self.rows, self.tips = [], []
        if c is not None:
            own = c.own
            self.rows.append([
                f"This build ({own.hardware.gpu.name})", own.setup.gpus, own.verdict, own.speed.tokens_per_s,
                own.hours, _money(c.currency, c.own_electricity, "electricity"), None,
            ])  # fmt: skip
            self.tips.append(f"{own.summary}\n{own.speed.basis}")
            for o in c.offers:
                e, j = o.estimate, o.job
                name = offer_name(names, o.offer.label, o.pricing)
                win = None if j is None else ("never" if j.status == "never" else j.jobs_to_win)
                fit = e.verdict if e else None  # the change itself: tooltip and cost bars
                self.rows.append([
                    name, e.setup.gpus if e else o.offer.gpu_count, fit,
                    e.speed.tokens_per_s if e else None, e.hours if e else None,
                    _money(c.currency, j.cloud_cost if j else None, "rent"), win,
                ])  # fmt: skip
                tip = o.problem or (f"{e.summary}\n{e.speed.basis}" if e else "")
                self.tips.append(f"{name}\n{o.offer.label}\n{tip}")
        self.endResetModel()


def _money(cur: str, v: float | None, what: str) -> tuple[float | None, str]:
    return (v, f"{symbol(cur)}{v:,.2f} {what}" if v is not None else "unknown")


def _text(col: int, v: Any) -> str:
    if col == COST:
        return v[1]
    if v is None:
        return "-" if col == WIN else "unknown"
    if col == FITS:
        return VERDICT.get(v, v)
    if col == SPEED:
        return f"{v:,.0f}"
    if col == HOURS:
        return f"{v:,.2f}"
    return str(v)


def cost_rows(c: JobComparison, names: Names | None = None) -> list[tuple[str, float | None, str]]:
    """The bars: the build's electricity, then each offer's bill; each with its hours per job."""
    cur = c.currency
    own = f"This build ({c.own.setup.gpus}x {c.own.hardware.gpu.name})"
    if c.own.hours is not None:
        rows = [
            (own, c.own_electricity, f"{symbol(cur)}{c.own_electricity or 0:,.2f} electricity, {c.own.hours:,.1f} h")
        ]
    else:
        rows = [(own, None, "unknown: " + (c.own.summary if c.own.tokens else "give the tokens per job"))]
    for o in c.offers:
        name = offer_name(names, o.offer.label, o.pricing, with_pricing=False)
        e, j = o.estimate, o.job
        if j is not None and j.cloud_cost is not None and e is not None and e.hours is not None:
            change = f" (with {e.change})" if e.change else ""
            rows.append((name, j.cloud_cost, f"{symbol(cur)}{j.cloud_cost:,.2f}, {e.hours:,.1f} h{change}"))
        else:
            why = o.problem or (e.summary if e else "no estimate")
            if e is not None and e.speed.tokens_per_s is None and not o.problem:  # it fits; its hours are unknown
                why = e.speed.basis  # "no tensor-core figure for the ...": why, not "unknown: fits"
            rows.append((name, None, f"unknown: {why}"))
    return rows
