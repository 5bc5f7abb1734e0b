"""Slot positions and wiring recorded in issue 37's third pass (parts/board-layouts.yaml, parts/corrections.yaml), each
from a source that states them, and the verdicts they decide.

The figures checked against the catalog first:
- Gigabyte TRX40 AORUS XTREME (priced, $1,062.90): four PCIe 4.0 x16 slots wired to the CPU. Tom's Hardware (as
  excerpted by mbreview.com): "four graphics cards at double-slot spacing ... moving the first slot to the case's top
  position", so positions 1, 3, 5 and 7.
- ASRock X870E Taichi Lite (priced, $299.99): PCIe 5.0 x16 and x8, both on the CPU. A builder's notes
  (github.com/huskyhoochu/dotfiles): "four-slot spacing", the second GPU "taking slots 5 to 7", so 1 and 5.
- MSI MEG X870E GODLIKE: MSI's lane-sharing overview gives PCI_E1 and PCI_E2 on the CPU (PCIe 5.0 x16, x8, sharing
  the CPU's 16 lanes) and PCI_E3 on the chipset (PCIe 4.0 x4); it gives no positions.
- PNY RTX A5000: 2 slots; GeForce RTX 4090 Founders Edition: 3 slots; Gigabyte WINDFORCE GeForce RTX 5090: 4 slots
  (as in tests/test_slot_spacing.py). Fractal Design North: 7 expansion slots; Phanteks NV7: 8.
"""

from __future__ import annotations

from catalog_parts import build, part, spacing
from rigplan.catalog import Catalog
from rigplan.model.parts import Motherboard

TRX40_XTREME = "a45fa945"
TAICHI_LITE = "1cfc8570"
GODLIKE = "580963bb"
A5000 = "35e4d252"
RTX_4090_FE = "7b22a20f"
WINDFORCE_5090 = "33cf6bcd"
NORTH = "73ae628d"
NV7 = "08b3837e"
RULE = "gpu-slot-spacing"


def test_the_catalogs_figures(catalog: Catalog) -> None:
    board = part(catalog, TRX40_XTREME)
    assert isinstance(board, Motherboard) and board.pcie_slots and board.price is not None
    assert [(s.gen, s.lanes, s.count, s.wired_to, s.positions) for s in board.pcie_slots] == [
        ("4.0", 16, 4, "cpu", (1, 3, 5, 7))
    ]
    widths = [part(catalog, g).slot_width for g in (A5000, RTX_4090_FE, WINDFORCE_5090)]  # type: ignore[union-attr]
    assert widths == [2, 3, 4]
    assert [part(catalog, c).expansion_slots for c in (NORTH, NV7)] == [7, 8]  # type: ignore[union-attr]


def test_four_2_slot_cards_fill_the_trx40_aorus_xtreme_in_an_8_slot_case(catalog: Catalog) -> None:
    """Double-slot spacing from the top position: four 2-slot cards at 1, 3, 5 and 7, the lowest reaching 8. An
    8-slot case takes them; the North's 7 do not (the case binds, not the board)."""
    gpus, board = (part(catalog, A5000), 4), (part(catalog, TRX40_XTREME), 1)
    assert spacing(build(gpus, board, (part(catalog, NV7), 1))) == ([], [])
    assert spacing(build(gpus, board, (part(catalog, NORTH), 1))) == (
        ["The lowest GPU (2 slots) sits in the x16 slot at position 7 and reaches position 8; the case has 7 expansion "
         "slots."],
        [],
    )  # fmt: skip


def test_the_trx40_aorus_xtreme_takes_two_thick_cards_but_not_three(catalog: Catalog) -> None:
    """A 3-slot card at 1 covers the slot at 3, so two 3-slot cards go at 1 and 5 and a third has no slot left; two
    4-slot RTX 5090s also go at 1 and 5, the lower one reaching position 8."""
    board = (part(catalog, TRX40_XTREME), 1)
    fe, w5090 = part(catalog, RTX_4090_FE), part(catalog, WINDFORCE_5090)
    assert spacing(build((fe, 2), board)) == ([], [])
    assert spacing(build((fe, 3), board)) == (
        ["The GeForce RTX 4090 (3 slots) in the x16 slot at position 1 covers the x16 slot at position 3: the board's "
         "x16 slots are 2 positions apart."],
        [],
    )  # fmt: skip
    assert spacing(build((w5090, 2), board, (part(catalog, NV7), 1))) == ([], [])
    assert spacing(build((w5090, 2), board, (part(catalog, NORTH), 1))) == (
        ["The lowest GPU (4 slots) sits in the x16 slot at position 5 and reaches position 8; the case has 7 expansion "
         "slots."],
        [],
    )  # fmt: skip
    errors, _ = spacing(build((w5090, 3), board))
    assert errors == [
        "The GeForce RTX 5090 (4 slots) in the x16 slot at position 1 covers the x16 slot at position 3: the board's "
        "x16 slots are 2 positions apart."
    ]


def test_the_taichi_lite_takes_two_3_slot_cards_in_a_7_slot_case(catalog: Catalog) -> None:
    """Four positions apart from the top: two 3-slot cards at 1 and 5, the lower one reaching position 7 of the
    North's 7; two 4-slot RTX 5090s fit the board too, but the lower one reaches 8, so they need an 8-slot case."""
    board = part(catalog, TAICHI_LITE)
    assert isinstance(board, Motherboard) and board.pcie_slots and board.price is not None
    assert [(s.lanes, s.wired_to, s.positions) for s in board.pcie_slots] == [(16, "cpu", (1,)), (8, "cpu", (5,))]
    north, nv7 = (part(catalog, NORTH), 1), (part(catalog, NV7), 1)
    assert spacing(build((part(catalog, RTX_4090_FE), 2), (board, 1), north)) == ([], [])
    w5090 = (part(catalog, WINDFORCE_5090), 2)
    assert spacing(build(w5090, (board, 1), nv7)) == ([], [])
    assert spacing(build(w5090, (board, 1), north)) == (
        ["The lowest GPU (4 slots) sits in the x8 slot at position 5 and reaches position 8; the case has 7 expansion "
         "slots."],
        [],
    )  # fmt: skip


def test_the_godlike_wiring_is_msis_and_its_positions_stay_unknown(catalog: Catalog) -> None:
    board = part(catalog, GODLIKE)
    assert isinstance(board, Motherboard) and board.pcie_slots
    assert [(s.gen, s.lanes, s.wired_to, s.positions) for s in board.pcie_slots] == [
        ("5.0", 16, "cpu", None), ("5.0", 8, "cpu", None), ("4.0", 4, "chipset", None),
    ]  # fmt: skip
    errors, unknown = spacing(build((part(catalog, WINDFORCE_5090), 2), (board, 1)))
    assert errors == [] and len(unknown) == 1  # no source gives where its slots sit: not checked, never passed
