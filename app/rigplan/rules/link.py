"""The PCIe link one GPU runs at (gpu-lanes with one card; docs/checks.md): the slot it takes, as the board lists it
(generation, electrical lanes, which side wires it), limited by the CPU's PCIe generation and graphics lanes and by
a chipset that caps the CPU's lanes below the slot's generation. Said when the link is below what the card can use.

Why a note and when a warning (docs/checks.md cites these in full):
- TechPowerUp, "NVIDIA GeForce RTX 5090 PCI-Express Scaling" (2025-01): against PCIe 5.0 x16, about 1 % slower in
  games at PCIe 4.0 x16, about 4 % at PCIe 4.0 x8 / 3.0 x16 (16 GB/s), about 10 % at PCIe 3.0 x8 (8 GB/s); its RTX
  4090 scaling article: 2 % at PCIe 3.0 x16.
- Puget Systems, RTX 5090 PCIe bandwidth tests (2025-07): DaVinci Resolve the same at 5.0 x16, 5.0 x8 and 4.0 x16,
  about 10 % slower at 16 GB/s (5.0 x4, 4.0 x8, 3.0 x16), about 25 % slower at 8 GB/s (4.0 x4, 3.0 x8); its LLM
  (Llama) AI benchmarks nearly unaffected by the link.
So a link below the card's own at 16 GB/s or more is a note (a few percent, and little for deep learning once the
weights are on the card); at 8 GB/s or less, half of that, it is a warning: both sources measure a real loss there.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any

from rigplan.model.parts import Kind, PcieSlot

K = Kind

# GB/s per lane and direction after line encoding (PCI-SIG: 2.5/5 GT/s with 8b/10b; 8/16/32 GT/s with 128b/130b).
LANE_GBS = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938}
# At or below this bandwidth (PCIe 4.0 x4 / 3.0 x8) the sources above measure a real loss: a warning.
WARN_GBS = 8.0

# Chipsets that run the CPU's graphics lanes below the CPU's own generation, whatever the board's slot says.
# - AMD A520: "all lanes, the processor's too, are limited to PCI Express 3.0" (AMD's A520 launch, Hardwareluxx,
#   2020-08, "Nur noch PCIe 3.0: AMD macht den A520-Chipsatz offiziell"; thinkcomputers.org: the x16 and M.2 slots
#   wired to the AM4 SoC are limited to PCIe 3.0, where B550 runs them at 4.0).
# - AMD's pre-X570 chipsets (A320, B350, X370, B450, X470): "PCIe 4.0 will not be an option ultimately available to
#   pre-X570 motherboards" (AMD to Vortez, 2019-06, as PCGamesN reported; AGESA 1.0.0.3 ABB disabled it).
CHIPSET_GEN_CAP: tuple[tuple[re.Pattern[str], int, str], ...] = (
    (re.compile(r"\bA520\b", re.I), 3, "AMD's A520 specification"),
    (re.compile(r"\b(A320|B350|X370|B450|X470)\b", re.I), 3, "AMD: no PCIe 4.0 on boards before X570"),
)

# (pattern on the chipset, PCIe generation of the card's link): the makers' spec pages ("PCI Express Gen 5" for
# GeForce RTX 50 and RTX PRO Blackwell, Gen 4 for GeForce RTX 30/40, RTX A-series and RTX Ada, Radeon RX 6000/7000,
# Arc; Gen 3 for GeForce RTX 20, GTX 16/10, Titan RTX, Quadro RTX, V100, T4).
CARD_GEN: tuple[tuple[str, int], ...] = (
    (r"RTX 50\d\d|RTX PRO \d+ Blackwell|RX 90\d\d|\bH100|\bB200", 5),
    (r"RTX [34]0\d\d|RTX A\d{3,4}\b|RTX \d{4} Ada|RX [67]\d\d\d|\bArc\b|\bA100|\bA40\b|\bA30\b|\bL40|\bL4\b", 4),
    (r"RTX 20\d\d|GTX 1[06]\d\d|TITAN|Quadro|V100|\bT4\b|RX [45]\d\d\b|Vega", 3),
)
_CARD_GEN = tuple((re.compile(p, re.I), g) for p, g in CARD_GEN)
_INTERFACE_GEN = re.compile(r"PCIe (\d)\.0", re.I)
_INTERFACE_LANES = re.compile(r"\bx(1|2|4|8|16)\b", re.I)


def card_gen(gpu: Any) -> int | None:
    """The PCIe generation of the card's own link: the catalog's interface when it states one, else the family's."""
    m = _INTERFACE_GEN.search(gpu.interface or "")
    if m:
        return int(m.group(1))
    chip = gpu.chipset or ""
    return next((g for pat, g in _CARD_GEN if pat.search(chip)), None)


def card_lanes(gpu: Any) -> int | None:
    """The card's own link width from its interface ("PCIe 5.0 x8": 8); None when not stated."""
    m = _INTERFACE_LANES.search(gpu.interface or "")
    return int(m.group(1)) if m else None


def gen_of(text: str | None) -> int | None:
    """ "4.0" -> 4; None or anything else -> None."""
    try:
        return int(float(text)) if text else None
    except ValueError:
        return None


def chipset_cap(chipset: str | None) -> tuple[int, str] | None:
    """(generation, why) when the board's chipset caps the CPU's graphics lanes (CHIPSET_GEN_CAP); else None."""
    return next(((g, why) for pat, g, why in CHIPSET_GEN_CAP if pat.search(chipset or "")), None)


def gpu_slot(board: Any) -> PcieSlot | None:
    """The slot one GPU takes: the widest, the CPU's before the chipset's, the newest generation first."""
    slots = board.pcie_slots or ()
    return min(slots, key=lambda s: (-s.lanes, s.wired_to == "chipset", -(gen_of(s.gen) or 0)), default=None)


def board_gen(board: Any) -> int | None:
    """The generation one GPU's slot on this board runs at, the chipset's cap applied (the CPU's aside); None when
    the board lists no slot or no generation for it."""
    slot = gpu_slot(board)
    gen = gen_of(slot.gen) if slot else None
    cap = chipset_cap(board.chipset) if slot is not None and slot.wired_to != "chipset" else None
    return min(gen, cap[0]) if gen is not None and cap else gen


def link_board(board: Any) -> Hashable:
    """What gpu-lanes reads of a board: its slots (gpu.board_slots) and its chipset (a cap on the CPU's lanes)."""
    return repr(board.pcie_slots), board.form_factor, board.chipset


def link_card(gpu: Any) -> Hashable:
    """What gpu-lanes reads of a card: its link's generation and width (one card); more cards: their count."""
    return card_gen(gpu), card_lanes(gpu)


def gbs(gen: int, lanes: int) -> float:
    return LANE_GBS.get(gen, 0.0) * lanes


def one_link(c: Any, gpu: Any, budget: int | None) -> None:
    """One GPU: the link it runs at, said when below the card's own (module docstring); budget: the CPU's graphics
    lanes (gpu.graphics_lanes; None: not known). Nothing until the build has a board and a CPU; "not checked" when a
    generation it needs is not in the data."""
    board, cpu = c.board, c.cpu
    if board is None or cpu is None:
        return
    slot = gpu_slot(board)
    if slot is None:
        c.unchecked("gpu-lanes", "the GPU's link: the board's PCIe slots are not in the data", (K.GPU, K.MOTHERBOARD))
        return
    via_cpu = slot.wired_to != "chipset"
    gens = {"the board's slot": gen_of(slot.gen), "the card": card_gen(gpu)}
    if via_cpu:
        gens["the CPU"] = gen_of(cpu.pcie_gen)
    unknown = [k for k, g in gens.items() if g is None]
    if unknown:
        c.unchecked(
            "gpu-lanes",
            f"the GPU's link: the PCIe generation of {' and '.join(unknown)} is not in the data",
            (K.GPU, K.CPU, K.MOTHERBOARD),
        )
        return
    link = _Link(gpu, board, cpu, slot, via_cpu, budget)
    if link.gen >= link.own_gen and link.lanes >= (link.own_lanes or link.lanes):
        return  # the card's own link: nothing to say
    _say(c, link, gpu, board, cpu)


class _Link:
    """The link one GPU runs at: the lowest generation and the narrowest width of the slot, the CPU (when the slot
    is the CPU's), a chipset cap and the card itself."""

    def __init__(self, gpu: Any, board: Any, cpu: Any, slot: Any, via_cpu: bool, budget: int | None) -> None:
        self.slot, self.via_cpu, self.budget = slot, via_cpu, budget
        self.own_gen, self.slot_gen = card_gen(gpu) or 0, gen_of(slot.gen) or 0
        self.own_lanes = card_lanes(gpu)
        self.cap = chipset_cap(board.chipset) if via_cpu else None
        self.cpu_gen = gen_of(cpu.pcie_gen) if via_cpu else None
        limits = (self.slot_gen, self.cpu_gen, self.cap[0] if self.cap else None, self.own_gen)
        self.gen = min(g for g in limits if g is not None)
        own = self.own_lanes or slot.lanes
        self.lanes = min(slot.lanes, budget if via_cpu and budget else slot.lanes, own)

    def why(self, board: Any, cpu: Any) -> list[str]:
        """Each limit that alone would hold the link where it is (a PCIe 3.0 CPU on an A520 board: both)."""
        gen, lanes, slot, own_gen, own_lanes = self.gen, self.lanes, self.slot, self.own_gen, self.own_lanes
        out = []
        if (self.slot_gen == gen < own_gen) or (own_lanes is not None and slot.lanes == lanes < own_lanes):
            side = "" if self.via_cpu else " from the chipset"
            out.append(f"the board lists the slot as PCIe {slot.gen} x{slot.lanes}{side}")
        if self.cap is not None and self.cap[0] == gen < own_gen:
            out.append(f"the {board.chipset} chipset runs the CPU's lanes at PCIe {self.cap[0]}.0 ({self.cap[1]})")
        if self.cpu_gen is not None and self.cpu_gen == gen < own_gen:
            out.append(f"the {cpu.name}'s lanes are PCIe {self.cpu_gen}.0")
        b = self.budget
        if self.via_cpu and b and b == lanes < min(slot.lanes, own_lanes or slot.lanes):
            out.append(f"the {cpu.name} gives graphics {b} lanes")
        return out


def _say(c: Any, link: _Link, gpu: Any, board: Any, cpu: Any) -> None:
    """The note (or, at 8 GB/s or less, the warning) for a link below the card's own."""
    gen, lanes, own_gen, own_lanes = link.gen, link.lanes, link.own_gen, link.own_lanes
    have = gbs(gen, lanes)
    full = gbs(own_gen, own_lanes or lanes)
    card = f"PCIe {own_gen}.0" + (f" x{own_lanes}" if own_lanes else "")
    msg = (
        f"The GPU runs at PCIe {gen}.0 x{lanes} (the card: {card}): about {have:.0f} GB/s each way, "
        f"{_same_as(gen, lanes)}{_share(have, full)}; {'; '.join(link.why(board, cpu))}."
    )
    parts = [gpu, board, cpu]
    if have <= WARN_GBS:
        c.warn(
            "gpu-lanes",
            msg + " At 8 GB/s or less Puget Systems measured an RTX 5090 about 25 % slower in DaVinci Resolve and "
            "TechPowerUp about 10 % slower in games; loading models and data, and any offload to system RAM, slow "
            "with the link.",
            "Choose a board and CPU that give the card PCIe 4.0 x8 or better (16 GB/s).",
            parts,
            (K.GPU, K.CPU, K.MOTHERBOARD),
        )
    else:
        c.note(
            "gpu-lanes",
            msg + f" Measured cost: {_cost(have)}; Puget Systems found LLM inference on an RTX 5090 nearly "
            "unaffected by the link.",
            "",
            parts,
            (K.GPU, K.CPU, K.MOTHERBOARD),
        )


def _same_as(gen: int, lanes: int) -> str:
    """The same bandwidth in a neighbouring generation, as builders compare links ("the bandwidth of PCIe 4.0 x8"):
    one down at twice the lanes where that is a real link (PCIe 3.0 or newer, x16 at most), else one up."""
    if gen - 1 >= 3 and lanes * 2 <= 16:
        return f"the bandwidth of PCIe {gen - 1}.0 x{lanes * 2}"
    if gen + 1 in LANE_GBS and lanes >= 2:
        return f"the bandwidth of PCIe {gen + 1}.0 x{lanes // 2}"
    return f"PCIe {gen}.0 x{lanes}'s bandwidth"


def _cost(have: float) -> str:
    """What the sources measured at about this bandwidth (module docstring)."""
    if have > 24:  # 32 GB/s: PCIe 4.0 x16 / 5.0 x8
        return "about 1 % slower in games (TechPowerUp, RTX 5090 at PCIe 4.0 x16), no loss in DaVinci Resolve (Puget)"
    return "about 4 % slower in games (TechPowerUp, RTX 5090 at 16 GB/s), about 10 % in DaVinci Resolve (Puget)"


def _share(have: float, full: float) -> str:
    frac = have / full if full else 1.0
    words = {0.5: "half", 0.25: "a quarter", 0.125: "an eighth"}
    near = min(words, key=lambda f: abs(f - frac))
    said = words[near] if abs(near - frac) < 0.02 else f"{frac:.0%}"
    return f", {said} of the card's {full:.0f} GB/s"
