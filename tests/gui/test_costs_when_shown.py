"""The Costs tab follows the build when it is on screen: edits made on the Parts tab do not recompute it each time
(a third of a part change's time, docs/performance.md), and switching to it, or exporting, finds it up to date."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from rigplan.gui.costs.offers_model import default_comparison
from rigplan.gui.mainwindow import COSTS_TAB, MainWindow
from rigplan.model import Kind


def click_tab(qtbot, w: MainWindow, index: int) -> None:  # noqa: ANN001
    bar = w.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    assert w.tabs.currentIndex() == index


def test_costs_are_computed_when_the_tab_is_shown(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    w = window
    w.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    click_tab(qtbot, w, COSTS_TAB)
    one_gpu = w.costs.summary.text()
    click_tab(qtbot, w, 0)
    gpu = w.doc.index_of_kind(Kind.GPU)
    w.doc.set_quantity(gpu, 2)
    w.doc.add_part(w.catalog.table(Kind.STORAGE).part(0))
    assert w.costs.build is not w.doc.build  # not computed on each edit while the Parts tab is on screen
    click_tab(qtbot, w, COSTS_TAB)
    assert w.costs.build is w.doc.build  # the latest build, computed before the tab painted
    shown = (w.costs.summary.text(), w.costs.compare.column_texts(2), w.costs.comparison)
    assert shown[0] != one_gpu
    w.costs.set_build(w.doc.build, len(w.report.errors()))  # computing it again changes nothing on screen
    assert (w.costs.summary.text(), w.costs.compare.column_texts(2), w.costs.comparison) == shown


def test_an_export_reads_the_offers_of_the_current_build(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    w = window
    w.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    assert w.doc.build.comparison is None  # the chart shows the default offers for the build's GPUs
    before = w.exporter.chosen()
    w.doc.set_quantity(w.doc.index_of_kind(Kind.GPU), 2)  # on the Parts tab: the Costs tab has not followed yet
    expected = [(c.offer, c.pricing) for c in default_comparison(w.costs.offers, w.costs.perf, w.doc.build)]
    assert expected != before  # the premise: two GPUs are compared with other offers than one
    assert w.exporter.chosen() == expected
