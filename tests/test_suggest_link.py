"""The suggester and the link one GPU runs at: the expert's link minimum sees the board's slot generation (an A520
board runs a PCIe 4.0 CPU's lanes at 3.0), and the balance order's last step before the PSU buys a PCIe 4.0 link for
a PCIe 4.0+ card with what the earlier steps leave, or says it did not and keeps check()'s note on the loss."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_in_process import rigplan_in_process
from rigplan.catalog import load_catalog
from rigplan.catalog.loader import Catalog
from rigplan.model import Kind
from rigplan.model.parts import Cpu, Motherboard, PcieSlot
from rigplan.suggest.expert import Minimums
from rigplan.suggest.link_step import link_short
from test_gpu_lanes_one import A520, B550, RTX_5090, part

ROOT = Path(__file__).resolve().parents[1]

# `rigplan suggest` run in this process gets the session's loaded catalog (tests/conftest.py says when and why).
pytestmark = pytest.mark.usefixtures("cli_gets_the_session_catalog")
RTX_2080_TI = "GeForce RTX 2080 Ti"


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog()


def link_minimum(gen: int | None) -> Minimums:
    return Minimums(1, 0.0, 0, 0.0, False, False, False, False, cpu_pcie_gen=gen)


def test_the_link_minimum_reads_the_board_and_its_chipset(cat: Catalog) -> None:
    a520, b550 = part(cat, Kind.MOTHERBOARD, A520), part(cat, Kind.MOTHERBOARD, B550)
    need = link_minimum(4)
    assert not need.part_ok(a520) and need.part_ok(b550)
    # a typed A520 board whose slot says 4.0 is still capped at 3.0; a slot of unknown generation is not a pass
    typed = a520.model_copy(update={"id": "t", "custom": True, "pcie_slots": (PcieSlot(gen="4.0", lanes=16),)})
    unknown = b550.model_copy(update={"id": "u", "custom": True, "pcie_slots": (PcieSlot(lanes=16),)})
    assert not need.part_ok(typed) and not need.part_ok(unknown)
    assert all(link_minimum(None).part_ok(b) for b in (a520, b550, typed, unknown))
    # the CPU side, as before
    assert not need.part_ok(part(cat, Kind.CPU, "AMD Ryzen 5 5500"))
    assert need.part_ok(part(cat, Kind.CPU, "AMD Ryzen 9 5900XT"))


def test_the_link_step_asks_only_what_holds_the_link_back(cat: Catalog) -> None:
    gpu = part(cat, Kind.GPU, RTX_5090)
    a520, b550 = part(cat, Kind.MOTHERBOARD, A520), part(cat, Kind.MOTHERBOARD, B550)
    gen4, gen3 = part(cat, Kind.CPU, "AMD Ryzen 9 5900XT"), part(cat, Kind.CPU, "AMD Ryzen 5 5500")
    assert link_short(gpu, 1, [a520, gen4]) == ("PCIe 3.0", Kind.MOTHERBOARD)
    assert link_short(gpu, 1, [b550, gen3]) == ("PCIe 3.0", Kind.CPU)
    assert link_short(gpu, 1, [a520, gen3]) == ("PCIe 3.0", Kind.MOTHERBOARD)  # the board first (below)
    assert link_short(gpu, 1, [b550, gen4]) is None
    assert link_short(gpu, 2, [a520, gen4]) is None  # 2+ cards: the minimums ask it already
    old = next(g for g in cat.of_kind(Kind.GPU) if g.chipset == RTX_2080_TI)  # a PCIe 3.0 card: nothing to buy
    assert link_short(old, 1, [a520, gen3]) is None


def test_a_one_part_swap_keeps_the_other_part_only_when_it_gives_the_link(cat: Catalog) -> None:
    """balance's swaps judge the swapped part and its pairing with the CPU: a B550 board swapped in beside a PCIe 3.0
    CPU must not count as the link bought, nor a PCIe 4.0 CPU swapped in on an A520 board."""
    a520, b550 = part(cat, Kind.MOTHERBOARD, A520), part(cat, Kind.MOTHERBOARD, B550)
    gen4, gen3 = part(cat, Kind.CPU, "AMD Ryzen 9 5900XT"), part(cat, Kind.CPU, "AMD Ryzen 5 5500")
    need = link_minimum(4)
    assert need.with_cpu(gen4, b550)
    assert not need.with_cpu(gen3, b550) and not need.with_cpu(gen4, a520)
    assert link_minimum(None).with_cpu(gen3, a520)


def suggest(*args: str) -> dict[str, Any]:
    """`rigplan suggest ARGS --json` through run_cli, the entry point `python -m rigplan` calls
    (tests/cli_in_process.py): the answer is tested here, not the process."""
    out = rigplan_in_process("suggest", *args, "--json", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def platform(cat: Catalog, data: dict[str, Any]) -> tuple[Motherboard, Cpu]:
    ids = {i["part"]["kind"]: i["part"]["id"] for i in data["build"]["items"]}
    board, cpu = cat.get(ids["motherboard"]), cat.get(ids["cpu"])
    assert isinstance(board, Motherboard) and isinstance(cpu, Cpu)
    return board, cpu


@pytest.mark.slow  # a whole-catalog search
def test_the_eur_answer_buys_the_link_with_the_money_left(cat: Catalog) -> None:
    """EUR 4,000 at 230 V / 16 A: on main an RTX 5090 on an A520 board left EUR 1,560 unspent at PCIe 3.0."""
    data = suggest("--budget", "4000", "--currency", "EUR", "--wall-voltage", "230", "--wall-amps", "16")
    (step,) = [s for s in data["spending"] if "link for the GPU" in s]
    assert step.startswith("bought: a PCIe 4.0 or newer link for the GPU (now PCIe 3.0) (+€")
    board, cpu = platform(cat, data)
    # judged from the raw data, not through the rule: the widest slot's generation, the chipset, the CPU's
    top = max(board.pcie_slots or (), key=lambda s: s.lanes)
    assert float(top.gen or 0) >= 4 and top.wired_to != "chipset"
    assert not any(c in (board.chipset or "") for c in ("A520", "A320", "B350", "X370", "B450", "X470"))
    assert float(cpu.pcie_gen or 0) >= 4
    assert "gpu-lanes: The GPU runs at PCIe 4.0 x16 (the card: PCIe 5.0 x16)" in data["check"]  # the answer says it


@pytest.mark.slow  # a whole-catalog search
def test_an_answer_that_cannot_afford_the_link_says_so_and_states_the_loss(cat: Catalog) -> None:
    data = suggest("--budget", "2500", "--goal", "vram")
    (step,) = [s for s in data["spending"] if "link for the GPU" in s]
    assert step.startswith("not bought: a PCIe 4.0 or newer link for the GPU (now PCIe 3.0)")
    board, cpu = platform(cat, data)
    assert "A520" in (board.chipset or "") or float(cpu.pcie_gen or 0) < 4
    assert "gpu-lanes: The GPU runs at PCIe 3.0 x16" in data["check"]
