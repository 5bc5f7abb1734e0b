"""Start-up: the window paints the catalog before pydantic, numpy or pyqtgraph load, and is complete when built."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSettings, Qt

from rigplan.catalog import Catalog
from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind

ROOT = Path(__file__).resolve().parents[2]

FIRST_PAINT = """
import json, sys, tempfile
from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication([])
first = {}

class Probe(QObject):
    # What the window holds when it is first painted (inside its constructor, with paint_early=True).
    def eventFilter(self, obj, ev):
        w = obj.window() if isinstance(obj, QWidget) else None
        if not first and ev.type() == QEvent.Type.Paint and w.__class__.__name__ == "MainWindow":
            first.update({
                "heavy": sorted(m for m in ("pydantic", "numpy", "yaml", "pyqtgraph") if m in sys.modules),
                "rows": w.picker.proxy.rowCount(),
                "table": len(w.catalog.table(w.picker.kind)),
                "slots": [w.build_panel.table.item(r, 0).text() for r in range(w.build_panel.table.rowCount())],
                "menus": [a.text() for a in w.menuBar().actions()],
                "costs_tab": w.tabs.widget(1).__class__.__name__,
            })
        return False

probe = Probe()
app.installEventFilter(probe)
from rigplan.gui.app import create_window
w = create_window(QSettings(tempfile.mkdtemp() + "/s.ini", QSettings.Format.IniFormat), paint_early=True)
app.removeEventFilter(probe)
after = {
    "heavy": sorted(m for m in ("pydantic", "numpy", "yaml") if m in sys.modules),
    "costs_tab": w.tabs.widget(1).__class__.__name__,
    "status": w.statusBar().currentMessage(),
    "title": w.windowTitle(),
    "save_enabled": w.menus.save.isEnabled(),
}
w.doc.undo_stack.setClean()
print(json.dumps({"first": first, "after": after}))
"""


def test_the_window_paints_the_catalog_before_the_heavy_imports_and_is_complete_when_built() -> None:
    """paint_early: the first paint shows the catalog, the empty slots and the menus before pydantic, numpy or
    pyqtgraph load; when the constructor returns, the document, checks and Costs tab are all there."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-c", FIRST_PAINT], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    first, after = got["first"], got["after"]
    assert first["heavy"] == []
    assert first["rows"] == first["table"] > 500  # the whole CPU table is listed and searchable
    assert first["slots"] == ["CPU", "CPU cooler", "Motherboard", "Memory", "Storage", "GPU", "Power supply", "Case"]
    assert first["menus"] == ["&File", "&Edit", "&View", "Parts c&atalog", "Cloud &prices", "&Help"]
    assert first["costs_tab"] == "QLabel"
    assert after["heavy"] == ["numpy", "pydantic", "yaml"]
    assert after["save_enabled"] is True and after["costs_tab"] == "CostsView"
    assert "error" not in after["status"] and "warning" not in after["status"] and "26," in after["status"]
    assert after["title"].endswith("- RigPlan") and after["title"] != "RigPlan"


def test_gpu_speed_columns_arrive_with_the_speed_table(qtbot, catalog: Catalog, tmp_path: Path) -> None:  # noqa: ANN001
    """Built without a speed table (perf=None), the window loads it and the GPU table gains its speed columns."""
    w = MainWindow(catalog, None, None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.picker.set_kind(Kind.GPU)  # set-up in a window never shown: the columns under the kind are what is checked
    proxy = w.picker.proxy

    def heads() -> list[str]:
        return [proxy.headerData(c, Qt.Orientation.Horizontal) for c in range(proxy.columnCount())]

    assert "Speed" in heads() and "Speed/$1k" in heads()
    speeds = [proxy.index(r, heads().index("Speed")).data() for r in range(proxy.rowCount())]
    assert sum(s not in ("?", None) for s in speeds) > 100


RUN_GUI = """
import json, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication([])
from rigplan.gui.app import run_gui
seen = []

class Probe(QObject):
    def eventFilter(self, obj, ev):
        w = obj.window() if isinstance(obj, QWidget) else None
        if not seen and ev.type() == QEvent.Type.Paint and w.__class__.__name__ == "MainWindow":
            seen.append("painted before the file was opened" if "doc" not in vars(w) else "painted late")
        return False

probe = Probe()
app.installEventFilter(probe)

def poll():
    wins = [w for w in app.topLevelWidgets() if w.__class__.__name__ == "MainWindow"]
    if not wins or "files" not in vars(wins[0]) or not wins[0].doc.path:
        QTimer.singleShot(20, poll)
        return
    w = wins[0]
    print(json.dumps({"seen": seen[:1], "name": w.doc.build.name, "title": w.windowTitle(),
                      "items": len(w.doc.build.items), "findings": w.findings.topLevelItemCount()}), flush=True)
    w.doc.undo_stack.setClean()
    w.close()
    app.quit()
QTimer.singleShot(0, poll)
sys.exit(run_gui([sys.argv[1]]))
"""


def test_run_gui_paints_first_then_opens_the_file_it_was_given(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    build = ROOT / "examples" / "2x-rtx-4090.rigplan"
    out = subprocess.run(
        [sys.executable, "-c", RUN_GUI, str(build)], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["seen"] == ["painted before the file was opened"]
    assert got["name"] == "2x RTX 4090 workstation" and got["items"] == 8
    assert got["title"].startswith("2x RTX 4090 workstation (2x-rtx-4090.rigplan)")
    assert got["findings"] >= 1
