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
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QFormLayout, QLabel, QLayout, QPushButton, QWidget

from rigplan.costs.fx import load_fx
from rigplan.costs.resale import default_curve
from rigplan.gui.costs.assumptions_rows import (
    AGES,
    OPTIONAL_FIELDS,
    AutoField,
    CurveRow,
    FieldSpin,
    JobRow,
    field_spin,
    kwh_in_use,
    precision_box,
    workload_box,
)
from rigplan.gui.widgets.wheel_guard import guard_wheel
from rigplan.model import DEFAULT_SOURCES, KNOWN_CURRENCIES, Assumptions, Pricing
from rigplan.model.assumptions import DATA_LOADER_BOUND_SCALING, MAX_UNIT_PRICE, Precision, Workload

# field, label, suffix, min, max, decimals, step, shown as percent
FIELDS: list[tuple[str, str, str, float, float, int, float, bool]] = [
    # up to the model's limit: a kWh costs about 30 JPY or 150 KRW, far above the 5 this field once stopped at
    ("electricity_per_kwh", "Electricity", " /kWh", 0, MAX_UNIT_PRICE, 3, 0.01, False),
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

# Sentences for the checks that span several fields (the model's own message is the fallback).
CROSS_FIELD = {
    "24": "Hours at load plus hours idle must be at most 24 a day.",
    "USD report": "Prices are in USD: a USD build has no exchange rate to set.",
}


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
        self.optional: dict[str, AutoField] = {}
        self._add_optional(form, "fx_rate")
        self.spins: dict[str, FieldSpin] = {}
        for name, label, suffix, lo, hi, dec, step, pct in FIELDS:
            spin = field_spin(lo, hi, dec, step, suffix, label, DEFAULT_SOURCES.get(name, ""))
            spin.setProperty("percent", pct)
            spin.valueChanged.connect(self._emit)
            self.spins[name] = spin
            self._labels[name] = label
            form.addRow(label, spin)
            if name == "horizon_years":  # the resale rows belong with the horizon they are read at
                self._add_optional(form, "resale_fraction")
                self.curve = CurveRow()
                self.curve.changed.connect(self._emit)
                form.addRow("Resale by age", self.curve.auto)
                form.addRow(self.curve)  # the four shares span the panel's width
            if name == "idle_hours_per_day":
                self._add_optional(form, "load_watts")
                self._add_optional(form, "idle_watts")
        speed_spin = field_spin(0.01, 100, 2, 0.05, " x", "Speed ratio", DEFAULT_SOURCES["speedup"])
        self.speed_field = AutoField("speedup", "Speed ratio", "benchmarks", speed_spin, False)
        self.speed_field.show_default(None, "per offer: the desktop's measured speed over the instance's")
        self.speed_auto, self.speedup = self.speed_field.auto, speed_spin
        self.speed_field.changed.connect(self._emit)
        form.addRow("Speed ratio", self.speed_field)
        self.precision = precision_box()
        self.precision.currentIndexChanged.connect(self._emit)
        form.addRow("Precision", self.precision)
        self.workload = workload_box()
        self.workload.currentIndexChanged.connect(self._emit)
        form.addRow("Workload", self.workload)
        self._add_optional(form, "scaling_desktop")
        self._add_optional(form, "scaling_cloud")
        self.loader_bound = QPushButton(f"Data-loader bound: {DATA_LOADER_BOUND_SCALING:g}")
        self.loader_bound.setToolTip(
            "A workload limited by data loading: 4 GPUs gave only 1.54x one (p3.8xlarge vs p3.2xlarge, a 2021 user "
            "report). Sets both scaling fields; tick 'measured' to go back to the measured medians."
        )
        self.loader_bound.clicked.connect(self._data_loader_bound)
        form.addRow("", self.loader_bound)
        self.pricing = QComboBox()
        for p in Pricing:
            self.pricing.addItem(p.value, p)
        self.pricing.setToolTip(DEFAULT_SOURCES["pricing"])
        self.pricing.setAccessibleName("Default cloud pricing")
        form.addRow("Default pricing", self.pricing)
        self.job = JobRow()
        self.job.changed.connect(self._emit)
        form.addRow("Compare by", self.job)
        self._add_optional(form, "jobs_per_year")
        self._labels.update(
            currency="Currency",
            speedup="Speed ratio",
            pricing="Default pricing",
            precision="Precision",
            workload="Workload",
            resale_curve="Resale kept",
            job_hours="Job size",
            job_days="Job size",
        )
        self.currency.currentTextChanged.connect(self._emit)
        self.pricing.currentIndexChanged.connect(self._emit)
        self._show_defaults("USD")
        guard_wheel(self)

    def _add_optional(self, form: QFormLayout, field: str) -> None:
        name, label, suffix, lo, hi, dec, step, pct, auto_text = next(f for f in OPTIONAL_FIELDS if f[0] == field)
        spin = field_spin(lo, hi, dec, step, suffix, label, DEFAULT_SOURCES.get(name, ""))
        auto = AutoField(name, label, auto_text, spin, pct)
        auto.changed.connect(self._emit)
        self.optional[name] = auto
        self._labels[name] = label
        form.addRow(label, auto)

    # issue 12's names for the curve and job widgets
    @property
    def curve_auto(self) -> Any:
        return self.curve.auto

    @property
    def curve_spins(self) -> list[FieldSpin]:
        return self.curve.spins

    @property
    def job_mode(self) -> QComboBox:
        return self.job.mode

    @property
    def job_size(self) -> FieldSpin:
        return self.job.size_spin

    def showEvent(self, event: Any) -> None:  # noqa: N802
        guard_wheel(self)  # rows added after construction get the guard too
        super().showEvent(event)

    def _data_loader_bound(self) -> None:
        self._loading = True
        for name in ("scaling_desktop", "scaling_cloud"):
            self.optional[name].set(DATA_LOADER_BOUND_SCALING)
        self._loading = False
        self._emit()

    def _show_defaults(self, currency: str) -> None:
        """Put the computed defaults in the disabled fields, so what is used is what is seen."""
        kwh = self.spins["electricity_per_kwh"]
        if self.assumptions.electricity_per_kwh is None and self.assumptions.currency == currency:
            kwh.blockSignals(True)
            kwh.setValue(kwh_in_use(self.assumptions))
            kwh.blockSignals(False)  # the tooltip (the field's description) lists the dated defaults
        fx = load_fx()
        rate = self.optional["fx_rate"]
        rate.setEnabled(currency != "USD")  # prices are in USD: nothing to convert
        known = 1.0 if currency == "USD" else fx.rates.get(currency)
        text = f"ECB reference rate of {fx.date}: {known:g}" if known else f"no ECB rate for {currency}: enter one"
        rate.show_default(known, "prices are in USD" if currency == "USD" else text)
        self.curve.set(self.assumptions.resale_curve, default_curve()[0])

    def set_hints(self, hints: dict[str, tuple[float | None, str]]) -> None:
        """Computed defaults the cost view knows (wall watts, measured scaling, resale share): shown while in use."""
        for name, (value, text) in hints.items():
            if name in self.optional:
                self.optional[name].show_default(value, text)

    # --- model <-> widgets -----------------------------------------------------------------------------------------

    def set_assumptions(self, a: Assumptions) -> None:
        self._loading = True
        self.assumptions = a
        self.currency.setCurrentText(a.currency)
        for name, spin in self.spins.items():
            value = getattr(a, name) if name != "electricity_per_kwh" else kwh_in_use(a)
            spin.setValue(value * 100 if spin.property("percent") else value)
        self.speed_field.set(a.speedup)
        self.pricing.setCurrentIndex(list(Pricing).index(a.pricing))
        self.precision.setCurrentIndex(list(Precision).index(a.precision))
        self.workload.setCurrentIndex(list(Workload).index(a.workload))
        for name, field in self.optional.items():
            field.set(getattr(a, name))
        self.job.set(a)
        self._show_defaults(a.currency)
        self._loading = False

    def _gather(self) -> dict[str, Any]:
        """The values on screen, as the model's fields."""
        data = self.assumptions.model_dump()
        for name, spin in self.spins.items():
            data[name] = spin.value() / 100 if spin.property("percent") else spin.value()
        data["currency"] = self.currency.currentText()
        data["speedup"] = self.speed_field.value()
        data["pricing"] = Pricing(self.pricing.currentData())
        data["precision"] = Precision(self.precision.currentData())
        data["workload"] = Workload(self.workload.currentData())
        # The price shown for the currency's dated default stays "the default": a new currency then gets its own
        # dated price instead of this figure relabelled (EUR 0.2872, not USD 0.17 called euros).
        if data["electricity_per_kwh"] == kwh_in_use(self.assumptions.model_copy(update={"electricity_per_kwh": None})):
            data["electricity_per_kwh"] = None
        for name, field in self.optional.items():
            data[name] = field.value()
        if data["currency"] == "USD":
            data["fx_rate"] = None  # the rate row is off for USD: no rate is kept for it
        data["resale_curve"] = self.curve.value()
        self.job.gather(data)
        return data

    def value(self) -> Assumptions | str:
        """The assumptions on screen, or a plain sentence saying why they are not valid."""
        problem = self._problem(self._gather())
        return problem[1] if isinstance(problem, tuple) else problem

    def _live_spins(self) -> list[tuple[str, str, FieldSpin]]:
        """(field, label, spin) of every spin box whose value is the user's."""
        out = [(n, self._labels[n], s) for n, s in self.spins.items()]
        out += [(n, f.label, f.spin) for n, f in self.optional.items() if f.value() is not None]
        if self.speed_field.value() is not None:
            out.append(("speedup", "Speed ratio", self.speedup))
        if self.curve.value() is not None:
            out += [
                ("resale_curve", f"Resale kept after {age}", s) for age, s in zip(AGES, self.curve.spins, strict=True)
            ]
        if self.job.field():
            out.append((self.job.field() or "", "Job size", self.job.size_spin))
        return out

    def _outside_limits(self) -> tuple[str, str, QWidget] | None:
        for name, label, spin in self._live_spins():
            lo, hi = spin.soft
            unit = spin.suffix().strip()
            shown = f"{spin.value():g}{spin.suffix()}"
            if spin.value() > hi:
                return name, f"{label} must be at most {hi:g} {unit}; {shown} is over.".replace(" ;", ";"), spin
            if spin.value() < lo:
                return name, f"{label} must be at least {lo:g} {unit}; {shown} is under.".replace(" ;", ";"), spin
        return None

    def _problem(self, data: dict[str, Any]) -> Assumptions | tuple[str | None, str, QWidget | None]:
        """Valid assumptions, or (field or None, a sentence for the user, the widget it is about)."""
        limits = self._outside_limits()
        if limits is not None:
            return limits
        try:
            a = Assumptions.model_validate(data)
        except ValidationError as exc:
            field, sentence = self._plain(exc)
            return field, sentence, self._widget_for(field)
        if a.currency != "USD" and a.fx_rate is None and a.currency not in load_fx().rates:
            sentence = f"The ECB publishes no reference rate for {a.currency}: untick 'ECB' and enter its rate per USD."
            return "fx_rate", sentence, self.optional["fx_rate"].spin
        return a

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
        result = self._problem(self._gather())
        if isinstance(result, Assumptions):
            self._clear_messages()
            changed = result != self.assumptions
            self.assumptions = result
            self._show_defaults(result.currency)
            if changed:
                self.changed.emit(result)
            return
        field, sentence, where = result
        if where is None and isinstance(sender, QWidget):  # a check over several fields: about the field just edited
            where = sender
        # Back to what the build holds, so the screen never shows what will not be saved; the sentence says why.
        self.set_assumptions(self.assumptions)
        kept = self._shown(where)
        self._clear_messages()
        if where is not None:
            self.show_message(where, sentence + (f" Kept {kept}." if kept else " Not applied."))

    def _widget_for(self, field: str | None) -> QWidget | None:
        if field is None:
            return None
        if field in self.optional:
            return self.optional[field].spin
        widget: QWidget | None = self.spins.get(field) or {
            "currency": self.currency,
            "speedup": self.speedup,
            "pricing": self.pricing,
            "precision": self.precision,
            "resale_curve": self.curve,
            "job_hours": self.job.size_spin,
            "job_days": self.job.size_spin,
        }.get(field)
        return widget

    def _shown(self, widget: QWidget | None) -> str | None:
        """What a spin box shows once back to the build's value ("the default" while its default is in use)."""
        if isinstance(widget, AutoField):
            widget = widget.spin
        if not isinstance(widget, QAbstractSpinBox) or not isinstance(widget, FieldSpin):
            return None
        if not widget.isEnabled():
            return "the default"
        return f"{widget.value():g}{widget.suffix()}"

    # --- messages next to the field ----------------------------------------------------------------------------------

    def _row_of(self, widget: QWidget) -> int:
        for row in range(self.form.rowCount()):
            item = self.form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if item is None:
                continue
            held = item.widget()
            if held is widget or (held is not None and held.isAncestorOf(widget)):
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
