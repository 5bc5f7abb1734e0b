"""Issue 11, item 10: with every x16 slot holding a GPU, "compatible only" answers "what could replace this card",
says so, and choosing a part replaces the last GPU instead of adding a third that cannot fit."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import choose, click_cell, pick

from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind
from rigplan.rules import check, compatible

ROOT = Path(__file__).resolve().parents[2]


def shown_rows(picker) -> set[int]:  # noqa: ANN001
    proxy = picker.proxy
    return {proxy.mapToSource(proxy.index(r, 0)).row() for r in range(proxy.rowCount())}


def test_full_slots_turn_the_filter_into_a_swap(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    assert window.files.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
    build = window.doc.build
    gpus = [i for i in build.items if i.part.kind is Kind.GPU]
    assert sum(i.quantity for i in gpus) == 2
    pick(qtbot, window.picker.kind_box, data=Kind.GPU)
    window.picker.show()
    window.picker.refresh_compatible()
    hint = window.picker.empty_hint
    assert hint.isVisible()
    assert hint.text().startswith("Every x16 slot (2) holds a GPU: showing the parts that could replace")
    assert gpus[-1].part.name in hint.text()
    p = window.picker.proxy
    assert p.rowCount() > 0
    chosen = window.catalog.table(Kind.GPU).part(p.mapToSource(p.index(0, 0)).row())
    click_cell(qtbot, window.picker.view, 0, double=True)  # the first card listed, double-clicked
    after = window.doc.build
    assert sum(i.quantity for i in after.items if i.part.kind is Kind.GPU) == 2  # replaced, not added
    assert any(i.part.id == chosen.id for i in after.items)
    assert "gpu-slots" not in check(after).rules()
    assert window.doc.undo_stack.undoText().startswith("Replace ")
    choose(qtbot, window, window.menus.undo)  # Edit > Undo
    assert window.doc.build == build


def test_a_spare_x16_slot_offers_add_and_replace_explicitly(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    """Issue 29: with a spare x16 slot the picker no longer assumes a third card silently: it offers "Add another
    GPU" and "Replace GPU 1/2", filters for the choice, and a part chosen with "Replace" replaces that card."""
    from rigplan.model import BuildItem
    from rigplan.model.parts import Motherboard

    assert window.files.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
    build = window.doc.build
    board = next(i.part for i in build.items if i.part.kind is Kind.MOTHERBOARD)
    table = window.catalog.table(Kind.MOTHERBOARD)
    wide = next(
        p
        for p in (table.part(r) for r in range(len(table)))
        if isinstance(p, Motherboard) and p.socket == board.socket and (p.x16_size_slots() or 0) >= 3
    )
    items = tuple(BuildItem(part=wide) if i.part.kind is Kind.MOTHERBOARD else i for i in build.items)
    window.doc.edit(build.model_copy(update={"items": items}), "wider board")
    p = window.picker
    pick(qtbot, p.kind_box, data=Kind.GPU)
    p.show()
    p.refresh_compatible()
    texts = [p.target.itemText(n) for n in range(p.target.count())]
    assert p.target.isVisible() and texts[0] == "Add another GPU"
    assert [t.split(":")[0] for t in texts[1:]] == ["Replace GPU 1", "Replace GPU 2"]
    if p.proxy.rowCount() == 0:  # adding a third card fits nothing: the hint says why and what to do
        assert "Replace" in p.empty_hint.text() and p.empty_hint.isVisible()
    adding = set(compatible(window.doc.build, Kind.GPU, window.catalog, None))
    assert shown_rows(p) == adding  # "Add another GPU": the cards a third slot takes
    pick(qtbot, p.target, texts[1])  # replace GPU 1
    assert p.target.replacing() is not None
    replacing = set(compatible(window.doc.build, Kind.GPU, window.catalog, p.target.replacing()))
    assert replacing != adding and shown_rows(p) == replacing  # the list follows the choice
    assert p.proxy.rowCount() > 0
    chosen = window.catalog.table(Kind.GPU).part(p.proxy.mapToSource(p.proxy.index(0, 0)).row())
    click_cell(qtbot, p.view, 0, double=True)
    after = window.doc.build
    assert sum(i.quantity for i in after.items if i.part.kind is Kind.GPU) == 2
    assert any(i.part.id == chosen.id for i in after.items)
    assert window.doc.undo_stack.undoText().startswith("Replace ")
