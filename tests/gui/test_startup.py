"""Staged start-up: the first stage paints the catalog without pydantic, numpy or pyqtgraph; finish() adds the rest."""

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

FIRST_STAGE = """
import json, sys, tempfile
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from rigplan.gui.app import create_window
w = create_window(QSettings(tempfile.mkdtemp() + "/s.ini", QSettings.Format.IniFormat), staged=True)
w.show()
app.processEvents()
heavy = sorted(m for m in ("pydantic", "numpy", "yaml", "pyqtgraph") if m in sys.modules)
first = {
    "heavy": heavy,
    "rows": w.picker.proxy.rowCount(),
    "table": len(w.catalog.table(w.picker.kind)),
    "slots": [w.build_panel.table.item(r, 0).text() for r in range(w.build_panel.table.rowCount())],
    "save_enabled": w.act_save.isEnabled(),
    "costs_tab": w.tabs.widget(1).__class__.__name__,
}
w.finish()
app.processEvents()
after = {
    "heavy": sorted(m for m in ("pydantic", "numpy", "yaml") if m in sys.modules),
    "save_enabled": w.act_save.isEnabled(),
    "costs_tab": w.tabs.widget(1).__class__.__name__,
    "status": w.statusBar().currentMessage(),
    "title": w.windowTitle(),
}
w.doc.undo_stack.setClean()
print(json.dumps({"first": first, "after": after}))
"""


def test_first_stage_paints_the_catalog_without_the_heavy_imports() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-c", FIRST_STAGE], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    first, after = got["first"], got["after"]
    assert first["heavy"] == []
    assert first["rows"] == first["table"] > 500  # the whole CPU table is listed and searchable
    assert first["slots"] == ["CPU", "CPU cooler", "Motherboard", "Memory", "Storage", "GPU", "Power supply", "Case"]
    assert first["save_enabled"] is False and first["costs_tab"] == "QLabel"
    assert after["heavy"] == ["numpy", "pydantic", "yaml"]
    assert after["save_enabled"] is True and after["costs_tab"] == "CostsView"
    assert after["status"].startswith("0 errors, 0 warnings") and "26," in after["status"]
    assert after["title"].endswith("- RigPlan") and after["title"] != "RigPlan"


def test_gpu_speed_columns_arrive_with_the_speed_table(qtbot, catalog: Catalog, tmp_path: Path) -> None:  # noqa: ANN001
    w = MainWindow(catalog, None, None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), staged=True)
    qtbot.addWidget(w, before_close_func=lambda w: w.ready and w.doc.undo_stack.setClean())
    w.picker.set_kind(Kind.GPU)
    proxy = w.picker.proxy

    def heads() -> list[str]:
        return [proxy.headerData(c, Qt.Orientation.Horizontal) for c in range(proxy.columnCount())]

    assert "Speed" not in heads()
    w.finish()
    assert "Speed" in heads() and "Speed/$1k" in heads()
    speeds = [proxy.index(r, heads().index("Speed")).data() for r in range(proxy.rowCount())]
    assert sum(s not in ("?", None) for s in speeds) > 100


RUN_GUI = """
import json, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from rigplan.gui.app import run_gui
seen = []
def probe():
    wins = [w for w in app.topLevelWidgets() if w.__class__.__name__ == "MainWindow"]
    if wins and not wins[0].ready:
        seen.append("first stage shown")
    if not wins or not wins[0].ready or not wins[0].doc.path:
        QTimer.singleShot(20, probe)
        return
    w = wins[0]
    print(json.dumps({"seen": seen[:1], "name": w.doc.build.name, "title": w.windowTitle(),
                      "items": len(w.doc.build.items), "findings": w.findings.topLevelItemCount()}), flush=True)
    w.doc.undo_stack.setClean()
    w.close()
    app.quit()
QTimer.singleShot(0, probe)
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
    assert got["seen"] == ["first stage shown"]
    assert got["name"] == "2x RTX 4090 workstation" and got["items"] == 8
    assert got["title"].startswith("2x RTX 4090 workstation (2x-rtx-4090.rigplan)")
    assert got["findings"] >= 1
