"""The assumptions panel: one field per assumption, with units, limits and its default's source as a tooltip.

Every field follows the same three rules, whichever row it is (rows added to FIELDS get them for free):
- what is shown is what the build holds: an edit that would make the assumptions invalid is not applied, the field
  goes back to the build's value, and a plain sentence under the field says why (never a library message);
- an invalid edit never blocks later edits of other fields (each edit is checked on its own against the build);
- a value beyond a field's limits can be typed in full (25 in "hours at load" is not cut to 2) and is explained;
- the mouse wheel changes a field only when it has the focus (see wheel_guard).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QSize, Signal
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QWidget,
)

from rigplan.gui.wheel_guard import guard_wheel
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

# Sentences for the checks that span several fields (the model's own message is the fallback).
CROSS_FIELD = {"24": "Hours at load plus hours idle must be at most 24 a day."}


class FieldSpin(QDoubleSpinBox):
    """A spin box whose limits are advice, not a wall: any number can be typed (the form explains a wrong one),
    while the arrows and the wheel stay within the limits."""

    def __init__(self, lo: float, hi: float) -> None:
        super().__init__()
        self.soft = (lo, hi)
        span = max(abs(lo), abs(hi), 1.0) * 10  # room to type a wrong value in full, e.g. 25 h or -5 %
        self.setRange(-span, span)

    def sizeHint(self) -> QSize:  # noqa: N802
        # As wide as the limits' text needs, not the typing room's (which would double the panel's width).
        hint = super().sizeHint()
        text = f"{self.soft[1]:.{self.decimals()}f}{self.suffix()}"
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance(text) + 44), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return self.sizeHint()

    def stepBy(self, steps: int) -> None:  # noqa: N802
        lo, hi = self.soft
        self.setValue(min(max(self.value() + steps * self.singleStep(), lo), hi))

    def stepEnabled(self) -> QAbstractSpinBox.StepEnabledFlag:  # noqa: N802
        lo, hi = self.soft
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        if self.value() > lo:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        if self.value() < hi:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        return flags


class AssumptionsForm(QWidget):
    changed = Signal(object)  # Assumptions: emitted only with valid assumptions, which the build then holds

    def __init__(self) -> None:
        super().__init__()
        self._loading = False
        self.assumptions = Assumptions()
        self._messages: dict[QWidget, QLabel] = {}
        self._labels: dict[str, str] = {}
        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        form.setVerticalSpacing(3)
        form.setContentsMargins(4, 4, 4, 4)
        self.form = form
        self.currency = QComboBox()
        self.currency.addItems(sorted(KNOWN_CURRENCIES))
        self.currency.setAccessibleName("Currency")
        self.currency.setToolTip(DEFAULT_SOURCES["currency"])
        form.addRow("Currency", self.currency)
        self.spins: dict[str, QDoubleSpinBox] = {}
        for name, label, suffix, lo, hi, dec, step, pct in FIELDS:
            spin = FieldSpin(lo, hi)
            spin.setDecimals(dec)
            spin.setSingleStep(step)
            spin.setSuffix(suffix)
            spin.setKeyboardTracking(False)  # apply on Enter or focus out, not on every digit
            spin.setAccessibleName(label)
            spin.setToolTip(DEFAULT_SOURCES.get(name, ""))
            spin.setProperty("percent", pct)
            spin.valueChanged.connect(self._emit)
            self.spins[name] = spin
            self._labels[name] = label
            form.addRow(label, spin)
        speed_row = QHBoxLayout()
        self.speed_auto = QCheckBox("from benchmarks")
        self.speed_auto.setChecked(True)
        self.speedup = QDoubleSpinBox()
        self.speedup.setRange(0.01, 100)
        self.speedup.setDecimals(2)
        self.speedup.setSuffix(" x")
        self.speedup.setKeyboardTracking(False)
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
        form.addRow("Default pricing", self.pricing)
        self._labels.update(currency="Currency", speedup="Speed ratio", pricing="Default pricing")
        self.currency.currentTextChanged.connect(self._emit)
        self.speed_auto.toggled.connect(self._speed_toggled)
        self.speedup.valueChanged.connect(self._emit)
        self.pricing.currentIndexChanged.connect(self._emit)
        guard_wheel(self)

    def showEvent(self, event: Any) -> None:  # noqa: N802
        guard_wheel(self)  # rows added after construction get the guard too
        super().showEvent(event)

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

    def _gather(self) -> dict[str, Any]:
        """The values on screen, as the model's fields."""
        data = self.assumptions.model_dump()
        for name, spin in self.spins.items():
            data[name] = spin.value() / 100 if spin.property("percent") else spin.value()
        data["currency"] = self.currency.currentText()
        data["speedup"] = None if self.speed_auto.isChecked() else self.speedup.value()
        data["pricing"] = Pricing(self.pricing.currentData())
        return data

    def value(self) -> Assumptions | str:
        """The assumptions on screen, or a plain sentence saying why they are not valid."""
        data = self._gather()
        problem = self._outside_limits()
        if problem:
            return problem[1]
        try:
            return Assumptions.model_validate(data)
        except ValidationError as exc:
            return self._plain(exc)[1]

    def _outside_limits(self) -> tuple[str, str] | None:
        for name, spin in self.spins.items():
            lo, hi = spin.soft if isinstance(spin, FieldSpin) else (spin.minimum(), spin.maximum())
            unit = spin.suffix().strip()
            shown = f"{spin.value():g}{spin.suffix()}"
            if spin.value() > hi:
                return name, f"{self._labels[name]} must be at most {hi:g} {unit}; {shown} is over.".replace(" ;", ";")
            if spin.value() < lo:
                return name, f"{self._labels[name]} must be at least {lo:g} {unit}; {shown} is under.".replace(
                    " ;", ";"
                )
        return None

    def _plain(self, exc: ValidationError) -> tuple[str | None, str]:
        """(field or None for a check over several fields, a sentence for the user)."""
        err = exc.errors()[0]
        field = str(err["loc"][0]) if err["loc"] else None
        label = self._labels.get(field or "", field or "These values")
        ctx = err.get("ctx") or {}
        kind = err["type"]
        bound = {"greater_than_equal": "at least", "greater_than": "more than", "less_than_equal": "at most"}
        bound["less_than"] = "less than"
        if kind in bound:
            limit = next((ctx[k] for k in ("ge", "gt", "le", "lt") if k in ctx), "")
            return field, f"{label} must be {bound[kind]} {limit}."
        text = str(err.get("msg", "")).removeprefix("Value error, ")
        for key, sentence in CROSS_FIELD.items():
            if key in text:
                return field, sentence
        return field, (text[:1].upper() + text[1:]).rstrip(
            "."
        ) + "." if text else f"{label}: this value is not possible."

    def _emit(self, *_: object) -> None:
        if self._loading:
            return
        sender = self.sender()
        self.spins["usd_rate"].setEnabled(self.currency.currentText() != "USD" or self.spins["usd_rate"].value() != 1)
        problem = self._outside_limits()
        new: Assumptions | None = None
        if problem is None:
            try:
                new = Assumptions.model_validate(self._gather())
            except ValidationError as exc:
                problem = self._plain(exc)  # type: ignore[assignment]
        if problem is not None or new is None:
            field, sentence = problem if problem else (None, "This value is not possible.")
            where = self._widget_for(field) or (sender if isinstance(sender, QWidget) else None)
            if field is None:  # a check over several fields: it is about the field just edited
                field = next((n for n, s in self.spins.items() if s is where), None)
            kept = self._shown_value(field) if field else None
            # Back to what the build holds, so the screen never shows what will not be saved; the sentence says why.
            self.set_assumptions(self.assumptions)
            self._clear_messages()
            if where is not None:
                self.show_message(where, sentence + (f" Kept {kept}." if kept else " Not applied."))
            return
        self._clear_messages()
        if new != self.assumptions:
            self.assumptions = new
            self.changed.emit(new)

    def _widget_for(self, field: str | None) -> QWidget | None:
        if field is None:
            return None
        return self.spins.get(field) or {
            "currency": self.currency,
            "speedup": self.speedup,
            "pricing": self.pricing,
        }.get(field)

    def _shown_value(self, field: str) -> str | None:
        spin = self.spins.get(field)
        if spin is None:
            return None
        value = getattr(self.assumptions, field)
        return f"{(value * 100 if spin.property('percent') else value):g}{spin.suffix()}"

    # --- messages next to the field ----------------------------------------------------------------------------------

    def _row_of(self, widget: QWidget) -> int:
        for row in range(self.form.rowCount()):
            item = self.form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if item is None:
                continue
            if item.widget() is widget:
                return row
            lay = item.layout()
            if isinstance(lay, QLayout) and lay.indexOf(widget) >= 0:
                return row
        return -1

    def show_message(self, widget: QWidget, text: str) -> None:
        """A sentence in a row of its own, right under the field's row."""
        label = self._messages.get(widget)
        if label is None:
            label = QLabel()
            label.setWordWrap(True)
            label.setStyleSheet("color: #c0392b")
            label.setAccessibleName("Problem with " + (widget.accessibleName() or "this field"))
            row = self._row_of(widget)
            self.form.insertRow(row + 1 if row >= 0 else self.form.rowCount(), label)
            self._messages[widget] = label
        label.setText(text)
        label.show()

    def message_for(self, widget: QWidget) -> str:
        label = self._messages.get(widget)
        return label.text() if label is not None and not label.isHidden() else ""

    def messages(self) -> list[str]:
        return [lab.text() for lab in self._messages.values() if not lab.isHidden()]

    def _clear_messages(self) -> None:
        for label in self._messages.values():
            label.hide()
