"""Domain types: pure pydantic, no Qt."""

from rigplan.model.assumptions import DEFAULT_SOURCES, Assumptions, Pricing
from rigplan.model.build import FORMAT_VERSION, MAX_QUANTITY, Build, BuildItem
from rigplan.model.common import KNOWN_CURRENCIES, Price
from rigplan.model.parts import (
    KIND_LABELS,
    PART_ADAPTER,
    PART_CLASSES,
    Case,
    Cooler,
    Cpu,
    Gpu,
    GpuPower,
    Kind,
    M2Slot,
    Memory,
    Motherboard,
    Part,
    PcieSlot,
    Psu,
    PsuConnectors,
    Storage,
)

__all__ = [
    "DEFAULT_SOURCES",
    "FORMAT_VERSION",
    "KIND_LABELS",
    "KNOWN_CURRENCIES",
    "MAX_QUANTITY",
    "PART_ADAPTER",
    "PART_CLASSES",
    "Assumptions",
    "Build",
    "BuildItem",
    "Case",
    "Cooler",
    "Cpu",
    "Gpu",
    "GpuPower",
    "Kind",
    "M2Slot",
    "Memory",
    "Motherboard",
    "Part",
    "PcieSlot",
    "Price",
    "Pricing",
    "Psu",
    "PsuConnectors",
    "Storage",
]
