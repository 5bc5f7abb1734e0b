"""The cost-model rows of the assumptions panel (issue 12): precision, scaling per side with a data-loader preset,
the resale share and curve, job mode and the exchange rate.

An optional assumption is an AutoField: its check box keeps the computed default (the box's text says which) and the
greyed spin box shows the value that default stands for, so what is used is what is seen; unticked, the spin box is
the user's. Every spin box here is a FieldSpin, so the form's rules (soft limits, a plain sentence under the field,
revert on a refused edit) hold for these rows as for the others.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Signal
from PySide6.QtWidgets import QAbstractSpinBox, QCheckBox, QComboBox, QDoubleSpinBox, QHBoxLayout, QWidget

from rigplan.costs.fx import NoRate, electricity_price
from rigplan.costs.perf import workload_rows
from rigplan.model import DEFAULT_SOURCES
from rigplan.model.assumptions import MAX_JOB, MAX_RATE, MAX_WALL_WATTS, Assumptions, Precision, Workload

# field, label, suffix, min, max, decimals, step, shown as percent, what the default is
OPTIONAL_FIELDS: list[tuple[str, str, str, float, float, int, float, bool, str]] = [
    ("fx_rate", "Rate per USD", "", 0.0001, MAX_RATE, 4, 0.01, False, "ECB"),
    ("resale_fraction", "Resale at horizon", " %", 0, 100, 0, 5, True, "curve"),
    ("scaling_desktop", "Scaling, desktop", " /added GPU", 0, 1, 2, 0.05, False, "measured"),
    ("scaling_cloud", "Scaling, cloud", " /added GPU", 0, 1, 2, 0.05, False, "measured"),
    ("load_watts", "Wall watts at load", " W", 0, MAX_WALL_WATTS, 0, 10, False, "build"),
    ("idle_watts", "Wall watts idle", " W", 0, MAX_WALL_WATTS, 0, 5, False, "build"),
    ("jobs_per_year", "Jobs a year", "", 0.1, MAX_JOB, 1, 1, False, "off"),
]
# Job mode: what one job is (the size box's meaning follows the choice). text, field, suffix
JOB_MODES = [
    ("By the day", None, ""),
    ("GPU-hours job", "job_hours", " V100-h"),
    ("Days job", "job_days", " days"),
]
# Where an unticked box starts when its default has no value to show ("auto"): a round figure to edit from.
START = {
    "fx_rate": 1.0,
    "speedup": 1.0,
    "scaling_cloud": 0.9,
    "load_watts": 500.0,
    "idle_watts": 60.0,
    "jobs_per_year": 12.0,
}
AGES = ("1 y", "2 y", "3 y", "5 y")
PRECISION_TEXT = {"mixed": "Mixed precision (AMP)", "fp32": "FP32"}


class FieldSpin(QDoubleSpinBox):
    """A spin box whose limits are advice, not a wall: any number can be typed (the form explains a wrong one),
    while the arrows and the wheel stay within the limits."""

    def __init__(self, lo: float, hi: float) -> None:
        super().__init__()
        self.soft = (lo, hi)
        self.hint_suffix: str | None = None  # the widest suffix the box will show, when it changes (job mode)
        span = max(abs(lo), abs(hi), 1.0) * 10  # room to type a wrong value in full, e.g. 25 h or -5 %
        self.setRange(-span, span)
        self.setKeyboardTracking(False)  # apply on Enter or focus out, not on every digit

    def sizeHint(self) -> QSize:  # noqa: N802
        # As wide as the limits' text needs, up to 4 digits (a longer number scrolls in the box), not the typing
        # room's: the panel keeps its width whatever the suffix (" V100-h" once widened it past its scroll area).
        hint = super().sizeHint()
        top = min(self.soft[1], 9_999)
        text = f"{top:,.{self.decimals()}f}{self.hint_suffix or self.suffix()}"
        return QSize(self.fontMetrics().horizontalAdvance(text) + 44, hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return self.sizeHint()

    def stepBy(self, steps: int) -> None:  # noqa: N802
        lo, hi = self.soft
        self.setValue(min(max(self.value() + steps * self.singleStep(), lo), hi))

    def stepEnabled(self) -> QAbstractSpinBox.StepEnabledFlag:  # noqa: N802
        lo, hi = self.soft
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        if not self.isEnabled():
            return flags
        if self.value() > lo:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        if self.value() < hi:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        return flags


def field_spin(lo: float, hi: float, dec: int, step: float, suffix: str, name: str, tip: str) -> FieldSpin:
    spin = FieldSpin(lo, hi)
    spin.setDecimals(dec)
    spin.setSingleStep(step)
    spin.setSuffix(suffix)
    spin.setAccessibleName(name)
    spin.setToolTip(tip)
    return spin


class AutoField(QWidget):
    """A check box (the computed default) and a spin box that is yours when the check box is off. While the default is
    in use the disabled spin box shows the value it stands for, or "auto" when there is none."""

    changed = Signal()

    def __init__(self, name: str, label: str, auto_text: str, spin: FieldSpin, percent: bool) -> None:
        super().__init__()
        self.name, self.label = name, label
        self.spin, self.percent, self.tip, self.auto_text = spin, percent, spin.toolTip(), auto_text
        self.auto = QCheckBox(auto_text)
        self.auto.setChecked(True)
        self.auto.setAccessibleName(f"{label}: {auto_text}")
        self.auto.setToolTip(self.tip)
        spin.setEnabled(False)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.auto)
        row.addWidget(spin, 1)
        self.auto.toggled.connect(self._toggled)
        spin.valueChanged.connect(lambda _: self.changed.emit())

    def _toggled(self, on: bool) -> None:
        self.spin.setEnabled(not on)
        if not on and self.spin.value() == self.spin.minimum():  # it showed "auto": start from a round figure
            self.spin.blockSignals(True)
            self.spin.setValue(START.get(self.name, self.spin.soft[0]))
            self.spin.blockSignals(False)
        self.spin.setSpecialValueText("")
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
            self.spin.setSpecialValueText("auto")  # the box's minimum reads "auto": no computed value to show
            self.spin.setValue(self.spin.minimum())
        else:
            self.spin.setSpecialValueText("")
            self.spin.setValue(value * 100 if self.percent else value)
        self.spin.blockSignals(False)


class CurveRow(QWidget):
    """The resale curve: the share kept after 1, 2, 3 and 5 years, and (in a row of its own above them, so the
    panel stays narrow) a check box for RigPlan's curve."""

    changed = Signal()

    def __init__(self) -> None:
        super().__init__()
        tip = DEFAULT_SOURCES["resale_curve"]
        self.auto = QCheckBox("curve, kept after 1, 2, 3, 5 y:")
        self.auto.setChecked(True)
        self.auto.setToolTip(tip)
        self.auto.setAccessibleName("Resale curve: RigPlan's curve")
        self.spins = [field_spin(0, 100, 0, 5, " %", f"Resale kept after {age}", tip) for age in AGES]
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        for spin in self.spins:
            spin.setEnabled(False)
            spin.valueChanged.connect(lambda _: self.changed.emit())
            row.addWidget(spin, 1)
        self.auto.toggled.connect(self._toggled)

    def _toggled(self, on: bool) -> None:
        for s in self.spins:
            s.setEnabled(not on)
        self.changed.emit()

    def set(self, curve: tuple[float, ...] | None, default: tuple[float, ...]) -> None:
        self.auto.setChecked(curve is None)
        for s, v in zip(self.spins, curve or default, strict=True):
            s.setEnabled(curve is not None)
            s.blockSignals(True)
            s.setValue(v * 100)
            s.blockSignals(False)

    def value(self) -> tuple[float, ...] | None:
        return None if self.auto.isChecked() else tuple(s.value() / 100 for s in self.spins)


class JobRow(QWidget):
    """Compare by the day, or by a job of GPU-hours or days (the size box follows the choice)."""

    changed = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.mode = QComboBox()
        for text, name, _ in JOB_MODES:
            self.mode.addItem(text, name)
        self.mode.setAccessibleName("Compare by")
        self.mode.setToolTip(DEFAULT_SOURCES["job_hours"] + "\n" + DEFAULT_SOURCES["job_days"])
        self.size_spin = field_spin(0.1, MAX_JOB, 1, 10, "", "Job size", self.mode.toolTip())
        self.size_spin.setValue(400)
        self.size_spin.hint_suffix = " V100-h"
        self.size_spin.setEnabled(False)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.mode, 1)
        row.addWidget(self.size_spin, 1)
        self.mode.currentIndexChanged.connect(self._mode_changed)
        self.size_spin.valueChanged.connect(lambda _: self.changed.emit())

    def _mode_changed(self, index: int) -> None:
        self.size_spin.setEnabled(index > 0)
        self.size_spin.setSuffix(JOB_MODES[index][2])
        self.changed.emit()

    def field(self) -> str | None:
        return JOB_MODES[self.mode.currentIndex()][1]

    def set(self, a: Assumptions) -> None:
        mode = 1 if a.job_hours is not None else 2 if a.job_days is not None else 0
        self.mode.setCurrentIndex(mode)
        self.size_spin.setEnabled(mode > 0)
        self.size_spin.setSuffix(JOB_MODES[mode][2])
        if mode:
            self.size_spin.setValue(a.job_hours if mode == 1 else a.job_days)  # type: ignore[arg-type]

    def gather(self, data: dict[str, object]) -> None:
        field = self.field()
        data["job_hours"] = self.size_spin.value() if field == "job_hours" else None
        data["job_days"] = self.size_spin.value() if field == "job_days" else None


def workload_box() -> QComboBox:
    """Whose measured speed the ratios use: all models (the default) or one of Lambda's (docs/cost-model.md)."""
    box = QComboBox()
    labels = {w["id"]: w["label"] for w in workload_rows()}
    for w in Workload:
        box.addItem(labels.get(w.value, w.value), w)
    box.setAccessibleName("Workload")
    box.setToolTip(DEFAULT_SOURCES["workload"])
    # The long labels must not widen the panel (the window fits 1280 px): the box shows what fits, the list all.
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(14)
    return box


def kwh_in_use(a: Assumptions) -> float:
    """The electricity price in use: the user's, or the dated default for the currency (rigplan.costs.fx)."""
    try:
        return round(electricity_price(a)[0], 3)
    except NoRate:  # a currency without a reference rate and no rate given: keep what is set
        return a.electricity_per_kwh or 0.0


def precision_box() -> QComboBox:
    box = QComboBox()
    for p in Precision:
        box.addItem(PRECISION_TEXT[p.value], p)
    box.setAccessibleName("Training precision")
    box.setToolTip(DEFAULT_SOURCES["precision"])
    return box
