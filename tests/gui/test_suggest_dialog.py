"""The "Suggest a build" dialog driven with qtbot over the real catalog: the answer on screen, the build it returns."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer

from rigplan.catalog import Catalog
from rigplan.gui.suggest_dialog import SuggestDialog
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Kind
from rigplan.rules import check


def test_suggest_shows_the_answer_and_returns_a_valid_build(qtbot, catalog: Catalog) -> None:
    dlg = SuggestDialog(catalog, Assumptions())
    qtbot.addWidget(dlg)
    dlg.budget.setValue(5000)
    dlg.gpus.setValue(2)
    dlg.min_vram.setValue(24)
    assert not dlg.open_button.isEnabled()
    qtbot.mouseClick(dlg.run_button, Qt.MouseButton.LeftButton)
    text = dlg.result_view.toPlainText()
    assert "$4,016" in text and "What binds: budget" in text
    assert "RTX 4090" in text
    assert dlg.open_button.isEnabled()
    build = dlg.suggested_build()
    assert build is not None and build.count(Kind.GPU) == 2
    assert check(build).ok
    assert build.name == "Suggested: $5,000 budget"
    with qtbot.waitSignal(dlg.accepted):
        qtbot.mouseClick(dlg.open_button, Qt.MouseButton.LeftButton)


def test_impossible_question_says_why_and_offers_nothing(qtbot, catalog: Catalog) -> None:
    dlg = SuggestDialog(catalog, Assumptions())
    qtbot.addWidget(dlg)
    dlg.budget.setValue(1500)
    dlg.gpus.setValue(2)
    dlg.min_vram.setValue(24)
    qtbot.mouseClick(dlg.run_button, Qt.MouseButton.LeftButton)
    text = dlg.result_view.toPlainText()
    assert "No answer: no priced 2-GPU build with 24 GB per GPU fits $1,500: the cheapest is $" in text
    assert not dlg.open_button.isEnabled() and dlg.suggested_build() is None


def test_runners_up_and_cancel(qtbot, catalog: Catalog) -> None:
    dlg = SuggestDialog(catalog, Assumptions())
    qtbot.addWidget(dlg)
    dlg.budget.setValue(3000)
    qtbot.mouseClick(dlg.run_button, Qt.MouseButton.LeftButton)
    assert "Runners-up" in dlg.result_view.toPlainText() and "2 GPUs:" in dlg.result_view.toPlainText()
    # Cancel during a search: the click is delivered while the search runs (it processes events), and stops it.
    QTimer.singleShot(0, dlg.cancel_button.click)
    qtbot.mouseClick(dlg.run_button, Qt.MouseButton.LeftButton)
    assert dlg.result_view.toPlainText() == "Search cancelled; nothing changed."
    assert dlg.suggested_build() is None and not dlg.open_button.isEnabled() and dlg.run_button.isEnabled()
