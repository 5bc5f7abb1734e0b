"""What a part chosen in the picker does to a GPU or memory slot that already holds parts (issue 29): add another
one, or replace a named one, so swapping a GPU model on a board with a spare x16 slot is "Replace GPU 1" said aloud,
not a filter that silently assumed a third card. When every slot is full, adding is not offered: a choice replaces one
(the last, unless another is chosen).

Always in the row, at one width (issue 40): where there is no choice it says what a choice does, greyed ("Adds a
CPU", "Replaces the CPU"). It used to appear only for GPU and memory rows, which widened the picker's row, and the
splitter took 130 px from the build table under the user's pointer between the two clicks of a double-click."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QComboBox

from rigplan.kinds import Kind

if TYPE_CHECKING:
    from rigplan.model import Build

MULTI = (Kind.GPU, Kind.MEMORY)
ADDS = (*MULTI, Kind.STORAGE)  # kinds a chosen part is added to (the document's add_part); the others replace
ADD = "add"


class SwapTarget(QComboBox):
    def __init__(self) -> None:
        super().__init__()
        self.setAccessibleName("Add or replace")
        self.setToolTip("Add the chosen part as another one, or replace one already in the build")
        self._key: tuple[object, ...] = ()
        # Narrow in the row (the search box keeps its room at 1280 px); the list that opens shows whole names.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(14)
        self.setEnabled(False)

    def follow(self, build: Build | None, kind: Kind) -> None:
        """Offer the choices this build has for `kind`; keep the current one when it is still offered."""
        from rigplan.rules.compat import slots_full

        items = [i for i in build.items if i.part.kind == kind] if build is not None and kind in MULTI else []
        full = bool(items) and slots_full(build, kind) is not None if build is not None else False
        key = (kind, tuple((i.part.id, i.quantity) for i in items), full)
        if key == self._key:
            return
        self._key = key
        was = self.currentData()
        self.blockSignals(True)
        self.clear()
        noun = "GPU" if kind is Kind.GPU else "memory kit"
        if items and not full:
            self.addItem(f"Add another {noun}", ADD)
        n = 0
        for item in items:
            for _ in range(item.quantity if kind is Kind.GPU else 1):
                n += 1
                self.addItem(f"Replace {noun} {n}: {item.part.name}", item.part.id)
        if full and self.count():
            self.setCurrentIndex(self.count() - 1)  # the last one, as the filter assumes when slots are full
        found = self.findData(was)
        if was is not None and found >= 0:
            self.setCurrentIndex(found)
        if not items:  # no choice to make: say what choosing a part does, in the same place and width
            filled = build is not None and any(i.part.kind == kind for i in build.items)
            name = " ".join(w if w.isupper() else w.lower() for w in kind.label.split())  # "CPU cooler", "case"
            self.addItem(f"Replaces the {name}" if filled and kind not in ADDS else "Adds to the build", None)
        self.blockSignals(False)
        widest = max((self.fontMetrics().horizontalAdvance(self.itemText(n)) for n in range(self.count())), default=0)
        self.view().setMinimumWidth(widest + 40)
        self.setToolTip(self.currentText() or "Add the chosen part as another one, or replace one already in the build")
        self.setEnabled(bool(items))

    def offers_choice(self) -> bool:
        """True when the user can choose between adding and replacing (GPU and memory rows with parts)."""
        return self.isEnabled()

    def replacing(self) -> str | None:
        """The part id a choice replaces, or None to add."""
        data = self.currentData() if self.count() else None
        return None if data in (None, ADD) else str(data)

    def reset(self) -> None:
        self._key = ()
