"""Issue 37 in the "Suggest a build" dialog: from $5,000 the answer is on a current platform and the older one is
named beside it ("Older platform: On AM4 ..."), typed and clicked as a user does, on the real catalog."""

from __future__ import annotations

import pytest
from gui_helpers import click, type_text

from rigplan.catalog import Catalog
from rigplan.gui.suggest.suggest_dialog import SuggestDialog
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Kind, Motherboard

pytestmark = pytest.mark.slow  # the explained search twice (current and older platforms) on the full catalog

CURRENT = {"AM5", "LGA 1700", "LGA1700", "LGA 1851", "LGA1851", "sTR5", "sWRX8", "LGA 4677", "SP5"}


def test_the_older_platform_is_named_beside_a_current_answer(qtbot, catalog: Catalog) -> None:  # noqa: ANN001
    dlg = SuggestDialog(catalog, Assumptions())
    qtbot.addWidget(dlg)
    dlg.show()
    type_text(qtbot, dlg.budget, "10000")
    type_text(qtbot, dlg.gpus, "2")
    with qtbot.waitSignal(dlg.answered, timeout=120_000):
        click(qtbot, dlg.run_button)
    text = dlg.result_view.toPlainText()
    build = dlg.suggested_build()
    assert build is not None and build.count(Kind.GPU) == 2
    board = build.first(Kind.MOTHERBOARD)
    assert isinstance(board, Motherboard) and board.socket in CURRENT
    line = next(x for x in text.splitlines() if x.startswith("Older platform: "))
    assert line.startswith("Older platform: On ") and "(older platform): 2x " in line
    assert "V100-equivalents" in line and "than this answer" in line
    assert board.name not in line  # the alternative is another build, not this one
