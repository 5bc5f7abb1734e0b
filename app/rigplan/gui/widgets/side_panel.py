"""A side panel that folds away: a titled, scrollable column and the tool button that shows or hides it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QSplitter, QToolButton, QVBoxLayout, QWidget


class SidePanel(QWidget):
    def __init__(self, title: str, content: QWidget) -> None:
        super().__init__()
        scroll = QScrollArea()
        scroll.setWidget(content)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(content.sizeHint().width() + 24)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(f"<b>{title}</b>"))
        lay.addWidget(scroll, 1)
        self.button = QToolButton()
        self.button.setText(title)
        self.button.setCheckable(True)
        self.button.setChecked(True)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.button.setArrowType(Qt.ArrowType.LeftArrow)
        self.button.setToolTip(f"Show or hide the {title.lower()} panel")
        self.button.toggled.connect(self.fold)

    def fold(self, shown: bool) -> None:
        """Show (True) or hide the panel; the button follows."""
        self.setVisible(shown)
        split = self.parentWidget()
        if shown and isinstance(split, QSplitter):
            # Folded at first on a small screen, the splitter gave the panel no width: shown, it would stay 0 wide.
            sizes = split.sizes()
            n = split.indexOf(self)
            want = self.minimumSizeHint().width()
            if sizes[n] < want:
                other = 1 - n if len(sizes) == 2 else n
                sizes[other] = max(sizes[other] - (want - sizes[n]), 1)
                sizes[n] = want
                split.setSizes(sizes)
        self.button.setArrowType(Qt.ArrowType.LeftArrow if shown else Qt.ArrowType.RightArrow)
        if self.button.isChecked() != shown:
            self.button.setChecked(shown)
