"""Issue 40: the offers search lists only what matches (charted offers were kept on top, so the first row a user
ticked took a curve off without a word), an untick is said, and the same instance in two regions has two names in the
chart, its table and the Workload table (major 3). Driven by typing and clicks on the check boxes."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import show_tab
from PySide6.QtCore import QPoint, Qt

from rigplan.gui.costs.offers_model import COL_CHART, COL_INSTANCE, COL_REGION
from rigplan.gui.mainwindow import MainWindow
from rigplan.model.workload import Task, WorkloadSpec


@pytest.fixture
def costs(window: MainWindow, examples_dir: Path, qtbot) -> MainWindow:  # noqa: ANN001
    window.resize(1280, 720)
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    show_tab(qtbot, window.tabs, "Costs")
    window.costs.ensure_charts()
    qtbot.wait(100)
    return window


def _search(qtbot, w: MainWindow, text: str) -> list[tuple[str, str]]:  # noqa: ANN001
    panel = w.costs.offers_panel
    panel.words.clear()
    qtbot.keyClicks(panel.words, text)
    p = panel.proxy
    return [(p.index(r, COL_INSTANCE).data(), p.index(r, COL_REGION).data()) for r in range(p.rowCount())]


def _tick_row(qtbot, w: MainWindow, row: int) -> None:  # noqa: ANN001
    view = w.costs.offers_panel.view
    rect = view.visualRect(w.costs.offers_panel.proxy.index(row, COL_CHART))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.left() + 10, rect.center().y()))


def test_search_lists_only_matches_and_ticking_the_first_adds_a_curve(qtbot, costs: MainWindow) -> None:  # noqa: ANN001
    before = [c.offer for c in costs.costs.comparison]
    assert before and not any("g6e" in o for o in before)
    rows = _search(qtbot, costs, "g6e.xlarge")
    assert rows and all(inst == "g6e.xlarge" for inst, _ in rows)  # no charted p3.2xlarge on top
    _tick_row(qtbot, costs, 0)
    after = [c.offer for c in costs.costs.comparison]
    assert after[: len(before)] == before and len(after) == len(before) + 1 and "g6e.xlarge" in after[-1]


def test_untick_says_so(qtbot, costs: MainWindow) -> None:  # noqa: ANN001
    first = costs.costs.comparison[0].offer
    instance = first.split(":")[1]
    region = first.split(":")[2]
    rows = _search(qtbot, costs, f"{instance} {region}")
    _tick_row(qtbot, costs, [r[0] for r in rows].index(instance))
    assert first not in [c.offer for c in costs.costs.comparison]
    assert costs.costs.notice.isVisible() and "is off the chart; tick it to bring it back" in costs.costs.notice.text()


def test_one_instance_in_two_regions_has_two_names_everywhere(qtbot, costs: MainWindow) -> None:  # noqa: ANN001
    for region in ("us-east-1", "us-west-2"):
        rows = _search(qtbot, costs, f"g6e.xlarge {region}")
        assert rows == [("g6e.xlarge", region)]
        _tick_row(qtbot, costs, 0)
    qtbot.wait(600)  # the chart redraws on a short timer
    names = costs.costs.names()
    l40s = [n for n in names if "g6e.xlarge" in n]
    assert sorted(l40s) == ["AWS g6e.xlarge 1x L40S us-east-1", "AWS g6e.xlarge 1x L40S us-west-2"]
    assert len(set(names)) == len(names)
    tabs = costs.costs.chart_tabs
    show_tab(qtbot, tabs, "Workload")
    costs.costs.workload.set_spec(WorkloadSpec(model="llama-3.1-8b", task=Task.LORA, tokens=1e8))
    qtbot.wait(300)
    model = costs.costs.workload.jobs
    machines = [model.index(r, 0).data() for r in range(model.rowCount())]
    assert {"AWS g6e.xlarge 1x L40S us-east-1", "AWS g6e.xlarge 1x L40S us-west-2"} <= {
        m.replace(" (on-demand)", "") for m in machines
    }
