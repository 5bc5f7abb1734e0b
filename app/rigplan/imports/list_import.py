"""Turn a parsed PCPartPicker list into a RigPlan build.

Each line of the list is matched to the catalog (rigplan.imports.matching). A sure match becomes that catalog part;
an uncertain one waits for the user's choice (the GUI's review dialog, or `--pick` on the command line) and, until
then, becomes a custom part with the list's name and price, so nothing is guessed; a line with no match at all is a
custom part too. Every list price becomes the item's own price (`price_override`) in the list's currency, with the
list's date and "PCPartPicker list" as its source.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rigplan.catalog.loader import Catalog
from rigplan.imports.matching import Matcher, MatchResult, matcher_for
from rigplan.imports.pcpartpicker import OTHER_TYPES, ListLine, PartList, parse_list
from rigplan.kinds import Kind
from rigplan.model import Assumptions, Build, BuildItem, Price
from rigplan.model.build import MAX_QUANTITY
from rigplan.model.common import KNOWN_CURRENCIES
from rigplan.model.other import MAX_OTHER_QUANTITY, OtherCategory, OtherItem
from rigplan.model.parts import PART_ADAPTER, Part

SOURCE = "PCPartPicker list"
# Kinds a build may hold more than one of in one line (the build panel edits quantities of these only).
COUNTED = (Kind.GPU, Kind.MEMORY, Kind.STORAGE)


@dataclass
class ImportedLine:
    line: ListLine
    match: MatchResult | None  # None: a type RigPlan does not plan as a part (monitor, OS...): an Other item
    choice: str | None = None  # the catalog part id used; None: a custom part

    @property
    def status(self) -> str:
        if self.line.kind is None:
            return "other"  # an Other line item of the build (issue 29): priced, counted, read by no rule
        if self.match is None or self.match.status == "none":
            return "custom"
        return "matched" if self.match.confident else "uncertain"


@dataclass
class ListImport:
    parts: PartList
    lines: list[ImportedLine] = field(default_factory=list)

    @property
    def imported_total(self) -> float | None:
        """The sum of the list's line prices, in the list's currency: what the build's items add up to (every line
        becomes a part or an Other item). None when no line has a price."""
        priced = [ln.line.amount for ln in self.lines if ln.line.amount is not None]
        return round(sum(priced), 2) if priced else None

    @property
    def uncertain(self) -> list[int]:
        return [n for n, ln in enumerate(self.lines) if ln.status == "uncertain"]

    def price_of(self, line: ListLine) -> Price | None:
        if line.amount is None or line.currency is None or line.currency not in KNOWN_CURRENCIES:
            return None
        where = f" ({line.merchant})" if line.merchant else ""
        return Price(amount=line.amount, currency=line.currency, date=self.parts.date, source=SOURCE + where)


def match_list(text: str, catalog: Catalog, matcher: Matcher | None = None) -> ListImport:
    """Parse and match. Sure matches are chosen; uncertain ones are left for the user (choice None)."""
    parts = parse_list(text)
    matcher = matcher or matcher_for(catalog)
    out = ListImport(parts)
    for line in parts.lines:
        if line.kind is None:
            out.lines.append(ImportedLine(line, None))
            continue
        m = matcher.match(line.kind, line.name)
        chosen = m.best.part_id if m.confident and m.best else None
        out.lines.append(ImportedLine(line, m, chosen))
    return out


def apply_picks(result: ListImport, picks: Mapping[int, str | None], catalog: Catalog) -> None:
    """The user's choices: line number (0-based) -> catalog part id, or None for "keep it a custom part".
    Raises ValueError for a line or part that does not fit."""
    for n, part_id in picks.items():
        if not 0 <= n < len(result.lines):
            raise ValueError(f"line {n + 1} is not in the list (it has {len(result.lines)} lines)")
        line = result.lines[n]
        if part_id is None:
            line.choice = None
            continue
        part = catalog.get(part_id)
        if part is None:
            raise ValueError(f"no catalog part has the id {part_id!r}")
        if part.kind != line.line.kind:
            raise ValueError(f"line {n + 1} is a {line.line.type_label}; {part.name} is a {part.kind.value}")
        line.choice = part_id


def _custom(line: ListLine, kind: Kind) -> Part:
    """A part of the line's kind with the list's name and nothing else known (every spec None: "not checked")."""
    slug = re.sub(r"[^a-z0-9]+", "-", line.name.lower()).strip("-")[:80] or "part"
    fields = {
        "kind": kind.value,
        "id": f"custom-pcpp-{slug}",
        "name": line.name[:300],
        "custom": True,
        "spec_source": "PCPartPicker list (name only: specs unknown)",
    }
    return PART_ADAPTER.validate_python(fields)


_CABLE = re.compile(r"\b(cable|cables|riser|extension|adapter|splitter)\b", re.IGNORECASE)


def other_category(line: ListLine) -> OtherCategory:
    """The Other-item category of a list line: by its PCPartPicker type; a "Custom" line named like a cable or
    riser (PCPartPicker has no cable type, so lists add them as custom parts) is a cable."""
    key = " ".join(line.type_label.lower().split())
    category = OtherCategory(OTHER_TYPES.get(key, "other"))
    if category in (OtherCategory.OTHER, OtherCategory.ACCESSORY) and _CABLE.search(line.name):
        return OtherCategory.CABLE
    return category


def other_item(result: ListImport, line: ListLine) -> OtherItem:
    """A list line RigPlan does not plan as a part, as an Other item with the list's name, price and date."""
    return OtherItem(name=line.name[:300], category=other_category(line), price=result.price_of(line))


def to_build(
    result: ListImport, catalog: Catalog, name: str | None = None, assumptions: Assumptions | None = None
) -> Build:
    """The build the list describes, with the choices made so far. Repeated lines of a GPU, memory or storage
    part at the same price become one item with a quantity."""
    items: list[BuildItem] = []
    other: list[OtherItem] = []
    for ln in result.lines:
        kind = ln.line.kind
        if kind is None:
            extra = other_item(result, ln.line)
            for j, seen in enumerate(other):  # two identical fan lines: one item of two
                if seen.model_copy(update={"quantity": 1}) == extra and seen.quantity < MAX_OTHER_QUANTITY:
                    other[j] = seen.model_copy(update={"quantity": seen.quantity + 1})
                    break
            else:
                other.append(extra)
            continue
        found = catalog.get(ln.choice) if ln.choice else None
        part = found if found is not None else _custom(ln.line, kind)
        price = result.price_of(ln.line)
        for n, prev in enumerate(items):
            same = prev.part.id == part.id and prev.price_override == price
            if same and kind in COUNTED and prev.quantity < MAX_QUANTITY:
                items[n] = prev.model_copy(update={"quantity": prev.quantity + 1})
                break
        else:
            items.append(BuildItem(part=part, price_override=price))
    when = result.parts.date.isoformat() if result.parts.date else "date unknown"
    notes = [f"Imported from a {SOURCE} ({result.parts.url or 'no address'}, {when})."]
    if other:  # the import report: which list lines became Other items (counted in the total, read by no check)
        listed = "; ".join(f"{o.label}: {o.name}" + (f" x{o.quantity}" if o.quantity > 1 else "") for o in other)
        notes.append(f"Other items (counted in the total, read by no check): {listed}.")
    open_lines = [result.lines[n] for n in result.uncertain if result.lines[n].choice is None]
    if open_lines:
        notes.append("Unconfirmed matches, kept as custom parts: " + "; ".join(ln.line.name for ln in open_lines) + ".")
    kwargs = {"assumptions": assumptions} if assumptions is not None else {}
    return Build(
        name=(name or f"PCPartPicker list {when}")[:200],
        items=tuple(items),
        other=tuple(other),
        notes="\n".join(notes),
        **kwargs,
    )
