"""File > Export on the real main window: the menu is there once the build is open, and the exported Markdown and
cost curves are the window's build against the offers on its Costs chart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gui_helpers import choose, pick, show_tab
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog

from rigplan.exports.markdown import to_markdown
from rigplan.exports.plan import make_plan
from rigplan.gui.mainwindow import MainWindow
from rigplan.model.assumptions import Pricing
from rigplan.model.build import ChartOffer


@pytest.fixture
def window(window: MainWindow, examples_dir: Path) -> MainWindow:
    """The conftest window (no dialog may block) with the 2-GPU example open."""
    w = window
    assert w.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    w.doc.set_comparison(
        [ChartOffer(offer="aws:p3.2xlarge:us-east-1"), ChartOffer(offer="lambda:gpu_1x_a100:us-east-1")]
    )
    return w


def file_menu_texts(w: MainWindow) -> list[str]:
    menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&File")
    return [a.text() for a in menu.actions() if not a.isSeparator()]


def test_export_menu_writes_the_windows_build_and_chart_offers(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = file_menu_texts(window)
    assert texts.index("&Export") < texts.index("&Quit")
    assert {"Cop&y parts list as Markdown", "Co&mpare builds…"} <= set(texts)
    assert window.exporter.menu.menuAction().isEnabled()
    chosen = [("aws:p3.2xlarge:us-east-1", Pricing.ON_DEMAND), ("lambda:gpu_1x_a100:us-east-1", Pricing.ON_DEMAND)]
    expected = to_markdown(make_plan(window.doc.build, chosen))
    out = tmp_path / "parts.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(out), a[-1]))
    choose(qtbot, window, window.exporter.menu.actions()[0])
    assert out.read_text("utf-8") == expected
    assert "p3.2xlarge, us-east-1" in expected and "g5.xlarge" not in expected  # the chart's offers, not the defaults
    choose(qtbot, window, window.exporter.copy_action)
    assert QGuiApplication.clipboard().text() == expected


def test_compare_builds_starts_with_the_open_build(window: MainWindow, examples_dir: Path) -> None:
    dlg = window.exporter.compare()
    assert [p.build.name for p in dlg.view.plans] == [window.doc.build.name]
    assert dlg.view.add_file(examples_dir / "budget-1-gpu.rigplan")
    assert dlg.view.comparison is not None and dlg.view.comparison.names[1] == "Budget single-GPU learner"
    # The added file is costed against the window's chart offers too: one break-even row per offer, both filled.
    rows = [r for r in dlg.view.comparison.figures[1]["breakeven"]]
    assert rows == ["aws:p3.2xlarge:us-east-1 on-demand", "lambda:gpu_1x_a100:us-east-1 on-demand"]
    dlg.close()


def test_the_exports_include_the_workload_chosen_in_the_window(
    window: MainWindow, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `rigplan export --format md`: a workload chosen on the Workload tab is in the Markdown the window exports
    (file and clipboard), sized against the offers on the Costs chart."""
    from rigplan.workload.describe import plan_lines

    out = tmp_path / "parts.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(out), a[-1]))
    choose(qtbot, window, window.exporter.menu.actions()[0])
    assert "Workload" not in out.read_text("utf-8")  # none chosen yet: no section
    show_tab(qtbot, window.tabs, "Costs")
    qtbot.waitUntil(lambda: window.costs.workload is not None)
    show_tab(qtbot, window.costs.chart_tabs, "Workload")  # the panel is on its tab: the user opens it first
    panel = window.costs.workload
    pick(qtbot, panel.model_box, data="mistral-7b")
    pick(qtbot, panel.task_box, data="qlora")
    assert window.doc.build.workload is not None and window.doc.build.workload.model == "mistral-7b"
    choose(qtbot, window, window.exporter.menu.actions()[0])
    text = out.read_text("utf-8")
    assert "**Workload (estimates, docs/workload.md):**" in text
    assert "- Mistral 7B, qlora, sequence 2,048" in text and "2x GeForce RTX 4090" in text
    assert "AWS 1x V100 (on-demand)" in text.split("**Workload")[1]  # the chart's offers by their chart names
    plan = make_plan(window.doc.build, window.exporter.chosen())
    lines = plan_lines(window.doc.build, [(c.offer, c.pricing) for c in plan.offers])
    assert len(lines) == 4 and text.count("\n- ", text.index("**Workload")) == 4  # verdict, speed, two offers
    choose(qtbot, window, window.exporter.copy_action)
    assert QGuiApplication.clipboard().text() == text
