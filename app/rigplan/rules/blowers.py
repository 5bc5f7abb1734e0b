"""Blower (radial-fan) graphics cards recognised by their product line's name, with the source for each line.

A blower card pushes its air through a closed shroud and out of the bracket, so several of them can sit side by side;
an open-air card blows into the case and its neighbour's intake (the `gpu-spacing` rule). The catalog's cooling field
(OpenDB) records most blowers as "1 Fan", the same as a single axial fan, so the product line decides. A line is only
read where the listing has one fan or none recorded: a listing of two or three fans names a different cooler (the RTX
PRO 6000 Blackwell Workstation Edition is a two-fan flow-through card; the Max-Q edition is the blower).

The importer (tools/data_quality.py) writes "Blower" into the catalog from this table; open_air() in rules/context.py
reads it again for parts that did not come through the importer (a user's own part, an imported list).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class BlowerLine:
    id: str
    pattern: re.Pattern[str]  # searched in "<maker> <chipset> <name>"
    source: str


def _line(id: str, pattern: str, source: str) -> BlowerLine:
    return BlowerLine(id, re.compile(pattern, re.I), source)


BLOWER_LINES: tuple[BlowerLine, ...] = (
    _line("named-blower", r"\bBlower\b", "the product name says Blower (PNY, Zotac, Sparkle)"),
    _line(
        "gigabyte-turbo",
        r"^Gigabyte\b.*\bTURBO\b",
        "Gigabyte TURBO: modacellulare.com 2020-09-21 ('GeForce RTX 3090 con design blower, la prima versione e di"
        " Gigabyte': RTX 3090 TURBO 24G, one fan at the end of the card); geektopia.es 2016-10-04 (GTX 1080 Turbo OC"
        " 8G, a turbine cooler that exhausts all hot air out of the back of the case)",
    ),
    _line(
        "asus-turbo",
        r"^ASUS\b.*\bTURBO\b",
        "ASUS Turbo: comptoir-hardware.com news 43002 (RTX 3090 Turbo OC, TURBO-RTX3090-24G: an 80 mm blower, dual"
        " slot, the size of the RTX 2080 Ti Turbo); purepc.pl 2024-12 (GeForce RTX 4070 Turbo: one radial fan, two"
        " slots)",
    ),
    _line(
        "geforce-10-founders-edition",
        r"\bFounders Edition\b.*\bGTX 10[5-8]0|\bGTX 10[5-8]0\b.*\bFounders Edition\b",
        "NVIDIA GeForce GTX 10-series Founders Edition: techreport.com review 30281 (GTX 1080 FE: 'the heatsink that"
        " the blower-style fan cools'); hardwaresecrets.com GTX 1080 review (a centrifugal fan pushing hot air out of"
        " the case). From the RTX 20 series the Founders Edition has two axial fans (Tom's Hardware, 'Nvidia's"
        " Founders Edition: Farewell, Beautiful Blower'), so only GTX 10-series FE cards are read as blowers",
    ),
    _line(
        "nvidia-reference-titan-700-900-pascal",
        r"^NVIDIA\b.*(\bGTX (7[6-8]0|9[6-8]0)\b|\bTitan (X|Xp)\b|\bGTX Titan\b)",
        "NVIDIA-made reference cards, GTX 700/900 series, GTX Titan and Pascal Titan X/Xp: thinkcomputers.org (the"
        " NVTTM reference cooler of GTX Titan and the GTX 700/900 series, carried to Pascal, 'continues to use the"
        " lateral-blower type, which vents air out of the rear panel'); Tom's Hardware Turing article (the original"
        " GTX Titan's 'centrifugal fan that blew heated air out the dual-slot bracket')",
    ),
    _line(
        "amd-reference-polaris-vega-rdna1",
        r"^AMD\b.*\b(RX 480|RX Vega (56|64)|Vega Frontier Edition|RX 5700( XT)?)\b",
        "AMD-made reference cards up to RDNA 1: PCWorld 2019-10 p. 83 ('AMD's Radeon reference designs stick to this"
        " legacy' of single-fan blowers; 'AMD's Radeon RX 5700 reference card uses a blower-style design');"
        " thegamingpcguide.com (RX 5700 XT: a single-fan blower 'similar to the cooler found on the reference"
        " Polaris RX 480 / Vega 64'); ocaholic.ch (Vega Frontier Edition: a radial fan). From RDNA 2 AMD's"
        " reference cards have axial fans (PCWorld, 'AMD's next-gen Radeon graphics cards will ditch blower-style"
        " coolers', 2020)",
    ),
    _line(
        "workstation",
        r"\b(RTX A\d{4}|RTX \d{4} Ada|RTX PRO \d{4}|Quadro|Radeon Pro)\b",
        "Workstation cards: geektopia.es 2020-10-05 (NVIDIA RTX A6000 'un diseno de turbina', a blower, where the A40"
        " is passive for servers); NVIDIA and AMD build their actively cooled workstation boards as dual-slot blowers"
        " (Quadro, RTX A/Ada/PRO, Radeon Pro). Listings of one fan or none only: two- and three-fan listings (RTX PRO"
        " 6000 Blackwell Workstation Edition, a flow-through card) keep their own cooling",
    ),
)


LIQUID_NAME = re.compile(r"\b(Liquid|Hybrid|Waterforce|Water ?Cooled|AIO)\b", re.I)


def liquid_by_name(name: str) -> bool:
    """The name says the card is liquid-cooled (an AIO or hybrid edition: Vega Frontier Edition Liquid, EVGA HYBRID,
    Gigabyte AORUS WATERFORCE). Such a card blows its heat through a radiator, not into the next card."""
    return LIQUID_NAME.search(name) is not None


def blower_line(manufacturer: str | None, chipset: str | None, name: str) -> BlowerLine | None:
    """The blower line a card's name belongs to, or None."""
    text = f"{manufacturer or ''} {chipset or ''} {name}".strip()
    if liquid_by_name(text):  # a liquid edition of a blower line is not a blower
        return None
    return next((line for line in BLOWER_LINES if line.pattern.search(text)), None)


def single_or_unknown_fan(cooling: str | None) -> bool:
    """Cooling that a blower listing may carry: none recorded, or one fan."""
    return cooling is None or cooling.strip().lower().startswith("1 fan")
