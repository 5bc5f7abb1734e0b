"""gpu-intake-gap (issue 37): open-air cards need one empty slot position between a card's cooler and the card below
it (Tom's Hardware's cooling guide: "at least one expansion space between installed dual-slot cards"; a card whose
fans face the next card "can't draw in enough air"). Judged on the real catalog's ASRock X870E Taichi Lite, whose
x16 slots sit at positions 1 and 5 (parts/board-layouts.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rigplan.catalog import Catalog
from rigplan.files import load
from rigplan.model import Build, BuildItem, Kind
from rigplan.rules import check
from rigplan.rules.passed import passed

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TAICHI_LITE = "ASRock X870E Taichi Lite AM5 DDR5 EATX"


def _on_taichi(catalog: Catalog, gpu_name: str, **gpu_changes: object) -> Build:
    build = load(EXAMPLES / "2x-rtx-4090.rigplan")
    board = next(p for p in catalog.of_kind(Kind.MOTHERBOARD) if p.name == TAICHI_LITE)
    assert [s.positions for s in board.pcie_slots or ()] == [(1,), (5,)]
    gpu = next(p for p in catalog.of_kind(Kind.GPU) if p.name == gpu_name).model_copy(update=gpu_changes)
    items = tuple(i for i in build.items if i.part.kind not in (Kind.GPU, Kind.MOTHERBOARD))
    return build.model_copy(update={"items": (*items, BuildItem(part=board), BuildItem(part=gpu, quantity=2))})


def _gap(build: Build) -> tuple[list[str], list[str]]:
    report = check(build)
    return (
        [f.severity.value for f in report.findings if f.rule == "gpu-intake-gap"],
        [n.reason for n in report.not_checked if n.rule == "gpu-intake-gap"],
    )


def test_two_four_slot_open_air_cards_touching_warn(catalog: Catalog) -> None:
    """4-slot cards at positions 1 and 5: the top card covers 1-4 and the second card starts at 5: no gap."""
    build = _on_taichi(catalog, "Gigabyte WINDFORCE GeForce RTX 5090 32GB GDDR7 Black")
    assert _gap(build) == (["warning"], [])
    (f,) = [f for f in check(build).findings if f.rule == "gpu-intake-gap"]
    assert "positions 1, 5" in f.message and "4, 4 slots thick" in f.message
    assert "gpu-slot-spacing" not in {x.rule for x in check(build).findings}  # they fit: only the airflow is wrong


def test_three_slot_cards_leave_one_empty_position_and_pass(catalog: Catalog) -> None:
    """At the limit: a 3-slot card at position 1 covers 1-3, position 4 stays empty, the next card sits at 5."""
    build = _on_taichi(catalog, "NVIDIA Founders Edition GeForce RTX 4090 24GB GDDR6X")
    assert _gap(build) == ([], [])
    assert "gpu-intake-gap" not in passed(build, check(build))  # a warning-only rule is not listed as passed


def test_one_unit_over_the_limit_warns(catalog: Catalog) -> None:
    """The same card at 3.1 slots rounds up to 4 positions: no empty slot is left, so it warns."""
    build = _on_taichi(catalog, "NVIDIA Founders Edition GeForce RTX 4090 24GB GDDR6X", slot_width=3.1)
    assert _gap(build) == (["warning"], [])


@pytest.mark.parametrize("cooling", ["Blower", "Water Cooled", "Hybrid"])
def test_blower_and_liquid_cards_may_touch(catalog: Catalog, cooling: str) -> None:
    build = _on_taichi(catalog, "Gigabyte WINDFORCE GeForce RTX 5090 32GB GDDR7 Black", cooling=cooling)
    assert _gap(build) == ([], [])


def test_unknown_cooler_type_is_not_checked(catalog: Catalog) -> None:
    build = _on_taichi(catalog, "Gigabyte WINDFORCE GeForce RTX 5090 32GB GDDR7 Black", cooling=None)
    findings, unknown = _gap(build)
    assert findings == [] and len(unknown) == 1 and "cooler type is unknown" in unknown[0]


def test_a_board_without_a_recorded_layout_leaves_it_to_gpu_slot_spacing(catalog: Catalog) -> None:
    build = load(EXAMPLES / "2x-rtx-4090.rigplan")  # its X670E board has no recorded layout
    assert _gap(build) == ([], [])
    assert "gpu-slot-spacing" in {n.rule for n in check(build).not_checked}
