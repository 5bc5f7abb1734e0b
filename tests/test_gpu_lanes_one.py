"""gpu-lanes with one GPU (rules/link.py): the link the card runs at, from the board's slot as listed, the CPU's
PCIe generation and graphics lanes, and a chipset that caps the CPU's lanes (AMD A520 and the chipsets before X570
run them at PCIe 3.0). A note when the link is below the card's own, a warning at 8 GB/s or less, nothing at the
card's own link; all on the real catalog, and through `rigplan check --json` as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rigplan.catalog import load_catalog
from rigplan.catalog.loader import Catalog
from rigplan.files import save
from rigplan.model import Build, BuildItem, Kind
from rigplan.model.parts import Motherboard, PcieSlot
from rigplan.rules import check
from rigplan.rules.engine import RULES
from rigplan.rules.findings import Finding, Report

ROOT = Path(__file__).resolve().parents[1]
RTX_5090 = "Gigabyte WINDFORCE GeForce RTX 5090 32GB GDDR7 Black"  # interface PCIe 5.0 x16
RTX_4090 = "Asus ROG STRIX GAMING GeForce RTX 4090 24GB GDDR6X White"  # "PCIe x16": a PCIe 4.0 card by its family
A520 = "ASRock A520 M-HDV DDR4 Micro ATX"  # the EUR 4,000 answer's board on main
B550 = "ASRock B550 M-HDV AM4 DDR4 Micro ATX"


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog()


def part(cat: Catalog, kind: Kind, name: str) -> object:
    return next(p for p in cat.of_kind(kind) if p.name == name)


def build(*parts: object) -> Build:
    return Build(items=tuple(BuildItem(part=p) for p in parts))  # type: ignore[arg-type]


def lanes(report: Report) -> list[Finding]:
    return [f for f in report.findings if f.rule == "gpu-lanes"]


def one(report: Report) -> Finding:
    (f,) = lanes(report)
    return f


def test_a_pcie5_card_on_an_a520_board_runs_at_pcie3_and_the_note_says_why(cat: Catalog) -> None:
    gpu, board, cpu = (
        part(cat, Kind.GPU, RTX_5090),
        part(cat, Kind.MOTHERBOARD, A520),
        part(cat, Kind.CPU, "AMD Ryzen 9 5900XT"),
    )
    assert cpu.pcie_gen == "4.0"  # type: ignore[attr-defined]  # the CPU alone would give PCIe 4.0
    f = one(check(build(gpu, board, cpu)))
    assert f.severity == "note"
    assert f.message.startswith("The GPU runs at PCIe 3.0 x16 (the card: PCIe 5.0 x16): about 16 GB/s each way")
    assert "the bandwidth of PCIe 4.0 x8" in f.message and "a quarter of the card's 63 GB/s" in f.message
    assert "the AMD A520 chipset runs the CPU's lanes at PCIe 3.0" in f.message
    assert "TechPowerUp" in f.message and "Puget" in f.message  # what it costs, with its sources
    assert set(f.parts) == {gpu.id, board.id, cpu.id}  # type: ignore[attr-defined]


def test_a_pcie3_cpu_on_a_b550_board_names_the_cpu(cat: Catalog) -> None:
    gpu, board = part(cat, Kind.GPU, RTX_5090), part(cat, Kind.MOTHERBOARD, B550)
    cpu = part(cat, Kind.CPU, "AMD Ryzen 5 5500")
    f = one(check(build(gpu, board, cpu)))
    assert f.severity == "note"
    assert f.message.startswith("The GPU runs at PCIe 3.0 x16 (the card: PCIe 5.0 x16)")
    assert "the AMD Ryzen 5 5500's lanes are PCIe 3.0" in f.message
    assert "A520" not in f.message and "chipset runs" not in f.message  # B550 caps nothing


def test_a_gen4_card_in_a_gen4_x16_slot_gets_no_note(cat: Catalog) -> None:
    gpu, board = part(cat, Kind.GPU, RTX_4090), part(cat, Kind.MOTHERBOARD, B550)
    report = check(build(gpu, board, part(cat, Kind.CPU, "AMD Ryzen 9 5900XT")))
    assert lanes(report) == [] and not [n for n in report.not_checked if n.rule == "gpu-lanes"]
    # the same card on the A520 board: PCIe 3.0, half its own link
    f = one(check(build(gpu, part(cat, Kind.MOTHERBOARD, A520), part(cat, Kind.CPU, "AMD Ryzen 9 5900XT"))))
    assert f.message.startswith("The GPU runs at PCIe 3.0 x16 (the card: PCIe 4.0 x16)") and "half of" in f.message


def test_a_pcie5_card_on_a_pcie4_platform_is_a_note_of_one_percent(cat: Catalog) -> None:
    gpu, board = part(cat, Kind.GPU, RTX_5090), part(cat, Kind.MOTHERBOARD, B550)
    f = one(check(build(gpu, board, part(cat, Kind.CPU, "AMD Ryzen 9 5900XT"))))
    assert f.severity == "note" and f.message.startswith("The GPU runs at PCIe 4.0 x16 (the card: PCIe 5.0 x16)")
    assert "about 1 % slower in games" in f.message


def test_four_cpu_lanes_for_graphics_is_a_warning(cat: Catalog) -> None:
    """The Ryzen 5 8500G ("Phoenix 2") gives graphics x4: PCIe 4.0 x4, 8 GB/s, where Puget measured 25 % in
    DaVinci Resolve: a warning, which the suggester's minimums count as a failure (strict_warn)."""
    cpu = part(cat, Kind.CPU, "AMD Ryzen 5 8500G")
    board = part(cat, Kind.MOTHERBOARD, "MSI PRO B650M-P")
    f = one(check(build(part(cat, Kind.GPU, RTX_5090), board, cpu)))
    assert f.severity == "warning"
    assert f.message.startswith("The GPU runs at PCIe 4.0 x4 (the card: PCIe 5.0 x16): about 8 GB/s each way")
    assert "gives graphics 4 lanes" in f.message and "25 %" in f.message
    assert next(r for r in RULES if r.id == "gpu-lanes").strict_warn


def test_a_chipset_x4_slot_is_a_warning(cat: Catalog) -> None:
    board = part(cat, Kind.MOTHERBOARD, B550)
    x4 = board.model_copy(  # type: ignore[attr-defined]
        update={
            "id": "typed-x4",
            "custom": True,
            "pcie_slots": (PcieSlot(gen="3.0", lanes=4, physical=16, wired_to="chipset"),),
        }
    )
    f = one(check(build(part(cat, Kind.GPU, RTX_4090), x4, part(cat, Kind.CPU, "AMD Ryzen 9 5900XT"))))
    assert f.severity == "warning"
    assert f.message.startswith("The GPU runs at PCIe 3.0 x4 (the card: PCIe 4.0 x16): about 4 GB/s each way")
    assert "from the chipset" in f.message


def test_every_a520_board_in_the_catalog_is_said_at_pcie3_and_a_typed_one_too(cat: Catalog) -> None:
    """The cap is the chipset's, so it holds for every A520 board, whatever its slot says: the catalog's 42 list
    their slot as 3.0 already; a board typed in with a 4.0 slot is capped all the same."""
    gpu, cpu = part(cat, Kind.GPU, RTX_5090), part(cat, Kind.CPU, "AMD Ryzen 9 5900XT")
    boards = [b for b in cat.of_kind(Kind.MOTHERBOARD) if "A520" in (b.chipset or "")]  # type: ignore[attr-defined]
    assert len(boards) >= 40
    said = 0
    for board in boards:
        report = check(build(gpu, board, cpu))
        if not board.pcie_slots:  # type: ignore[attr-defined]
            assert [n.reason for n in report.not_checked if n.rule == "gpu-lanes"]
            continue
        assert one(report).message.startswith("The GPU runs at PCIe 3.0 x"), board.name
        said += 1
    assert said >= 40
    typed = next(b for b in boards if b.name == A520).model_copy(  # type: ignore[attr-defined]
        update={
            "id": "typed-a520",
            "custom": True,
            "pcie_slots": (PcieSlot(gen="4.0", lanes=16, physical=16, wired_to="cpu"),),
        }
    )
    f = one(check(build(gpu, typed, cpu)))
    assert f.message.startswith("The GPU runs at PCIe 3.0 x16") and "A520 chipset runs the CPU's lanes" in f.message
    assert "the board lists the slot" not in f.message  # the slot says 4.0: only the chipset holds it back


def test_an_unknown_generation_is_not_checked_not_silent(cat: Catalog) -> None:
    known = part(cat, Kind.CPU, "AMD Ryzen 9 5900XT")
    cpu = known.model_copy(update={"id": "typed-cpu", "custom": True, "pcie_gen": None})  # type: ignore[attr-defined]
    report = check(build(part(cat, Kind.GPU, RTX_5090), part(cat, Kind.MOTHERBOARD, B550), cpu))
    assert lanes(report) == []
    (reason,) = [n.reason for n in report.not_checked if n.rule == "gpu-lanes"]
    assert reason == "the GPU's link: the PCIe generation of the CPU is not in the data"
    # not strict for one card (the link is only said), strict for two (x8 per GPU unproven), as before
    rule = next(r for r in RULES if r.id == "gpu-lanes")
    one_card = build(part(cat, Kind.GPU, RTX_5090), cpu)
    two = Build(items=(BuildItem(part=part(cat, Kind.GPU, RTX_5090), quantity=2), BuildItem(part=cpu)))  # type: ignore[arg-type]
    assert not rule.strict_unknown_in(one_card) and rule.strict_unknown_in(two)


def test_two_gpus_keep_their_own_message(cat: Catalog) -> None:
    gpu = part(cat, Kind.GPU, RTX_4090)
    b = Build(
        items=(
            BuildItem(part=gpu, quantity=2),  # type: ignore[arg-type]
            BuildItem(part=part(cat, Kind.MOTHERBOARD, B550)),  # type: ignore[arg-type]
            BuildItem(part=part(cat, Kind.CPU, "AMD Ryzen 5 5500")),  # type: ignore[arg-type]
        )
    )
    f = one(check(b))
    assert f.message.startswith("2 GPUs: ") and "The GPU runs at" not in f.message


def test_rigplan_check_json_carries_the_note(cat: Catalog, tmp_path: Path) -> None:
    gpu, board, cpu = (
        part(cat, Kind.GPU, RTX_5090),
        part(cat, Kind.MOTHERBOARD, A520),
        part(cat, Kind.CPU, "AMD Ryzen 9 5900XT"),
    )
    path = tmp_path / "a520.rigplan"
    save(build(gpu, board, cpu), path)
    out = subprocess.run(
        [sys.executable, "-m", "rigplan", "check", str(path), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    data = json.loads(out.stdout)
    (f,) = [f for f in data["findings"] if f["rule"] == "gpu-lanes"]
    assert f["severity"] == "note" and f["message"].startswith("The GPU runs at PCIe 3.0 x16 (the card: PCIe 5.0 x16)")
    assert isinstance(board, Motherboard) and board.id in f["parts"]
