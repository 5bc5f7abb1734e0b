""" "Other" line items in the Parts tab (issue 29): the add/edit dialog and the controller that turns the build
table's signals into undoable document edits.

An Other item is not a catalog part (rigplan.model.other): a name, a category, a quantity, a price with its currency,
date and source, and the watts it draws at the wall if known. Bad input (no name, a negative or unreadable price)
is refused with one message and the dialog stays open with what was typed.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QDate, QObject
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from rigplan.imports.money import parse_amount, parse_price
from rigplan.model.common import KNOWN_CURRENCIES, MAX_AMOUNT, Price
from rigplan.model.errors import one_line_validation
from rigplan.model.numbers import NumberError
from rigplan.model.other import MAX_OTHER_QUANTITY, MAX_OTHER_WATTS, OTHER_LABELS, OtherCategory, OtherItem

if TYPE_CHECKING:
    from rigplan.gui.files.document import BuildDocument
    from rigplan.gui.parts.build_panel import BuildPanel

TITLE = "Other item"
NOT_GIVEN = -1.0  # the watts box's special value: power not given (not counted), which is not 0 W
# Currencies written with "$": a "$25" typed with one of these chosen is in it, else in USD.
DOLLARS = frozenset({"USD", "CAD", "AUD", "NZD", "SGD", "HKD", "TWD", "MXN"})


class OtherItemDialog(QDialog):
    """Add or edit one Other item. `item` is the result after OK (None until then)."""

    def __init__(self, parent: QWidget | None, currency: str, item: OtherItem | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit Other item" if item else "Add an Other item")
        self.item: OtherItem | None = None
        form = QFormLayout()
        self.name = QLineEdit(item.name if item else "")
        self.name.setPlaceholderText("e.g. Arctic P14 case fan, Windows 11 Pro, PCIe riser cable, APC UPS")
        self.name.setAccessibleName("Name")
        self.category = QComboBox()
        self.category.setAccessibleName("Category")
        for cat in OtherCategory:
            self.category.addItem(OTHER_LABELS[cat], cat.value)
        self.category.setCurrentIndex(self.category.findData((item.category if item else OtherCategory.OTHER).value))
        self.quantity = QSpinBox()
        self.quantity.setRange(1, MAX_OTHER_QUANTITY)
        self.quantity.setValue(item.quantity if item else 1)
        self.quantity.setAccessibleName("Quantity")
        price = item.price if item else None
        self.price = QLineEdit(f"{price.amount:.2f}" if price else "")
        self.price.setPlaceholderText("price of one; empty: no price known")
        self.price.setAccessibleName("Price")
        self.currency = QComboBox()
        self.currency.addItems(sorted(KNOWN_CURRENCIES))
        self.currency.setCurrentText(price.currency if price else currency)
        self.currency.setAccessibleName("Currency")
        self.date = QDateEdit(
            QDate(price.date.year, price.date.month, price.date.day) if price and price.date else QDate.currentDate()
        )
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.date.setAccessibleName("Price date")
        self.source = QLineEdit(price.source if price else "")
        self.source.setPlaceholderText("where the price comes from (shop, listing...)")
        self.source.setAccessibleName("Price source")
        self.watts = QDoubleSpinBox()
        self.watts.setRange(NOT_GIVEN, MAX_OTHER_WATTS)
        self.watts.setDecimals(1)
        self.watts.setSuffix(" W")
        self.watts.setSpecialValueText("not given (not counted)")
        self.watts.setValue(item.watts if item and item.watts is not None else NOT_GIVEN)
        self.watts.setAccessibleName("Power")
        self.watts.setToolTip(
            "Watts one draws while the machine runs, from its maker's datasheet (a fan: its rated current x 12 V; a "
            "monitor: its typical power; a UPS: its own loss). A case fan is fed by the PSU, so its watts count in "
            "the PSU's load; the others are added at the wall. Not given: not counted, and the notes say so."
        )
        form.addRow("&Name", self.name)
        form.addRow("&Category", self.category)
        form.addRow("&Quantity", self.quantity)
        form.addRow("&Price (each)", self.price)
        form.addRow("C&urrency", self.currency)
        form.addRow("Price &date", self.date)
        form.addRow("Price &source", self.source)
        form.addRow("&Power (each)", self.watts)
        hint = QLabel(
            "Other items count in the build's total and cost of ownership, and are not resold at the horizon "
            "(user guide, Costs: F1). No compatibility check reads them."
        )
        hint.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(hint)
        lay.addWidget(self.buttons)
        self.setMinimumWidth(520)

    def _price(self) -> Price | None:
        """The typed price, or None for an empty box. Raises ValueError with the reason for anything else."""
        text = self.price.text().strip()
        if not text or text.lower() == "no price":
            return None
        try:  # the one number parser: "1,234.56", "$1,599", "549,00 €"; "-5" or "nan" is refused, never misread
            chosen = self.currency.currentText()
            found = parse_price(text, chosen if chosen in DOLLARS else "USD")
            amount, currency = found if found else (parse_amount(text), self.currency.currentText())
        except NumberError as exc:
            raise ValueError(f"the price {text!r} is not usable: {exc}") from None
        if not math.isfinite(amount) or not 0 <= amount <= MAX_AMOUNT:
            raise ValueError(f"a price must be a number from 0 to {MAX_AMOUNT:,.0f}")
        return Price(
            amount=amount,
            currency=currency,
            date=self.date.date().toPython(),  # type: ignore[arg-type]
            source=self.source.text().strip() or "your price",
        )

    def _accept(self) -> None:
        # Here, not at the top: a bare `from pydantic import ...` before PySide6 and the model trips pydantic's lazy
        # import (a circular-import error); by now the model has loaded pydantic whole.
        from pydantic import ValidationError

        if not self.name.text().strip():
            QMessageBox.warning(self, TITLE, "Give the item a name (e.g. 'Arctic P14 case fan').")
            self.name.setFocus()
            return
        try:
            price = self._price()
            watts = self.watts.value()
            self.item = OtherItem(
                name=self.name.text(),
                category=OtherCategory(self.category.currentData()),
                quantity=self.quantity.value(),
                price=price,
                watts=None if watts <= NOT_GIVEN else watts,
            )
        except ValidationError as exc:
            QMessageBox.warning(self, TITLE, f"Not added: {one_line_validation(exc)}")
            return
        except ValueError as exc:
            QMessageBox.warning(self, TITLE, f"Not added: {exc}.")
            self.price.setFocus()
            self.price.selectAll()
            return
        self.accept()


class OtherItemsController(QObject):
    """The build table's Other-item signals -> BuildDocument edits (each an undoable command)."""

    def __init__(self, window: QWidget, doc: BuildDocument, panel: BuildPanel) -> None:
        super().__init__(window)
        self.window, self.doc, self.panel = window, doc, panel
        panel.other_add_requested.connect(self.add)
        panel.other_edit_requested.connect(self.edit)
        panel.other_remove_requested.connect(doc.remove_other)
        panel.other_quantity_changed.connect(doc.set_other_quantity)
        panel.other_price_edited.connect(self.price_edited)

    def _dialog(self, item: OtherItem | None = None) -> OtherItemDialog:
        return OtherItemDialog(self.window, self.doc.build.assumptions.currency, item)

    def add(self) -> None:
        dlg = self._dialog()
        if dlg.exec() and dlg.item is not None:
            self.doc.add_other(dlg.item)
            self.panel.table.setCurrentCell(self.panel.other_row(len(self.doc.build.other) - 1), 1)

    def edit(self, index: int) -> None:
        if not 0 <= index < len(self.doc.build.other):
            return
        dlg = self._dialog(self.doc.build.other[index])
        if dlg.exec() and dlg.item is not None:
            self.doc.replace_other(index, dlg.item)

    def price_edited(self, index: int, value: float | None) -> None:
        """A price typed in the table: in the build's currency, dated today, "your price" (as a part's)."""
        if value is None:
            self.doc.set_other_price(index, None)
        elif not math.isfinite(value) or not 0 <= value <= MAX_AMOUNT:
            QMessageBox.warning(self.window, "Price", f"A price must be a number from 0 to {MAX_AMOUNT:,.0f}.")
            self.doc.changed.emit(self.doc.build)  # show the price that is still in force
        else:
            currency = self.doc.build.assumptions.currency
            price = Price(amount=value, currency=currency, date=dt.date.today(), source="your price")
            self.doc.set_other_price(index, price)
