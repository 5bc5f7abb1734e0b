"""Issue 40: Ctrl+F then "4090" with the CPU list shown said "0 of 789" and nothing else; now the hint says no CPU
matches and how many GPUs do, Enter shows them with the search kept, and switching the kind by hand keeps a search
that matched nothing. Names wrap on two lines and are cut at their end, not in the middle."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import pick
from PySide6.QtCore import Qt

from rigplan.gui.mainwindow import MainWindow
from rigplan.gui.parts.search_hint import matches
from rigplan.model import Kind


def _ctrl_f_and_type(qtbot, w: MainWindow, text: str) -> None:  # noqa: ANN001
    w.activateWindow()
    qtbot.keyClick(w, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert w.picker.search.hasFocus()
    qtbot.keyClicks(w.picker.search, text)
    qtbot.waitUntil(lambda: w.picker.slot_view(w.picker.kind).text == text)  # the typing timer applied it


def test_ctrl_f_4090_on_the_cpu_list_says_where_it_matches_and_enter_goes_there(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    p = window.picker
    pick(qtbot, p.kind_box, data=Kind.CPU)
    _ctrl_f_and_type(qtbot, window, "4090")
    gpus = matches(window.catalog, Kind.GPU, ("4090",))
    assert p.proxy.rowCount() == 0 and gpus > 10
    assert p.empty_hint.isVisible()
    assert f"No CPU matches \u201c4090\u201d. <a href='kind:gpu'>Show the {gpus:,} GPUs that match</a>" in (
        p.empty_hint.text()
    )
    qtbot.keyClick(p.search, Qt.Key.Key_Return)
    assert p.kind is Kind.GPU and p.search.text() == "4090" and p.proxy.rowCount() > 0
    assert all("4090" in p.proxy.index(r, 0).data() for r in range(p.proxy.rowCount()))


def test_switching_kind_keeps_a_search_that_matched_nothing(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    p = window.picker
    pick(qtbot, p.kind_box, data=Kind.CPU)
    _ctrl_f_and_type(qtbot, window, "4090")
    pick(qtbot, p.kind_box, data=Kind.GPU)  # the kind chosen in its box
    assert p.search.text() == "4090" and p.proxy.rowCount() > 0


def test_words_that_only_match_incompatible_parts_say_so(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)  # an AM5 build
    p = window.picker
    pick(qtbot, p.kind_box, data=Kind.CPU)
    _ctrl_f_and_type(qtbot, window, "threadripper")
    assert p.proxy.rowCount() == 0 and p.empty_hint.isVisible()
    assert "CPUs match \u201cthreadripper\u201d but each would add an error to this build" in p.empty_hint.text()
    qtbot.mouseClick(p.compatible_only, Qt.MouseButton.LeftButton)
    assert p.proxy.rowCount() > 0 and not p.empty_hint.isVisible()


def test_names_wrap_and_are_cut_at_their_end(window: MainWindow) -> None:
    v = window.picker.view
    assert v.wordWrap() and v.textElideMode() == Qt.TextElideMode.ElideRight
    assert v.verticalHeader().defaultSectionSize() >= 2 * v.fontMetrics().lineSpacing()
