"""A QSplitter made in one call: its widgets, their stretch factors, and the panes that may not collapse."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QWidget


def splitter(
    orientation: Qt.Orientation, *widgets: QWidget, stretch: tuple[int, ...] = (), keep: tuple[int, ...] = ()
) -> QSplitter:
    s = QSplitter(orientation)
    for w in widgets:
        s.addWidget(w)
    for i, factor in enumerate(stretch):
        s.setStretchFactor(i, factor)
    for i in keep:
        s.setCollapsible(i, False)
    return s
