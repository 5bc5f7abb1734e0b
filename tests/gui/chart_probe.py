"""Is every curve of the break-even chart really drawn inside the plot? Counts, in a grab of the chart widget, the
pixels of each curve's colour that fall inside the plot area (the axes' rectangle).

Imported by test_chart_sizes.py, and run as a script in a fresh process for the 2x-scaled screen:

    QT_SCALE_FACTOR=2 QT_QPA_PLATFORM=offscreen:configfile=screen.json python chart_probe.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def near(a: Any, b: Any, tol: int) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) <= tol


def curve_pixels(window: Any) -> dict[str, Any]:
    """{"curves": {name: pixels of its colour inside the plot}, "plot": [w, h] in logical pixels, ...}."""
    from PySide6.QtGui import QColor

    from rigplan.gui.costs.chart_style import COLORS, OWN_COLOR

    costs = window.costs
    chart = costs.chart("breakeven")
    # Only the curves: the break-even labels' dark text could pass for the owning curve's colour.
    labels = [t for _, t in chart.markers if t.isVisible()]
    for t in labels:
        t.setVisible(False)
    pix = chart.widget.grab()
    for t in labels:
        t.setVisible(True)
    img = pix.toImage()
    dpr = pix.devicePixelRatio()
    rect = chart.plot_rect()
    x0, y0 = int(rect.left() * dpr) + 2, int(rect.top() * dpr) + 2
    x1, y1 = int(rect.right() * dpr) - 2, int(rect.bottom() * dpr) - 2
    wanted = {"own": QColor(OWN_COLOR)} | {n: QColor(COLORS[i]) for i, n in enumerate(costs.names())}
    counts = dict.fromkeys(wanted, 0)
    for y in range(max(y0, 0), min(y1, img.height()), 1):
        for x in range(max(x0, 0), min(x1, img.width()), 2):
            c = img.pixelColor(x, y)
            for name, color in wanted.items():
                if near(c, color, 24):
                    counts[name] += 1
    title = chart.widget.getPlotItem().titleLabel
    bottom = chart.widget.getAxis("bottom")
    return {
        "curves": counts,
        "plot": [rect.width(), rect.height()],
        "window": [window.width(), window.height()],
        "dpr": dpr,
        # nothing cut off: the title and the x axis (with its label) lie inside the widget
        "title_inside": chart.widget.rect().contains(
            chart.widget.mapFromScene(title.sceneBoundingRect()).boundingRect()
        ),
        "axis_inside": chart.widget.rect().contains(
            chart.widget.mapFromScene(bottom.sceneBoundingRect()).boundingRect()
        ),
    }


def main() -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    sys.path.insert(0, str(ROOT / "app"))
    from rigplan.gui.app import create_window

    app = QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        w = create_window(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        screen = app.primaryScreen().availableGeometry()
        w.resize(screen.width(), screen.height())
        w.show()
        w.files.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
        w.tabs.setCurrentIndex(1)  # a script run in a subprocess without qtbot, measuring pixels: not a test of the tab
        w.costs.ensure_charts()
        for _ in range(20):
            app.processEvents()
        print(json.dumps(curve_pixels(w)), flush=True)
        w.doc.undo_stack.setClean()
        w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
