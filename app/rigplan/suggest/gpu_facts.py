"""Two maker's figures an expert builder sizes a deep-learning box by, per GPU family (matched on the catalog's
`chipset`): the system power the GPU maker requires for one card, and the PCIe generation the card speaks.

- **Required system power** ("Required System Power (W)" on NVIDIA's GeForce spec pages; AMD's "Typical Board
  Power / recommended PSU"): the PSU an expert picks for one card; each further card adds its own board power
  (`Gpu.tdp_w`). Sources: NVIDIA GeForce RTX 50 series spec pages (nvidia.com/en-us/geforce/graphics-cards/50-series/,
  "Specs": RTX 5090 1000 W, RTX 5080 850 W, RTX 5070 Ti 750 W, RTX 5070 650 W); NVIDIA's RTX 40 series FAQ and spec
  pages (RTX 4090 850 W, RTX 4080 / 4080 SUPER 750 W, RTX 4070 Ti / Ti SUPER 700 W, RTX 4070 / SUPER 650 W; the FAQ
  as reported by T3, 2022-09: "850W, 750W and 700W"); NVIDIA GeForce RTX 30 series spec pages (RTX 3090 Ti 850 W,
  RTX 3090 / 3080 Ti / 3080 / 3070 Ti 750 W, RTX 3070 650 W, RTX 3060 Ti 600 W, RTX 3060 550 W); AMD Radeon RX 7900
  series product pages (RX 7900 XTX 800 W, RX 7900 XT 750 W). A family not listed has no maker's figure here: only
  RigPlan's own estimate (rules/power.py) sizes its PSU, and the answer says so.
- **PCIe generation** of the card's own link (the makers' spec pages: "PCI Express Gen 5" for GeForce RTX 50 and RTX
  PRO Blackwell, Gen 4 for GeForce RTX 30/40, RTX A-series and RTX Ada, Radeon RX 6000/7000, Arc; Gen 3 for GeForce
  RTX 20, GTX 16/10, Titan RTX, Quadro RTX, V100, T4). A PCIe 4.0 card at x8 on a PCIe 3.0 link has half the
  bandwidth it was built for (Puget Systems and Tim Dettmers count x8 as enough at PCIe 4.0); the expert's
  minimums therefore ask a PCIe 4.0 CPU for 2+ such cards.
"""

from __future__ import annotations

import re

from rigplan.model.parts import Gpu

# (pattern on the chipset, watts): the first match wins, so the longer names come first.
REQUIRED_SYSTEM_W: tuple[tuple[str, int], ...] = (
    (r"RTX 5090\b", 1000),
    (r"RTX 5080\b", 850),
    (r"RTX 5070 Ti\b", 750),
    (r"RTX 5070\b", 650),
    (r"RTX 4090\b", 850),
    (r"RTX 4080\b", 750),
    (r"RTX 4070 Ti\b", 700),
    (r"RTX 4070\b", 650),
    (r"RTX 3090 Ti\b", 850),
    (r"RTX 3090\b", 750),
    (r"RTX 3080\b", 750),
    (r"RTX 3070 Ti\b", 750),
    (r"RTX 3070\b", 650),
    (r"RTX 3060 Ti\b", 600),
    (r"RTX 3060\b", 550),
    (r"RX 7900 XTX\b", 800),
    (r"RX 7900 XT\b", 750),
)
_REQUIRED = tuple((re.compile(p, re.I), w) for p, w in REQUIRED_SYSTEM_W)

# (pattern on the chipset, PCIe generation of the card's link)
PCIE_GEN: tuple[tuple[str, int], ...] = (
    (r"RTX 50\d\d|RTX PRO \d+ Blackwell|RX 90\d\d|\bH100|\bB200", 5),
    (r"RTX [34]0\d\d|RTX A\d{3,4}\b|RTX \d{4} Ada|RX [67]\d\d\d|\bArc\b|\bA100|\bA40\b|\bA30\b|\bL40|\bL4\b", 4),
    (r"RTX 20\d\d|GTX 1[06]\d\d|TITAN|Quadro|V100|\bT4\b|RX [45]\d\d\b|Vega", 3),
)
_GEN = tuple((re.compile(p, re.I), g) for p, g in PCIE_GEN)
_INTERFACE_GEN = re.compile(r"PCIe (\d)\.0", re.I)


def required_system_w(gpu: Gpu) -> int | None:
    """The GPU maker's required system power for one card of this family (W); None when not listed."""
    chip = gpu.chipset or ""
    return next((w for pat, w in _REQUIRED if pat.search(chip)), None)


def psu_floor_w(gpu: Gpu, count: int) -> float | None:
    """The least PSU an expert sizes by the maker's figure: the required system power for one card plus each further
    card's board power. None when the family has no maker's figure or a further card's power is unknown."""
    one = required_system_w(gpu)
    if one is None or (count > 1 and not gpu.tdp_w):
        return None
    return float(one + (count - 1) * (gpu.tdp_w or 0))


def pcie_gen(gpu: Gpu) -> int | None:
    """The PCIe generation of the card's own link: the catalog's interface when it states one, else the family's."""
    m = _INTERFACE_GEN.search(gpu.interface or "")
    if m:
        return int(m.group(1))
    chip = gpu.chipset or ""
    return next((g for pat, g in _GEN if pat.search(chip)), None)
