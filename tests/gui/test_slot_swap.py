"""Issue 11, item 10: with every x16 slot holding a GPU, "compatible only" answers "what could replace this card",
says so, and choosing a part replaces the last GPU instead of adding a third that cannot fit."""

from __future__ import annotations

from pathlib import Path

from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind
from rigplan.rules import check

ROOT = Path(__file__).resolve().parents[2]


def test_full_slots_turn_the_filter_into_a_swap(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    assert window.files.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
    build = window.doc.build
    gpus = [i for i in build.items if i.part.kind is Kind.GPU]
    assert sum(i.quantity for i in gpus) == 2
    window.picker.set_kind(Kind.GPU)
    window.picker.show()
    window.picker.refresh_compatible()
    hint = window.picker.empty_hint
    assert hint.isVisible()
    assert hint.text().startswith("Every x16 slot (2) holds a GPU: showing the parts that could replace")
    assert gpus[-1].part.name in hint.text()
    p = window.picker.proxy
    assert p.rowCount() > 0
    chosen = window.catalog.table(Kind.GPU).part(p.mapToSource(p.index(0, 0)).row())
    window.picker.part_chosen.emit(chosen)
    after = window.doc.build
    assert sum(i.quantity for i in after.items if i.part.kind is Kind.GPU) == 2  # replaced, not added
    assert any(i.part.id == chosen.id for i in after.items)
    assert "gpu-slots" not in check(after).rules()
    assert window.doc.undo_stack.undoText().startswith("Replace ")
    window.doc.undo_stack.undo()
    assert window.doc.build == build
