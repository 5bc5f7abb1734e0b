"""Screenshots of "Suggest a build" (docs/suggest.md uses them): the dialog after a break-even question, over the
main window, and the answer opened as a new build.

    xvfb-run -s "-screen 0 1920x1080x24" python tools/screenshots_suggest.py --size 1920x1080
    xvfb-run -s "-screen 0 1280x720x24" python tools/screenshots_suggest.py --size 1280x720

The dialog is drawn at its own size and place over the window sized to the screen, as a user on that screen sees it
(composed from the two windows' own renderings: Xvfb without a compositor gives black screen grabs).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    a = ap.parse_args()
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QColor, QPainter, QPixmap
    from PySide6.QtWidgets import QApplication

    from rigplan.gui.app import create_window
    from rigplan.gui.suggest_dialog import SuggestDialog

    app = QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    w_px, h_px = (int(x) for x in a.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        w = create_window(settings)
        w.resize(w_px, h_px)
        w.show()
        for _ in range(20):
            app.processEvents()

        def answer(dlg: SuggestDialog) -> int:  # what a user does in the dialog, then the screen as it shows
            dlg.show()
            dlg.goal.setCurrentIndex(dlg.goal.findText("The earliest break-even against a cloud offer"))
            dlg.budget.setValue(4000)
            dlg.min_ram.setValue(32)
            dlg.max_gpus.setValue(2)
            dlg.run()
            for _ in range(20):
                app.processEvents()
            # Xvfb without a compositor returns black from QScreen.grabWindow: compose the two windows as placed.
            shot = QPixmap(w_px, h_px)
            shot.fill(QColor("black"))
            painter = QPainter(shot)
            painter.drawPixmap(w.geometry().topLeft(), w.grab())
            painter.drawPixmap(dlg.geometry().topLeft(), dlg.grab())
            painter.end()
            shot.save(str(a.out / f"suggest-dialog-{a.size}.png"))
            print("saved", a.out / f"suggest-dialog-{a.size}.png")
            return int(dlg.open_button.isEnabled())

        SuggestDialog.exec = answer  # type: ignore[method-assign]
        w.act_suggest.trigger()  # exec() above stands in for the modal loop, so no event loop is needed
        w.tabs.setCurrentIndex(1)  # the Costs workspace: the break-even the dialog promised
        from PySide6.QtTest import QTest

        QTest.qWait(1500)  # the chart redraws on a short timer after the build changes
        print("curves on the chart:", ", ".join(w.costs.curve_data()))
        w.grab().save(str(a.out / f"suggest-build-{a.size}.png"))
        print("saved", a.out / f"suggest-build-{a.size}.png")
        w.doc.undo_stack.setClean()
    return 0


if __name__ == "__main__":
    sys.exit(main())
