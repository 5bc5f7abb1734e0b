"""The Workload panel: choose a model and a task, see the memory bar of one GPU filling against its memory, the
verdict, the speed, and one job's hours and cost on the build and on the offers of the chart.

Self-contained: it takes the build, the cloud offers and the catalog through its constructor and setters, and says
what the user chose through `workloadChanged` (the window saves it in the build). All sums are rigplan.workload's.
"""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rigplan.cloud.offers import OfferCatalog
from rigplan.model.assumptions import Pricing
from rigplan.model.build import Build
from rigplan.model.offers import Offer
from rigplan.model.workload import MAX_BATCH, MAX_SEQ, Strategy, Task, Weights, WorkloadSpec
from rigplan.workload import WorkloadError, bundled_models
from rigplan.workload.jobs import JobComparison, compare
from rigplan.workload.measured import MeasuredComparison, compare_measured, is_measured
from rigplan.workload.plan import FITS, FITS_WITH

from .costbars import CostBars
from .jobs_model import JobsModel, chart_names, cost_rows
from .measured_view import add_group, speed_text, table_model, verdict_text
from .measured_view import cost_rows as measured_cost_rows
from .membar import COLOURS, MemoryBar, label
from .options import OptionsGrid

TASKS = {Task.LORA: "LoRA fine-tuning", Task.QLORA: "QLoRA (4-bit base)", Task.FULL: "Full fine-tuning",
         Task.INFERENCE: "Inference"}  # fmt: skip
DEFAULT = WorkloadSpec(model="llama-3.1-8b", task=Task.LORA, tokens=1e8)


class WorkloadPanel(QWidget):
    workloadChanged = Signal(object)  # the WorkloadSpec the user chose  # noqa: N815 - Qt naming

    def __init__(
        self,
        build: Build | None = None,
        offers: OfferCatalog | None = None,
        catalog: object | None = None,
        chart: list[tuple[Offer, Pricing]] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.build = build
        self.offer_catalog = offers
        self.catalog = catalog  # kept for the window's wiring; the build carries its parts' figures
        self.chart: list[tuple[Offer, Pricing]] = chart or []
        self.comparison: JobComparison | None = None
        self.measured_comparison: MeasuredComparison | None = None  # a measured model's (ResNet-50...)
        self._config: str | None = None
        self._quiet = False
        self._was_measured = False
        self._build_ui()
        self.set_spec(build.workload if build and build.workload else DEFAULT, emit=False)

    # ----- setters the window calls
    def set_build(self, build: Build | None) -> None:
        self.build = build
        if build is not None and build.workload is not None and build.workload != self.spec():
            self.set_spec(build.workload, emit=False)
        else:
            self.refresh()

    def set_offers(self, offers: OfferCatalog | None, chart: list[tuple[Offer, Pricing]] | None = None) -> None:
        self.offer_catalog = offers
        if chart is not None:
            self.chart = chart
        self.refresh()

    def set_catalog(self, catalog: object | None) -> None:
        self.catalog = catalog

    # ----- the form
    def _build_ui(self) -> None:
        self.model_box = QComboBox()
        for m in bundled_models().values():
            self.model_box.addItem(f"{m.name} ({m.params / 1e9:.1f}B)", m.id)
        add_group(self.model_box)  # ResNet-50, BERT, Tacotron 2...: measured speeds, no memory model
        self.model_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.model_box.setToolTip("A model whose architecture RigPlan knows, or a Hugging Face config.json file")
        self.config_button = QPushButton("config.json...")
        self.config_button.setToolTip("Any other model: its config.json from Hugging Face (read locally)")
        self.task_box = QComboBox()
        for t, text in TASKS.items():
            self.task_box.addItem(text, t.value)
        self.weights_box = QComboBox()
        for w in Weights:
            self.weights_box.addItem(w.value, w.value)
        self.weights_box.setToolTip("Inference weights as downloaded: GGUF, GPTQ/AWQ, FP8, EXL2... (F1: Workload)")
        self.options = OptionsGrid()  # engine, optimizer, offload, LoRA rank, requests at once, KV bits (issue 39)
        self.seq_spin = QSpinBox(minimum=1, maximum=MAX_SEQ, singleStep=512)
        self.seq_spin.setToolTip("Sequence length in tokens (the context for inference)")
        self.batch_spin = QSpinBox(minimum=1, maximum=MAX_BATCH)
        self.batch_spin.setToolTip("Micro-batch per GPU (sequences at once for inference)")
        self.gpus_spin = QSpinBox(minimum=0, maximum=64)
        self.gpus_spin.setSpecialValueText("all")  # 0: every GPU of the build
        self.strategy_box = QComboBox()
        self.strategy_box.addItem("automatic", None)
        for s, text in ((Strategy.REPLICATE, "replicate (DDP)"), (Strategy.SHARD, "shard (FSDP / ZeRO-3)"),
                        (Strategy.SPLIT, "split layers")):  # fmt: skip
            self.strategy_box.addItem(text, s.value)
        self.ckpt_box = QCheckBox("Gradient checkpointing")
        self.ckpt_box.setToolTip("Keep only each layer's input and recompute the rest in the backward pass")
        self.tokens_edit = QLineEdit()
        self.tokens_edit.setPlaceholderText("e.g. 1e8")
        self.tokens_edit.setToolTip("Tokens in one job: trained (epochs x data set), or generated for inference")

        form = QFormLayout()
        form.addRow("Model", self.model_box)
        form.addRow("", self.config_button)  # its own row: beside the model it cut the name to "Llama 3." at 1280
        form.addRow("Task", self.task_box)
        form.addRow("Weights", self.weights_box)
        form.addRow("Sequence", self.seq_spin)
        form.addRow("Micro-batch", self.batch_spin)
        form.addRow("GPUs", self.gpus_spin)
        form.addRow("Strategy", self.strategy_box)
        form.addRow("", self.ckpt_box)
        form.addRow(self.options)
        self.job_label = QLabel("Tokens per job")
        form.addRow(self.job_label, self.tokens_edit)

        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.bar = MemoryBar()
        self.legend = QLabel()
        self.legend.setWordWrap(True)
        self.speed = QLabel()
        self.speed.setWordWrap(True)
        self.jobs = JobsModel()
        self.table = QTableView()
        self.table.setModel(self.jobs)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.setAlternatingRowColors(True)

        # The answers first, in the page's width (issue 40: off-screen behind two scroll bars at 1280 px and 2x): the
        # jobs table leads; its Machine column takes what the numbers leave, and wraps.
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(True)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        out = QVBoxLayout()
        out.addWidget(self.verdict)
        out.addWidget(self.table)
        self.costs = CostBars()
        out.addWidget(self.speed)
        out.addWidget(self.bar)
        out.addWidget(self.legend)
        out.addWidget(self.costs)
        out.addStretch(1)
        top = QHBoxLayout(self)
        left = QWidget()
        left.setLayout(form)
        left.setMaximumWidth(270)  # the fields stay wide enough for "Llama 3.1 8B (8.0B)"; the answers need the rest
        top.addWidget(left, 0, Qt.AlignmentFlag.AlignTop)
        top.addLayout(out, 1)

        for box in (self.model_box, self.task_box, self.weights_box, self.strategy_box):
            box.currentIndexChanged.connect(self._edited)
        for spin in (self.seq_spin, self.batch_spin, self.gpus_spin):
            spin.valueChanged.connect(self._edited)
        self.ckpt_box.toggled.connect(self._edited)
        self.options.changed.connect(self._edited)
        self.tokens_edit.editingFinished.connect(self._edited)
        self.config_button.clicked.connect(self._open_config)

    def _open_config(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "A model's config.json", "", "JSON (*.json)")
        if path:
            self.use_config(path)

    def use_config(self, path: str) -> None:
        """A model from its config.json: added to the list and chosen."""
        self._config = path
        i = self.model_box.findData(path)
        if i < 0:
            self.model_box.addItem(Path(path).parent.name + "/" + Path(path).name, path)
            i = self.model_box.count() - 1
        self.model_box.setCurrentIndex(i)

    # ----- the spec in the form
    def measured(self) -> bool:
        return is_measured(self.model_box.currentData() or "")

    def spec(self) -> WorkloadSpec:
        if self.measured():  # one job in hours on one V100 (the cost model's job unit)
            return WorkloadSpec(model=self.model_box.currentData(), v100_hours=_tokens(self.tokens_edit.text(), HOURS))
        task = Task(self.task_box.currentData())
        tokens = _tokens(self.tokens_edit.text())
        return WorkloadSpec(
            model=self.model_box.currentData(),
            task=task,
            weights=Weights(self.weights_box.currentData()) if task is Task.INFERENCE else None,
            seq=self.seq_spin.value(),
            batch=self.batch_spin.value(),
            gpus=self.gpus_spin.value() or None,
            strategy=self.strategy_box.currentData(),
            checkpointing=None
            if self.ckpt_box.isChecked() == (task is not Task.INFERENCE)
            else self.ckpt_box.isChecked(),
            tokens=tokens,
            **self.options.values(task),
        )

    def set_spec(self, spec: WorkloadSpec, emit: bool = True) -> None:
        self._quiet = True
        try:
            if self.model_box.findData(spec.model) < 0:
                self.use_config(spec.model)
            self.model_box.setCurrentIndex(self.model_box.findData(spec.model))
            self.task_box.setCurrentIndex(self.task_box.findData(spec.task.value))
            self.weights_box.setCurrentIndex(self.weights_box.findData((spec.weights or Weights.BF16).value))
            self.seq_spin.setValue(spec.seq)
            self.batch_spin.setValue(spec.batch)
            self.gpus_spin.setValue(spec.gpus or 0)
            self.strategy_box.setCurrentIndex(
                self.strategy_box.findData(spec.strategy.value if spec.strategy else None)
            )
            training = spec.task is not Task.INFERENCE
            self.ckpt_box.setChecked(training if spec.checkpointing is None else spec.checkpointing)
            self.options.set_values(spec)
            self._was_measured = is_measured(spec.model)
            self.tokens_edit.setText(_tokens_text(spec.tokens))
            if self._was_measured:
                self.tokens_edit.setText("" if spec.v100_hours is None else f"{spec.v100_hours:g}")
        finally:
            self._quiet = False
        self._edited(emit=emit)

    def _edited(self, *_: object, emit: bool = True) -> None:
        if self._quiet:
            return
        task = Task(self.task_box.currentData())
        measured = self.measured()
        if measured != self._was_measured:  # tokens and V100 hours are different units: not carried across
            self._was_measured = measured
            self.tokens_edit.clear()
        for w in (self.task_box, self.seq_spin, self.batch_spin, self.gpus_spin, self.strategy_box):
            w.setEnabled(not measured)  # a measured model is its benchmark's training run, on every GPU
        self.weights_box.setEnabled(task is Task.INFERENCE and not measured)
        self.ckpt_box.setEnabled(task is not Task.INFERENCE and not measured)
        self.options.set_task(task, measured)
        self.job_label.setText(HOURS if measured else "Tokens per job")
        self.tokens_edit.setPlaceholderText("e.g. 10" if measured else "e.g. 1e8")
        self.tokens_edit.setToolTip(
            "One job, in hours on one V100 SXM2 16 GB (the measured table's reference)"
            if measured
            else "Tokens in one job: trained (epochs x data set), or generated for inference"
        )
        if emit:
            try:
                self.workloadChanged.emit(self.spec())
            except ValueError:
                pass  # refresh shows the problem
        self.refresh()

    # ----- results
    def refresh(self) -> None:
        self.comparison = self.measured_comparison = None
        if self.build is None:
            return self._show_problem("No build: add GPUs to plan a workload.")
        try:
            spec = self.spec()
            chart = [(o, p) for o, p in self.chart if o.hourly(p) is not None]
            if self.measured():
                return self._show_measured(compare_measured(self.build, spec.model, spec.v100_hours, chart))
            self.comparison = compare(self.build, spec, chart)
        except (WorkloadError, ValueError) as exc:
            return self._show_problem(str(exc).splitlines()[0])
        self.table.setModel(self.jobs)
        self.bar.setVisible(True)
        e = self.comparison.own
        colour = {FITS: "#006400", FITS_WITH: "#8B5A00"}.get(e.verdict, "#B00000")
        per = f"{e.setup.gpus}x {e.hardware.gpu.name}, {e.setup.strategy.value}"
        notes = "".join(f"<br><i>{n}</i>" for n in e.notes)  # over 90 % of a card, FP8, system RAM (issue 39)
        self.verdict.setText(f"<b style='color:{colour}'>{e.summary}</b><br>{e.model.name}, {per}{notes}")
        self.bar.set_memory(e.memory.parts, e.vram_gb)
        self.legend.setText(
            "  ".join(
                f"<span style='color:{COLOURS[k]}'>&#9632;</span> {label(k)} {v:.1f} GB"
                for k, v in e.memory.parts.items()
                if v > 0
            )
        )
        sp = e.speed
        if sp.tokens_per_s is None:
            text = "Speed: unknown"
        else:
            kind = "decode" if e.setup.task is Task.INFERENCE else "training"
            text = f"Speed ({sp.kind}): {sp.tokens_per_s:,.0f} tokens/s {kind}"
            if sp.prefill_tokens_per_s:
                text += f", {sp.prefill_tokens_per_s:,.0f} tokens/s prefill"
            if sp.ttft_s is not None:
                text += f", first token {sp.ttft_s:,.2f} s"
            if e.hours is not None:
                text += f"; one job: {e.hours:,.2f} h"
        self.speed.setText(text)
        self.speed.setToolTip(sp.basis)
        names = chart_names(self.chart)  # as the Costs tab names the offers (issue 29)
        self.jobs.set_comparison(self.comparison, names)
        self._fit_table()
        self.costs.set_rows(cost_rows(self.comparison, names))
        return None

    def _show_measured(self, c: MeasuredComparison) -> None:
        self.measured_comparison = c
        self.verdict.setText(verdict_text(c))
        self.bar.set_memory({}, None)
        self.bar.setVisible(False)  # no memory figures: no bar rather than an empty one reading "0.0 GB"
        self.legend.setText("")
        self.speed.setText(speed_text(c))
        self.speed.setToolTip(c.own.basis)
        names = chart_names(self.chart)  # as the Costs tab names the offers (issue 29)
        self.table.setModel(table_model(c, names))
        self._fit_table()
        self.costs.set_rows(measured_cost_rows(c, names))

    def _fit_table(self) -> None:
        """As tall as its rows (the machines' names wrapped): the cost bars sit right under it, no empty grid."""
        self.table.resizeRowsToContents()
        rows = self.table.model().rowCount()
        h = self.table.horizontalHeader().height() + sum(self.table.rowHeight(i) for i in range(rows))
        self.table.setFixedHeight(h + 2 * self.table.frameWidth() + 2)

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._fit_table()  # a new width wraps the machines' names over other lines

    def _show_problem(self, text: str) -> None:
        self.verdict.setText(f"<b>{text}</b>")
        self.bar.set_memory({}, None)
        self.bar.setVisible(not self.measured())
        self.legend.setText("")
        self.speed.setText("")
        self.jobs.set_comparison(None)
        self.table.setModel(self.jobs)
        self.costs.set_rows([])


def _tokens_text(tokens: float | None) -> str:
    if tokens is None:
        return ""
    for unit, size in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if tokens >= size and (tokens / size) == round(tokens / size, 3):
            return f"{tokens / size:g}{unit}"
    return f"{tokens:g}"


HOURS = "Hours on a V100 per job"


def _tokens(text: str, what: str = "tokens per job") -> float | None:
    t = text.strip().replace(",", "").replace("_", "")
    if not t:
        return None
    mult = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}.get(t[-1].lower(), 1.0)
    try:
        v = float(t[:-1] if mult != 1.0 else t) * mult
    except ValueError:
        raise ValueError(f"{what.lower()}: {text.strip()!r} is not a number (e.g. 2e8 or 200M)") from None
    top = 1e7 if what == HOURS else 1e15
    if not math.isfinite(v) or v <= 0 or v > top:
        raise ValueError(f"{what.lower()} must be above 0 and at most {top:g}, not {text.strip()!r}")
    return v
