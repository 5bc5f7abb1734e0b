"""The assumptions panel: one field per assumption, with units, limits and its default's source as a tooltip."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QWidget

from rigplan.model import DEFAULT_SOURCES, KNOWN_CURRENCIES, Assumptions, Pricing

# field, label, suffix, min, max, decimals, step, shown as percent
FIELDS: list[tuple[str, str, str, float, float, int, float, bool]] = [
    ("electricity_per_kwh", "Electricity", " /kWh", 0, 5, 3, 0.01, False),
    ("hours_per_day", "Hours at load", " h/day", 0, 24, 1, 0.5, False),
    ("idle_hours_per_day", "Hours idle", " h/day", 0, 24, 1, 0.5, False),
    ("horizon_years", "Horizon", " years", 0.25, 10, 2, 0.25, False),
    ("resale_fraction", "Resale at horizon", " %", 0, 100, 0, 5, True),
    ("tax_fraction", "Tax on parts", " %", 0, 100, 1, 1, True),
    ("shipping", "Shipping", "", 0, 100000, 2, 10, False),
    ("spot_overhead", "Spot work lost", " %", 0, 90, 0, 1, True),
    ("storage_gb", "Cloud storage", " GB", 0, 1e6, 0, 100, False),
    ("storage_per_gb_month", "Storage price", " $/GB-month", 0, 10, 3, 0.01, False),
    ("egress_gb_month", "Egress", " GB/month", 0, 1e6, 0, 50, False),
    ("egress_per_gb", "Egress price", " $/GB", 0, 10, 3, 0.01, False),
    ("scaling_efficiency", "Multi-GPU scaling", " per added GPU", 0.05, 1.2, 2, 0.05, False),
    ("usd_rate", "Rate per USD", "", 0.0001, 1e6, 4, 0.01, False),
    ("wall_voltage", "Wall circuit", " V", 90, 480, 0, 10, False),
    ("wall_amps", "Breaker", " A", 1, 100, 0, 1, False),
]


class AssumptionsForm(QWidget):
    changed = Signal(object)  # Assumptions

    def __init__(self) -> None:
        super().__init__()
        self._loading = False
        self.assumptions = Assumptions()
        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.currency = QComboBox()
        self.currency.addItems(sorted(KNOWN_CURRENCIES))
        self.currency.setAccessibleName("Currency")
        self.currency.setToolTip(DEFAULT_SOURCES["currency"])
        form.addRow("Currency", self.currency)
        self.spins: dict[str, QDoubleSpinBox] = {}
        for name, label, suffix, lo, hi, dec, step, pct in FIELDS:
            spin = QDoubleSpinBox()
            spin.setRange(lo, hi)
            spin.setDecimals(dec)
            spin.setSingleStep(step)
            spin.setSuffix(suffix)
            spin.setKeyboardTracking(False)  # apply on Enter or focus out, not on every digit
            spin.setAccessibleName(label)
            spin.setToolTip(DEFAULT_SOURCES.get(name, ""))
            spin.setProperty("percent", pct)
            spin.valueChanged.connect(self._emit)
            self.spins[name] = spin
            form.addRow(label, spin)
        speed_row = QHBoxLayout()
        self.speed_auto = QCheckBox("from GPU benchmarks")
        self.speed_auto.setChecked(True)
        self.speedup = QDoubleSpinBox()
        self.speedup.setRange(0.01, 100)
        self.speedup.setDecimals(2)
        self.speedup.setSuffix(" x")
        self.speedup.setAccessibleName("Speed ratio")
        self.speedup.setToolTip(DEFAULT_SOURCES["speedup"])
        self.speedup.setEnabled(False)
        speed_row.addWidget(self.speed_auto)
        speed_row.addWidget(self.speedup)
        form.addRow("Speed ratio", speed_row)
        self.pricing = QComboBox()
        for p in Pricing:
            self.pricing.addItem(p.value, p)
        self.pricing.setToolTip(DEFAULT_SOURCES["pricing"])
        self.pricing.setAccessibleName("Default cloud pricing")
        form.addRow("New offers priced", self.pricing)
        self.currency.currentTextChanged.connect(self._emit)
        self.speed_auto.toggled.connect(self._speed_toggled)
        self.speedup.valueChanged.connect(self._emit)
        self.pricing.currentIndexChanged.connect(self._emit)

    def _speed_toggled(self, auto: bool) -> None:
        self.speedup.setEnabled(not auto)
        self._emit()

    def set_assumptions(self, a: Assumptions) -> None:
        self._loading = True
        self.assumptions = a
        self.currency.setCurrentText(a.currency)
        for name, spin in self.spins.items():
            value = getattr(a, name)
            spin.setValue(value * 100 if spin.property("percent") else value)
        self.speed_auto.setChecked(a.speedup is None)
        self.speedup.setEnabled(a.speedup is not None)
        if a.speedup is not None:
            self.speedup.setValue(a.speedup)
        self.pricing.setCurrentIndex(list(Pricing).index(a.pricing))
        self.spins["usd_rate"].setEnabled(a.currency != "USD" or a.usd_rate != 1)
        self._loading = False

    def value(self) -> Assumptions | str:
        """The assumptions on screen, or a message saying why they are not valid."""
        data = self.assumptions.model_dump()
        for name, spin in self.spins.items():
            data[name] = spin.value() / 100 if spin.property("percent") else spin.value()
        data["currency"] = self.currency.currentText()
        data["speedup"] = None if self.speed_auto.isChecked() else self.speedup.value()
        data["pricing"] = Pricing(self.pricing.currentData())
        try:
            return Assumptions.model_validate(data)
        except ValueError as exc:
            return str(exc).splitlines()[-1].strip() if str(exc) else "invalid value"

    def _emit(self, *_: object) -> None:
        if self._loading:
            return
        self.spins["usd_rate"].setEnabled(self.currency.currentText() != "USD" or self.spins["usd_rate"].value() != 1)
        value = self.value()
        self.changed.emit(value)
