"""The part kinds. Kept apart from the pydantic models so the catalog and the window's first paint need no pydantic."""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    CPU = "cpu"
    COOLER = "cooler"
    MOTHERBOARD = "motherboard"
    MEMORY = "memory"
    STORAGE = "storage"
    GPU = "gpu"
    PSU = "psu"
    CASE = "case"

    @property
    def label(self) -> str:
        return KIND_LABELS[self]


KIND_LABELS: dict[Kind, str] = {
    Kind.CPU: "CPU",
    Kind.COOLER: "CPU cooler",
    Kind.MOTHERBOARD: "Motherboard",
    Kind.MEMORY: "Memory",
    Kind.STORAGE: "Storage",
    Kind.GPU: "GPU",
    Kind.PSU: "Power supply",
    Kind.CASE: "Case",
}
