"""Issue 40: the Workload tab's answers (tokens/s, hours and cost per job) were off-screen behind two nested scroll
bars at 1280x720 (and at 2x), "GPU: 24" and the electricity line cut, the Cost/job column clipped at 1920. Now one
vertical scroll bar at most, the jobs table leads, and it fits the page's width at both sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import show_tab
from PySide6.QtCore import QPoint

from rigplan.gui.mainwindow import MainWindow
from rigplan.gui.workload.jobs_model import COST, WIN
from rigplan.model.workload import Task, WorkloadSpec


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_answers_are_in_view_without_scrolling(qtbot, window: MainWindow, examples_dir: Path, size) -> None:  # noqa: ANN001
    window.resize(*size)
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    show_tab(qtbot, window.tabs, "Costs")
    costs = window.costs
    costs.ensure_charts()
    tabs = costs.chart_tabs
    show_tab(qtbot, tabs, "Workload")
    costs.workload.set_spec(WorkloadSpec(model="llama-3.1-8b", task=Task.LORA, tokens=2e8))
    qtbot.wait(300)
    page = tabs.currentWidget()
    panel, table = costs.workload, costs.workload.table
    assert not page.horizontalScrollBar().isVisible()  # no second scroll bar
    assert panel.width() <= page.viewport().width()
    view = page.viewport()
    for col in (COST, WIN):  # the answers' right edge on screen, in the page's first screen
        right = table.viewport().mapTo(view, QPoint(table.columnViewportPosition(col) + table.columnWidth(col), 0))
        assert right.x() <= view.width()
    top = table.mapTo(view, QPoint(0, table.horizontalHeader().height() + table.rowHeight(0)))
    assert top.y() <= view.height()  # the first answer row shows without scrolling
    model = table.model()
    assert model.index(0, COST).data().startswith("$") and "electricity" in model.index(0, COST).data()
    bar = panel.bar
    assert bar.mapTo(view, QPoint(bar.width(), 0)).x() <= view.width()  # "GPU: 24 GB" is drawn inside the page
