"""What a part chosen in the picker does to a GPU or memory slot that already holds parts (issue 29): add another
one, or replace a named one. Shown beside the search box only when there is a choice to make, so swapping a GPU
model on a board with a spare x16 slot is "Replace GPU 1" said aloud, not a filter that silently assumed a third
card. When every slot is full, adding is not offered: a choice replaces one (the last, unless another is chosen)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QComboBox

from rigplan.kinds import Kind

if TYPE_CHECKING:
    from rigplan.model import Build

MULTI = (Kind.GPU, Kind.MEMORY)
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
        self.hide()

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
        self.blockSignals(False)
        widest = max((self.fontMetrics().horizontalAdvance(self.itemText(n)) for n in range(self.count())), default=0)
        self.view().setMinimumWidth(widest + 40)
        self.setToolTip(self.currentText() or "Add the chosen part as another one, or replace one already in the build")
        self.setVisible(bool(items))

    def replacing(self) -> str | None:
        """The part id a choice replaces, or None to add."""
        data = self.currentData() if self.isVisible() or self.count() else None
        return None if data in (None, ADD) else str(data)

    def reset(self) -> None:
        self._key = ()
