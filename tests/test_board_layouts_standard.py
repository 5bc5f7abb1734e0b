"""Slot positions by the form factor's standard (issue 37, app/rigplan/opendb/board_layouts.py `standard`): a board
whose N slots are all alike and fill its form factor's N positions (ATX 2.2: seven; microATX 1.2: four; Mini-ITX:
one) has a slot at every position, 1..N; boards whose slots differ keep unknown positions unless a layout entry with
a source gives the order.

The figures checked against the catalog first:
- ASUS Pro WS WRX80E-SAGE SE WIFI (parts/workstation.yaml): E-ATX, seven PCIe 4.0 x16 slots, all wired to the CPU.
- ASRock Rack ROMED8-2T: ATX, seven PCIe 4.0 x16 slots, all wired to the CPU.
- ASUS Pro WS WRX90E-SAGE SE: seven x16-size slots, six wired x16 and one x8 (which one is not in the data).
- Gigabyte WINDFORCE GeForce RTX 5090: 4 slots; GeForce RTX 4090 Founders Edition: 3 slots; Fractal Design North:
  7 expansion slots (as in tests/test_slot_spacing.py).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from catalog_parts import part
from rigplan.catalog import Catalog
from rigplan.model import Build, BuildItem
from rigplan.model.parts import Motherboard
from rigplan.opendb import board_layouts as bl
from rigplan.rules import Severity, check

WRX80E = "ws-asus-pro-ws-wrx80e-sage-se-wifi"
ROMED8 = "ws-asrock-rack-romed8-2t"
WRX90E = "ws-asus-pro-ws-wrx90e-sage-se"
WINDFORCE_5090 = "33cf6bcd"
RTX_4090_FE = "7b22a20f"
NORTH = "73ae628d"
RULE = "gpu-slot-spacing"


def spacing(catalog: Catalog, *items: tuple[str, int]) -> tuple[list[str], list[str]]:
    b = Build(name="t", items=tuple(BuildItem(part=part(catalog, p), quantity=q) for p, q in items))
    r = check(b)
    return [f.message for f in r.findings if f.rule == RULE and f.severity is Severity.ERROR], [
        n.reason for n in r.not_checked if n.rule == RULE
    ]


def test_the_catalogs_boards_get_positions_only_where_every_slot_is_alike(catalog: Catalog) -> None:
    for pid in (WRX80E, ROMED8):
        board = part(catalog, pid)
        assert isinstance(board, Motherboard) and board.pcie_slots
        assert [(s.lanes, s.count, s.positions) for s in board.pcie_slots] == [(16, 7, (1, 2, 3, 4, 5, 6, 7))]
    wrx90e = part(catalog, WRX90E)  # 6 x16 + 1 x8: which position holds the x8 slot is not in the data
    assert isinstance(wrx90e, Motherboard) and wrx90e.pcie_slots
    assert [(s.lanes, s.count, s.positions) for s in wrx90e.pcie_slots] == [(16, 6, None), (8, 1, None)]


def test_two_4_slot_cards_on_the_wrx80e_sage_fit_the_board_but_not_a_7_slot_case(catalog: Catalog) -> None:
    """Seven adjacent x16 slots: two 4-slot RTX 5090s go at 1 and 5 (four apart), so the board takes them, but the
    lower card reaches position 8, past the North's 7 expansion slots."""
    assert spacing(catalog, (WINDFORCE_5090, 2), (WRX80E, 1)) == ([], [])
    errors, unchecked = spacing(catalog, (WINDFORCE_5090, 2), (WRX80E, 1), (NORTH, 1))
    assert unchecked == []
    assert errors == [
        "The lowest GPU (4 slots) sits in the x16 slot at position 5 and reaches position 8; the case has 7 expansion "
        "slots."
    ]


def test_two_3_slot_cards_on_the_wrx80e_sage_pass_in_a_7_slot_case(catalog: Catalog) -> None:
    # 3-slot cards at 1 and 4: the lower one reaches position 6 of 7; the rule is checked, not skipped
    assert spacing(catalog, (RTX_4090_FE, 2), (WRX80E, 1), (NORTH, 1)) == ([], [])
    # three 3-slot cards at 1, 4 and 7 reach position 9 of the North's 7: the case, not the board, binds
    errors, _ = spacing(catalog, (RTX_4090_FE, 3), (WRX80E, 1), (NORTH, 1))
    assert errors == [
        "The lowest GPU (3 slots) sits in the x16 slot at position 7 and reaches position 9; the case has 7 expansion "
        "slots."
    ]


def board(form_factor: str, *slots: dict[str, Any]) -> dict[str, Any]:
    return {"id": "b", "name": "board", "form_factor": form_factor, "pcie_slots": [dict(s) for s in slots]}


X16 = {"gen": "4.0", "lanes": 16, "physical": 16, "wired_to": "cpu"}


@pytest.mark.parametrize(
    ("form_factor", "slots", "want"),
    [
        ("ATX", [{**X16, "count": 7}], [[1, 2, 3, 4, 5, 6, 7]]),
        ("EATX", [{**X16, "count": 3}, {**X16, "count": 4}], [[1, 2, 3], [4, 5, 6, 7]]),  # alike, listed twice
        ("Micro ATX", [{**X16, "count": 4}], [[1, 2, 3, 4]]),
        ("Mini-ITX", [{"gen": "4.0", "lanes": 16, "count": 1}], [[1]]),
        ("ATX", [{**X16, "count": 6}], None),  # fewer slots than positions: where the gap is, is unknown
        ("ATX", [{**X16, "count": 6}, {**X16, "lanes": 8, "count": 1}], None),  # slots differ: the order is unknown
        ("ATX", [{**X16, "count": 6}, {**X16, "wired_to": "chipset", "count": 1}], None),
        ("ATX", [{**X16, "wired_to": None, "count": 7}], None),  # wiring unknown: not known to be alike
        ("XL ATX", [{**X16, "count": 7}], None),  # no one standard fixes XL-ATX positions
        ("Micro ATX", [{**X16, "count": 3}, {"gen": "3.0", "lanes": 1, "count": 1}], None),
    ],
)
def test_positions_by_the_form_factors_standard(
    form_factor: str, slots: list[dict[str, Any]], want: list[list[int]] | None
) -> None:
    d = board(form_factor, *slots)
    before = copy.deepcopy(d["pcie_slots"])
    changes = bl.standard([d], "motherboard")
    if want is None:
        assert changes == [] and d["pcie_slots"] == before
        return
    assert [s["positions"] for s in d["pcie_slots"]] == want
    (c,) = changes
    assert c.check == "standard" and c.old == before and c.new == d["pcie_slots"]
    n = sum(len(p) for p in want)
    assert f"{form_factor} board, which has {n} expansion-slot position" in c.reason


def test_a_recorded_layout_is_left_as_its_source_gives_it() -> None:
    d = board("ATX", {**X16, "count": 7, "positions": [1, 2, 3, 4, 5, 6, 8]})
    assert bl.standard([d], "motherboard") == []
    assert d["pcie_slots"][0]["positions"] == [1, 2, 3, 4, 5, 6, 8]


B550_AORUS_PRO_AC = "a54971be"
B850_A = "c5644c26"


def test_the_b550_aorus_pro_review_corrects_the_slot_list_and_places_it(catalog: Catalog) -> None:
    """Hardwareluxx's review (article 53514): one CPU x16 at position 2, the chipset's x4 at 5 and x2 at 7, x1 at 3
    and 6: no x8/x8 split, which the catalog had inferred from OpenDB's three x16 slots."""
    board = part(catalog, B550_AORUS_PRO_AC)
    assert isinstance(board, Motherboard) and board.pcie_slots
    assert [(s.lanes, s.wired_to, s.positions) for s in board.pcie_slots] == [
        (16, "cpu", (2,)), (4, "chipset", (5,)), (2, "chipset", (7,)), (1, "chipset", (3, 6)),
    ]  # fmt: skip


def test_two_3_slot_cards_on_the_b850_a_fit_the_board_but_reach_past_a_7_slot_case(catalog: Catalog) -> None:
    # x16 (CPU) at 2 and x4 (B850) at 7: five apart, so the board takes two 3-slot cards; the lower reaches 9
    assert spacing(catalog, (RTX_4090_FE, 2), (B850_A, 1)) == ([], [])
    errors, _ = spacing(catalog, (RTX_4090_FE, 2), (B850_A, 1), (NORTH, 1))
    assert errors == [
        "The lowest GPU (3 slots) sits in the x4 slot at position 7 and reaches position 9; the case has 7 expansion "
        "slots."
    ]
