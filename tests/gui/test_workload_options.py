"""The Workload panel's round-two options (issue 39), driven with keys and clicks: the engine, a real weight format,
requests at once and the KV-cache bits for serving; the optimizer, offload and LoRA rank for training; and the
panel still fits 1280x720."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from rigplan.cloud.offers import OfferCatalog
from rigplan.files import load
from rigplan.gui.workload.panel import WorkloadPanel
from rigplan.model.workload import Engine, Offload, Optimizer, Task, Weights

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "examples" / "2x-rtx-4090.rigplan"


@pytest.fixture
def panel(qtbot, offers: OfferCatalog) -> WorkloadPanel:  # noqa: ANN001
    p = WorkloadPanel(load(BUILD), offers, None, [])
    qtbot.addWidget(p)
    p.resize(1280, 640)
    p.show()
    qtbot.waitExposed(p)
    return p


def _pick(qtbot, box, text: str) -> None:  # noqa: ANN001
    """Choose an item the way a keyboard user does: focus the box and type the start of its text."""
    from PySide6.QtWidgets import QApplication

    # The first key starts a new search, as after a pause: a closed QComboBox types into its view's
    # QAbstractItemView::keyboardSearch, which starts afresh when more than keyboardInputInterval ms passed since the
    # last key. With the interval at 0, 5 ms is such a pause (it waited 1.6 s for a 1.5 s interval: 9.6 s in one
    # test); the rest of the text is typed at 1.5 s, so a loaded test machine's slow typing stays one search.
    QApplication.setKeyboardInputInterval(0)
    qtbot.wait(5)
    box.setFocus()
    qtbot.keyClicks(box, text[0])
    QApplication.setKeyboardInputInterval(1_500)
    qtbot.keyClicks(box, text[1:])
    assert box.currentText().lower().startswith(text.lower()), box.currentText()


def _type(qtbot, spin, value: int) -> None:  # noqa: ANN001
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Enter)


def test_serving_options_change_the_answer(panel: WorkloadPanel, qtbot) -> None:  # noqa: ANN001
    _pick(qtbot, panel.task_box, "Inf")
    _pick(qtbot, panel.model_box, "Phi")  # Phi-4, 14.7B (a space would open the list)
    assert panel.options.optimizer_box.isEnabled() is False and panel.options.kv_box.isEnabled()
    _pick(qtbot, panel.options.engine_box, "vllm")
    _pick(qtbot, panel.weights_box, "awq")
    spec = panel.spec()
    assert spec.engine is Engine.VLLM and spec.weights is Weights.AWQ
    one = panel.comparison.own.speed.tokens_per_s
    assert "system RAM" not in panel.verdict.text()
    assert "vLLM" in panel.speed.toolTip() and "AWQ" in panel.speed.toolTip() and "first token" in panel.speed.text()
    with qtbot.waitSignal(panel.workloadChanged) as sig:
        _type(qtbot, panel.options.concurrent_spin, 8)
    assert sig.args[0].concurrent == 8
    e = panel.comparison.own
    assert e.setup.batch == 8 and e.speed.tokens_per_s > 3 * one
    kv16 = e.memory.parts["kv_cache"]
    _pick(qtbot, panel.options.kv_box, "KV")  # from "KV 16-bit" typing steps to the next "KV" item: 8-bit
    assert panel.spec().kv_bits == 8
    assert panel.comparison.own.memory.parts["kv_cache"] == pytest.approx(kv16 / 2, rel=0.01)
    # a format the engine does not load: said in the verdict line, nothing else lost
    _pick(qtbot, panel.weights_box, "q4_k_m")
    assert "not a format vLLM loads" in panel.verdict.text()


def test_training_options_change_the_memory(panel: WorkloadPanel, qtbot) -> None:  # noqa: ANN001
    assert panel.options.rank_spin.isEnabled() and not panel.options.concurrent_spin.isEnabled()
    before = panel.comparison.own.memory.parts["optimizer"]
    _type(qtbot, panel.options.rank_spin, 64)
    assert panel.spec().lora_rank == 64
    assert panel.comparison.own.memory.parts["optimizer"] == pytest.approx(4 * before, rel=0.01)
    _pick(qtbot, panel.task_box, "Full")
    _pick(qtbot, panel.options.optimizer_box, "adamw8")
    _pick(qtbot, panel.options.offload_box, "offload o")
    spec = panel.spec()
    assert spec.optimizer is Optimizer.ADAMW8BIT and spec.offload is Offload.OPTIMIZER and spec.lora_rank is None
    e = panel.comparison.own
    assert e.memory.parts["optimizer"] == 0 and e.memory.host_gb > 0
    assert "of 128 GB of system RAM" in panel.verdict.text()  # the build's RAM, checked and said
    _pick(qtbot, panel.options.engine_box, "unsloth")
    assert panel.spec().engine is Engine.UNSLOTH and panel.spec().task is Task.FULL


def test_the_options_keep_the_panel_within_1280x720(panel: WorkloadPanel) -> None:
    assert panel.minimumSizeHint().height() <= 720 - 120  # the window's menu, tabs and status bar take the rest
    assert panel.minimumSizeHint().width() <= 1280
