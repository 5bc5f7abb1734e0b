"""The candidates the search completes a build from: a catalog of them alone, and the PSUs that can meet RigPlan's
recommended size around a GPU option. Split from suggest/search.py."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from weakref import WeakKeyDictionary

from rigplan.catalog.loader import Catalog, KindTable
from rigplan.model.build import Build
from rigplan.model.parts import Kind, Motherboard, Psu
from rigplan.rules.context import board_fits_case
from rigplan.rules.power import estimate_power, is_atx3, recommended_psu
from rigplan.suggest.found import ORDER

# Per catalog (gone with it), the candidate catalogs of its last questions, by the candidates' ids per kind. A
# question and its explanation use at most three (the question's own minimums, the other GPU counts' when the count
# was fixed, the wall circuit's): the last SUBS_KEPT stay, so going back to a question in the GUI finds its filter
# caches warm; an older one is dropped whole (its tables and their caches with it).
SUBS_KEPT = 4
_SUBS: WeakKeyDictionary[Catalog, OrderedDict[tuple[tuple[str, ...], ...], Catalog]] = WeakKeyDictionary()


def candidates(
    catalog: Catalog, lists: dict[Kind, list[tuple[float, int]]]
) -> tuple[Catalog, dict[Kind, list[tuple[float, int]]]]:
    """A catalog of the candidates alone (the priced parts that meet the per-part minimums), and the lists in its
    rows. The vectorised filter judges each distinct value of a rule's facts over a whole table; on the candidates
    alone there are far fewer. Kept for the next searches of the same question (the explanation runs several), so
    the filter's caches, which live on the tables, stay warm."""
    rows = {k: sorted(r for _, r in lst) for k, lst in lists.items()}
    key = tuple(tuple(catalog.table(k).ids[r] for r in rows[k]) for k in ORDER)
    kept = _SUBS.setdefault(catalog, OrderedDict())
    sub = kept.get(key)
    if sub is not None:
        kept.move_to_end(key)
    else:
        tables = {}
        for kind in Kind:
            full = catalog.table(kind)
            keep = rows.get(kind, [])
            table = KindTable(kind, {f: [col[r] for r in keep] for f, col in full.columns.items()})
            table._parts = [full.part(r) for r in keep]  # the same part objects: nothing parsed twice
            tables[kind] = table
        sub = kept[key] = Catalog(tables, source="candidates")
        while len(kept) > SUBS_KEPT:
            kept.popitem(last=False)
    new_row = {k: {r: i for i, r in enumerate(rows[k])} for k in rows}
    return sub, {k: [(p, new_row[k][r]) for p, r in lst] for k, lst in lists.items()}


def psu_recommended(
    base: Build, lists: list[list[tuple[float, int]]], sub: Catalog, peak: Callable[[Kind, int], float]
) -> list[tuple[float, int]]:
    """The PSUs that can meet RigPlan's recommended size (psu-wattage's warning) for the lightest build around
    these GPUs: the GPUs and case fans, plus the lightest candidate CPU, kit and drive (the board and cooler
    counted as nothing). A lower bound on the load, so a PSU below its recommendation is below it in every
    completion (the recommendation only grows with the load)."""
    est = estimate_power(base)
    psus = lists[ORDER.index(Kind.PSU)]
    if est.unknown or not psus:
        return psus
    load = sum(ln.load_w for ln in est.lines if ln.kind not in (Kind.COOLER, Kind.MOTHERBOARD))
    for kind in (Kind.CPU, Kind.MEMORY, Kind.STORAGE):
        load += min((peak(kind, r) for _, r in lists[ORDER.index(kind)]), default=0.0)
    table = sub.table(Kind.PSU)
    out = []
    for price, row in psus:
        psu = table.part(row)
        if (
            not isinstance(psu, Psu)
            or psu.wattage is None
            or psu.wattage >= recommended_psu(load, est.gpu_w, bool(is_atx3(psu)))
        ):
            out.append((price, row))
    return out


def most_x16(sub: Catalog, lists: dict[Kind, list[tuple[float, int]]], allow_missing: bool) -> int | None:
    """The most x16-size slots of a priced board that fits one of the cases asked for; None when no bound is sound
    (with missing data allowed a board of unknown slots may pass, so any count may)."""
    if allow_missing:
        return None
    boards, cases = sub.table(Kind.MOTHERBOARD), sub.table(Kind.CASE)
    takes = [getattr(cases.part(row), "motherboard_form_factors", None) for _, row in lists[Kind.CASE]]
    most = 0
    for _, row in lists[Kind.MOTHERBOARD]:
        board = boards.part(row)
        if not isinstance(board, Motherboard):
            continue
        # The rules' own fit test (board-form-factor); a board or case of unknown form factor counts as fitting.
        ff = board.form_factor
        if not ff or any(not t or board_fits_case(ff, t) for t in takes):
            most = max(most, board.x16_size_slots() or 0)
    return most
