"""Help > RigPlan documentation (F1) inside the app (issue 29): the bundled docs/*.md rendered by Qt's own Markdown
reader, so help works without a browser or a network. Without bundled docs, the dialog says where they are online."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QHBoxLayout, QListWidget, QListWidgetItem, QTextBrowser, QWidget

DOCS_URL = "https://github.com/rigplan/rigplan/tree/main/docs"
FIRST = ("checks.md", "cost-model.md", "exports.md")  # what a user opens help for, then the rest by name


class DocsDialog(QDialog):
    def __init__(self, parent: QWidget | None, docs_dir: Path | None) -> None:
        super().__init__(parent)
        self.setWindowTitle("RigPlan documentation")
        self.pages = QListWidget()
        self.pages.setAccessibleName("Documentation pages")
        self.pages.setMaximumWidth(220)
        self.view = QTextBrowser()
        self.view.setAccessibleName("Documentation")
        self.view.setOpenExternalLinks(True)
        lay = QHBoxLayout(self)
        lay.addWidget(self.pages)
        lay.addWidget(self.view, 1)
        files = sorted(docs_dir.glob("*.md")) if docs_dir is not None and docs_dir.is_dir() else []
        files.sort(key=lambda p: (FIRST.index(p.name) if p.name in FIRST else len(FIRST), p.name))
        for f in files:
            item = QListWidgetItem(f.stem.replace("-", " ").capitalize())
            item.setData(Qt.ItemDataRole.UserRole, str(f))
            self.pages.addItem(item)
        self.pages.currentItemChanged.connect(lambda cur, _: self.show_page(cur))
        if files:
            self.pages.setCurrentRow(0)
        else:
            self.view.setMarkdown(
                f"The documentation is not bundled with this copy of RigPlan. Read it at <{DOCS_URL}>."
            )
        self.resize(1000, 680)

    def show_page(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        path = Path(item.data(Qt.ItemDataRole.UserRole))
        try:
            text = path.read_text("utf-8")
        except OSError as exc:
            text = f"Cannot read {path.name}: {exc.strerror or exc}"
        self.view.setSearchPaths([str(path.parent)])
        self.view.setMarkdown(text)
