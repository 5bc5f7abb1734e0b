"""The custom-part dialog: a part the catalog lacks, typed in by the user."""

from __future__ import annotations

import datetime as dt
import re

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from rigplan.model import KIND_LABELS, PART_CLASSES, GpuPower, Kind, Part, Price

# The specs a user can type for each kind (numbers only); others stay unknown.
CUSTOM_SPECS: dict[Kind, list[tuple[str, str]]] = {
    Kind.CPU: [("tdp_w", "TDP (W)"), ("cores", "Cores")],
    Kind.COOLER: [("height_mm", "Height (mm)"), ("radiator_mm", "Radiator (mm)")],
    Kind.MOTHERBOARD: [("memory_slots", "Memory slots"), ("max_memory_gb", "Max memory (GB)")],
    Kind.MEMORY: [("modules", "Modules"), ("module_gb", "GB per module")],
    Kind.STORAGE: [("capacity_gb", "Capacity (GB)")],
    Kind.GPU: [
        ("tdp_w", "TDP (W)"),
        ("length_mm", "Length (mm)"),
        ("slot_width", "Slots"),
        ("vram_gb", "VRAM (GB)"),
        ("pin8", "8-pin sockets"),
        ("pin16", "16-pin sockets"),
    ],
    Kind.PSU: [("wattage", "Wattage (W)"), ("length_mm", "Length (mm)")],
    Kind.CASE: [
        ("max_gpu_length_mm", "Max GPU length (mm)"),
        ("max_cooler_height_mm", "Max cooler height (mm)"),
        ("expansion_slots", "Expansion slots"),
    ],
}
INT_FIELDS = {
    "tdp_w",
    "cores",
    "radiator_mm",
    "memory_slots",
    "max_memory_gb",
    "modules",
    "wattage",
    "expansion_slots",
    "pin8",
    "pin16",
}
TEXT_SPECS = {
    Kind.CPU: ("socket", "Socket"),
    Kind.MOTHERBOARD: ("socket", "Socket"),
    Kind.MEMORY: ("ram_type", "Type (DDR4/DDR5)"),
    Kind.GPU: ("chipset", "Chipset (e.g. GeForce RTX 3090)"),
}


class CustomPartDialog(QDialog):
    """A part that is not in the catalog: kind, name, price and whatever specs are known (0 = unknown)."""

    def __init__(self, parent: QWidget | None = None, currency: str = "USD") -> None:
        super().__init__(parent)
        self.setWindowTitle("Add a custom part")
        self.currency = currency
        outer = QVBoxLayout(self)
        self.form = QFormLayout()
        self.specs = QFormLayout()  # rebuilt when the kind changes; the rest of the dialog stays
        outer.addLayout(self.form)
        outer.addLayout(self.specs)
        self.kind = QComboBox()
        for k in Kind:
            self.kind.addItem(KIND_LABELS[k], k)
        self.kind.setAccessibleName("Kind")
        self.name = QLineEdit()
        self.name.setAccessibleName("Name")
        self.price = QDoubleSpinBox()
        self.price.setRange(0, 1_000_000)
        self.price.setDecimals(2)
        self.price.setSuffix(f" {currency}")
        self.price.setSpecialValueText("no price")
        self.price.setAccessibleName("Price")
        self.source = QLineEdit()
        self.source.setPlaceholderText("where the price comes from (shop, listing...)")
        self.form.addRow("Kind", self.kind)
        self.form.addRow("Name", self.name)
        self.form.addRow("Price", self.price)
        self.form.addRow("Price source", self.source)
        self.spec_widgets: dict[str, QWidget] = {}
        self.hint = QLabel("Leave a spec at 0 or empty when you don't know it: the checks then say 'not checked'.")
        self.hint.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.hint)
        outer.addWidget(self.buttons)
        self.kind.currentIndexChanged.connect(lambda _: self._kind_changed())
        self._kind_changed()
        self.part: Part | None = None

    def _kind_changed(self) -> None:
        while self.specs.rowCount():
            self.specs.removeRow(0)
        self.spec_widgets = {}
        kind = Kind(self.kind.currentData())  # Qt hands enum data back as plain str
        if kind in TEXT_SPECS:
            field, label = TEXT_SPECS[kind]
            edit = QLineEdit()
            edit.setAccessibleName(label)
            self.spec_widgets[field] = edit
            self.specs.addRow(label, edit)
        for field, label in CUSTOM_SPECS[kind]:
            spin = QDoubleSpinBox()
            spin.setRange(0, 100000)
            spin.setDecimals(0 if field in INT_FIELDS else 1)
            spin.setSpecialValueText("unknown")
            spin.setAccessibleName(label)
            self.spec_widgets[field] = spin
            self.specs.addRow(label, spin)

    def _accept(self) -> None:
        name = self.name.text().strip()
        if not name:
            QMessageBox.warning(self, "Custom part", "Give the part a name.")
            return
        kind = Kind(self.kind.currentData())  # Qt hands enum data back as plain str
        data: dict[str, object] = {
            "kind": kind.value,
            "name": name,
            "custom": True,
            "id": "custom-" + (re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "part"),
        }
        if self.price.value() > 0:
            data["price"] = Price(
                amount=self.price.value(),
                currency=self.currency,
                date=dt.date.today(),
                source=self.source.text().strip() or "entered by you",
            )
        power: dict[str, int] = {}
        for field, w in self.spec_widgets.items():
            if isinstance(w, QLineEdit):
                if w.text().strip():
                    data[field] = w.text().strip()
                continue
            assert isinstance(w, QDoubleSpinBox)
            v = w.value()
            if v <= 0:
                continue
            if field in ("pin8", "pin16"):
                power[field] = int(v)
            else:
                data[field] = int(v) if field in INT_FIELDS else v
        if power:
            data["power_connectors"] = GpuPower(**power)
        try:
            self.part = PART_CLASSES[kind].model_validate(data)  # type: ignore[assignment]
        except ValueError as exc:
            QMessageBox.warning(self, "Custom part", f"That part is not valid: {str(exc).splitlines()[-1]}")
            return
        self.accept()
