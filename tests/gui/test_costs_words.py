"""Issue 40, the Costs tab's words: a currency switch says what it did to the electricity price, a build with errors
gets no break-even date, an empty build is asked for parts (its offers read "0 h" before)."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import choose, open_costs, pick, show_tab, type_into

from rigplan.files import load
from rigplan.gui.mainwindow import MainWindow
from rigplan.rules import check


def _costs(qtbot, w: MainWindow) -> None:  # noqa: ANN001
    w.resize(1280, 720)
    show_tab(qtbot, w.tabs, "Costs")
    w.costs.ensure_charts()
    qtbot.wait(100)


def test_switching_currency_says_the_electricity_price_changed(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    _costs(qtbot, window)
    open_costs(qtbot, window)  # the Assumptions panel shown, opened by its button if the tab folded it
    box = window.costs.form.currency
    pick(qtbot, box, "GBP")
    qtbot.waitUntil(lambda: window.doc.build.assumptions.currency == "GBP")
    notice = window.costs.notice
    assert notice.isVisible()
    assert "electricity price follows it, $0.170 \u2192 \u00a30.264 per kWh (Great Britain" in notice.text()
    choose(
        qtbot, window, window.menus.undo
    )  # Edit > Undo: back to USD; a price the user typed is kept and nothing is said about it
    type_into(qtbot, window.costs.form.spins["electricity_per_kwh"], "0.3")
    assert window.doc.build.assumptions.electricity_per_kwh == 0.3
    window.costs._notice("")  # set-up: the GBP notice cleared, so what follows shows whether EUR says anything
    pick(qtbot, box, "EUR")
    assert window.doc.build.assumptions.currency == "EUR"
    assert not window.costs.notice.isVisible()


def test_a_build_with_errors_gets_no_breakeven_date(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    path = examples_dir / "broken" / "gpu-length.rigplan"
    errors = len(check(load(path)).errors())
    assert errors >= 1
    window.files.open_path(path, ask=False)
    _costs(qtbot, window)
    text = window.costs.summary.text()
    assert f"No break-even date while the build has {errors} error" in text and "Earliest break-even" not in text


def test_an_empty_build_asks_for_parts(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    _costs(qtbot, window)  # the window opens on a new, empty build
    assert not window.doc.build.items
    assert window.costs.summary.text().startswith("Add parts on the Parts tab")
    cells = window.costs.compare.column_texts(2)[1:]
    assert cells and set(cells) == {"add parts"}  # not four offers at "0 h"


def test_a_summary_longer_than_its_lines_ends_on_a_whole_sentence(qtbot) -> None:  # noqa: ANN001
    """Issue 40: the Costs summary was cut mid-sentence; now its whole sentences that fit, then "…" (all of it in
    the tooltip)."""
    from rigplan.gui.widgets.livetext import LiveText

    sentence = "Owning wins against the fourth offer after many months of training. "
    text = LiveText("<b>Owning:</b> " + sentence * 12, lines=3, rich=True)
    qtbot.addWidget(text)
    text.resize(420, text.height())
    text.show()
    qtbot.waitExposed(text)
    text.grab()  # painted at its width
    shown = text._shown.toPlainText()
    assert shown.endswith(". \u2026") and shown.count(sentence.strip()) >= 1
    assert shown[: -len(" \u2026")].endswith(sentence.strip())  # no sentence cut in half
    assert text._shown.size().height() <= text.height()
    assert sentence.strip() in text.toolTip() and text.toolTip().count(sentence.strip()) == 12


def test_an_empty_builds_axis_reads_whole_amounts(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    """Issue 40: the empty build's axis read "$1, $1, $1, $0, $0, $0"."""
    _costs(qtbot, window)
    chart = window.costs.chart("breakeven").widget
    (_, top) = chart.getPlotItem().vb.viewRange()[1]
    assert top >= 1000
    ticks = chart.getAxis("left").tickStrings([0, top / 4, top / 2], 1, top / 4)
    assert len(set(ticks)) == 3  # three different amounts, no "$1, $1"


def test_a_long_notice_never_widens_the_window(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    """The currency notice once pushed the window past a 1280 px screen (its side table off-screen)."""
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    _costs(qtbot, window)
    window.costs.show_assumptions(True)
    window.costs._notice("A long notice. " * 40)
    qtbot.wait(100)
    assert window.minimumSizeHint().width() <= 1280 and window.width() <= 1280
