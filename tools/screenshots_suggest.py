"""Screenshots of "Suggest a build" (docs/suggest.md uses them): the dialog after a break-even question, over the
main window, and the answer opened as a new build on the Costs tab.

    xvfb-run -s "-screen 0 1920x1080x24" python tools/screenshots_suggest.py --size 1920x1080
    xvfb-run -s "-screen 0 1280x720x24" python tools/screenshots_suggest.py --size 1280x720

The dialog is drawn at its own size and place over the window sized to the screen, as a user on that screen sees it
(composed from the two windows' own renderings: Xvfb without a compositor gives black screen grabs).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from shots import pump, screen_window  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--form-only", action="store_true", help="the question as set, before the search (a quick shot)")
    ap.add_argument("--fit", action="store_true", help="$12,000 that must fit Llama 3.1 70B QLoRA (issue 28)")
    ap.add_argument("--four", action="store_true", help="$8,000, 4 GPUs, most GPU memory, scrolled to the notes")
    a = ap.parse_args()
    from PySide6.QtGui import QColor, QPainter, QPixmap

    from rigplan.gui.suggest.suggest_dialog import SuggestDialog

    with screen_window() as (app, w, _):

        def answer(dlg: SuggestDialog) -> int:  # what a user does in the dialog, then the screen as it shows
            dlg.show()
            if a.fit:
                dlg.goal.setCurrentIndex(dlg.goal.findText("The most training throughput"))
                dlg.budget.setValue(12000)
                dlg.max_gpus.setValue(4)
                dlg.fit.model.setCurrentIndex(dlg.fit.model.findData("llama-3.1-70b"))
                dlg.fit.task.setCurrentIndex(dlg.fit.task.findText("QLoRA"))
            elif a.four:
                dlg.goal.setCurrentIndex(dlg.goal.findText("The most GPU memory"))
                dlg.budget.setValue(8000)
                dlg.gpus.setValue(4)
            else:
                dlg.goal.setCurrentIndex(dlg.goal.findText("The earliest break-even against a cloud offer"))
                dlg.budget.setValue(4000)
                dlg.max_gpus.setValue(2)
            if a.form_only:
                dlg.result_view.setPlaceholderText("Set the question and press Suggest.")
            else:
                dlg.run()
            while dlg.searching():  # the search runs in its worker thread; the answer comes back as a signal
                pump(app, seconds=0.2)
            pump(app, turns=20)
            if a.four:  # the notes at the answer's end: what was left out, and why
                bar = dlg.result_view.verticalScrollBar()
                bar.setValue(bar.maximum())
                pump(app, turns=5)
            shot = QPixmap(w.size())
            shot.fill(QColor("black"))
            painter = QPainter(shot)
            painter.drawPixmap(w.geometry().topLeft(), w.grab())
            painter.drawPixmap(dlg.geometry().topLeft(), dlg.grab())
            painter.end()
            what = "form" if a.form_only else "fit" if a.fit else "four" if a.four else "dialog"
            name = f"suggest-{what}-{a.size}.png"
            shot.save(str(a.out / name))
            print("saved", a.out / name)
            return int(dlg.open_button.isEnabled())

        SuggestDialog.exec = answer  # type: ignore[method-assign]
        w.menus.suggest.trigger()  # exec() above stands in for the modal loop, so no event loop is needed
        if a.form_only or a.fit or a.four:
            return 0
        w.tabs.setCurrentIndex(1)  # the Costs workspace: the break-even the dialog promised
        pump(app, seconds=1.5)  # the chart redraws on a short timer after the build changes
        print("curves on the chart:", ", ".join(w.costs.curve_data()))
        w.grab().save(str(a.out / f"suggest-build-{a.size}.png"))
        print("saved", a.out / f"suggest-build-{a.size}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
