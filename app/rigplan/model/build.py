"""A build: a name, its items and its assumptions."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from rigplan.model.assumptions import Assumptions
from rigplan.model.common import Frozen, Price
from rigplan.model.parts import Kind, Part

FORMAT_VERSION = 1
# Above this a quantity is a typo, not a plan: 16 GPUs already needs a rack, not a workstation.
MAX_QUANTITY = 64
# A workstation has a dozen lines; a thousand is a broken or hostile file (and keeps every total finite).
MAX_ITEMS = 1000


class BuildItem(Frozen):
    """One line of a build. `part` is a snapshot, so the file opens without the catalog entry."""

    part: Part
    quantity: Annotated[int, Field(ge=1, le=MAX_QUANTITY)] = 1
    price_override: Price | None = None

    @property
    def kind(self) -> Kind:
        return self.part.kind

    @property
    def unit_price(self) -> Price | None:
        return self.price_override or self.part.price


class Build(Frozen):
    name: str = Field(default="Untitled build", min_length=1, max_length=200)
    items: tuple[BuildItem, ...] = Field(default=(), max_length=MAX_ITEMS)
    assumptions: Assumptions = Assumptions()
    notes: str = ""

    def of_kind(self, kind: Kind) -> list[BuildItem]:
        return [item for item in self.items if item.part.kind == kind]

    def count(self, kind: Kind) -> int:
        return sum(item.quantity for item in self.items if item.part.kind == kind)

    def first(self, kind: Kind) -> Part | None:
        for item in self.items:
            if item.part.kind == kind:
                return item.part
        return None
