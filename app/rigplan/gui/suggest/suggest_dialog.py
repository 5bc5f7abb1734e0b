"""The "Suggest a build" dialog: the question as a form, the exact answer with its reasons, "Open as new build".

The search (rigplan.suggest) runs as a background job (gui/jobs.py), whose ends reach this dialog's bound slots
in the GUI thread; Cancel, and closing the dialog, set the flag the search checks at each node. The inputs are
remembered (gui/settings.py: SUGGEST_INPUTS).
"""

from __future__ import annotations

import html
import json
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from rigplan.catalog.loader import Catalog
from rigplan.cloud.offers import OfferCatalog
from rigplan.gui.jobs import Control, Job
from rigplan.gui.settings import SUGGEST_INPUTS, Settings
from rigplan.gui.suggest.answer import _spin, explanation_html, offer_label, suggested
from rigplan.gui.suggest.fit_box import FitBox
from rigplan.model.assumptions import Assumptions
from rigplan.model.build import Build
from rigplan.model.common import Price
from rigplan.model.offers import Offer
from rigplan.suggest import Goal, Question, SuggestError, Suggestion, suggest

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    pass

GOALS = [
    ("The most training throughput", Goal.THROUGHPUT),
    ("The most GPU memory", Goal.VRAM),
    ("The cheapest build reaching a throughput", Goal.CHEAPEST_THROUGHPUT),
    ("The cheapest build reaching a GPU memory", Goal.CHEAPEST_VRAM),
    ("The earliest break-even against a cloud offer", Goal.BREAKEVEN),
]
DEFAULT_OFFER = "aws:p3.2xlarge:us-east-1"


def own_prices_of(build: Build) -> tuple[tuple[str, Price], ...]:
    """The prices a build gives its catalog parts (its own prices), for "my own prices too"."""
    return tuple((i.part.id, i.price_override) for i in build.items if i.price_override and not i.part.custom)


class SuggestDialog(QDialog):
    answered = Signal()  # a search ended (answer, no answer or cancelled): tests and the screenshot tool wait on it

    def __init__(
        self,
        catalog: Catalog,
        assumptions: Assumptions,
        parent: QWidget | None = None,
        *,
        offers: OfferCatalog | None = None,
        own_prices: tuple[tuple[str, Price], ...] = (),
        user_prices: dict[str, Price] | None = None,
        settings: Settings | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Suggest a build")
        self.catalog, self.assumptions = catalog, assumptions
        if offers is None:  # bundled, or the user's updated prices (Cloud prices > Update)
            from rigplan.cloud.cachepath import prices_home
            from rigplan.cloud.store import load_prices

            offers = load_prices(prices_home())
        self.offers = offers
        # Your catalog prices (File > Import > Price file) first; this build's own prices win over them.
        self.own_prices = tuple({**(user_prices or {}), **dict(own_prices)}.items())
        self.suggestion: Suggestion | None = None
        self.settings = settings
        self.job: Job | None = None

        cur = assumptions.currency
        self.budget = _spin(1_000_000, f" {cur}", 5000, special="no limit")
        self.goal = QComboBox()
        for label, goal in GOALS:
            self.goal.addItem(label, goal)
        self.target = _spin(1000, "", 2.0, decimals=2)
        self.target.setToolTip("V100-equivalents (throughput) or GB (GPU memory), for the cheapest-... goals")
        self.gpus = QSpinBox()
        self.gpus.setRange(0, 8)
        self.gpus.setSpecialValueText("any (1 to the most)")
        self.max_gpus = QSpinBox()
        self.max_gpus.setRange(1, 8)
        self.max_gpus.setValue(2)
        self.min_vram = _spin(192, " GB", special="any")
        self.min_ram = _spin(2048, " GB", special="expert: the GPUs' memory, 32 GB at least")
        self.min_storage = _spin(100_000, " GB", special="expert: 1 TB NVMe (2 TB from 2 GPUs)")
        self.min_cores = QSpinBox()
        self.min_cores.setRange(0, 256)
        self.min_cores.setSpecialValueText("expert: 4 per GPU (6 at least)")
        self.expert = QCheckBox("An expert's minimums (F1: Suggest a build)")
        self.expert.setChecked(True)
        self.expert.setToolTip(
            "RAM >= the GPUs' memory (32 GB at least) filling the CPU's channels; cores >= 4 per GPU (6 at least); "
            "x8 or better per GPU; an NVMe SSD of 1 TB (2 TB from 2 GPUs); a PSU at RigPlan's recommended size with no "
            "connector warning; an ATX tower or bench for 3+ GPUs; a workload to fit within 90 % of each card's "
            "memory. Off: any build with no check error."
        )
        self.missing = QCheckBox("Allow parts with missing data")
        self.missing.setToolTip(
            "Off: a part whose data leaves a rule that matters 'not checked' (PSU cables, GPU length, board form "
            "factor, slot positions, CPU lanes) is not chosen. On: it may be; the answer lists every such rule."
        )
        self.beat = QComboBox()
        self.beat.setEditable(True)  # type any part of the id, the GPU or the price: 1,400+ offers
        self.beat.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        priced = [o for o in self.offers.offers if o.snapshot == "current" and o.hourly(assumptions.pricing)]
        for o in sorted(priced, key=lambda o: (o.provider, o.instance_type, o.region)):
            self.beat.addItem(offer_label(o, assumptions.pricing), o)
        finder = QCompleter(self.beat.model(), self.beat)
        finder.setFilterMode(Qt.MatchFlag.MatchContains)
        finder.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.beat.setCompleter(finder)
        self.beat.setCurrentIndex(max(0, self.beat.findText(DEFAULT_OFFER, Qt.MatchFlag.MatchStartsWith)))
        self.beat.setToolTip(
            f"Current {assumptions.pricing.value} prices: offer id | GPUs | price an hour. Type to search any of them."
        )
        self.mine = QCheckBox(
            f"My own prices too ({len(user_prices or {})} your prices, {len(own_prices)} in this build)"
        )
        self.mine.setToolTip(
            "Your catalog prices and the prices you gave this build's parts replace the catalog's in the search; "
            "off: the catalog's own (new, dated) prices only"
        )
        self.mine.setChecked(bool(self.own_prices))
        self.mine.setEnabled(bool(self.own_prices))

        form = QFormLayout()
        form.addRow("Budget for parts:", self.budget)
        form.addRow("Goal:", self.goal)
        form.addRow("Target:", self.target)
        form.addRow("Number of GPUs:", self.gpus)
        form.addRow("At most GPUs:", self.max_gpus)
        form.addRow("GPU memory, each:", self.min_vram)
        form.addRow("System memory:", self.min_ram)
        form.addRow("Storage:", self.min_storage)
        form.addRow("CPU cores:", self.min_cores)
        form.addRow("Minimums:", self.expert)
        form.addRow("Missing data:", self.missing)
        form.addRow("Cloud offer to beat:", self.beat)
        form.addRow("Prices:", self.mine)
        self.fit = FitBox()
        form.addRow("Must fit workload:", self.fit)
        wall = QLabel(
            f"Wall circuit {assumptions.wall_voltage:g} V / {assumptions.wall_amps:g} A and scaling come from the "
            "build's assumptions. Only priced parts are searched."
        )
        wall.setWordWrap(True)

        self.run_button = QPushButton("Suggest")
        self.cancel_button = QPushButton("Cancel search")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        row = QHBoxLayout()
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress, 1)

        self.result_view = QTextBrowser()
        self.result_view.setPlaceholderText("Set the question and press Suggest.")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        accept = QDialogButtonBox.ButtonRole.AcceptRole
        self.open_button = self.buttons.addButton("Open as new build", accept)
        self.open_button.setEnabled(False)
        # The current platform to quote (suggest.quote), its CPU and board with no price, for the user's quotes.
        self.quote_button = self.buttons.addButton("Open the quote as new build", accept)
        self.quote_button.setVisible(False)
        self.quote_button.clicked.connect(self._take_quote)
        self.open_quote = False

        # Two columns, so the whole question and the answer fit a 1280x720 screen at once.
        left = QVBoxLayout()
        left.addLayout(form)
        left.addWidget(wall)
        left.addLayout(row)
        left.addStretch(1)
        cols = QHBoxLayout()
        cols.addLayout(left, 0)
        cols.addWidget(self.result_view, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(cols, 1)
        layout.addWidget(self.buttons)

        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self._on_cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.goal.currentIndexChanged.connect(self._goal_changed)
        self.gpus.valueChanged.connect(self._goal_changed)  # a fixed count makes "at most" moot
        self._goal_changed()
        self.restore_inputs()
        self.resize(1180, 640)

    def _goal_changed(self) -> None:
        self.target.setEnabled(self.goal.currentData() in (Goal.CHEAPEST_THROUGHPUT, Goal.CHEAPEST_VRAM))
        self.beat.setEnabled(self.current_goal() is Goal.BREAKEVEN)
        self.max_gpus.setEnabled(self.gpus.value() == 0)

    def current_goal(self) -> Goal:
        return Goal(self.goal.currentData())  # Qt hands the StrEnum back as a plain str

    def beat_offer(self) -> Offer | None:
        """The offer typed or chosen (None when the text names none): a list entry, or an offer id typed alone."""
        text = self.beat.currentText().strip()
        index = self.beat.findText(text)
        if index >= 0:
            offer = self.beat.itemData(index)
            return offer if isinstance(offer, Offer) else None
        return self.offers.get(text.split("|")[0].strip())

    # -- remembered inputs -----------------------------------------------------------------------------------
    def inputs(self) -> dict[str, object]:
        return {
            "budget": self.budget.value(),
            "goal": self.current_goal().value,
            "target": self.target.value(),
            "gpus": self.gpus.value(),
            "max_gpus": self.max_gpus.value(),
            "min_vram": self.min_vram.value(),
            "min_ram": self.min_ram.value(),
            "min_storage": self.min_storage.value(),
            "min_cores": self.min_cores.value(),
            "expert": self.expert.isChecked(),
            "missing": self.missing.isChecked(),
            "beat": self.beat.currentText(),
            "fit": self.fit.inputs(),
        }

    def save_inputs(self) -> None:
        if self.settings is not None:
            self.settings.set(SUGGEST_INPUTS, json.dumps(self.inputs()))

    def restore_inputs(self) -> None:
        if self.settings is None or not self.settings.get(SUGGEST_INPUTS):
            return
        try:
            v = json.loads(self.settings.get(SUGGEST_INPUTS))
            for box, name in (
                (self.budget, "budget"),
                (self.target, "target"),
                (self.min_vram, "min_vram"),
                (self.min_ram, "min_ram"),
                (self.min_storage, "min_storage"),
            ):
                box.setValue(float(v[name]))
            for ibox, name in ((self.gpus, "gpus"), (self.max_gpus, "max_gpus"), (self.min_cores, "min_cores")):
                ibox.setValue(int(v[name]))
            self.goal.setCurrentIndex(max(0, self.goal.findData(Goal(v["goal"]))))
            self.expert.setChecked(bool(v["expert"]))
            self.missing.setChecked(bool(v["missing"]))
            if self.beat.findText(str(v["beat"])) >= 0:
                self.beat.setCurrentIndex(self.beat.findText(str(v["beat"])))
            if isinstance(v.get("fit"), dict):  # remembered since issue 28; older settings have none
                self.fit.restore(v["fit"])
        except (ValueError, KeyError, TypeError) as exc:  # a damaged setting: the defaults, said in the log
            log.warning("suggest: remembered inputs not usable (%s); using the defaults", exc)

    def question(self) -> Question:
        """The form as a question. Raises WorkloadError (a ValueError) when the workload cannot be sized."""
        return Question(
            budget=self.budget.value() or None,
            currency=self.assumptions.currency,
            goal=self.current_goal(),
            target=self.target.value() if self.target.isEnabled() else None,
            gpus=self.gpus.value() or None,
            max_gpus=self.max_gpus.value(),
            min_vram_gb=self.min_vram.value(),
            min_ram_gb=self.min_ram.value() or None,  # 0 shows the expert's figure (or none, with them off)
            min_storage_gb=self.min_storage.value() or None,
            min_cores=self.min_cores.value() or None,
            expert=self.expert.isChecked(),
            allow_missing_data=self.missing.isChecked(),
            beat=self.beat_offer() if self.beat.isEnabled() else None,
            own_prices=self.own_prices if self.mine.isChecked() else (),
            fit=self.fit.need(),
        )

    def _on_cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()

    @Slot(int, int, str)
    def _progress(self, done: int, total: int, _text: str = "") -> None:
        if self.job is None or self.job.is_cancelled():
            return
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def searching(self) -> bool:
        return self.job is not None and self.job.running()

    def run(self) -> None:
        """Start the search as a background job; its end arrives in `_succeeded`, `_failed` or `_cancelled`."""
        if self.searching():
            return
        self.suggestion = None
        self.open_button.setEnabled(False)
        self.quote_button.setVisible(False)
        if self.current_goal() is Goal.BREAKEVEN and self.beat_offer() is None:
            name = self.beat.currentText().strip()
            self._no_answer(f"no cloud offer called {name!r}: choose one from the list")
            return
        self.save_inputs()
        try:
            question = self.question()
        except ValueError as exc:  # the workload cannot be sized (an option out of its model's range)
            self._no_answer(str(exc))
            return
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, 0)  # busy until the search reports
        self.result_view.setHtml("<p>Searching...</p>")
        catalog, assumptions = self.catalog, self.assumptions

        def work(control: Control) -> Suggestion:
            return suggest(catalog, assumptions, question, progress=control.progress, cancelled=control.cancelled)

        self.job = job = Job(work, name="suggest", expected=(SuggestError,))
        job.progress.connect(self._progress)
        job.succeeded.connect(self._succeeded)
        job.failed.connect(self._no_answer)
        job.cancelled.connect(self._cancelled)
        job.start()

    @Slot(object)
    def _succeeded(self, answer: Suggestion) -> None:
        self.suggestion = answer
        self._show(self.explanation_html(answer))
        self.open_button.setEnabled(True)
        self.quote_button.setVisible(answer.quote is not None)

    @Slot(str)
    def _no_answer(self, text: str) -> None:
        self._show(f"<p><b>No answer:</b> {html.escape(text)}</p>")

    @Slot()
    def _cancelled(self) -> None:
        self._show("<p>Search cancelled; nothing changed.</p>")

    def _show(self, text: str) -> None:
        self.job = None
        self.result_view.setHtml(text)
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        self.answered.emit()

    def stop(self) -> None:
        """Cancel a running search and let it go: the search checks the flag at every node, its thread ends on its
        own, and nothing it delivers reaches this dialog any more."""
        job, self.job = self.job, None
        if job is not None and job.running():
            for signal, slot in (
                (job.progress, self._progress),
                (job.succeeded, self._succeeded),
                (job.failed, self._no_answer),
                (job.cancelled, self._cancelled),
            ):
                signal.disconnect(slot)
            job.cancel()

    def done(self, result: int) -> None:  # Close, Escape, the window's X and "Open as new build" all end here
        self.stop()
        self.save_inputs()
        super().done(result)

    explanation_html = staticmethod(explanation_html)

    @Slot()
    def _take_quote(self) -> None:  # the button's AcceptRole then accepts the dialog
        self.open_quote = True

    def suggested_build(self) -> Build | None:
        """The answer's build, or the platform to quote when its button was pressed (answer.suggested); None first."""
        return None if self.suggestion is None else suggested(self.suggestion, quote=self.open_quote)
