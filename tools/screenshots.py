"""Take the README screenshots: the main window and the Costs tab with a real 2-GPU build.

    xvfb-run -s "-screen 0 1600x1000x24" python tools/screenshots.py [--out docs/screenshots]

Runs the real app window (not a mock) on whatever display is set, waits for the charts, and saves PNGs of the window
as the screen shows it.
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
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--build", type=Path, default=ROOT / "examples" / "2x-rtx-4090.rigplan.yaml")
    a = ap.parse_args()
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from rigplan.gui.app import create_window
    from rigplan.model import Kind

    app = QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        w = create_window(settings)
        w.resize(1560, 940)
        w.open_path(a.build, ask=False)
        w.show()
        w.build_panel.select_kind(Kind.PSU)
        w.picker.set_kind(Kind.PSU)
        w.picker.search.setText("1600")
        w.picker._apply_text()
        for _ in range(20):
            app.processEvents()
        a.out.mkdir(parents=True, exist_ok=True)

        def shot(name: str) -> None:
            for _ in range(30):
                app.processEvents()
            screen = app.primaryScreen()
            pix = screen.grabWindow(w.winId()) if app.platformName() == "xcb" else w.grab()
            if pix.isNull() or pix.width() < 100:
                pix = w.grab()
            pix.save(str(a.out / name))
            print(f"wrote {a.out / name} ({pix.width()}x{pix.height()}, platform {app.platformName()})")

        shot("main.png")
        w.tabs.setCurrentIndex(1)
        w.costs.ensure_charts()
        shot("costs.png")
        w.costs.chart_tabs.setCurrentIndex(1)
        shot("costs-breakdown.png")
        w.costs.chart_tabs.setCurrentIndex(2)
        shot("costs-sensitivity.png")
        w.doc.undo_stack.setClean()
        w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
