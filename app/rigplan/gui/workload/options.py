"""The Workload panel's round-two options (issue 39) in one compact grid: the engine, the optimizer and offload for
training, LoRA's rank, and for serving the requests at once and the KV-cache precision. Each control is enabled
only for the tasks it applies to, so the spec never carries an option the planner would refuse."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QSpinBox, QWidget

from rigplan.model.workload import Engine, Offload, Optimizer, Task, WorkloadSpec
from rigplan.workload.engines import SERVING, TRAINING


class OptionsGrid(QWidget):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine_box = QComboBox()
        self.engine_box.setToolTip(
            "The software that runs it: sets the loss's memory (hf keeps fp32 logits, torchtune chunks them, "
            "Unsloth fuses them), the multi-GPU way (llama.cpp splits layers; vLLM, TGI, MLC, ExLlamaV2 split "
            "every layer) and the decode overhead (F1: Workload)"
        )
        self.optimizer_box = QComboBox()
        self.optimizer_box.addItem("AdamW", None)
        for o in list(Optimizer)[1:]:
            self.optimizer_box.addItem(o.value, o.value)
        self.optimizer_box.setToolTip("Optimizer states: AdamW 8 bytes a parameter, 8-bit AdamW 2, Adafactor ~0")
        self.offload_box = QComboBox()
        self.offload_box.addItem("no offload", None)
        for x in (Offload.OPTIMIZER, Offload.PARAMS):
            self.offload_box.addItem(f"offload {x.value}", x.value)
        self.offload_box.setToolTip("Keep optimizer states (or the weights too) in system RAM, over PCIe")
        self.rank_spin = QSpinBox(minimum=0, maximum=1024)
        self.rank_spin.setSpecialValueText("rank 16")  # 0: the default
        self.rank_spin.setPrefix("rank ")
        self.rank_spin.setToolTip("LoRA rank (adapters on every linear layer)")
        self.concurrent_spin = QSpinBox(minimum=0, maximum=4096)
        self.concurrent_spin.setSpecialValueText("1 request")
        self.concurrent_spin.setSuffix(" requests")
        self.concurrent_spin.setToolTip("Requests served at once (continuous batching): throughput and KV cache")
        self.kv_box = QComboBox()
        for bits in (16, 8, 4):
            self.kv_box.addItem(f"KV {bits}-bit", None if bits == 16 else bits)
        self.kv_box.setToolTip("KV-cache precision (vLLM / llama.cpp cache quantization)")
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(QLabel("Engine"), 0, 0)
        grid.addWidget(self.engine_box, 0, 1)
        grid.addWidget(self.optimizer_box, 0, 2)
        grid.addWidget(self.offload_box, 1, 0, 1, 2)
        grid.addWidget(self.rank_spin, 1, 2)
        grid.addWidget(self.concurrent_spin, 2, 0, 1, 2)
        grid.addWidget(self.kv_box, 2, 2)
        for box in (self.engine_box, self.optimizer_box, self.offload_box, self.kv_box):
            box.currentIndexChanged.connect(self._changed)
        for spin in (self.rank_spin, self.concurrent_spin):
            spin.valueChanged.connect(self._changed)
        self._task: Task | None = None
        self.set_task(Task.LORA, False)

    def _changed(self, *_: object) -> None:
        self.changed.emit()

    def set_task(self, task: Task, measured: bool) -> None:
        """The engines of the task, and which options apply."""
        if task != self._task:
            self._task = task
            keep = self.engine_box.currentData()
            self.engine_box.blockSignals(True)
            self.engine_box.clear()
            self.engine_box.addItem("automatic", None)
            for e in Engine:
                if e in (SERVING if task is Task.INFERENCE else TRAINING):
                    self.engine_box.addItem(e.value, e.value)
            self.engine_box.setCurrentIndex(max(0, self.engine_box.findData(keep)))
            self.engine_box.blockSignals(False)
        training = task is not Task.INFERENCE
        self.engine_box.setEnabled(not measured)
        self.optimizer_box.setEnabled(training and not measured)
        self.offload_box.setEnabled(training and not measured)
        self.rank_spin.setEnabled(task in (Task.LORA, Task.QLORA) and not measured)
        self.concurrent_spin.setEnabled(not training and not measured)
        self.kv_box.setEnabled(not training and not measured)

    def values(self, task: Task) -> dict[str, Any]:
        """The options that apply to `task`, for WorkloadSpec (None: the default)."""
        training = task is not Task.INFERENCE
        return {
            "engine": self.engine_box.currentData(),
            "optimizer": self.optimizer_box.currentData() if training else None,
            "offload": self.offload_box.currentData() if training else None,
            "lora_rank": (self.rank_spin.value() or None) if task in (Task.LORA, Task.QLORA) else None,
            "concurrent": (self.concurrent_spin.value() or None) if not training else None,
            "kv_bits": self.kv_box.currentData() if not training else None,
        }

    def set_values(self, spec: WorkloadSpec) -> None:
        self.blockSignals(True)
        try:
            self.set_task(spec.task, spec.measured)
            self.engine_box.setCurrentIndex(
                max(0, self.engine_box.findData(spec.engine.value if spec.engine else None))
            )
            self.optimizer_box.setCurrentIndex(
                max(0, self.optimizer_box.findData(spec.optimizer.value if spec.optimizer else None))
            )
            self.offload_box.setCurrentIndex(
                max(0, self.offload_box.findData(spec.offload.value if spec.offload else None))
            )
            self.rank_spin.setValue(spec.lora_rank or 0)
            self.concurrent_spin.setValue(spec.concurrent or 0)
            self.kv_box.setCurrentIndex(max(0, self.kv_box.findData(spec.kv_bits)))
        finally:
            self.blockSignals(False)
