"""F1 opens the user guide shipped in resources/guide (issue 40), not the developer documents in docs/: getting
started first, one page per task, its links between pages and its screenshots work."""

from __future__ import annotations

import re
from pathlib import Path

from gui_helpers import click_link, press
from PySide6.QtCore import QSettings

from rigplan.gui.help_docs import guide_dir
from rigplan.gui.mainwindow import MainWindow

GUIDE = Path(__file__).resolve().parents[2] / "resources" / "guide"
PAGES = ["Getting started", "Checks", "Costs", "Suggest a build", "Workload", "Importing a parts list", "Exports",
         "Updating prices and data"]  # fmt: skip


def test_guide_is_the_shipped_resources_folder() -> None:
    assert guide_dir().resolve() == GUIDE.resolve()


def test_f1_opens_the_user_guide_on_getting_started(qtbot, catalog, offers, perf, tmp_path: Path) -> None:  # noqa: ANN001
    w = MainWindow(catalog, offers, perf, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), GUIDE)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    assert getattr(w, "docs_dialog", None) is None  # nothing opened it yet
    press(qtbot, w.picker.search, "F1")  # the real key, from wherever the focus is in the window
    dlg = w.docs_dialog
    assert dlg is not None
    assert dlg.isVisible() and dlg.windowTitle() == "RigPlan user guide"
    assert [dlg.pages.item(n).text() for n in range(dlg.pages.count())] == PAGES
    text = dlg.view.toPlainText()
    assert "Open an example" in text and "Change the GPUs" in text and "Export" in text
    assert "rigplan.rules" not in text and "issue 2" not in text  # no developer documentation
    click_link(qtbot, dlg.view, "3-costs.md")  # a link in the page goes to that page
    assert dlg.pages.currentItem().text() == "Costs" and "break-even" in dlg.view.toPlainText().lower()


def test_every_link_and_image_of_the_guide_resolves() -> None:
    for page in GUIDE.glob("*.md"):
        text = page.read_text("utf-8")
        for target in re.findall(r"\]\(([^)#]+)\)", text):
            if not target.startswith("http"):
                assert (GUIDE / target).is_file(), f"{page.name} links to missing {target}"
        assert "docs/" not in text and "issue " not in text  # written for users, not developers


def test_without_bundled_guide_it_says_where_it_is(window: MainWindow) -> None:
    window.open_docs()
    assert "github.com/rigplan/rigplan" in window.docs_dialog.view.toPlainText()


def test_screenshots_fit_the_guides_width(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    """A 1280 px screenshot is drawn at most as wide as the page: no sideways scrolling to read the guide."""
    from rigplan.gui.help_docs import DocsDialog

    dlg = DocsDialog(window, GUIDE)
    qtbot.addWidget(dlg)
    dlg.resize(900, 600)
    dlg.show()
    qtbot.waitExposed(dlg)
    dlg.show_page(dlg.pages.item(0))
    qtbot.wait(50)
    assert "images/parts.png" in dlg.view.toHtml()
    assert not dlg.view.horizontalScrollBar().isVisible()
    assert dlg.view.document().size().width() <= dlg.view.viewport().width() + 1
