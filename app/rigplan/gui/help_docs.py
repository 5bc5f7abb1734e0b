"""Help > RigPlan user guide (F1) inside the app: the guide shipped in resources/guide (getting started, then one page
per task), rendered by Qt's own Markdown reader, so help works without a browser or a network (issues 29, 40). The
developer documents stay in docs/ and are not what F1 opens. Without a bundled guide, the dialog says where it is
online."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QTextCursor, QTextDocument
from PySide6.QtWidgets import QDialog, QHBoxLayout, QListWidget, QListWidgetItem, QTextBrowser, QWidget

GUIDE_URL = "https://github.com/rigplan/rigplan/tree/main/resources/guide"


def guide_dir() -> Path:
    """The user guide's folder: resources/guide in a checkout, rigplan/_resources/guide in the wheel and the bundle."""
    from rigplan.paths import resources_dir

    return resources_dir() / "guide"


def page_title(path: Path) -> str:
    """The page's first '# ' heading, else its file name in words ("2-checks.md" -> "Checks")."""
    try:
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.startswith("# "):
                    return line[2:].split(":")[0].strip()
    except OSError:
        pass
    return path.stem.lstrip("0123456789-").replace("-", " ").capitalize()


class DocsDialog(QDialog):
    def __init__(self, parent: QWidget | None, docs_dir: Path | None) -> None:
        super().__init__(parent)
        self.setWindowTitle("RigPlan user guide")
        self.pages = QListWidget()
        self.pages.setAccessibleName("Guide pages")
        self.pages.setMaximumWidth(220)
        self.view = QTextBrowser()
        self.view.setAccessibleName("User guide")
        self.view.setOpenLinks(False)  # a link to another page selects it in the list; a web link opens the browser
        self.view.anchorClicked.connect(self._follow)
        lay = QHBoxLayout(self)
        lay.addWidget(self.pages)
        lay.addWidget(self.view, 1)
        files = sorted(docs_dir.glob("*.md")) if docs_dir is not None and docs_dir.is_dir() else []
        for f in files:  # in the order of their names: 1-getting-started.md first
            item = QListWidgetItem(page_title(f))
            item.setData(Qt.ItemDataRole.UserRole, str(f))
            self.pages.addItem(item)
        self.pages.currentItemChanged.connect(lambda cur, _: self.show_page(cur))
        if files:
            self.pages.setCurrentRow(0)
        else:
            self.view.setMarkdown(f"The user guide is not bundled with this copy of RigPlan. Read it at <{GUIDE_URL}>.")
        self.resize(1000, 680)

    def show_page(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        path = Path(item.data(Qt.ItemDataRole.UserRole))
        try:
            text = path.read_text("utf-8")
        except OSError as exc:
            text = f"Cannot read {path.name}: {exc.strerror or exc}"
        self.view.setSearchPaths([str(path.parent)])  # images/... resolve beside the page
        self.view.setMarkdown(text)
        self.fit_images()

    def fit_images(self) -> None:
        """Screenshots at most as wide as the page, so a 1280 px one needs no sideways scrolling."""
        doc = self.view.document()
        room = max(200, self.view.viewport().width() - 30)
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                frag = it.fragment()
                if frag.charFormat().isImageFormat():
                    fmt = frag.charFormat().toImageFormat()
                    image = doc.resource(QTextDocument.ResourceType.ImageResource, QUrl(fmt.name()))
                    size = image.size() if image is not None and hasattr(image, "size") else None
                    if size is not None and size.width() > 0:
                        width = min(size.width(), room)
                        fmt.setWidth(width)
                        fmt.setHeight(size.height() * width / size.width())
                        cursor = QTextCursor(doc)
                        cursor.setPosition(frag.position())
                        cursor.setPosition(frag.position() + frag.length(), QTextCursor.MoveMode.KeepAnchor)
                        cursor.setCharFormat(fmt)
                it += 1
            block = block.next()

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.fit_images()

    def open_page(self, name: str) -> bool:
        """Select the page whose file is `name` ("3-costs.md"); False when there is none."""
        for n in range(self.pages.count()):
            if Path(self.pages.item(n).data(Qt.ItemDataRole.UserRole)).name == name:
                self.pages.setCurrentRow(n)
                return True
        return False

    def _follow(self, url: QUrl) -> None:
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
        else:
            self.open_page(Path(url.path()).name)
