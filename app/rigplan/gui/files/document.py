"""The open build as a document: the current Build, its file, and an undo stack of edits.

Every edit is a QUndoCommand holding the build before and after (builds are immutable pydantic models, so this is
cheap and exact). The stack's clean state is the "modified" mark and drives the "save changes?" prompt.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from rigplan.model import Build, BuildItem, Kind, Part, Price
from rigplan.model.build import MAX_QUANTITY, ChartOffer
from rigplan.model.other import MAX_OTHER_QUANTITY, OtherItem
from rigplan.rules.compat import SINGLE, base_build, slots_full


class EditCommand(QUndoCommand):
    def __init__(self, doc: BuildDocument, before: Build, after: Build, text: str) -> None:
        super().__init__(text)
        self._doc, self._before, self._after = doc, before, after

    def redo(self) -> None:
        self._doc._set(self._after)

    def undo(self) -> None:
        self._doc._set(self._before)


class BuildDocument(QObject):
    changed = Signal(object)  # the new Build
    path_changed = Signal(object)  # Path | None

    def __init__(self, parent: QObject | None = None, undo_stack: QUndoStack | None = None) -> None:
        super().__init__(parent)
        self.build = Build()
        self.path: Path | None = None
        self.undo_stack = undo_stack if undo_stack is not None else QUndoStack(self)

    # --- state --------------------------------------------------------------------------------------------------

    def _set(self, build: Build) -> None:
        self.build = build
        self.changed.emit(build)

    def reset(self, build: Build, path: Path | None) -> None:
        """A new or opened document: no undo history, clean."""
        self.undo_stack.clear()
        self.path = path
        self._set(build)
        self.undo_stack.setClean()
        self.path_changed.emit(path)

    def mark_saved(self, path: Path) -> None:
        self.path = path
        self.undo_stack.setClean()
        self.path_changed.emit(path)

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    def edit(self, after: Build, text: str) -> None:
        if after != self.build:
            self.undo_stack.push(EditCommand(self, self.build, after, text))

    # --- edits ----------------------------------------------------------------------------------------------------

    def add_part(self, part: Part, replacing: str | None = None) -> None:
        """Add `part`; for a GPU or memory, `replacing` names the part id it replaces (the picker's choice)."""
        items = list(self.build.items)
        if part.kind in SINGLE:
            old = [i for i in items if i.part.kind == part.kind]
            items = [i for i in items if i.part.kind != part.kind] + [BuildItem(part=part)]
            verb = f"Replace {old[0].part.name}" if old else f"Add {part.name}"
        else:
            verb = f"Add {part.name}"
            if replacing is not None and any(i.part.id == replacing for i in items):
                old_name = next(i.part.name for i in items if i.part.id == replacing)
                items = list(base_build(self.build, part.kind, replacing).items)
                verb = f"Replace {old_name} with {part.name}"
            elif slots_full(self.build, part.kind):
                # Every DIMM or x16 slot is taken: the picker offered replacements, so the part replaces the last one
                # of its kind (the same part the "compatible only" filter checked it against).
                old_part = [i.part for i in items if i.part.kind == part.kind][-1]
                items = list(base_build(self.build, part.kind).items)
                verb = f"Replace {old_part.name} with {part.name}"
            for n, item in enumerate(items):
                if item.part.id == part.id:
                    items[n] = item.model_copy(update={"quantity": min(item.quantity + 1, MAX_QUANTITY)})
                    break
            else:
                items.append(BuildItem(part=part))
        self.edit(self.build.model_copy(update={"items": tuple(items)}), verb)

    def remove_item(self, index: int) -> None:
        items = list(self.build.items)
        gone = items.pop(index)
        self.edit(self.build.model_copy(update={"items": tuple(items)}), f"Remove {gone.part.name}")

    def set_quantity(self, index: int, quantity: int) -> None:
        quantity = max(1, min(MAX_QUANTITY, quantity))
        items = list(self.build.items)
        items[index] = items[index].model_copy(update={"quantity": quantity})
        self.edit(self.build.model_copy(update={"items": tuple(items)}), f"Quantity of {items[index].part.name}")

    def set_price(self, index: int, price: Price | None) -> None:
        items = list(self.build.items)
        items[index] = items[index].model_copy(update={"price_override": price})
        self.edit(self.build.model_copy(update={"items": tuple(items)}), f"Price of {items[index].part.name}")

    # --- Other items (issue 29): priced lines that are not parts; each edit one undoable command --------------------

    def _set_other(self, other: list[OtherItem], text: str) -> None:
        self.edit(self.build.model_copy(update={"other": tuple(other)}), text)

    def add_other(self, item: OtherItem) -> None:
        self._set_other([*self.build.other, item], f"Add {item.name}")

    def replace_other(self, index: int, item: OtherItem) -> None:
        other = list(self.build.other)
        other[index] = item
        self._set_other(other, f"Edit {item.name}")

    def remove_other(self, index: int) -> None:
        other = list(self.build.other)
        gone = other.pop(index)
        self._set_other(other, f"Remove {gone.name}")

    def set_other_quantity(self, index: int, quantity: int) -> None:
        other = list(self.build.other)
        other[index] = other[index].model_copy(update={"quantity": max(1, min(MAX_OTHER_QUANTITY, quantity))})
        self._set_other(other, f"Quantity of {other[index].name}")

    def set_other_price(self, index: int, price: Price | None) -> None:
        other = list(self.build.other)
        other[index] = other[index].model_copy(update={"price": price})
        self._set_other(other, f"Price of {other[index].name}")

    def set_assumptions(self, assumptions: object, text: str = "Change assumptions") -> None:
        self.edit(self.build.model_copy(update={"assumptions": assumptions}), text)

    def set_comparison(self, comparison: list[ChartOffer]) -> None:
        self.edit(self.build.model_copy(update={"comparison": tuple(comparison)}), "Change the offers on the chart")

    def set_workload(self, workload: object) -> None:
        self.edit(self.build.model_copy(update={"workload": workload}), "Change the workload")

    def rename(self, name: str) -> None:
        self.edit(self.build.model_copy(update={"name": name}), "Rename build")

    def index_of_kind(self, kind: Kind) -> int | None:
        for n, item in enumerate(self.build.items):
            if item.part.kind == kind:
                return n
        return None
