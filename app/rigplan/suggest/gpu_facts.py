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
- **PCIe generation** of the card's own link: rigplan.rules.link.card_gen (its table cites the makers' spec pages),
  which gpu-lanes reads too. A PCIe 4.0 card at x8 on a PCIe 3.0 link has half the
  bandwidth it was built for (Puget Systems and Tim Dettmers count x8 as enough at PCIe 4.0); the expert's
  minimums therefore ask a PCIe 4.0 CPU for 2+ such cards.
"""

from __future__ import annotations

import re

from rigplan.model.parts import Gpu
from rigplan.rules.link import card_gen as pcie_gen  # the card's link generation: one table, the rule's

__all__ = ["pcie_gen", "psu_floor_w", "required_system_w"]

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
