"""The Workload panel on its own, driven like a user: a real build, the real cloud offers, real widgets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gui_helpers import choose, pick, show_tab, type_text
from PySide6.QtCore import Qt

from rigplan.cloud.offers import OfferCatalog
from rigplan.files import load
from rigplan.gui.workload.jobs_model import COST, FITS, HOURS, MACHINE
from rigplan.gui.workload.panel import WorkloadPanel
from rigplan.model.assumptions import Pricing
from rigplan.model.workload import Task, Weights, WorkloadSpec

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "examples" / "2x-rtx-4090.rigplan"
CHART = [("lambda:gpu_1x_a100:us-east-1", Pricing.ON_DEMAND), ("aws:p4d.24xlarge:us-east-1", Pricing.ON_DEMAND)]


@pytest.fixture
def panel(qtbot, offers: OfferCatalog) -> WorkloadPanel:  # noqa: ANN001
    chart = [(offers.get(i), p) for i, p in CHART]
    p = WorkloadPanel(load(BUILD), offers, None, chart)
    qtbot.addWidget(p)
    p.resize(1100, 600)
    p.show()
    qtbot.waitExposed(p)
    return p


def test_the_default_workload_fits_two_4090s_and_fills_the_bar(panel: WorkloadPanel) -> None:
    assert panel.spec() == WorkloadSpec(model="llama-3.1-8b", task=Task.LORA, tokens=1e8)
    assert panel.verdict.text().count("fits: ") == 1 and "2x GeForce RTX 4090" in panel.verdict.text()
    e = panel.comparison.own
    assert panel.bar.total == pytest.approx(e.memory.total) and panel.bar.vram == 24.0
    assert 0.5 < panel.bar.fill_fraction() < 1.0
    assert "Weights 15.1 GB" in panel.legend.text()
    assert "tokens/s training" in panel.speed.text() and "one job:" in panel.speed.text()
    model = panel.table.model()
    assert model.rowCount() == 3
    assert model.index(0, MACHINE).data().startswith("This build")
    a100 = model.index(1, MACHINE).data()
    assert a100 == "Lambda 1x A100 (on-demand)" and model.index(1, FITS).data() == "fits"
    assert model.index(1, COST).data().startswith("$") and model.index(1, HOURS).data(Qt.ItemDataRole.UserRole) > 0


def test_a_model_too_big_overfills_the_bar_and_names_the_change(panel: WorkloadPanel, qtbot) -> None:  # noqa: ANN001
    with qtbot.waitSignal(panel.workloadChanged) as sig:
        pick(qtbot, panel.task_box, data=Task.FULL.value)
    assert sig.args[0].task is Task.FULL
    assert panel.bar.fill_fraction() > 1.0
    assert "does not fit as set" in panel.verdict.text() and "LoRA instead" in panel.verdict.text()
    pick(qtbot, panel.model_box, data="llama-3.1-405b")
    assert "no change of one or two options" in panel.verdict.text()
    assert panel.speed.text() == "Speed: unknown"


def test_inference_enables_the_weights_and_reports_decode_and_prefill(panel: WorkloadPanel, qtbot) -> None:  # noqa: ANN001
    assert not panel.weights_box.isEnabled()
    pick(qtbot, panel.model_box, data="llama-3.1-70b")
    pick(qtbot, panel.task_box, data=Task.INFERENCE.value)
    assert panel.weights_box.isEnabled() and not panel.ckpt_box.isEnabled()
    with qtbot.waitSignal(panel.workloadChanged) as sig:
        pick(qtbot, panel.weights_box, data=Weights.INT4.value)
    assert sig.args[0].weights is Weights.INT4
    assert "fits: " in panel.verdict.text() and "split" in panel.verdict.text()
    assert "tokens/s decode" in panel.speed.text() and "prefill" in panel.speed.text()


def test_tokens_per_job_drive_hours_and_a_bad_entry_is_named(panel: WorkloadPanel, qtbot) -> None:  # noqa: ANN001
    hours_1e8 = panel.comparison.own.hours
    type_text(qtbot, panel.tokens_edit, "2e8", enter=True)
    assert panel.comparison.own.hours == pytest.approx(2 * hours_1e8)
    type_text(qtbot, panel.tokens_edit, "lots", enter=True)
    assert "tokens per job: 'lots' is not a number" in panel.verdict.text() and panel.table.model().rowCount() == 0
    type_text(qtbot, panel.tokens_edit, "-5", enter=True)
    assert "must be above 0" in panel.verdict.text()
    type_text(qtbot, panel.tokens_edit, "300M", enter=True)
    assert panel.comparison.own.hours == pytest.approx(3 * hours_1e8)


def test_setters_follow_the_window(panel: WorkloadPanel, offers: OfferCatalog, tmp_path: Path) -> None:
    panel.set_build(None)
    assert "No build" in panel.verdict.text() and panel.table.model().rowCount() == 0
    build = load(BUILD).model_copy(update={"workload": WorkloadSpec(model="mistral-7b", task=Task.QLORA)})
    panel.set_build(build)
    assert panel.spec().model == "mistral-7b" and panel.task_box.currentData() == "qlora"
    panel.set_offers(offers, [(offers.get("lambda:gpu_1x_a100:us-east-1"), Pricing.ON_DEMAND)])
    assert panel.table.model().rowCount() == 2
    cfg = {"hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8,
           "intermediate_size": 8192, "vocab_size": 128256, "tie_word_embeddings": True}  # fmt: skip
    path = tmp_path / "tiny" / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps(cfg))
    panel.use_config(str(path))
    assert panel.spec().model == str(path) and panel.comparison.own.model.params < 2e9


def test_the_workload_tab_of_the_window_saves_its_choice_in_the_build(window, qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    """Beside the break-even chart: the Costs view's Workload tab follows the open build, and a choice there is an
    undoable edit that the saved file keeps."""

    window.files.open_path(BUILD, ask=False)
    show_tab(qtbot, window.tabs, "Costs")
    costs = window.costs
    qtbot.waitUntil(lambda: costs.workload is not None)
    tabs = costs.chart_tabs
    show_tab(qtbot, tabs, "Workload")
    panel = costs.workload
    assert tabs.tabText(tabs.currentIndex()) == "Workload"
    assert "2x GeForce RTX 4090" in panel.verdict.text()  # the window's build, not an empty one
    before = window.doc.build.workload
    pick(qtbot, panel.model_box, data="qwen2.5-32b")
    assert window.doc.build.workload is not None and window.doc.build.workload.model == "qwen2.5-32b"
    assert window.undo_stack.undoText() == "Change the workload"
    choose(qtbot, window, window.menus.undo)  # Edit > Undo
    assert window.doc.build.workload == before
    choose(qtbot, window, window.menus.redo)  # Edit > Redo
    target = tmp_path / "with-workload.rigplan"
    assert window.files.write(target, as_new=True)
    assert load(target).workload.model == "qwen2.5-32b"


def test_a_measured_model_shows_its_measured_speed_and_no_memory_fit(panel: WorkloadPanel, qtbot) -> None:  # noqa: ANN001
    """ResNet-50 from the "Measured (Lambda)" group: speed vs one V100 from the speed table (the same figures as the
    CLI's), hours and cost per job from hours on a V100, and memory "not modelled" instead of a bar."""
    from rigplan.workload.measured import compare_measured

    box = panel.model_box
    header = box.findText("Measured (Lambda):")
    assert header > box.findData("gemma-2-27b")  # a separate group after the language models
    assert not box.model().item(header).isEnabled()  # the group's name cannot be chosen
    assert {box.itemData(i) for i in range(header + 1, box.count())} >= {
        "resnet50", "ssd", "bert-base", "bert-large", "gnmt", "tacotron2", "waveglow"}  # fmt: skip
    with qtbot.waitSignal(panel.workloadChanged) as sig:
        pick(qtbot, box, data="resnet50")
    assert sig.args[0].model == "resnet50"
    assert not panel.task_box.isEnabled() and not panel.seq_spin.isEnabled()
    assert panel.job_label.text() == "Hours on a V100 per job"
    with qtbot.waitSignal(panel.workloadChanged) as sig:
        type_text(qtbot, panel.tokens_edit, "10", enter=True)
    assert sig.args[0] == WorkloadSpec(model="resnet50", v100_hours=10)
    expected = compare_measured(load(BUILD), "resnet50", 10, panel.chart)
    assert "Memory: not modelled" in panel.verdict.text() and not panel.bar.isVisible()
    assert f"{expected.own.speed:,.2f}x one V100's images/s" in panel.speed.text()
    assert f"one job of 10 h on a V100: {expected.own.hours:,.2f} h" in panel.speed.text()
    model = panel.table.model()
    assert model.rowCount() == 3 and model.index(0, 0).data() == "This build"
    assert model.index(1, 0).data() == "Lambda 1x A100 (on-demand)" and model.index(1, 2).data() == "measured"
    a100 = expected.offers[0]
    assert a100.job is not None and model.index(1, 4).data() == f"${a100.job.cloud_cost:,.2f}"  # "$", "£" (issue 40)
    assert model.index(1, 3).data() == f"{a100.hours:,.2f}"
    # back to a language model: the LLM form and its table return
    pick(qtbot, box, data="llama-3.1-8b")
    assert panel.task_box.isEnabled() and panel.job_label.text() == "Tokens per job"
    assert panel.table.model() is panel.jobs and "fits" in panel.verdict.text() and panel.bar.isVisible()
