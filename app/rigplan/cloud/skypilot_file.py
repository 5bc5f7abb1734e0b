"""A SkyPilot catalog file (`catalogs/vN/<cloud>/vms.csv`) -> RigPlan offers: the GPU rows, zones merged per region
(on-demand: the region's lowest price, spot: the lowest zone's), as tools/import_cloud.py does for the bundled
snapshot (../shared/data/cloud/SOURCE.md)."""

from __future__ import annotations

import csv
import io
import re
import sys
from typing import Any

from rigplan.cloud.fetch import PriceUpdateError
from rigplan.model.numbers import NumberError, parse_number

REQUIRED = ("InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "SpotPrice", "Region")


def _num(v: str | None) -> float | None:
    """A positive number from the file by the one set of rules (rigplan.model.numbers); empty, zero, negative,
    NaN or infinite: None (no value). Values beyond the model's bounds are refused when the offers are stored."""
    try:
        x = parse_number(v or "", 0.0, sys.float_info.max, "number")
    except NumberError:
        return None
    return x if x > 0 else None


def offers_from_vms_csv(text: str, provider: str, where: str) -> list[dict[str, Any]]:
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
    if missing:
        raise PriceUpdateError(f"{where}: not a SkyPilot vms.csv (columns missing: {', '.join(missing)})")
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for r in reader:
        count = _num(r.get("AcceleratorCount"))
        if not r.get("AcceleratorName") or not count:
            continue  # CPU-only machine types
        g = groups.setdefault((r["InstanceType"], r["Region"]), {"row": r, "od": [], "spot": [], "zones": 0})
        g["zones"] += 1
        for k, col in (("od", "Price"), ("spot", "SpotPrice")):
            v = _num(r.get(col))
            if v:
                g[k].append(v)
    out = []
    for (itype, region), g in sorted(groups.items()):
        r = g["row"]
        count = _num(r["AcceleratorCount"]) or 0.0
        od, spot = (min(g["od"]) if g["od"] else None), (min(g["spot"]) if g["spot"] else None)
        quirks = []
        if od is None:
            quirks.append("no on-demand price in the source")
        if od and spot and spot > od:
            quirks.append(f"spot price {spot:g} is above on-demand {od:g} in the source")
        fraction = count if count < 1 else None
        if fraction:
            quirks.append(f"fractional GPU: {count:g} of one {r['AcceleratorName']}")
        mem = _num(r.get("MemoryGiB"))
        gpu_mem = None
        m = re.search(r"'MemoryInfo': \{'SizeInMiB': (\d+)", r.get("GpuInfo") or "")
        if m:
            gpu_mem = round(int(m[1]) / 1024, 2)
        out.append(
            {
                "id": f"{provider}:{itype}:{region}",
                "provider": provider,
                "instance_type": itype,
                "region": region,
                "gpu_model": r["AcceleratorName"],
                "gpu_count": 1 if fraction else int(count),
                "gpu_fraction": fraction,
                "vram_gb_each": gpu_mem,
                "vcpus": int(_num(r.get("vCPUs")) or 0) or None,
                "ram_gb": mem,
                "ondemand_usd_h": od,
                "spot_usd_h": spot,
                "source": f"SkyPilot catalog file {where}, from provider price lists",
                "snapshot": "current",
                "quirks": quirks,
            }
        )
    if not out:
        raise PriceUpdateError(f"{where}: no GPU rows (AcceleratorName and AcceleratorCount are empty everywhere)")
    return out
