"""The mouse wheel changes a combo box or spin box only when that field has the keyboard focus.

Scrolling a panel full of fields otherwise changes whichever field passes under the pointer (it changed the
currency). The guard takes the wheel event away from an unfocused field and lets it go on to the parent, so the
panel scrolls instead; click or Tab into the field first to wheel through its values.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QWidget


class _WheelGuard(QObject):
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Wheel and isinstance(obj, QWidget) and not obj.hasFocus():
            # Ignored and filtered: Qt then offers the event to the parent widgets (QApplication::notify does so for
            # wheel events whose receiver did not accept them), which scroll.
            event.ignore()
            return True
        return False


_GUARD = _WheelGuard()


def guard_wheel(root: QWidget) -> None:
    """Guard every combo box and spin box under `root` (and root itself). Safe to call again after adding fields."""
    fields = [root] if isinstance(root, (QAbstractSpinBox, QComboBox)) else []
    fields += root.findChildren(QAbstractSpinBox) + root.findChildren(QComboBox)
    for w in fields:
        if not w.property("wheelGuarded"):
            w.setProperty("wheelGuarded", True)
            # Wheel focus would let the first wheel turn focus the field and then change it.
            w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            w.installEventFilter(_GUARD)
