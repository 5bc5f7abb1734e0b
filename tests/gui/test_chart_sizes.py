"""Every curve of the break-even chart is drawn inside the plot, nothing cut off, at 1280x720, 1920x1080 and on a
2560x1440 screen at 2x scaling (issue 13 item 2). The check counts each curve's colour in a grab of the plot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from chart_probe import curve_pixels
from gui_helpers import show_tab

from rigplan.gui.mainwindow import MainWindow

HERE = Path(__file__).resolve().parent
MIN_PIXELS = 40  # a drawn line across the plot leaves hundreds; a blob at the origin or a hidden line, a handful


def check(result: dict) -> None:
    assert len(result["curves"]) == 5, result  # owning + one offer per provider
    for name, n in result["curves"].items():
        assert n >= MIN_PIXELS, f"{name} is not drawn inside the plot: {result}"
    w, h = result["plot"]
    assert w >= 0.4 * result["window"][0] and h >= 0.3 * result["window"][1], result
    assert result["title_inside"] and result["axis_inside"], result


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_every_curve_is_drawn_at(size: tuple[int, int], window: MainWindow, examples_dir: Path, qtbot) -> None:  # noqa: ANN001
    window.resize(*size)
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    show_tab(qtbot, window.tabs, "Costs")
    window.costs.ensure_charts()
    # Retried until the chart is laid out (pytest-qt re-raises the last AssertionError if it never is).
    qtbot.waitUntil(lambda: check(curve_pixels(window)))


@pytest.mark.slow
def test_every_curve_is_drawn_on_a_2560x1440_screen_at_2x(tmp_path: Path) -> None:
    config = tmp_path / "screen.json"
    screen = {"name": "hidpi", "x": 0, "y": 0, "width": 2560, "height": 1440, "logicalDpi": 96, "dpr": 1}
    config.write_text(json.dumps({"screens": [screen]}))
    env = {
        **os.environ,
        "QT_SCALE_FACTOR": "2",
        "QT_QPA_PLATFORM": f"offscreen:configfile={config}",
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    out = subprocess.run(
        [sys.executable, str(HERE / "chart_probe.py")], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["dpr"] == 2 and result["window"] == [1280, 720]
    check(result)
