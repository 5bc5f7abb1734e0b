"""Above the build panel: the build's name (with a Rename button) and, while the build is empty, how to start."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QStyle, QToolButton, QVBoxLayout, QWidget

from rigplan import BUILD_SUFFIX
from rigplan.gui.widgets.plain import tip

if TYPE_CHECKING:
    from rigplan.model import Build


def example_builds() -> list[tuple[str, Path]]:
    """(name, file) of the example builds shipped beside the parts (a source checkout; the installers have none)."""
    from rigplan.paths import parts_dir

    folder = parts_dir().parent / "examples"
    out = []
    for path in sorted(folder.glob(f"*{BUILD_SUFFIX}")) if folder.is_dir() else []:
        name = path.name.removesuffix(BUILD_SUFFIX)
        try:  # the name line, read without pydantic (this runs before the second stage)
            for line in path.read_text("utf-8").splitlines()[:10]:
                if line.startswith("name:"):
                    name = line.removeprefix("name:").strip().strip("'\"") or name
                    break
        except (OSError, UnicodeDecodeError):
            continue
        out.append((name, path))
    return out


class BuildHeader(QWidget):
    rename_requested = Signal()
    example_requested = Signal(object)  # Path

    def __init__(self) -> None:
        super().__init__()
        self.name = QLabel()
        self.name.setAccessibleName("Build name")
        self.name.setTextFormat(Qt.TextFormat.PlainText)
        font = self.name.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.name.setFont(font)
        rename = QToolButton()
        rename.setText("Rename")
        rename.setToolTip("Rename the build (F2)")
        rename.clicked.connect(self.rename_requested.emit)
        row = QHBoxLayout()
        row.setContentsMargins(4, 2, 4, 2)
        row.addWidget(self.name, 1)
        row.addWidget(rename)
        self.start = QWidget()
        sl = QVBoxLayout(self.start)
        sl.setContentsMargins(4, 2, 4, 6)
        hint = QLabel(
            "<b>How to start:</b> pick a part on the right (say a GPU, then a CPU and a board that fit it) with a "
            "double-click, Enter or the Add button; the checks below and the Costs tab follow each change. "
            "Or open an example build:"
        )
        hint.setWordWrap(True)
        sl.addWidget(hint)
        examples = QHBoxLayout()
        icon = self.style().standardIcon(QStyle.StandardPixmap.SP_FileIcon)
        self.example_buttons: list[QPushButton] = []
        for name, path in example_builds():
            b = QPushButton(icon, name)
            b.setToolTip(f"Open a copy of {path.name} (saving asks for a new file)")
            b.clicked.connect(lambda _=False, p=path: self.example_requested.emit(p))
            examples.addWidget(b)
            self.example_buttons.append(b)
        examples.addStretch(1)
        sl.addLayout(examples)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(row)
        lay.addWidget(self.start)

    def show_build(self, build: Build | None) -> None:
        name = build.name if build is not None else "Untitled build"
        if self.name.text() != name:
            self.name.setText(name)
            self.name.setToolTip(tip(name))
        # Empty is nothing in it at all: a build of Other items only (a monitor, an OS licence) is started (issue 29).
        empty = build is None or not (build.items or build.other)
        if self.start.isHidden() == empty:
            self.start.setVisible(empty)
