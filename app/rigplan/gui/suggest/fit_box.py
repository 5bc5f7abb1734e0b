""" "Must fit this workload" in the suggest dialog (issue 28): a model, a task, sequence and micro-batch. The GUI
composes the workload planner and the suggester (siblings that do not import each other): it sizes the memory per
GPU with rigplan.workload and hands the suggester the table as data (suggest.question.FitNeed)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QSpinBox, QWidget

from rigplan.model.workload import MAX_BATCH, MAX_SEQ, Task, WorkloadSpec
from rigplan.suggest import FitNeed
from rigplan.workload import WorkloadError, bundled_models
from rigplan.workload.fit import memory_table

TASKS = [("LoRA", Task.LORA), ("QLoRA", Task.QLORA), ("full fine-tune", Task.FULL), ("inference", Task.INFERENCE)]


class FitBox(QWidget):
    """Model (or "no workload"), task, sequence length and micro-batch on one row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = QComboBox()
        self.model.addItem("no workload", "")
        for mid, m in bundled_models().items():
            self.model.addItem(m.name, mid)
        self.model.setToolTip(
            "Must fit this workload: every GPU holds the memory per GPU the workload planner sizes for that many "
            "GPUs (a full copy each when it fits, else sharded; F1: Workload)"
        )
        self.task = QComboBox()
        for label, task in TASKS:
            self.task.addItem(label, task.value)
        self.seq = QSpinBox()
        self.seq.setRange(1, MAX_SEQ)
        self.seq.setValue(2048)
        self.seq.setPrefix("seq ")
        self.batch = QSpinBox()
        self.batch.setRange(1, MAX_BATCH)
        self.batch.setPrefix("batch ")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.model, 2)
        row.addWidget(self.task, 1)
        row.addWidget(self.seq, 1)
        row.addWidget(self.batch, 1)
        self.model.currentIndexChanged.connect(self._model_changed)
        self._model_changed()

    def _model_changed(self) -> None:
        on = bool(self.model.currentData())
        for w in (self.task, self.seq, self.batch):
            w.setEnabled(on)

    def need(self) -> FitNeed | None:
        """The workload's memory per GPU on 1 to 8 GPUs, or None without a workload. Raises WorkloadError."""
        model = self.model.currentData()
        if not model:
            return None
        spec = WorkloadSpec(
            model=model, task=Task(self.task.currentData()), seq=self.seq.value(), batch=self.batch.value()
        )
        try:
            table = memory_table(spec, range(1, 9))
        except WorkloadError as exc:  # the planner names the CLI's flags; the dialog's fields say it here
            text = str(exc).replace("--seq", "the sequence length").replace("--weights", "weights")
            raise WorkloadError(f"the workload to fit: {text}") from None
        return FitNeed(table.label, table.per_gpu_gb)

    def inputs(self) -> dict[str, object]:
        return {"model": self.model.currentData(), "task": self.task.currentData(), "seq": self.seq.value(),
                "batch": self.batch.value()}  # fmt: skip

    def restore(self, v: dict[str, object]) -> None:
        self.model.setCurrentIndex(max(0, self.model.findData(str(v.get("model", "")))))
        self.task.setCurrentIndex(max(0, self.task.findData(str(v.get("task", Task.LORA.value)))))
        self.seq.setValue(int(v.get("seq", 2048)))  # type: ignore[call-overload]
        self.batch.setValue(int(v.get("batch", 1)))  # type: ignore[call-overload]
