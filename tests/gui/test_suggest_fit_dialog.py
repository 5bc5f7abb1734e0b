"""The expert's headroom for a workload in the "Suggest a build" dialog (issue 37): the dialog's fit goes through
the same Question.fit as the CLI, so a workload every build within the budget fills past 90 % is no answer that
names the tight build; unticking the expert's minimums answers that build, flagged."""

from __future__ import annotations

import re

from gui_helpers import pick, tick, type_into
from test_suggest_dialog import ask, shown

from rigplan.catalog import Catalog
from rigplan.gui.suggest.suggest_dialog import SuggestDialog
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Kind


def test_a_tight_fit_is_no_answer_until_the_minimums_are_off(qtbot, catalog: Catalog) -> None:  # noqa: ANN001
    dlg = shown(qtbot, SuggestDialog(catalog, Assumptions()))
    type_into(qtbot, dlg.budget, "6000")
    pick(qtbot, dlg.fit.model, data="llama-3.1-70b")
    pick(qtbot, dlg.fit.task, "QLoRA")
    ask(qtbot, dlg)
    text = dlg.result_view.toPlainText()
    assert text.startswith("No answer: no priced build that fits Llama 3.1 70B, qlora"), text
    assert "with 10% headroom per card" in text and "that fits it only tighter is" in text
    # With the minimums on, the headroom is among them: the tight build is not answered (its GPUs named, its share).
    full = re.search(r"(\d+)% full", text)
    assert full is not None and int(full.group(1)) > 90
    assert dlg.suggested_build() is None and not dlg.open_button.isEnabled()
    tick(qtbot, dlg.expert, False)
    ask(qtbot, dlg)
    text = dlg.result_view.toPlainText()
    build = dlg.suggested_build()
    assert build is not None, text
    gpu = build.first(Kind.GPU)
    assert gpu is not None and "Workload: Fits Llama 3.1 70B" in text and "it fills" in text
    assert "Held to: the checks only (the expert's minimums are off)." in text
