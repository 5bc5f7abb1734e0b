"""The "Suggest a build" dialog: the question as a form, the exact answer with its reasons, "Open as new build".

The search (rigplan.suggest) runs in the GUI thread and keeps the window alive by processing events from its
cancel check, at most every 50 ms; Cancel sets the flag the search checks at each node.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
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
from rigplan.model.assumptions import Assumptions
from rigplan.model.build import Build
from rigplan.model.common import Price
from rigplan.model.offers import Offer
from rigplan.suggest import Cancelled, Goal, Question, SuggestError, Suggestion, suggest
from rigplan.suggest.explain import money

if TYPE_CHECKING:
    from rigplan.gui.files.document import BuildDocument

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


def _day(found: object) -> str:
    score = getattr(found, "score", None)
    if score is None:
        return ""
    return ", never breaks even" if score.days == float("inf") else f", breaks even on day {score.days:,.0f}"


def _spin(maximum: float, suffix: str, value: float = 0.0, decimals: int = 0, special: str = "") -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(0, maximum)
    box.setDecimals(decimals)
    box.setSuffix(suffix)
    box.setValue(value)
    if special:
        box.setSpecialValueText(special)
    return box


class SuggestDialog(QDialog):
    def __init__(
        self,
        catalog: Catalog,
        assumptions: Assumptions,
        parent: QWidget | None = None,
        *,
        offers: OfferCatalog | None = None,
        own_prices: tuple[tuple[str, Price], ...] = (),
        user_prices: dict[str, Price] | None = None,
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
        self._cancel = False
        self._last_events = 0.0

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
        self.min_ram = _spin(2048, " GB", special="any")
        self.min_storage = _spin(100_000, " GB", special="any")
        self.beat = QComboBox()
        self.beat.setEditable(True)  # type to filter: 1,400+ offers
        self.beat.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        priced = [o for o in self.offers.offers if o.snapshot == "current" and o.hourly(assumptions.pricing)]
        for o in sorted(priced, key=lambda o: (o.provider, o.instance_type, o.region)):
            self.beat.addItem(o.id, o)
        self.beat.setCurrentIndex(max(0, self.beat.findText(DEFAULT_OFFER)))
        self.beat.setToolTip(f"Current {assumptions.pricing.value} prices; type to find an instance or region")
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
        form.addRow("Cloud offer to beat:", self.beat)
        form.addRow("Prices:", self.mine)
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
        self.open_button = self.buttons.addButton("Open as new build", QDialogButtonBox.ButtonRole.AcceptRole)
        self.open_button.setEnabled(False)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(wall)
        layout.addLayout(row)
        layout.addWidget(self.result_view, 1)
        layout.addWidget(self.buttons)

        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self._on_cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.goal.currentIndexChanged.connect(self._goal_changed)
        self._goal_changed()
        self.resize(760, 720)

    def _goal_changed(self) -> None:
        self.target.setEnabled(self.goal.currentData() in (Goal.CHEAPEST_THROUGHPUT, Goal.CHEAPEST_VRAM))
        self.beat.setEnabled(self.current_goal() is Goal.BREAKEVEN)

    def current_goal(self) -> Goal:
        return Goal(self.goal.currentData())  # Qt hands the StrEnum back as a plain str

    def beat_offer(self) -> Offer | None:
        """The offer typed or chosen (None when the text names none)."""
        return self.offers.get(self.beat.currentText().strip())

    def question(self) -> Question:
        return Question(
            budget=self.budget.value() or None,
            currency=self.assumptions.currency,
            goal=self.current_goal(),
            target=self.target.value() if self.target.isEnabled() else None,
            gpus=self.gpus.value() or None,
            max_gpus=self.max_gpus.value(),
            min_vram_gb=self.min_vram.value(),
            min_ram_gb=self.min_ram.value(),
            min_storage_gb=self.min_storage.value(),
            beat=self.beat_offer() if self.beat.isEnabled() else None,
            own_prices=self.own_prices if self.mine.isChecked() else (),
        )

    def _on_cancel(self) -> None:
        self._cancel = True

    def _cancelled(self) -> bool:
        now = time.monotonic()
        if now - self._last_events > 0.05:
            self._last_events = now
            from PySide6.QtWidgets import QApplication

            QApplication.processEvents()
        return self._cancel

    def _progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def run(self) -> None:
        self._cancel = False
        self.suggestion = None
        self.open_button.setEnabled(False)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, 0)  # busy until the search reports
        try:
            if self.current_goal() is Goal.BREAKEVEN and self.beat_offer() is None:
                raise SuggestError(
                    f"no cloud offer called '{self.beat.currentText().strip()}': choose one from the list"
                )
            self.suggestion = suggest(self.catalog, self.assumptions, self.question(), self._progress, self._cancelled)
        except SuggestError as exc:
            self.result_view.setHtml(f"<p><b>No answer:</b> {html.escape(str(exc))}</p>")
        except Cancelled:
            self.result_view.setHtml("<p>Search cancelled; nothing changed.</p>")
        else:
            self.result_view.setHtml(self.explanation_html(self.suggestion))
            self.open_button.setEnabled(True)
        finally:
            self.run_button.setEnabled(True)
            self.cancel_button.setEnabled(False)
            self.progress.setRange(0, 1)
            self.progress.setValue(1)

    @staticmethod
    def explanation_html(s: Suggestion) -> str:
        o = s.found.option
        rate = s.total / s.found.total_usd if s.found.total_usd else 1.0
        rows = "".join(
            f"<tr><td>{i.quantity}x</td><td>{html.escape(i.part.kind.label)}</td><td>{html.escape(i.part.name)}</td>"
            f"<td align='right'>{'Your price: ' if i.price_override else ''}"
            f"{html.escape(i.unit_price.describe() if i.unit_price else 'no price')}</td></tr>"
            for i in s.build.items
        )
        out = [
            f"<h3>{money(s.total, s.currency)}: {o.throughput:.2f} V100-equivalents, {o.vram_gb:g} GB GPU memory</h3>",
        ]
        if s.question.beat is not None:
            out.append(f"<p><b>{html.escape(s.beat_text[:1].upper() + s.beat_text[1:])}</b></p>")
        out += [
            f"<table cellspacing='4'>{rows}</table>",
            "<p>Passes every check with no errors (the best such build over the priced catalog).</p>",
            f"<p><b>What binds:</b> {html.escape(s.binding)}: {html.escape(s.binding_text)}</p>",
        ]
        for extra, alt in s.next_steps:
            buys = (
                f"{alt.found.option.count}x {html.escape(alt.found.option.part.name)} "
                f"({alt.found.option.throughput:.2f}, {money(alt.found.total_usd * rate, s.currency)})"
                if alt
                else "nothing better"
            )
            out.append(f"<p><b>{money(extra, s.currency)} more</b> buys: {buys}</p>")
        if s.runners_up:
            items = "".join(
                f"<li>{html.escape(r.why)}: {r.found.option.count}x {html.escape(r.found.option.part.name)}, "
                f"{r.found.option.throughput:.2f} V100-eq., {money(r.found.total_usd * rate, s.currency)}"
                f"{_day(r.found)}</li>"
                for r in s.runners_up
            )
            out.append(f"<p><b>Runners-up</b></p><ul>{items}</ul>")
        out.append("<p><small>" + "; ".join(html.escape(n) for n in s.notes) + f"; {s.seconds:.2f} s</small></p>")
        return "".join(out)

    def suggested_build(self) -> Build | None:
        """The suggested build (named for the question), or None before an answer."""
        if self.suggestion is None:
            return None
        q = self.suggestion.question
        name = f"Suggested: {money(q.budget, q.currency)} budget" if q.budget else "Suggested build"
        return self.suggestion.build.model_copy(update={"name": name})


def run_suggest(
    parent: QWidget,
    doc: BuildDocument,
    catalog: Catalog,
    offers: OfferCatalog,
    data_dir: Path | None,
    maybe_save: Callable[[], bool],
) -> None:
    """Build > Suggest (issue 16): the best build for a budget opens as a new, unsaved build; Undo goes back to an
    empty one. `offers` are the cloud offers in use (bundled or updated); `data_dir` holds your own part prices."""
    from rigplan.imports.user_prices import UserPricesError, load_user_prices

    current = doc.build
    try:
        yours = load_user_prices(data_dir)
    except UserPricesError:
        yours = {}  # said when the prices are applied at start; the suggester goes on without them
    dlg = SuggestDialog(
        catalog, current.assumptions, parent, offers=offers, own_prices=own_prices_of(current), user_prices=yours
    )
    build = dlg.suggested_build() if dlg.exec() else None
    if build is not None and maybe_save():
        doc.reset(Build(assumptions=build.assumptions), None)
        doc.edit(build, "Suggest a build")
