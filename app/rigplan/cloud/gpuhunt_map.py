"""gpuhunt's catalog rows -> RigPlan offers: provider and GPU names normalised, zones merged into regions, on-demand
and spot rows of one instance joined into one offer, and the quirks RigPlan flags everywhere (no on-demand price,
spot above on-demand, ARM hosts, accelerators that are not GPUs)."""

from __future__ import annotations

import csv
import datetime as dt
import os
import re
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rigplan.cloud.fetch import Fetched, PriceUpdateError

# The columns gpuhunt's reader needs (gpuhunt._internal.storage: required fields of a v2 catalog row).
REQUIRED = ("instance_name", "location", "price", "cpu", "memory", "gpu_count", "spot")
# gpuhunt's provider names -> RigPlan's (the bundled snapshot's ids use "lambda").
PROVIDERS = {"lambdalabs": "lambda"}
SOURCE = "gpuhunt catalog (dstack), from provider price lists"
_ENV_LOCK = threading.Lock()


def rigplan_provider(name: str) -> str:
    return PROVIDERS.get(name, name)


def gpu_name(name: str | None, memory_gb: float | None) -> str | None:
    """gpuhunt's GPU name in the spelling of RigPlan's snapshot (SkyPilot's), so speeds and filters match: the
    80 GB A100 and the 32 GB V100 are separate models there."""
    if not name:
        return None
    n = name.strip()
    up = n.upper()
    if up == "A100" and (memory_gb or 0) >= 70:
        return "A100-80GB"
    if up == "V100" and (memory_gb or 0) >= 30:
        return "V100-32GB"
    if up == "T4G":
        return "T4g"
    return n


def version_date(version: str) -> dt.date | None:
    """gpuhunt names a catalog version YYYYMMDD-<run> after the day it was collected."""
    m = re.match(r"(\d{4})(\d{2})(\d{2})", version)
    if not m:
        return None
    try:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def check_columns(text: str, where: str) -> None:
    first = text.splitlines()[0] if text.strip() else ""
    header = next(csv.reader([first]), [])
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise PriceUpdateError(
            f"{where}: not a gpuhunt catalog (columns missing: {', '.join(missing)}; found: {', '.join(header[:8])})"
        )


def read_items(provider: str, csv_text: str, where: str) -> list[Any]:
    """gpuhunt's own reader, through its public query on a local catalog folder (GPUHUNT_CATALOG_DIR)."""
    import gpuhunt  # lazy: gpuhunt pulls in requests (~0.1 s), needed only on this path

    check_columns(csv_text, where)
    with tempfile.TemporaryDirectory(prefix="rigplan-gpuhunt-") as tmp, _ENV_LOCK:
        Path(tmp, f"{provider}.csv").write_text(csv_text, encoding="utf-8")
        old = os.environ.get("GPUHUNT_CATALOG_DIR")
        os.environ["GPUHUNT_CATALOG_DIR"] = tmp
        try:
            return gpuhunt.Catalog(balance_resources=False, auto_reload=False).query(provider=provider)
        except ValueError as exc:
            raise PriceUpdateError(f"{where}: gpuhunt cannot read it ({exc})") from exc
        finally:
            if old is None:
                os.environ.pop("GPUHUNT_CATALOG_DIR", None)
            else:
                os.environ["GPUHUNT_CATALOG_DIR"] = old


def _region(provider: str, location: str) -> str:
    # GCP lists zones (us-central1-a); RigPlan's offers are per region, like the bundled snapshot.
    return re.sub(r"-[a-z]$", "", location) if provider == "gcp" else location


def to_offers(
    items: Iterable[Any], provider: str, version: str, where: str, data_date: dt.date | None
) -> list[dict[str, Any]]:
    groups = _group(items, provider)
    names: dict[tuple[str, str, str], int] = {}
    for prov, inst, region, _, _ in groups:
        names[(prov, inst, region)] = names.get((prov, inst, region), 0) + 1
    source = f"{SOURCE}; {provider} catalog {version}, {where}"
    out = []
    for (prov, inst, region, gpu, count), g in sorted(groups.items(), key=lambda kv: [str(x) for x in kv[0]]):
        # GCP's N1 VMs take several GPU types and counts: one offer each, named by what is attached.
        itype = inst if names[(prov, inst, region)] == 1 else f"{inst} + {count}x {gpu}"
        out.append(_offer(g, prov, itype, region, gpu, count, source, version, data_date))
    return out


def _group(items: Iterable[Any], provider: str) -> dict[tuple[Any, ...], dict[str, Any]]:
    """gpuhunt's rows grouped by offer (provider, instance, region, GPU, count) with their on-demand and spot prices."""
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for it in items:
        vendor = getattr(it.gpu_vendor, "value", it.gpu_vendor) or ""
        if not it.gpu_count or vendor == "google":  # CPU-only machines and TPUs: nothing to compare a GPU box with
            continue
        gpu = gpu_name(it.gpu_name, it.gpu_memory)
        key = (rigplan_provider(provider), it.instance_name, _region(provider, it.location), gpu, it.gpu_count)
        g = groups.setdefault(key, {"item": it, "gpu": gpu, "vendor": vendor, "od": [], "spot": []})
        if it.price and it.price > 0:
            g["spot" if it.spot else "od"].append(float(it.price))
    return groups


def _price_quirks(ods: list[float], od: float | None, spot: float | None) -> list[str]:
    quirks = []
    if ods and len(set(ods)) > 1:
        quirks.append(f"{len(ods)} on-demand prices in the source ({min(ods):g}-{max(ods):g}): the lowest is shown")
    if od is None:
        quirks.append("no on-demand price in the source")
    if od and spot and spot > od:
        quirks.append(f"spot price {spot:g} is above on-demand {od:g} in the source")
    return quirks


def _hardware_quirks(vendor: str, gpu: str | None, arch: Any, fraction: float | None) -> list[str]:
    quirks = []
    if arch == "arm":
        quirks.append("Arm64 host CPU")
    if vendor in ("intel", "tenstorrent") or (gpu or "").lower().startswith("gaudi"):
        quirks.append(f"NOT A GPU: {gpu} accelerator; no GPU speed figure applies")
    if vendor == "amd":
        quirks.append("AMD accelerator: ROCm, not CUDA")
    # A share of one GPU (Azure NVv4, NVadsA10 v5; AWS g6f): one GPU's slice, no GPU speed, never 0 GPUs.
    if fraction is not None:
        quirks.append(f"a {fraction:.3g} slice of one {gpu}: no GPU speed figure applies")
    return quirks


def _offer(
    g: dict[str, Any],
    prov: str,
    itype: str,
    region: str,
    gpu: str | None,
    count: Any,
    source: str,
    version: str,
    data_date: dt.date | None,
) -> dict[str, Any]:
    """One offer in the offers file's form, from its group of gpuhunt rows."""
    it = g["item"]
    od = min(g["od"]) if g["od"] else None
    spot = min(g["spot"]) if g["spot"] else None
    arch = getattr(it.cpu_arch, "value", it.cpu_arch)
    fraction = float(count) if 0 < float(count) < 1 else None
    return {
        "id": f"{prov}:{itype}:{region}",
        "provider": prov,
        "instance_type": itype,
        "region": region,
        "gpu_model": gpu,
        "gpu_count": 1 if fraction is not None else int(count),
        "gpu_fraction": fraction,
        "vram_gb_each": float(it.gpu_memory) if it.gpu_memory else None,
        "vcpus": int(it.cpu) if it.cpu else None,
        "ram_gb": float(it.memory) if it.memory else None,
        "ondemand_usd_h": od,
        "spot_usd_h": spot,
        "cpu_arch": "arm64" if arch == "arm" else None,
        "source": source,
        "data_date": data_date.isoformat() if data_date else None,
        "data_date_note": (
            f"collected {data_date.isoformat()} (gpuhunt catalog version {version})"
            if data_date
            else f"gpuhunt catalog version {version}: collection date not stated"
        ),
        "snapshot": "current",
        "quirks": _price_quirks(g["od"], od, spot) + _hardware_quirks(g["vendor"], gpu, arch, fraction),
    }


def offers_from_fetched(f: Fetched) -> list[dict[str, Any]]:
    items = read_items(f.provider, f.csv_text, f.url)
    offers = to_offers(items, f.provider, f.version, f.url, version_date(f.version))
    if not offers:
        raise PriceUpdateError(f"{f.url}: no GPU offers in the {f.provider} catalog (wrong file or format?)")
    return offers


def offers_from_csv_text(text: str, provider: str, where: str, data_date: dt.date | None) -> list[dict[str, Any]]:
    items = read_items(provider, text, where)
    label = data_date.isoformat() if data_date else "file"
    return to_offers(items, provider, label, where, data_date)
