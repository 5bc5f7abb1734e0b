"""The cloud offers as a table model (one row per offer, a check box for "on the chart"), the proxy that sorts and
filters it by provider, region, GPU, pricing and words, and the default comparison for a build."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal

from rigplan.cloud.offers import OfferCatalog
from rigplan.costs.analysis import perf_for
from rigplan.costs.perf import PerfTable, multi_gpu, offer_speed
from rigplan.gui.parts.partsmodel import SORT_ROLE, refilter
from rigplan.gui.widgets.plain import tip
from rigplan.model import Build, Kind, Pricing
from rigplan.model.build import MAX_COMPARED, ChartOffer
from rigplan.model.offers import Offer

Index = QModelIndex | QPersistentModelIndex
OFFER_ROLE = Qt.ItemDataRole.UserRole + 1
HEADERS = ["On chart", "Provider", "Instance", "Region", "GPUs", "VRAM", "On-demand", "Spot", "Work per $", "Prices of"]
(COL_CHART, COL_PROVIDER, COL_INSTANCE, COL_REGION, COL_GPUS, COL_VRAM, COL_OD, COL_SPOT, COL_WORK, COL_DATE) = range(
    len(HEADERS)
)
PROVIDER_NAMES = {"aws": "AWS", "gcp": "GCP", "azure": "Azure", "lambda": "Lambda"}
WORK_TIP = (
    "Training work per US dollar at the on-demand price: V100-equivalent GPU-hours per dollar (Lambda's measured "
    "benchmarks, extra GPUs scaled by the 'Scaling, cloud' assumption or the fitted scaling of the instance's "
    "interconnect). Empty: no speed figure for this GPU."
)


def provider_name(code: str) -> str:
    return PROVIDER_NAMES.get(code, code.upper())


def work_per_dollar(
    offer: Offer, perf: PerfTable, efficiency: float | None, pricing: Pricing = Pricing.ON_DEMAND
) -> float:
    """V100-equivalent hours per USD at `pricing`; 0.0 when the speed or the price is unknown. Efficiency None: the
    measured median of the instance's interconnect, as the cost model uses (rigplan.costs.analysis.offer_input)."""
    s = offer_speed(perf, offer)
    price = offer.hourly(pricing)
    if s is None or not price:
        return 0.0
    return s.value * multi_gpu(perf, s, offer.gpu_count, efficiency, offer.instance_type)[0] / price


# Offers the default comparison leaves out: graphics/VDI instances are not training machines, and the cloud catalog
# lists Azure's NVv4 (a slice of an MI25, per Azure's NVv4 page) as a whole 16 GB MI25, which would overstate its work
# per dollar many times over. The user can still tick them.
NOT_FOR_TRAINING = ("visualization", "vdi", "graphics gpu")


def is_trainer(o: Offer) -> bool:
    return bool(o.vram_gb_each) and not any(w in q.lower() for q in o.quirks for w in NOT_FOR_TRAINING)


def _us(o: Offer) -> bool:
    """A US region: the tie-break when a provider lists one price in every region (Lambda does)."""
    return o.region.lower().startswith(("us", "eastus", "westus", "centralus", "southcentralus", "northcentralus"))


def default_comparison(offers: OfferCatalog, perf: PerfTable, build: Build, per_provider: int = 1) -> list[ChartOffer]:
    """The best on-demand work per dollar of each provider among today's offers of the build's class of GPU: at
    least three quarters of the build's VRAM per GPU (a 24 GB card meets 18 GB or more) and the same number of
    GPUs. Relaxed step by step (the nearest GPU count, then any VRAM) for a provider with no such offer."""
    gpus = build.of_kind(Kind.GPU)
    count = sum(i.quantity for i in gpus) or 1
    vram = max((getattr(i.part, "vram_gb", None) or 0 for i in gpus), default=0) or 16  # no GPU yet: a 16 GB class
    eff = build.assumptions.scaling_cloud
    perf = perf_for(build.assumptions, perf)
    # An offer whose price the import flagged as odd is not a default (Offer.odd_price); the user can still tick it.
    rated = [
        (work_per_dollar(o, perf, eff), o)
        for o in offers.offers
        if o.snapshot == "current" and is_trainer(o) and o.odd_price is None
    ]
    rated = [(w, o) for w, o in rated if w > 0]
    tests: list[Callable[[Offer], bool]] = [
        lambda o: o.gpu_count == count and (o.vram_gb_each or 0) >= 0.75 * vram,
        lambda o: (o.vram_gb_each or 0) >= 0.75 * vram,
        lambda o: o.gpu_count == count,
        lambda o: True,
    ]
    chosen: list[tuple[float, Offer]] = []
    for provider in sorted({o.provider for _, o in rated}):
        mine = [(w, o) for w, o in rated if o.provider == provider]
        for test in tests:
            # the nearest GPU count first (an 8x H200 is not the 2-GPU desktop's rival), then the most work per dollar
            fit = sorted(
                ((w, o) for w, o in mine if test(o)),
                key=lambda wo: (abs(wo[1].gpu_count - count), -wo[0], not _us(wo[1]), wo[1].id),
            )
            if fit:
                chosen += fit[:per_provider]
                break
    chosen.sort(key=lambda wo: -wo[0])
    return [ChartOffer(offer=o.id, pricing=Pricing.ON_DEMAND) for _, o in chosen[:MAX_COMPARED]]


class OfferTableModel(QAbstractTableModel):
    """Read-only offers with a check box in the first column; toggling it asks for a new comparison (the build holds
    the comparison: the view sets it back with set_comparison once the document has it)."""

    toggled = Signal(str, bool)  # offer id, on the chart

    def __init__(self, offers: OfferCatalog, perf: PerfTable, money: Callable[..., str]) -> None:
        """money: the window's Money (rigplan.gui.widgets.money): offers are priced in USD and shown converted."""
        super().__init__()
        self.perf = perf
        self._efficiency: float | None = None  # the measured medians until the build sets its own
        # Most work per dollar first: the order the table opens in, without a sort pass through the proxy.
        rated = [(work_per_dollar(o, perf, self._efficiency), o) for o in offers.offers]
        rated.sort(key=lambda wo: (wo[1].snapshot != "current", -wo[0], wo[1].provider, wo[1].instance_type))
        self.offers = [o for _, o in rated]
        self._money = money
        self._work = [w for w, _ in rated]
        self._sort_keys: dict[int, list[Any]] = {}
        self._charted: dict[str, Pricing] = {}
        self._row = {o.id: n for n, o in enumerate(self.offers)}

    def _per_usd(self) -> float | None:
        convert = getattr(self._money, "convert", None)
        return convert(1.0, "USD") if convert else 1.0

    def currency_changed(self) -> None:
        """The build's currency or rate changed: the prices and headers are shown again, converted."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(HEADERS) - 1)
        if self.offers:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.offers) - 1, len(HEADERS) - 1))

    def set_efficiency(self, efficiency: float | None) -> None:
        if efficiency != self._efficiency:
            self._efficiency = efficiency
            self._work = [work_per_dollar(o, self.perf, efficiency) for o in self.offers]
            self._sort_keys.pop(COL_WORK, None)
            self.dataChanged.emit(self.index(0, COL_WORK), self.index(self.rowCount() - 1, COL_WORK))

    def set_comparison(self, chosen: list[ChartOffer]) -> None:
        new = {c.offer: c.pricing for c in chosen}
        if new == self._charted:
            return
        changed = set(new) ^ set(self._charted) | {k for k in new if self._charted.get(k) != new[k]}
        self._charted = new
        for oid in changed:
            row = self._row.get(oid)
            if row is not None:
                self.dataChanged.emit(self.index(row, COL_CHART), self.index(row, COL_CHART))

    def charted_pricing(self, offer_id: str) -> Pricing | None:
        return self._charted.get(offer_id)

    def row_of(self, offer_id: str) -> int | None:
        return self._row.get(offer_id)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.offers)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation != Qt.Orientation.Horizontal:
            return None
        sign = getattr(self._money, "sign", "$")
        if role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section].replace("$", sign)
        if role == Qt.ItemDataRole.ToolTipRole:
            converted = "" if sign == "$" else f" (priced in US dollars; converted to {sign} at the build's rate)"
            return {
                COL_WORK: WORK_TIP + converted,
                COL_OD: f"{sign} per hour, on demand{converted}",
                COL_SPOT: f"{sign} per hour, spot (can be interrupted){converted}",
                COL_CHART: "Tick to draw the offer on the break-even chart (at most 8)",
            }.get(section)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return base | Qt.ItemFlag.ItemIsUserCheckable if index.column() == COL_CHART else base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if index.column() == COL_CHART and role == Qt.ItemDataRole.CheckStateRole:
            on = Qt.CheckState(value) == Qt.CheckState.Checked
            self.toggled.emit(self.offers[index.row()].id, on)
            return True
        return False

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        o, c = self.offers[index.row()], index.column()
        if role == OFFER_ROLE:
            return o.id
        if c == COL_CHART:
            pricing = self._charted.get(o.id)
            if role == Qt.ItemDataRole.CheckStateRole:
                return Qt.CheckState.Checked if pricing else Qt.CheckState.Unchecked
            if role == Qt.ItemDataRole.DisplayRole:
                return pricing.value if pricing else ""
            if role == SORT_ROLE:
                return 0 if pricing else 1
            return None
        value = self._value(o, index.row(), c)
        if role == SORT_ROLE:
            return value
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(o, c, value)
        if role == Qt.ItemDataRole.ToolTipRole:
            quirks = ("\nQuirks: " + "; ".join(o.quirks)) if o.quirks else ""
            note = f"\n{o.data_date_note}" if o.data_date_note and o.data_date_note != o.date_text else ""
            return tip(f"{o.label}\n{o.source}; prices as of {o.date_text}{note}{quirks}")
        if role == Qt.ItemDataRole.TextAlignmentRole and c in (COL_GPUS, COL_VRAM, COL_OD, COL_SPOT, COL_WORK):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def sort_key(self, row: int, col: int) -> Any:
        """The value a column sorts by, computed once per column (sorting 1,500 rows asks ~20,000 times)."""
        keys = self._sort_keys.get(col)
        if keys is None:
            if col == COL_CHART:
                return 0 if self._charted.get(self.offers[row].id) else 1
            keys = self._sort_keys[col] = [self._value(o, n, col) for n, o in enumerate(self.offers)]
        return keys[row]

    def _value(self, o: Offer, row: int, c: int) -> Any:
        return {
            COL_PROVIDER: provider_name(o.provider),
            COL_INSTANCE: o.instance_type,
            COL_REGION: o.region,
            COL_GPUS: o.gpu_count if o.gpu_model else None,
            COL_VRAM: o.vram_gb_each * o.gpu_count if o.vram_gb_each else None,
            COL_OD: o.ondemand_usd_h,
            COL_SPOT: o.spot_usd_h,
            COL_WORK: self._work[row] or None,
            COL_DATE: o.date_text if o.snapshot == "current" else f"{o.date_text} (historic)",
        }[c]

    def _text(self, o: Offer, c: int, value: Any) -> str:
        if c == COL_GPUS:
            return o.gpus_text if o.gpu_model else "unknown"
        if c == COL_VRAM:
            return f"{value:,.0f} GB" if value else "?"
        if c in (COL_OD, COL_SPOT):
            return f"{self._money(value, 'USD')}/h" if value else "no price"
        if c == COL_WORK:  # V100-hours per USD, shown per unit of the build's currency
            per = self._per_usd()
            return f"{value / per:.2f}" if value and per else ""
        return str(value)


class OfferFilterProxy(QSortFilterProxyModel):
    """Filters: provider, region, GPU model (exact), a pricing the offer must have, words anywhere in the label."""

    def __init__(self) -> None:
        super().__init__()
        self.setSortRole(SORT_ROLE)
        self.provider = self.region = self.gpu = ""
        self.pricing: Pricing | None = None
        self.current_only = True
        self._words: list[str] = []

    def set_filter(self, **kw: Any) -> None:
        words = kw.pop("words", None)
        if words is not None:
            kw["_words"] = words.lower().split()
        if any(getattr(self, k) != v for k, v in kw.items()):
            for k, v in kw.items():
                setattr(self, k, v)
            refilter(self)

    def filterAcceptsRow(self, row: int, parent: Index) -> bool:  # noqa: N802
        model: OfferTableModel = self.sourceModel()  # type: ignore[assignment]
        o = model.offers[row]
        # The filters and the search apply to charted offers too (issue 40): kept on top though they did not match,
        # the first row a user ticked after searching was a charted offer, and the tick took its curve off.
        # A historic offer on the chart stays listed with "Historic" unticked (it was charted from a file).
        hidden_historic = self.current_only and o.snapshot != "current" and not model.charted_pricing(o.id)
        return not hidden_historic and self._matches(o)

    def _matches(self, o: Offer) -> bool:
        if self.provider and o.provider != self.provider:
            return False
        if self.region and o.region != self.region:
            return False
        if self.gpu and o.gpu_model != self.gpu:
            return False
        if self.pricing is not None and not o.hourly(self.pricing):
            return False
        if self._words:
            text = f"{o.label} {o.snapshot}".lower()
            return all(w in text for w in self._words)
        return True

    def lessThan(self, left: Index, right: Index) -> bool:  # noqa: N802
        model: OfferTableModel = self.sourceModel()  # type: ignore[assignment]
        a, b = model.sort_key(left.row(), left.column()), model.sort_key(right.row(), right.column())
        if a is None or b is None:  # unknowns last whichever the order
            return (a is not None) if self.sortOrder() == Qt.SortOrder.AscendingOrder else (a is None and b is not None)
        try:
            return a < b
        except TypeError:
            return str(a) < str(b)
