"""The frozen smoke test's user-guide check (issue 40; packaging/smoke_test.py, RIGPLAN_SMOKE_GUIDE=1).

It presses F1 the way Qt does for the user: the main window's action bound to the platform's Help key
(QKeySequence.HelpContents: F1 on Linux and Windows) is looked up by its shortcut, not by name, and triggered; so a
guide moved off F1 fails as surely as a bundle without resources/guide. The check then reads what the dialog shows:
the pages listed, the first page's file (it must lie inside the bundle when frozen, not in a checkout next to it),
its rendered text and the screenshots Qt actually loaded. One line, `GUIDE OK ...` or `GUIDE FAIL <why>`.
(QtTest's key clicks are not used: the bundle leaves PySide6.QtTest out.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QKeySequence, QTextDocument

if TYPE_CHECKING:
    from rigplan.gui.help_docs import DocsDialog
    from rigplan.gui.mainwindow import MainWindow

MIN_CHARS = 500  # Getting started is several paragraphs; an empty or "not bundled" page is far shorter


def help_key_action(window: MainWindow) -> QAction | None:
    """The one action the platform's Help key (F1) triggers in the main window, or None."""
    keys = {k.toString() for k in QKeySequence.keyBindings(QKeySequence.StandardKey.HelpContents)}
    found = [a for a in window.findChildren(QAction) if keys & {s.toString() for s in a.shortcuts()}]
    return found[0] if len(found) == 1 else None


def loaded_images(dlg: DocsDialog) -> int:
    """Screenshots the rendered page really shows (Qt found and decoded the file), not files that merely exist."""
    doc = dlg.view.document()
    n = 0
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                image = doc.resource(QTextDocument.ResourceType.ImageResource, QUrl(fmt.toImageFormat().name()))
                n += image is not None and not getattr(image, "isNull", lambda: True)()
            it += 1
        block = block.next()
    return n


def guide_smoke_line(window: MainWindow) -> str:
    action = help_key_action(window)
    if action is None:
        return "GUIDE FAIL no single action on the Help key (F1) in the main window"
    action.trigger()
    dlg = getattr(window, "docs_dialog", None)
    if dlg is None or not dlg.isVisible():
        return f"GUIDE FAIL F1 ({action.text()!r}) opened no guide window"
    pages = dlg.pages.count()
    if pages == 0:
        return "GUIDE FAIL no guide pages: resources/guide is missing from this copy"
    first = dlg.pages.item(0)
    page = Path(first.data(Qt.ItemDataRole.UserRole))
    where = str(page)
    meipass = getattr(sys, "_MEIPASS", None)
    if meipass is not None:
        if not page.is_relative_to(meipass):
            return f"GUIDE FAIL the first page {page} is not inside the bundle {meipass}"
        where = str(page.relative_to(meipass))
    text = dlg.view.toPlainText().strip()
    if dlg.pages.currentRow() != 0 or len(text) < MIN_CHARS:
        return f"GUIDE FAIL the first page {where} rendered {len(text)} characters"
    return f"GUIDE OK pages={pages} first={first.text()!r} file={where} chars={len(text)} images={loaded_images(dlg)}"
