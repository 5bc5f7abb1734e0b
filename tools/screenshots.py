"""Take the README screenshots of the real window with a real 2-GPU build, on real X servers of three sizes.

    python tools/screenshots.py [--out docs/screenshots]          # all of them (needs xvfb-run)
    xvfb-run -s "-screen 0 1280x720x24" python tools/screenshots.py --one 1280x720   # one size

With no --one, it starts one Xvfb per size: 1280x720 and 1920x1080, and 2560x1440 with QT_SCALE_FACTOR=2 (a 2x
screen). At each size it fills the screen with the window and saves the Costs tab (costs-WxH.png, and at 1280 and
1920 wide with the assumptions panel open: costs-assumptions-W.png); at 1920x1080 it
also saves the Parts tab with a numeric filter in the picker (picker-filter.png), the main window (main.png), the
Costs tab with its four default offers (costs.png) and the breakdown and sensitivity charts.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))
sys.path.insert(0, str(ROOT / "tools"))
from shots import each_size  # noqa: E402

SIZES = [("1280x720", "1"), ("1920x1080", "1"), ("2560x1440", "2")]


def take(out: Path, build: Path, size: str) -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from rigplan.gui.app import create_window
    from rigplan.model import Kind

    app = QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        w = create_window(settings)
        w.files.open_path(build, ask=False)
        w.showMaximized()
        screen = app.primaryScreen().availableGeometry()
        w.setGeometry(screen)  # no window manager under Xvfb: fill the screen ourselves

        def shot(name: str) -> None:
            for _ in range(40):
                app.processEvents()
            pix = app.primaryScreen().grabWindow(0) if app.platformName() == "xcb" else w.grab()
            pix.save(str(out / name))
            print(f"wrote {out / name} ({pix.width()}x{pix.height()}, logical {w.width()}x{w.height()})")

        w.tabs.setCurrentIndex(1)
        w.costs.ensure_charts()
        w.costs.hover_at(18.0)  # the read-out as if the pointer rested at month 18
        shot(f"costs-{size}.png")
        if size in ("1280x720", "1920x1080"):  # the assumptions panel open (folded by default on a laptop screen)
            shown = w.costs.side.isVisible()
            w.costs.show_assumptions(True)
            shot(f"costs-assumptions-{size.split('x')[0]}.png")
            w.costs.show_assumptions(shown)
        if size == "1920x1080":
            shot("costs.png")
            w.costs.chart_tabs.setCurrentIndex(1)
            shot("costs-breakdown.png")
            w.costs.chart_tabs.setCurrentIndex(2)
            shot("costs-sensitivity.png")
            w.costs.chart_tabs.setCurrentIndex(0)
            w.tabs.setCurrentIndex(0)
            w.build_panel.select_kind(Kind.PSU)
            w.picker.set_kind(Kind.PSU)
            w.picker.search.setText("1600")
            w.picker._apply_text()
            shot("main.png")
            w.build_panel.select_kind(Kind.GPU)
            w.picker.set_kind(Kind.GPU)
            w.picker.compatible_only.setChecked(False)
            w.picker.search.setText("vram>=16 length<=330 price<=800")
            w.picker._apply_text()
            shot("picker-filter.png")
        w.doc.undo_stack.setClean()
        w.close()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--build", type=Path, default=ROOT / "examples" / "2x-rtx-4090.rigplan")
    ap.add_argument("--one", metavar="WxH", help="take the shots of one size on the current display")
    a = ap.parse_args()
    if a.one:
        return take(a.out, a.build, a.one)
    return each_size(__file__, list(SIZES), ["--out", str(a.out), "--build", str(a.build)])


if __name__ == "__main__":
    sys.exit(main())
