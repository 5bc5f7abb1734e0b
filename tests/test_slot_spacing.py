"""gpu-slot-spacing (issue 37): each card's thickness against the next x16 slot used, the lowest card against the
case, slot positions from parts/board-layouts.yaml, and the suggester refusing thick cards on boards whose layout is
not recorded.

The figures checked against the catalog first:
- GIGABYTE X570S AORUS MASTER: x16 (CPU) at position 2, x8 (CPU) at 5, x4 (X570) at 7 (Hardwareluxx's review, the
  source in parts/board-layouts.yaml).
- Gigabyte Z890 AORUS MASTER: x16 (CPU) at 2, x4 (Z890) at 6, x1 at 7 (Hardwareluxx's review).
- Gigabyte WINDFORCE GeForce RTX 5090: 4 slots; GeForce RTX 4090 Founders Edition: 3 slots (NVIDIA); PNY RTX
  A5000: 2 slots (a dual-slot blower, NVIDIA RTX A5000 datasheet).
- Fractal Design North: 7 expansion slots (Fractal Design).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog_parts import build, part, spacing
from rigplan.catalog import Catalog
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Motherboard, PcieSlot
from rigplan.opendb import board_layouts as bl
from rigplan.rules import check
from rigplan.rules.engine import RULES
from rigplan.rules.spacing import thick_cards
from rigplan.suggest import Question, suggest
from rigplan.suggest.expert import strict_for

X570S_MASTER = "6e48b59f"
Z890_MASTER = "8bbc22eb"
UNRECORDED = "559dd16f"  # ASUS ProArt X870E-CREATOR WIFI: x8/x8, no recorded layout
WINDFORCE_5090 = "33cf6bcd"
RTX_4090_FE = "7b22a20f"
A5000 = "35e4d252"
NORTH = "73ae628d"
RULE = "gpu-slot-spacing"


def two_slot_board(catalog: Catalog, first: int, second: int) -> Motherboard:
    """The X570S AORUS MASTER with its two CPU slots moved to `first` and `second`."""
    board = part(catalog, X570S_MASTER)
    assert isinstance(board, Motherboard) and board.pcie_slots
    a, b, c = board.pcie_slots
    slots = (a.model_copy(update={"positions": (first,)}), b.model_copy(update={"positions": (second,)}), c)
    return board.model_copy(update={"pcie_slots": slots})


def test_the_catalogs_figures(catalog: Catalog) -> None:
    x570s, z890 = part(catalog, X570S_MASTER), part(catalog, Z890_MASTER)
    assert [(s.lanes, s.wired_to, s.positions) for s in x570s.pcie_slots] == [  # type: ignore[union-attr]
        (16, "cpu", (2,)), (8, "cpu", (5,)), (4, "chipset", (7,)),
    ]  # fmt: skip
    assert [(s.lanes, s.positions) for s in z890.pcie_slots] == [(16, (2,)), (4, (6,)), (1, (7,))]  # type: ignore[union-attr]
    widths = [part(catalog, g).slot_width for g in (WINDFORCE_5090, RTX_4090_FE, A5000)]  # type: ignore[union-attr]
    assert widths == [4, 3, 2]
    assert part(catalog, NORTH).expansion_slots == 7  # type: ignore[union-attr]
    assert part(catalog, UNRECORDED).pcie_slots[0].positions is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("width", "first", "second", "fits"),
    [(3.0, 1, 4, True), (3.0, 1, 3, False), (2.5, 1, 3, False), (2.5, 1, 4, True), (2.0, 1, 3, True),
     (2.0, 1, 2, False), (4.0, 2, 6, True), (4.0, 2, 5, False)],
)  # fmt: skip
def test_a_card_needs_its_thickness_rounded_up_before_the_next_slot(
    catalog: Catalog, width: float, first: int, second: int, fits: bool
) -> None:
    gpu = part(catalog, RTX_4090_FE, slot_width=width)
    errors, unknown = spacing(build((gpu, 2), (two_slot_board(catalog, first, second), 1)))
    assert unknown == []
    if fits:
        assert errors == []
    else:
        need = -(-width // 1)
        assert errors == [
            f"The GeForce RTX 4090 ({need:.0f} slots) in the x16 slot at position {first} covers the x8 slot at "
            f"position {second}: the board's x16 slots are {second - first} positions apart."
        ]


def test_two_4_slot_rtx_5090s_on_the_x570s_aorus_master_fail_with_the_positions(catalog: Catalog) -> None:
    errors, _ = spacing(build((part(catalog, WINDFORCE_5090), 2), (part(catalog, X570S_MASTER), 1)))
    assert errors == [
        "The GeForce RTX 5090 (4 slots) in the x16 slot at position 2 covers the x8 slot at position 5: the board's "
        "x16 slots are 3 positions apart."
    ]
    r = check(build((part(catalog, WINDFORCE_5090), 2), (part(catalog, X570S_MASTER), 1)))
    (f,) = [f for f in r.findings if f.rule == RULE]
    assert "at least 4 positions apart" in f.hint and "riser" in f.hint


def test_two_3_slot_cards_fit_the_x570s_aorus_master_and_a_7_slot_case(catalog: Catalog) -> None:
    b = build((part(catalog, RTX_4090_FE), 2), (part(catalog, X570S_MASTER), 1), (part(catalog, NORTH), 1))
    assert spacing(b) == ([], [])  # positions 2 and 5: three apart; the lower card reaches position 7 of 7
    assert RULE not in {n.rule for n in check(b).not_checked}


def test_the_lowest_card_against_the_cases_expansion_slots(catalog: Catalog) -> None:
    """Z890 AORUS MASTER: the CPU's x16 at 2 and the chipset's x4 at 6 leave four positions for a 4-slot card, but
    the lower card then reaches position 9 of the North's 7."""
    board, north = part(catalog, Z890_MASTER), part(catalog, NORTH)
    errors, _ = spacing(build((part(catalog, WINDFORCE_5090), 2), (board, 1), (north, 1)))
    assert errors == [
        "The lowest GPU (4 slots) sits in the x4 slot at position 6 and reaches position 9; the case has 7 expansion "
        "slots."
    ]
    assert spacing(build((part(catalog, WINDFORCE_5090), 2), (board, 1))) == ([], [])  # no case: the slots fit
    assert spacing(build((part(catalog, A5000), 2), (board, 1), (north, 1))) == ([], [])  # 2 slots: reaches 7


def test_seven_adjacent_slots_take_two_slot_cards_one_apart(catalog: Catalog) -> None:
    """A board whose slots all run alike (WRX90-style, seven x16 slots side by side): two 2-slot cards go at 1 and 3,
    not 1 and 2; four 2-slot cards fit at 1, 3, 5, 7; five do not."""
    seven = PcieSlot(gen="5.0", lanes=16, count=7, physical=16, wired_to="cpu", positions=(1, 2, 3, 4, 5, 6, 7))
    board = part(catalog, X570S_MASTER).model_copy(update={"pcie_slots": (seven,)})
    a5000 = part(catalog, A5000)
    assert spacing(build((a5000, 2), (board, 1))) == ([], [])
    assert spacing(build((a5000, 4), (board, 1))) == ([], [])
    errors, _ = spacing(build((a5000, 5), (board, 1)))
    assert len(errors) == 1 and "covers" in errors[0]


def test_an_unrecorded_layout_is_not_checked_and_strict_only_for_thick_cards(catalog: Catalog) -> None:
    board = part(catalog, UNRECORDED)
    thick, thin = build((part(catalog, WINDFORCE_5090), 2), (board, 1)), build((part(catalog, A5000), 2), (board, 1))
    for b in (thick, thin):
        errors, unknown = spacing(b)
        assert errors == [] and len(unknown) == 1 and "no recorded layout" in unknown[0]
    assert thick_cards(thick) and not thick_cards(thin)
    assert thick_cards(build((part(catalog, RTX_4090_FE, slot_width=2.5), 2)))
    assert not thick_cards(build((part(catalog, RTX_4090_FE, slot_width=2.4), 2)))
    assert thick_cards(build((part(catalog, RTX_4090_FE, slot_width=None), 2)))  # unknown may be 4 slots
    strict = strict_for(Question(budget=10000))
    assert any(RULE in f for f in strict.failures(check(thick), thick))
    assert not any(RULE in f for f in strict.failures(check(thin), thin))
    loose = strict_for(Question(budget=10000, allow_missing_data=True))
    assert not any(RULE in f for f in loose.failures(check(thick), thick))


def test_the_rules_policy_is_the_thickness_predicate() -> None:
    (rule,) = [r for r in RULES if RULE in r.ids]
    assert rule.strict_unknown is thick_cards and rule.passes and not rule.loosest_card


def test_the_suggester_puts_thick_cards_only_on_fitting_recorded_layouts(catalog: Catalog) -> None:
    """Two GPUs for $10,000: before issue 37's slot geometry, two 4-slot RTX 5090s on the Taichi Lite, whose layout
    was not recorded then. Now the answer's cards are thinner than 2.5 slots, or its board's layout is recorded and
    fits."""
    sug = suggest(catalog, Assumptions(), Question(budget=10000, gpus=2))
    b = sug.build
    errors, unknown = spacing(b)
    assert errors == []
    if thick_cards(b):
        assert unknown == [], unknown
    board = b.first(part(catalog, UNRECORDED).kind)
    gpus = [i.part for i in b.items if i.part.kind.value == "gpu"]
    assert all((g.slot_width or 9) < 2.5 for g in gpus) or all(s.positions for s in board.pcie_slots or ())  # type: ignore[union-attr]


def test_layouts_apply_only_to_the_slot_list_they_were_written_for(tmp_path: Path) -> None:
    f = tmp_path / "board-layouts.yaml"
    f.write_text(
        "format: 1\nlayouts:\n  - id: b1\n    name: B\n    slots:\n"
        "      - {lanes: 16, positions: [2], labels: [PCIE1]}\n"
        "      - {lanes: 8, positions: [5], labels: [PCIE2]}\n    source: a review\n",
        "utf-8",
    )
    layouts = bl.load(f)
    parts = {"b1": {"id": "b1", "name": "B", "pcie_slots": [{"lanes": 16, "count": 1}, {"lanes": 8, "count": 1}]}}
    changes, stale = bl.apply(layouts, parts, "motherboard")
    assert stale == [] and len(changes) == 1 and changes[0].check == "layout"
    assert parts["b1"]["pcie_slots"] == [
        {"lanes": 16, "count": 1, "positions": [2], "labels": ["PCIE1"]},
        {"lanes": 8, "count": 1, "positions": [5], "labels": ["PCIE2"]},
    ]
    other = {"b1": {"id": "b1", "name": "B", "pcie_slots": [{"lanes": 16, "count": 2}]}}
    changes, stale = bl.apply(layouts, other, "motherboard")
    assert changes == [] and len(stale) == 1 and "not applied" in stale[0]
    assert other["b1"]["pcie_slots"] == [{"lanes": 16, "count": 2}]


@pytest.mark.parametrize(
    "slots",
    [
        "      - {lanes: 16, positions: [2]}\n      - {lanes: 8, positions: [2]}\n",  # two slots at one position
        "      - {lanes: 16}\n",  # no position
        "      - {lanes: 16, positions: [2], labels: [A, B]}\n",  # a label too many
    ],
)
def test_a_bad_layout_entry_is_refused_with_its_entry(tmp_path: Path, slots: str) -> None:
    f = tmp_path / "board-layouts.yaml"
    f.write_text(f"format: 1\nlayouts:\n  - id: b1\n    slots:\n{slots}    source: s\n", "utf-8")
    with pytest.raises(bl.LayoutError, match="entry 1"):
        bl.load(f)


def test_a_slot_with_positions_for_another_count_is_refused() -> None:
    with pytest.raises(ValueError, match="1 positions for 2 slots"):
        PcieSlot(lanes=16, count=2, positions=(1,))
