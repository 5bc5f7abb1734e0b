"""The cloud offers table of the Costs tab: filters above, one sortable row per offer, a check box per row for "on
the chart"."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rigplan.cloud.offers import OfferCatalog
from rigplan.costs.perf import PerfTable
from rigplan.gui.costs.offers_model import (
    COL_CHART,
    COL_GPUS,
    COL_INSTANCE,
    COL_REGION,
    COL_SPOT,
    HEADERS,
    OfferFilterProxy,
    OfferTableModel,
    provider_name,
)
from rigplan.gui.widgets.wheel_guard import guard_wheel
from rigplan.model import Pricing


class OffersPanel(QWidget):
    toggled = Signal(str, bool, object)  # offer id, on the chart, Pricing to chart it at

    def __init__(self, offers: OfferCatalog, perf: PerfTable, money_usd: Callable[..., str]) -> None:
        super().__init__()
        self.catalog = offers
        self.model = OfferTableModel(offers, perf, money_usd)
        self.proxy = OfferFilterProxy()
        self.proxy.setSourceModel(self.model)
        self.model.toggled.connect(self._toggled)

        def combo(name: str, items: Sequence[tuple[str, object]]) -> QComboBox:
            box = QComboBox()
            box.setAccessibleName(name)
            for text, data in items:
                box.addItem(text, data)
            return box

        current = [o for o in offers.offers if o.snapshot == "current"]
        self.provider_box = combo(
            "Provider", [("All providers", "")] + [(provider_name(p), p) for p in offers.providers()]
        )
        self.region_box = combo("Region", [("All regions", "")] + [(r, r) for r in sorted({o.region for o in current})])
        self.gpu_box = combo(
            "GPU", [("All GPUs", "")] + [(g, g) for g in sorted({o.gpu_model for o in current if o.gpu_model})]
        )
        self.pricing_box = combo("Pricing", [("Any pricing", None)] + [(f"has {p.value}", p) for p in Pricing])
        self.pricing_box.setToolTip("Show offers with this price; ticking an offer charts it at this price")
        self.historic = QCheckBox("Historic")
        self.historic.setToolTip("Also list dated historic offers (2017-2022 prices quoted in published comparisons)")
        self.words = QLineEdit()
        self.words.setPlaceholderText("Search: instance, GPU, region")
        self.words.setClearButtonEnabled(True)
        self.words.setAccessibleName("Search cloud offers")
        self.count = QLabel()
        # Where the current prices come from and of when: the bundled snapshot, or the user's last update.
        self.as_of = QLabel()
        self.as_of.setAccessibleName("Cloud prices as of")
        self.as_of.setWordWrap(False)
        self.as_of.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.view = QTableView()
        self.view.setAccessibleName("Cloud offers")
        self.view.setModel(self.proxy)
        # Opens in the model's order (most work per dollar first); a click on a header sorts.
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # -1: the model order
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        # Rows one line of text high (the style's default is about 30 px): at 1280x720 the table showed 4 offers.
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 8)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        header = self.view.horizontalHeader()
        fm = self.view.fontMetrics()
        for c, sample in enumerate(HEADERS):
            wide = {
                COL_INSTANCE: "Standard_NC48ads_A100",
                COL_GPUS: "8x A100-80GB  ",
                COL_CHART: "reserved-1y    ",
                COL_REGION: "southamerica-east1",
                COL_SPOT: "no price  ",
            }
            header.resizeSection(c, fm.horizontalAdvance(wide.get(c, sample + "    ")) + 12)
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.activated.connect(self._toggle_current)  # Enter or double-click toggles the row
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(QLabel("<b>Cloud offers</b>"))
        for w in (self.provider_box, self.region_box, self.gpu_box, self.pricing_box, self.historic):
            top.addWidget(w)
        top.addWidget(self.words, 1)
        top.addWidget(self.count)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addWidget(self.view, 1)
        lay.addWidget(self.as_of)
        for box in (self.provider_box, self.region_box, self.gpu_box, self.pricing_box):
            box.currentIndexChanged.connect(lambda _: self._apply())
        self.historic.toggled.connect(lambda _: self._apply())
        self.words.textChanged.connect(lambda _: self._apply())
        guard_wheel(self)
        self._show_origin()
        self._apply()

    def _show_origin(self) -> None:
        origin = self.catalog.origin
        if self.catalog.problem:  # e.g. an unreadable price cache: said here, the bundled prices in use
            origin += f" ({self.catalog.problem})"
        self.as_of.setText(f"Cloud prices: {origin}.  Cloud prices > Update to refresh; each row's date: 'Prices of'.")
        self.as_of.setToolTip(origin)

    def set_catalog(self, offers: OfferCatalog) -> None:
        """New prices: a new model (the old one's rows are other offers), the filters' lists refilled, choices kept
        where they still exist."""
        self.catalog = offers
        old = self.model
        self.model = OfferTableModel(offers, old.perf, old._money)
        self.model.toggled.connect(self._toggled)
        self.proxy.setSourceModel(self.model)
        old.deleteLater()
        current = [o for o in offers.offers if o.snapshot == "current"]
        lists = {
            self.provider_box: [(provider_name(p), p) for p in offers.providers()],
            self.region_box: [(r, r) for r in sorted({o.region for o in current})],
            self.gpu_box: [(g, g) for g in sorted({o.gpu_model for o in current if o.gpu_model})],
        }
        for box, items in lists.items():
            keep = box.currentData()
            box.blockSignals(True)
            while box.count() > 1:
                box.removeItem(1)
            for text, data in items:
                box.addItem(text, data)
            box.setCurrentIndex(max(box.findData(keep), 0))
            box.blockSignals(False)
        self._show_origin()
        self._apply()

    def _apply(self) -> None:
        self.proxy.set_filter(
            provider=self.provider_box.currentData() or "",
            region=self.region_box.currentData() or "",
            gpu=self.gpu_box.currentData() or "",
            pricing=self.pricing_box.currentData(),
            current_only=not self.historic.isChecked(),
            words=self.words.text(),
        )
        self.count.setText(f"{self.proxy.rowCount():,} of {self.model.rowCount():,}")

    def pricing_for(self, offer_id: str) -> Pricing:
        """The price a newly ticked offer is charted at: the pricing filter's, else on-demand, else what it has."""
        offer = self.catalog.get(offer_id)
        wanted = self.pricing_box.currentData()
        for p in [wanted, Pricing.ON_DEMAND, *Pricing]:
            if p is not None and offer is not None and offer.hourly(p):
                return p
        return Pricing.ON_DEMAND

    def _toggled(self, offer_id: str, on: bool) -> None:
        self.toggled.emit(offer_id, on, self.pricing_for(offer_id))

    def _toggle_current(self) -> None:
        idx = self.view.currentIndex()
        if idx.isValid():
            src = self.proxy.mapToSource(idx)
            on = self.model.charted_pricing(self.model.offers[src.row()].id) is None
            self.model.setData(
                self.model.index(src.row(), COL_CHART),
                (Qt.CheckState.Checked if on else Qt.CheckState.Unchecked).value,
                Qt.ItemDataRole.CheckStateRole,
            )

    def height_for_rows(self, rows: int) -> int:
        """The panel's height that shows `rows` offers: its filters, the table's header, the rows and the date line."""
        v = self.view
        table = v.horizontalHeader().sizeHint().height() + rows * v.verticalHeader().defaultSectionSize()
        table += 2 * v.frameWidth()  # no horizontal scroll bar: the last column stretches
        return self.sizeHint().height() - v.sizeHint().height() + table
