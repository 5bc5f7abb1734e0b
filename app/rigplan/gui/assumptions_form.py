"""The assumptions panel: one field per assumption, with units, limits and its default's source as a tooltip."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QPushButton,
    QWidget,
)

from rigplan.costs.fx import load_fx
from rigplan.costs.resale import default_curve
from rigplan.model import DEFAULT_SOURCES, KNOWN_CURRENCIES, Assumptions, Pricing
from rigplan.model.assumptions import DATA_LOADER_BOUND_SCALING, Precision

# field, label, suffix, min, max, decimals, step, shown as percent
FIELDS: list[tuple[str, str, str, float, float, int, float, bool]] = [
    ("electricity_per_kwh", "Electricity", " /kWh", 0, 5, 3, 0.01, False),
    ("hours_per_day", "Hours at load", " h/day", 0, 24, 1, 0.5, False),
    ("idle_hours_per_day", "Hours idle", " h/day", 0, 24, 1, 0.5, False),
    ("horizon_years", "Horizon", " years", 0.25, 10, 2, 0.25, False),
    ("tax_fraction", "Tax on parts", " %", 0, 100, 1, 1, True),
    ("shipping", "Shipping", "", 0, 100000, 2, 10, False),
    ("spot_overhead", "Spot work lost", " %", 0, 90, 0, 1, True),
    ("storage_gb", "Cloud storage", " GB", 0, 1e6, 0, 100, False),
    ("storage_per_gb_month", "Storage price", " $/GB-month", 0, 10, 3, 0.01, False),
    ("egress_gb_month", "Egress", " GB/month", 0, 1e6, 0, 50, False),
    ("egress_per_gb", "Egress price", " $/GB", 0, 10, 3, 0.01, False),
    ("wall_voltage", "Wall circuit", " V", 90, 480, 0, 10, False),
    ("wall_amps", "Breaker", " A", 1, 100, 0, 1, False),
]

# Optional assumptions: a checkbox keeps the computed default (its text says which); unticked, the spin box is yours.
# field, label, suffix, min, max, decimals, step, shown as percent, what the default is
OPTIONAL_FIELDS: list[tuple[str, str, str, float, float, int, float, bool, str]] = [
    ("fx_rate", "Rate per USD", "", 0.0001, 1e6, 4, 0.01, False, "ECB"),
    ("resale_fraction", "Resale at horizon", " %", 0, 100, 0, 5, True, "curve"),
    ("scaling_desktop", "Scaling, desktop", " per added GPU", 0, 1, 2, 0.05, False, "measured"),
    ("scaling_cloud", "Scaling, cloud", " per added GPU", 0, 1, 2, 0.05, False, "measured"),
    ("load_watts", "Wall watts at load", " W", 0, 20000, 0, 10, False, "build"),
    ("idle_watts", "Wall watts idle", " W", 0, 20000, 0, 5, False, "build"),
    ("jobs_per_year", "Jobs a year", "", 0, 10000, 1, 1, False, "off"),
]
# Job mode: what one job is (the spin box's meaning follows the choice).
JOB_MODES = [
    ("By the day", None, ""),
    ("Job of GPU-hours", "job_hours", " V100-h"),
    ("Job of days", "job_days", " days"),
]
AGES = ("1 y", "2 y", "3 y", "5 y")


def _spin(lo: float, hi: float, dec: int, step: float, suffix: str, name: str, tip: str) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(lo, hi)
    spin.setDecimals(dec)
    spin.setSingleStep(step)
    spin.setSuffix(suffix)
    spin.setKeyboardTracking(False)  # apply on Enter or focus out, not on every digit
    spin.setAccessibleName(name)
    spin.setToolTip(tip)
    return spin


class AutoField(QWidget):
    """A checkbox (the computed default) and a spin box that is yours when the checkbox is off. While the default is
    in use the disabled spin box shows the value it stands for, or "auto" when there is none."""

    changed = Signal()

    def __init__(self, label: str, auto_text: str, spin: QDoubleSpinBox, percent: bool) -> None:
        super().__init__()
        self.spin, self.percent, self.tip = spin, percent, spin.toolTip()
        self.auto = QCheckBox(auto_text)
        self.auto.setChecked(True)
        self.auto.setAccessibleName(f"{label}: {auto_text}")
        self.auto.setToolTip(self.tip)
        spin.setSpecialValueText("auto")  # the minimum shows as "auto" while no computed value is known
        spin.setEnabled(False)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.auto)
        row.addWidget(spin, 1)
        self.auto.toggled.connect(self._toggled)
        spin.valueChanged.connect(lambda _: self.changed.emit())

    def _toggled(self, on: bool) -> None:
        self.spin.setEnabled(not on)
        self.spin.setSpecialValueText("auto" if on else "")
        self.changed.emit()

    def set(self, value: float | None) -> None:
        self.auto.setChecked(value is None)
        self.spin.setEnabled(value is not None)
        if value is not None:
            self.spin.setSpecialValueText("")
            self.spin.setValue(value * 100 if self.percent else value)

    def value(self) -> float | None:
        if self.auto.isChecked():
            return None
        return self.spin.value() / 100 if self.percent else self.spin.value()

    def show_default(self, value: float | None, text: str = "") -> None:
        """The computed default this field stands for, in the disabled box and the tooltip."""
        self.auto.setToolTip(f"In use: {text}\n\n{self.tip}" if text else self.tip)
        if not self.auto.isChecked():
            return
        self.spin.blockSignals(True)
        if value is None:
            self.spin.setValue(self.spin.minimum())  # shows "auto"
        else:
            self.spin.setValue(value * 100 if self.percent else value)
        self.spin.blockSignals(False)


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
        self._add_model_fields(form)

    def _add_model_fields(self, form: QFormLayout) -> None:
        """Precision, per-side scaling, resale curve, job mode and exchange rate (issue 12)."""
        self.precision = QComboBox()
        for p in Precision:
            self.precision.addItem({"mixed": "Mixed precision (AMP)", "fp32": "FP32"}[p.value], p)
        self.precision.setAccessibleName("Training precision")
        self.precision.setToolTip(DEFAULT_SOURCES["precision"])
        self.precision.currentIndexChanged.connect(self._emit)
        form.addRow("Precision", self.precision)
        self.optional: dict[str, AutoField] = {}
        for name, label, suffix, lo, hi, dec, step, pct, auto_text in OPTIONAL_FIELDS:
            spin = _spin(lo, hi, dec, step, suffix, label, DEFAULT_SOURCES.get(name, ""))
            field = AutoField(label, auto_text, spin, pct)
            field.changed.connect(self._emit)
            self.optional[name] = field
            form.addRow(label, field)
        self.loader_bound = QPushButton(f"Data-loader bound ({DATA_LOADER_BOUND_SCALING:g})")
        self.loader_bound.setToolTip(
            "A workload limited by data loading: 4 GPUs gave only 1.54x one (p3.8xlarge vs p3.2xlarge, a 2021 user "
            "report). Sets both scaling fields; untick them to go back to the measured medians."
        )
        self.loader_bound.clicked.connect(self._data_loader_bound)
        form.addRow("", self.loader_bound)
        # resale curve: retained share after 1, 2, 3, 5 years
        self.curve_auto = QCheckBox("curve")
        self.curve_auto.setChecked(True)
        self.curve_auto.setToolTip(DEFAULT_SOURCES["resale_curve"])
        self.curve_auto.setAccessibleName("Resale curve: RigPlan's curve")
        self.curve_spins = [
            _spin(0, 100, 0, 5, " %", f"Retained after {age}", DEFAULT_SOURCES["resale_curve"]) for age in AGES
        ]
        curve_row = QHBoxLayout()
        for spin in self.curve_spins:
            spin.setEnabled(False)
            spin.valueChanged.connect(self._emit)
            curve_row.addWidget(spin)
        self.curve_auto.toggled.connect(self._curve_toggled)
        form.addRow("Resale by age", self.curve_auto)
        form.addRow("kept after 1/2/3/5 y", curve_row)
        # job mode
        self.job_mode = QComboBox()
        for text, name, _ in JOB_MODES:
            self.job_mode.addItem(text, name)
        self.job_mode.setAccessibleName("Compare by")
        self.job_mode.setToolTip(DEFAULT_SOURCES["job_hours"] + " " + DEFAULT_SOURCES["job_days"])
        self.job_size = _spin(0.1, 1e6, 1, 10, "", "Job size", self.job_mode.toolTip())
        self.job_size.setValue(400)
        self.job_size.setEnabled(False)
        job_row = QHBoxLayout()
        job_row.addWidget(self.job_mode, 1)
        job_row.addWidget(self.job_size, 1)
        self.job_mode.currentIndexChanged.connect(self._job_mode_changed)
        self.job_size.valueChanged.connect(self._emit)
        form.addRow("Compare by", job_row)
        self._show_defaults("USD")

    # --- reactions -----------------------------------------------------------------------------------------------

    def _speed_toggled(self, auto: bool) -> None:
        self.speedup.setEnabled(not auto)
        self._emit()

    def _curve_toggled(self, auto: bool) -> None:
        for s in self.curve_spins:
            s.setEnabled(not auto)
        self._emit()

    def _job_mode_changed(self, index: int) -> None:
        self.job_size.setEnabled(index > 0)
        self.job_size.setSuffix(JOB_MODES[index][2])
        self._emit()

    def _data_loader_bound(self) -> None:
        self._loading = True
        for name in ("scaling_desktop", "scaling_cloud"):
            self.optional[name].set(DATA_LOADER_BOUND_SCALING)
        self._loading = False
        self._emit()

    def _show_defaults(self, currency: str) -> None:
        """Put the computed defaults in the disabled fields, so what is used is what is seen."""
        fx = load_fx()
        known = fx.rates.get(currency)
        self.optional["fx_rate"].show_default(
            known, f"ECB reference rate of {fx.date}: {known:g}" if known else f"no ECB rate for {currency}: enter one"
        )
        if self.curve_auto.isChecked():
            curve, _ = default_curve()
            for s, v in zip(self.curve_spins, curve, strict=True):
                s.blockSignals(True)
                s.setValue(v * 100)
                s.blockSignals(False)

    def set_hints(self, hints: dict[str, tuple[float | None, str]]) -> None:
        """Computed defaults the cost view knows (wall watts, measured scaling, resale share): shown while in use."""
        for name, (value, text) in hints.items():
            if name in self.optional:
                self.optional[name].show_default(value, text)

    # --- model <-> widgets ---------------------------------------------------------------------------------------

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
        self.precision.setCurrentIndex(list(Precision).index(a.precision))
        for name, field in self.optional.items():
            field.set(getattr(a, name))
        self.curve_auto.setChecked(a.resale_curve is None)
        if a.resale_curve is not None:
            for s, v in zip(self.curve_spins, a.resale_curve, strict=True):
                s.setValue(v * 100)
        mode = 1 if a.job_hours is not None else 2 if a.job_days is not None else 0
        self.job_mode.setCurrentIndex(mode)
        self.job_size.setEnabled(mode > 0)
        self.job_size.setSuffix(JOB_MODES[mode][2])
        if mode:
            self.job_size.setValue(a.job_hours if mode == 1 else a.job_days)  # type: ignore[arg-type]
        self._show_defaults(a.currency)
        self._loading = False

    def value(self) -> Assumptions | str:
        """The assumptions on screen, or a message saying why they are not valid."""
        data = self.assumptions.model_dump()
        for name, spin in self.spins.items():
            data[name] = spin.value() / 100 if spin.property("percent") else spin.value()
        data["currency"] = self.currency.currentText()
        data["speedup"] = None if self.speed_auto.isChecked() else self.speedup.value()
        data["pricing"] = Pricing(self.pricing.currentData())
        data["precision"] = Precision(self.precision.currentData())
        for name, field in self.optional.items():
            data[name] = field.value()
        data["resale_curve"] = None if self.curve_auto.isChecked() else tuple(s.value() / 100 for s in self.curve_spins)
        job = JOB_MODES[self.job_mode.currentIndex()][1]
        data["job_hours"] = self.job_size.value() if job == "job_hours" else None
        data["job_days"] = self.job_size.value() if job == "job_days" else None
        try:
            a = Assumptions.model_validate(data)
        except ValueError as exc:
            return str(exc).splitlines()[-1].strip() if str(exc) else "invalid value"
        if a.currency != "USD" and a.fx_rate is None and a.currency not in load_fx().rates:
            return f"The ECB publishes no reference rate for {a.currency}: untick 'ECB' and enter its rate per USD."
        return a

    def _emit(self, *_: object) -> None:
        if self._loading:
            return
        self._show_defaults(self.currency.currentText())
        value = self.value()
        self.changed.emit(value)
