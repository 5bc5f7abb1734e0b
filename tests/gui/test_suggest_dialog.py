"""The "Suggest a build" dialog driven with qtbot over the real catalog: the answer on screen, the build it returns."""

from __future__ import annotations

from gui_helpers import choose, click, pick, run_dialog, tick, type_into, type_text
from PySide6.QtCore import Qt, QTimer

from rigplan.catalog import Catalog
from rigplan.gui.suggest.suggest_dialog import SuggestDialog
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Kind
from rigplan.rules import check


def dialog(qtbot, catalog: Catalog, **values: float) -> SuggestDialog:  # noqa: ANN001
    """The dialog over the real catalog, on screen, with its spin boxes typed in as a user would (budget=...,
    gpus=..., ...)."""
    dlg = shown(qtbot, SuggestDialog(catalog, Assumptions()))
    for name, value in values.items():
        type_into(qtbot, getattr(dlg, name), f"{value:g}")
    return dlg


def shown(qtbot, dlg: SuggestDialog) -> SuggestDialog:  # noqa: ANN001
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    return dlg


def ask(qtbot, dlg: SuggestDialog) -> None:  # noqa: ANN001
    """Press Suggest and wait for the worker thread's answer (generous for a loaded machine; a hang fails in 1 min)."""
    with qtbot.waitSignal(dlg.answered, timeout=60_000):
        qtbot.mouseClick(dlg.run_button, Qt.MouseButton.LeftButton)


def test_suggest_shows_the_answer_and_returns_a_valid_build(qtbot, catalog: Catalog) -> None:
    dlg = dialog(qtbot, catalog, budget=5000, gpus=2, min_vram=24)
    assert not dlg.open_button.isEnabled()
    ask(qtbot, dlg)
    text = dlg.result_view.toPlainText()
    build = dlg.suggested_build()
    assert build is not None and build.count(Kind.GPU) == 2
    report = check(build)
    assert report.ok
    # The answer says what the Findings panel will show, and the minimums it was held to.
    assert ("Checks: Passes every check" in text) == (not any(f.severity == "warning" for f in report.findings))
    vram = sum((i.part.vram_gb or 0) * i.quantity for i in build.items if i.part.kind is Kind.GPU)  # type: ignore[union-attr]
    # Puget Systems: at least 4 CPU cores per GPU (6 at least): 8 for two GPUs. When the answer traded its GPUs for
    # the essentials (issue 37, third round: the faster pair left 2x the GPU memory over the budget), the search
    # held the RAM at twice the GPU memory, and the trade is said under Spending.
    ram = 2 * vram if "traded for the essentials" in text else max(32, vram)
    assert f"Held to: system RAM >= {ram:g} GB filling the CPU's memory channels; CPU cores >= 8" in text
    assert dlg.open_button.isEnabled()
    assert build.name == "Suggested: $5,000 budget"
    with qtbot.waitSignal(dlg.accepted):
        qtbot.mouseClick(dlg.open_button, Qt.MouseButton.LeftButton)


def test_four_gpus_are_blower_cards_and_at_most_is_moot(qtbot, catalog: Catalog) -> None:
    """A fixed number of GPUs greys out "At most GPUs"; four GPUs come as blower cards, and the answer says how many
    open-air options it left out (gpu-spacing)."""
    from rigplan.rules.context import open_air

    dlg = dialog(qtbot, catalog, budget=8000, gpus=4)
    assert not dlg.max_gpus.isEnabled()
    ask(qtbot, dlg)
    build = dlg.suggested_build()
    assert build is not None and build.count(Kind.GPU) == 4
    assert all(open_air(i.part) is False for i in build.items if i.part.kind is Kind.GPU)  # type: ignore[arg-type]
    assert "options of 3+ open-air cards (or of unknown cooling) were left out" in dlg.result_view.toPlainText()
    type_into(qtbot, dlg.gpus, "0")  # any number
    assert dlg.max_gpus.isEnabled()


def test_impossible_question_says_why_and_offers_nothing(qtbot, catalog: Catalog) -> None:
    dlg = dialog(qtbot, catalog, budget=1500, gpus=2, min_vram=24)
    ask(qtbot, dlg)
    text = dlg.result_view.toPlainText()
    assert "No answer: no priced 2-GPU build with 24 GB per GPU fits $1,500: the cheapest is $" in text
    assert not dlg.open_button.isEnabled() and dlg.suggested_build() is None


def test_runners_up_and_cancel(qtbot, catalog: Catalog) -> None:
    dlg = dialog(qtbot, catalog, budget=3000)
    ask(qtbot, dlg)
    text = dlg.result_view.toPlainText()
    assert dlg.suggestion is not None and "What binds:" in text
    # Every runner-up the answer has is on screen (issue 26's minimums may leave none for a $3,000 question).
    assert ("Runners-up" in text) == bool(dlg.suggestion.runners_up)
    assert all(r.why in text for r in dlg.suggestion.runners_up)
    # Cancel during a search: the search runs in its thread, the click is delivered at once and stops it.
    QTimer.singleShot(0, lambda: click(qtbot, dlg.cancel_button))
    ask(qtbot, dlg)
    assert dlg.result_view.toPlainText() == "Search cancelled; nothing changed."
    assert dlg.suggested_build() is None and not dlg.open_button.isEnabled() and dlg.run_button.isEnabled()


def test_menu_opens_the_suggestion_as_a_new_unsaved_undoable_build(
    qtbot, catalog: Catalog, tmp_path, monkeypatch
) -> None:  # noqa: ANN001
    from PySide6.QtCore import QSettings

    from rigplan.cloud.offers import load_offers
    from rigplan.costs.perf import load_perf
    from rigplan.gui.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(catalog, load_offers(), load_perf(), settings)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)

    def answer(dlg: SuggestDialog) -> None:  # the modal loop replaced by the user's clicks on the real dialog
        type_into(qtbot, dlg.budget, "3000")
        ask(qtbot, dlg)
        click(qtbot, dlg.open_button)

    monkeypatch.setattr(SuggestDialog, "exec", lambda dlg: run_dialog(qtbot, dlg, answer))
    assert "Suggest a build..." in [a.text().replace("&", "") for a in w.menuBar().actions()[0].menu().actions()]
    choose(qtbot, w, w.menus.suggest)  # File > Suggest a build...
    build = w.doc.build
    assert build.count(Kind.GPU) >= 1 and check(build).ok
    assert w.doc.is_modified() and w.doc.path is None
    assert "RTX 5090" in " ".join(w.build_panel.table.item(r, 1).text() for r in range(w.build_panel.table.rowCount()))
    choose(qtbot, w, w.menus.undo)  # Edit > Undo
    assert w.doc.build.items == ()


def test_beat_a_cloud_offer_with_my_own_prices(qtbot, catalog: Catalog) -> None:
    """The break-even goal names the offer and the day; a build's own prices are used and shown as the user's."""
    from rigplan.cloud.offers import load_offers
    from rigplan.costs.analysis import analyse
    from rigplan.gui.suggest.suggest_dialog import own_prices_of
    from rigplan.model.build import Build, BuildItem
    from rigplan.model.common import Price

    offers = load_offers()
    first = shown(qtbot, SuggestDialog(catalog, Assumptions(), offers=offers))
    assert not first.beat.isEnabled() and not first.mine.isEnabled()  # no own prices in an empty build
    pick(qtbot, first.goal, "The earliest break-even against a cloud offer")
    assert first.beat.isEnabled() and first.beat.currentText().startswith("aws:p3.2xlarge:us-east-1  |  1x V100  |  $")
    type_into(qtbot, first.budget, "3000")
    type_into(qtbot, first.max_gpus, "1")
    ask(qtbot, first)
    text = first.result_view.toPlainText()
    assert "Breaks even against aws:p3.2xlarge:us-east-1 after" in text, text
    build = first.suggested_build()
    assert build is not None and check(build).ok
    # the day on screen is the Costs workspace's own figure for that build and offer
    day = analyse(build, [offers.get("aws:p3.2xlarge:us-east-1")]).offers[0].breakeven_days
    assert day is not None and f"after {day:,.0f} days" in text

    # The same GPU at half price as the user's own price: the dialog offers it, and the answer uses it.
    gpu = build.items[1].part
    assert gpu.price is not None
    mine = Price(amount=round(gpu.price.amount / 2, 2), currency="USD", source="my shop")
    current = Build(items=(BuildItem(part=gpu, price_override=mine),))
    dlg = shown(qtbot, SuggestDialog(catalog, Assumptions(), offers=offers, own_prices=own_prices_of(current)))
    assert dlg.mine.isEnabled() and dlg.mine.isChecked() and "(0 your prices, 1 in this build)" in dlg.mine.text()
    pick(qtbot, dlg.goal, "The earliest break-even against a cloud offer")
    type_into(qtbot, dlg.budget, "3000")
    type_into(qtbot, dlg.max_gpus, "1")
    ask(qtbot, dlg)
    cheaper = dlg.suggested_build()
    assert cheaper is not None
    assert "Your price: " in dlg.result_view.toPlainText() and "my shop" in dlg.result_view.toPlainText()
    ours = analyse(cheaper, [offers.get("aws:p3.2xlarge:us-east-1")]).offers[0].breakeven_days
    assert ours is not None and ours < day  # half the GPU's price: an earlier break-even
    # An offer name that does not exist: one clear line, nothing to open
    type_text(qtbot, dlg.beat.lineEdit(), "aws:nothing")
    ask(qtbot, dlg)
    assert "No answer: no cloud offer called 'aws:nothing'" in dlg.result_view.toPlainText()
    assert not dlg.open_button.isEnabled()


def test_inputs_are_remembered_and_closing_cancels(qtbot, catalog: Catalog, tmp_path) -> None:  # noqa: ANN001
    from PySide6.QtCore import QSettings

    from rigplan.gui.settings import Settings

    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    dlg = shown(qtbot, SuggestDialog(catalog, Assumptions(), settings=settings))
    type_into(qtbot, dlg.budget, "12000")
    type_into(qtbot, dlg.gpus, "3")
    type_into(qtbot, dlg.min_cores, "16")
    tick(qtbot, dlg.expert, False)
    tick(qtbot, dlg.missing, True)
    click(qtbot, dlg.run_button)
    assert dlg.searching()
    click(qtbot, dlg.buttons.button(dlg.buttons.StandardButton.Close))  # closing cancels and waits for the thread
    assert not dlg.searching() and dlg.suggestion is None
    again = SuggestDialog(catalog, Assumptions(), settings=settings)
    qtbot.addWidget(again)
    assert (again.budget.value(), again.gpus.value(), again.min_cores.value()) == (12000, 3, 16)
    assert not again.expert.isChecked() and again.missing.isChecked()
    q = again.question()
    assert q.min_cores == 16 and not q.expert and q.allow_missing_data and q.min_ram_gb is None


def test_offer_list_shows_gpu_count_and_price_and_finds_by_any(qtbot, catalog: Catalog) -> None:
    dlg = dialog(qtbot, catalog)
    labels = [dlg.beat.itemText(i) for i in range(dlg.beat.count())]
    p3 = next(t for t in labels if t.startswith("aws:p3.2xlarge:us-east-1"))
    assert "1x V100" in p3 and "/h" in p3 and "$" in p3
    pick(qtbot, dlg.goal, "The earliest break-even against a cloud offer")
    type_text(qtbot, dlg.beat.lineEdit(), "aws:p3.2xlarge:us-east-1")  # an id typed alone still names the offer
    assert dlg.beat_offer() is not None and dlg.beat_offer().id == "aws:p3.2xlarge:us-east-1"  # type: ignore[union-attr]
    finder = dlg.beat.completer()
    type_text(qtbot, dlg.beat.lineEdit(), "A100")  # search by the GPU: contains, not starts-with
    qtbot.waitUntil(finder.popup().isVisible, timeout=2000)
    assert finder.completionPrefix() == "A100" and finder.completionCount() > 0
    assert all("A100" in finder.completionModel().index(r, 0).data() for r in range(finder.completionCount()))


def test_must_fit_a_workload_in_the_dialog(qtbot, catalog: Catalog, tmp_path) -> None:  # noqa: ANN001
    """Issue 28's constraint in the GUI: choose a model and task, the answer's GPUs hold the memory per GPU the
    workload planner gives for that many GPUs, the answer says so, and the choice is remembered."""
    from PySide6.QtCore import QSettings

    from rigplan.gui.settings import Settings
    from rigplan.model.workload import WorkloadSpec
    from rigplan.workload import build_hardware, estimate

    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    dlg = shown(qtbot, SuggestDialog(catalog, Assumptions(), settings=settings))
    type_into(qtbot, dlg.budget, "12000")
    type_into(qtbot, dlg.max_gpus, "4")
    assert not dlg.fit.task.isEnabled()  # no workload: its options are off
    pick(qtbot, dlg.fit.model, data="llama-3.1-70b")
    pick(qtbot, dlg.fit.task, "QLoRA")
    assert dlg.fit.task.isEnabled()
    ask(qtbot, dlg)
    text = dlg.result_view.toPlainText()
    build = dlg.suggested_build()
    assert build is not None, text
    e = estimate(WorkloadSpec(model="llama-3.1-70b", task="qlora"), build_hardware(build))
    assert e.verdict == "fits", e.summary
    assert f"Workload: Fits Llama 3.1 70B, qlora, sequence 2048, micro-batch 1: {e.memory.total:.1f} GB per GPU" in text
    click(qtbot, dlg.buttons.button(dlg.buttons.StandardButton.Close))  # closing keeps the inputs
    again = SuggestDialog(catalog, Assumptions(), settings=settings)
    qtbot.addWidget(again)
    assert again.fit.model.currentData() == "llama-3.1-70b" and again.fit.task.currentText() == "QLoRA"


def test_a_workload_that_cannot_be_sized_is_one_line(qtbot, catalog: Catalog) -> None:
    dlg = dialog(qtbot, catalog, budget=5000)
    pick(qtbot, dlg.fit.model, data="llama-2-7b")
    type_into(qtbot, dlg.fit.seq, "100000")  # Llama 2's context is 4,096 tokens
    ask(qtbot, dlg)
    text = dlg.result_view.toPlainText()
    why = "the sequence length 100000 is longer than Llama 2 7B's context of 4096 tokens"
    assert text == f"No answer: the workload to fit: {why}"
    assert not dlg.open_button.isEnabled() and dlg.run_button.isEnabled() and not dlg.searching()
