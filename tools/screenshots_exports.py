"""Screenshots for docs/exports.md: the comparison view at 1280x720 and 1920x1080, and the PDF report's pages.

    xvfb-run -s "-screen 0 1920x1080x24" python tools/screenshots_exports.py [--out docs/screenshots]

The PDF pages are rendered by poppler's pdftoppm (apt-get install poppler-utils), as a reader would see them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))
EX = ROOT / "examples"
BUILDS = [EX / "2x-rtx-4090.rigplan", EX / "budget-1-gpu.rigplan", EX / "4-gpu-threadripper.rigplan"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    a = ap.parse_args()
    from PySide6.QtWidgets import QApplication

    from rigplan.exports.plan import make_plan
    from rigplan.files import load
    from rigplan.gui.compare.compare_view import comparison_dialog
    from rigplan.render.pdf import write_pdf

    app = QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    a.out.mkdir(parents=True, exist_ok=True)
    for w, h in ((1280, 720), (1920, 1080)):
        dlg = comparison_dialog(None, make_plan(load(BUILDS[0])))
        for f in BUILDS[1:]:
            dlg.view.add_file(f)
        dlg.resize(w, h)
        dlg.show()
        for _ in range(40):
            app.processEvents()
        pix = app.primaryScreen().grabWindow(dlg.winId()) if app.platformName() == "xcb" else dlg.grab()
        if pix.isNull() or pix.width() < 100:
            pix = dlg.grab()
        target = a.out / f"compare-{w}.png"
        pix.save(str(target))
        print(f"wrote {target} ({pix.width()}x{pix.height()}, platform {app.platformName()})")
        dlg.close()
    menu_shot(app, a.out / "export-menu.png")
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "report.pdf"
        write_pdf(make_plan(load(BUILDS[0])), pdf)
        subprocess.run(["pdftoppm", "-r", "80", "-png", str(pdf), str(a.out / "report-page")], check=True)
    for page in sorted(a.out.glob("report-page-*.png")):
        print(f"wrote {page}")
    return 0


def menu_shot(app, target: Path) -> None:  # noqa: ANN001
    """The real window at 1280x720 with File > Export open (the screen, so the popup menus are in it)."""
    from PySide6.QtCore import QPoint, QSettings

    from rigplan.gui.app import create_window

    with tempfile.TemporaryDirectory() as tmp:
        w = create_window(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        w.resize(1280, 720)
        w.move(0, 0)
        w.files.open_path(BUILDS[0], ask=False)
        w.show()
        for _ in range(30):
            app.processEvents()
        file_action = next(x for x in w.menuBar().actions() if x.text() == "&File")
        menu = file_action.menu()
        menu.popup(w.menuBar().mapToGlobal(w.menuBar().actionGeometry(file_action).bottomLeft()))
        for _ in range(10):
            app.processEvents()
        sub = w.exporter.menu
        menu.setActiveAction(sub.menuAction())
        sub.popup(menu.mapToGlobal(menu.actionGeometry(sub.menuAction()).topRight() + QPoint(2, 0)))
        for _ in range(30):
            app.processEvents()
        geo = w.frameGeometry()
        pix = app.primaryScreen().grabWindow(0, geo.x(), geo.y(), geo.width(), geo.height())
        pix.save(str(target))
        print(f"wrote {target} ({pix.width()}x{pix.height()})")
        sub.close()
        menu.close()
        w.doc.undo_stack.setClean()
        w.close()


if __name__ == "__main__":
    raise SystemExit(main())
