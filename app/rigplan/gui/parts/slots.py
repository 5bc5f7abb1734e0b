"""The order of the build's slots, shared by the build panel and the picker."""

from __future__ import annotations

from rigplan.kinds import Kind

SLOT_ORDER = [Kind.CPU, Kind.COOLER, Kind.MOTHERBOARD, Kind.MEMORY, Kind.STORAGE, Kind.GPU, Kind.PSU, Kind.CASE]
