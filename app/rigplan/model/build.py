"""A build: a name, its items and its assumptions."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from rigplan.model.assumptions import Assumptions, Pricing
from rigplan.model.common import Frozen, Price
from rigplan.model.other import OtherItem
from rigplan.model.parts import Kind, Part
from rigplan.model.workload import WorkloadSpec

# Version 2 (RigPlan 0.x, issue 13) added `comparison`, the offers on the break-even chart; version 1 files migrate
# unchanged (no comparison: RigPlan picks one), see rigplan.files.buildfile.migrate. Version 3 (issue 28) added
# `workload`; a build without one is still written as version 2, so older RigPlans open it. Version 4 (issue 29) added
# `other`, the "Other" line items (fans, OS, cables, UPS...); a build without any is written as before.
FORMAT_VERSION = 4
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


# The chart draws at most this many offers (one colour each).
MAX_COMPARED = 8


class ChartOffer(Frozen):
    """A cloud offer on the break-even chart and the price it is charted at."""

    offer: str = Field(min_length=1, max_length=200)  # an offer id of the cloud catalog, e.g. aws:g5.xlarge:us-east-1
    pricing: Pricing = Pricing.ON_DEMAND


MAX_NOTES = 10_000_000  # characters; the build file is capped at 10 MB, so no note a file can hold is refused


class Build(Frozen):
    name: str = Field(default="Untitled build", min_length=1, max_length=200)
    items: tuple[BuildItem, ...] = Field(default=(), max_length=MAX_ITEMS)
    assumptions: Assumptions = Assumptions()
    # Notes are never cut: the limit is the build file's own (10 MB, files.buildfile.MAX_BYTES), so any note a file
    # can hold loads, and the notes box refuses, with a message, text beyond it (issue 35: it cut at 20,000).
    notes: str = Field(default="", max_length=MAX_NOTES)
    # The comparison travels with the file, so a shared build shows the same chart. None: not chosen yet (the GUI
    # then shows the best work-per-dollar offer per provider for the build's GPUs).
    comparison: Annotated[tuple[ChartOffer, ...], Field(max_length=MAX_COMPARED)] | None = None
    # What the build is for (issue 28): the model and task the workload planner sizes. None: not chosen.
    workload: WorkloadSpec | None = None
    # Priced line items that are not catalog parts (rigplan.model.other): counted in the costs, read by no rule.
    other: tuple[OtherItem, ...] = Field(
        default=(),
        max_length=MAX_ITEMS,
        description="Other items (format 4): priced lines that are not parts (fans, OS, cables, UPS...); counted in "
        "the costs, never resold, read by no check.",
    )

    @property
    def format_version(self) -> int:
        """The lowest file format that holds this build."""
        if self.other:
            return 4
        return 3 if self.workload is not None else 2

    def priced_lines(self) -> list[tuple[str, str, int, Price | None]]:
        """Every line a buyer pays for, parts then Other items: (kind or category label, name, quantity, unit
        price). The one list the exports and totals walk, so an Other item is never left out of one of them."""
        lines = [(i.part.kind.label, i.part.name, i.quantity, i.unit_price) for i in self.items]
        return lines + [(o.label, o.name, o.quantity, o.unit_price) for o in self.other]

    def of_kind(self, kind: Kind) -> list[BuildItem]:
        return [item for item in self.items if item.part.kind == kind]

    def count(self, kind: Kind) -> int:
        return sum(item.quantity for item in self.items if item.part.kind == kind)

    def first(self, kind: Kind) -> Part | None:
        for item in self.items:
            if item.part.kind == kind:
                return item.part
        return None
