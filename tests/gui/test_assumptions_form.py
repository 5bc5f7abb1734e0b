"""The assumptions form explains a wrong value in a plain sentence next to the field, keeps what is shown equal to
what the build holds, never stops listening after a wrong value (issue 14 item 4, issue 13 item 5), takes "25" in
full (issue 14 item 10), and ignores the mouse wheel on fields without focus."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import click, open_costs, pick, type_into
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QComboBox, QDoubleSpinBox

from rigplan.files import load
from rigplan.gui.costs.assumptions_form import FIELDS
from rigplan.gui.mainwindow import MainWindow


@pytest.fixture
def form_window(qtbot, window: MainWindow, examples_dir: Path) -> MainWindow:  # noqa: ANN001
    """The Costs tab with its Assumptions panel opened by its button, as the user opens it: on this window's width the
    tab folds the panel when first shown (costs/panes.py), and a folded panel's fields take no click."""
    window.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    open_costs(qtbot, window)
    return window


def test_typing_25_hours_is_explained_not_cut_to_2(qtbot, form_window: MainWindow) -> None:  # noqa: ANN001
    form = form_window.costs.form
    hours = form.spins["hours_per_day"]
    type_into(qtbot, hours, "25")
    message = form.message_for(hours)
    assert message == "Hours at load must be at most 24 h/day; 25 h/day is over. Kept 8 h/day."
    assert hours.value() == 8 and form_window.doc.build.assumptions.hours_per_day == 8
    assert not form_window.isWindowModified()
    # the sentence sits in the row right under the field
    row, _ = form.form.getWidgetPosition(hours)
    label_row, _ = form.form.getWidgetPosition(form._messages[hours])
    assert label_row == row + 1


def test_a_wrong_value_never_stops_later_edits(qtbot, form_window: MainWindow, tmp_path: Path) -> None:  # noqa: ANN001
    w = form_window
    form = w.costs.form
    idle = form.spins["idle_hours_per_day"]
    type_into(qtbot, idle, "20")  # 8 at load + 20 idle > 24
    assert form.message_for(idle) == "Hours at load plus hours idle must be at most 24 a day. Kept 4 h/day."
    assert idle.value() == 4 and w.doc.build.assumptions.idle_hours_per_day == 4  # shown = held
    for text in form.messages():
        assert "http" not in text and "pydantic" not in text.lower() and "Value error" not in text
    power = form.spins["electricity_per_kwh"]
    type_into(qtbot, power, "0.3")  # a later edit of another field applies at once
    assert w.doc.build.assumptions.electricity_per_kwh == pytest.approx(0.3)
    assert form.messages() == []
    type_into(qtbot, form.spins["horizon_years"], "5")
    assert w.doc.build.assumptions.horizon_years == 5
    # what is shown is what is saved
    target = tmp_path / "saved.rigplan.yaml"
    assert w.files.write(target)
    saved = load(target).assumptions
    for name, *_, pct in FIELDS:
        spin = form.spins[name]
        assert getattr(saved, name) == pytest.approx(spin.value() / 100 if pct else spin.value()), name


def test_arrows_stop_at_the_limits(qtbot, form_window: MainWindow) -> None:  # noqa: ANN001
    hours = form_window.costs.form.spins["hours_per_day"]
    type_into(qtbot, form_window.costs.form.spins["idle_hours_per_day"], "0")
    type_into(qtbot, hours, "23.5")
    hours.setFocus()
    for _ in range(5):  # the Up arrow, five steps of 0.5 h from 23.5
        qtbot.keyClick(hours, Qt.Key.Key_Up)
    assert hours.value() == 24 and form_window.doc.build.assumptions.hours_per_day == 24
    assert form_window.costs.form.messages() == []


def wheel(widget, steps: int = 1) -> None:  # noqa: ANN001
    pos = QPointF(widget.rect().center())
    ev = QWheelEvent(
        pos,
        QPointF(widget.mapToGlobal(pos.toPoint())),
        QPoint(),
        QPoint(0, -120 * steps),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, ev)


def test_wheel_over_an_unfocused_combo_or_spin_does_not_change_it(qtbot, form_window: MainWindow) -> None:  # noqa: ANN001
    form = form_window.costs.form
    form_window.costs.offers_panel.words.setFocus()
    currency = form.currency
    before = currency.currentText()
    wheel(currency)
    assert currency.currentText() == before and form_window.doc.build.assumptions.currency == before
    spin = form.spins["electricity_per_kwh"]
    value = spin.value()
    wheel(spin)
    assert spin.value() == value
    # with the focus, the wheel works as usual
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    wheel(spin)
    assert spin.value() != value
    # every combo and spin box of the Costs tab is guarded, the offers filters too
    for w in form_window.costs.findChildren(QComboBox) + form_window.costs.findChildren(QDoubleSpinBox):
        assert w.property("wheelGuarded"), w.accessibleName()
        assert w.focusPolicy() == Qt.FocusPolicy.StrongFocus


def test_electricity_in_yen_is_taken(qtbot, form_window: MainWindow) -> None:  # noqa: ANN001
    """A kWh costs about 31 JPY: the field's limit is the model's (1e4 per kWh), not the 5 it once stopped at."""
    form = form_window.costs.form
    pick(qtbot, form.currency, "JPY")
    power = form.spins["electricity_per_kwh"]
    type_into(qtbot, power, "31")
    assert form_window.doc.build.assumptions.electricity_per_kwh == 31 and power.value() == 31
    assert form.messages() == []


def test_the_cost_model_rows_follow_the_same_rules(qtbot, form_window: MainWindow) -> None:  # noqa: ANN001
    """Issue 12's rows (scaling per side, resale curve, job size) explain a wrong value under the field, go back to
    what the build holds, and never block a later edit."""
    w = form_window
    form = w.costs.form
    cloud = form.optional["scaling_cloud"]
    click(qtbot, cloud.auto)
    held = w.doc.build.assumptions.scaling_cloud
    assert held is not None and cloud.spin.isEnabled()
    type_into(qtbot, cloud.spin, "1.5")  # typed in full, beyond "each added GPU adds at most one GPU"
    assert form.message_for(cloud.spin) == (
        f"Scaling, cloud must be at most 1 /added GPU; 1.5 /added GPU is over. Kept {held:g} /added GPU."
    )
    assert cloud.spin.value() == held and w.doc.build.assumptions.scaling_cloud == held
    click(qtbot, form.curve_auto)
    type_into(qtbot, form.curve_spins[1], "120")  # retained after 2 years
    assert "Resale kept after 2 y must be at most 100 %" in form.message_for(form.curve_spins[1])
    assert w.doc.build.assumptions.resale_curve is not None and w.doc.build.assumptions.resale_curve[1] <= 1
    pick(qtbot, form.job_mode, data="job_days")  # a job of days: a later edit applies at once
    type_into(qtbot, form.job_size, "12")
    assert w.doc.build.assumptions.job_days == 12 and form.messages() == []
    type_into(qtbot, form.job_size, "0")
    assert form.message_for(form.job_size) == "Job size must be at least 0.1 days; 0 days is under. Kept 12 days."
    assert w.doc.build.assumptions.job_days == 12
