"""Cloud GPU offers from the snapshots' cloud/ (tools/sources.py) into parts/cloud/offers.yaml (+ offers.json).

    python tools/import_cloud.py [--data DIR]

Current prices: the SkyPilot catalog (AWS, GCP, Lambda: v9, data after 2025-06; Azure: v6, date unknown). AWS comes
from aws_gpu_v9_complete.csv (every AWS GPU type and region of v9), which supersedes the AWS rows of the first
extraction and the g4dn/g5 rows of the earlier v7 compilation. Fractional-GPU types (g6f, gr6f: 1/8 to 1/2 of an
L4) are listed with `gpu_fraction` and a quirk, and get no speed (a slice's speed is not a GPU's). Historic snapshots
as separate dated offers: ec2instances.info 2017-10 (p2, g3, all regions, on-demand and reserved), AWS us-east-1 of
February 2022, and prices quoted in published user reports 2018-2022. Data quirks are flagged on each offer, never
hidden. Reproducible: same input, byte-identical output.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))

from rigplan.cloud.offers import OFFERS_FORMAT, write_compiled_offers  # noqa: E402
from rigplan.cloud.quirks import flag_estimated_speed  # noqa: E402
from rigplan.model.offers import Offer  # noqa: E402

SKYPILOT = "SkyPilot catalog (skypilot-org/skypilot-catalog), from provider price lists"
EC2INFO = "ec2instances.info 0.0.2 (PyPI), linux prices"
SEED = "AWS us-east-1 on-demand prices, Feb 2022 (table in a DCGAN-training comparison)"
QUOTED = "price quoted in a published desktop-vs-cloud user report"


def num(v: Any) -> float | None:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if x > 0 else None


def intval(v: Any) -> int | None:
    x = num(v)
    return int(x) if x else None


def quirks_for(ondemand: float | None, spot: float | None, note: str) -> list[str]:
    out = [q.strip() for q in note.split(";") if q.strip()] if note else []
    if ondemand and spot and spot > ondemand:
        out.append(f"spot price {spot:g} is above on-demand {ondemand:g} in the source")
    if ondemand and spot and spot == ondemand and "equals on-demand" not in note:
        out.append("spot price equals on-demand in the source: no real spot discount listed")
    if ondemand is None:
        out.append("no on-demand price in the source")
    return out


# Why the v9 rows are "after 2025-06": AWS p5.48xlarge is 55.04 $/h in us-east-1 there, 98.32 in the v7 snapshot, so
# the v9 catalog was taken after AWS's June 2025 P4/P5 price cut (tools/transcribed/cloud/SOURCE.md, "Dates"). The
# catalog commit's own date was not available offline.
V9_NOTE = "SkyPilot catalog v9 @2c3d7ea: taken after AWS's June 2025 GPU price cut; exact date unknown"
V6_NOTE = "SkyPilot catalog v6 @098741e (Azure): date unknown, older schema than v9"


# Azure sizes that rent a slice of one GPU though the catalog says "1" (Microsoft Learn, "NVv4-series": NV4as_v4
# 1/8 of a Radeon Instinct MI25 with 2 GiB, NV8as_v4 1/4 with 4 GiB, NV16as_v4 1/2 with 8 GiB, NV32as_v4 the whole
# GPU; "NVadsA10 v5-series": NV6ads 1/6 of an A10 with 4 GiB, NV12ads 1/3 with 8 GiB, NV18ads 1/2 with 12 GiB).
AZURE_SLICES: dict[str, tuple[float, float]] = {
    "Standard_NV4as_v4": (1 / 8, 2.0),
    "Standard_NV8as_v4": (1 / 4, 4.0),
    "Standard_NV16as_v4": (1 / 2, 8.0),
    "Standard_NV6ads_A10_v5": (1 / 6, 4.0),
    "Standard_NV12ads_A10_v5": (1 / 3, 8.0),
    "Standard_NV18ads_A10_v5": (1 / 2, 12.0),
}


def skypilot_rows(path: Path, skip_provider: str | None = None) -> tuple[list[dict[str, Any]], int]:
    out, fractional = [], 0
    with path.open(newline="", encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            if r["provider"] == skip_provider:
                continue
            share = float(r["gpu_count"] or 1) or 1.0  # GCP g4 rows say 0: GPU count unknown (flagged in the note)
            od, spot = num(r["ondemand_usd_hr"]), num(r["spot_usd_hr"])
            count = intval(r["gpu_count"]) or 1
            note = r["note"]
            if "AcceleratorCount=12" in note:
                count = 8  # the catalog's 12 is wrong; the quirk below says so
            extra: dict[str, Any] = {}
            vram = num(r["gpu_mem_gib_each"])
            sliced = []
            if r["provider"] == "azure" and r["instance_type"] in AZURE_SLICES:
                share, vram = AZURE_SLICES[r["instance_type"]]
                sliced = [
                    f"a {share:.3g} slice of one {r['gpu_model']} (Microsoft Learn: the catalog's 1 GPU is a share)"
                ]
            if share < 1:
                fractional += 1
                count, extra["gpu_fraction"] = 1, round(share, 6)
            if "Arm64" in note:
                extra["cpu_arch"] = "arm64"
            bound = r["data_date_lower_bound"]
            out.append(
                {
                    "provider": r["provider"],
                    "instance_type": r["instance_type"],
                    "region": r["region"],
                    "gpu_model": r["gpu_model"] or None,
                    "gpu_count": count,
                    "vram_gb_each": vram,
                    "vcpus": intval(r["vcpus"]),
                    "ram_gb": num(r["memory_gib"]),
                    "ondemand_usd_h": od,
                    "spot_usd_h": spot,
                    "source": f"{SKYPILOT}; {r['source']}",
                    "data_date": None,
                    "data_date_earliest": f"{bound}-01" if bound else None,
                    "data_date_note": V9_NOTE if bound else V6_NOTE,
                    "snapshot": "current",
                    "quirks": quirks_for(od, spot, note)
                    + sliced
                    + ([] if r["gpu_model"] else ["GPU model not in the catalog"]),
                    **extra,
                }
            )
    return out, fractional


def v7_rows(path: Path, have: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """Only the us-east-1 types the v9 extraction lacks (g4dn, g5, some g6e); p2 comes from the 2017 file and the
    p4d/p5 rows are pre-June-2025 prices already superseded by v9."""
    out = []
    with path.open(newline="", encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            if r["region"] != "us-east-1" or ("us-east-1", r["instance_type"]) in have:
                continue
            if not r["source"].startswith("skypilot"):
                continue
            od, spot = num(r["ondemand_usd_hr"]), num(r["spot_usd_hr_min"])
            out.append(
                {
                    "provider": "aws",
                    "instance_type": r["instance_type"],
                    "region": "us-east-1",
                    "gpu_model": r["gpu_model"],
                    "gpu_count": intval(r["gpu_count"]) or 1,
                    "vram_gb_each": num(r["gpu_mem_gib_each"]),
                    "vcpus": intval(r["vcpus"]),
                    "ram_gb": num(r["memory_gib"]),
                    "ondemand_usd_h": od,
                    "spot_usd_h": spot,
                    "source": f"{SKYPILOT}; {r['source']}",
                    "data_date": None,
                    "data_date_note": "about 2025-H1 (SkyPilot catalog v7 @001367d2; before AWS's June 2025 price cut)",
                    "snapshot": "current",
                    "quirks": quirks_for(od, spot, "older snapshot than the v9 rows (v9 extraction lacks this type)"),
                }
            )
    return out


GPU_2017 = {"p2": ("K80", 12), "g3": ("M60", 8)}


def ec2info_rows(path: Path) -> list[dict[str, Any]]:
    out = []
    for rec in json.loads(path.read_text("utf-8")):
        family = rec["instance_type"].split(".")[0]
        model, mem = GPU_2017[family]
        for region, prices in sorted(rec["pricing"].items()):
            linux = prices.get("linux") or {}
            res = linux.get("reserved") or {}
            od = num(linux.get("ondemand"))
            out.append(
                {
                    "provider": "aws",
                    "instance_type": rec["instance_type"],
                    "region": region,
                    "gpu_model": model,
                    "gpu_count": int(rec["GPU"]),
                    "vram_gb_each": mem,
                    "vcpus": int(rec["vCPU"]),
                    "ram_gb": float(rec["memory"]),
                    "ondemand_usd_h": od,
                    "spot_usd_h": None,
                    "reserved_1y_usd_h": num(res.get("yrTerm1Standard.noUpfront")),
                    "reserved_3y_usd_h": num(res.get("yrTerm3Standard.noUpfront")),
                    "source": EC2INFO,
                    "data_date": "2017-10-09",
                    "data_date_note": "2017-10-09 (package build date)",
                    "snapshot": "2017-10",
                    "quirks": ["historic price"]
                    + (
                        ["the p2 instance's 'GPU' is one of the two GK210 chips of a K80 board"]
                        if family == "p2"
                        else ["one of the two GM204 chips of an M60 board"]
                    ),
                }
            )
    return out


def seed_rows(path: Path) -> list[dict[str, Any]]:
    out = []
    with path.open(newline="", encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            n = int(r["gpus"])
            out.append(
                {
                    "provider": "aws",
                    "instance_type": r["instance_type"],
                    "region": "us-east-1",
                    "gpu_model": r["gpu_model"],
                    "gpu_count": n,
                    "vram_gb_each": round(float(r["gpu_mem_gib_total"]) / n, 2),
                    "vcpus": int(r["vcpus"]),
                    "ram_gb": float(r["memory_gib"]),
                    "ondemand_usd_h": num(r["ondemand_usd_hr"]),
                    "spot_usd_h": None,
                    "source": SEED,
                    "data_date": r["data_date"],
                    "data_date_note": r["data_date"],
                    "snapshot": "2022-02",
                    "quirks": ["historic price"],
                }
            )
    return out


def quoted_rows(path: Path) -> list[dict[str, Any]]:
    out = []
    with path.open(newline="", encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            n = int(r["accelerators"])
            region = r["region"]
            quirks = ["historic price", QUOTED]
            if "(assumed)" in region or "unknown" in region:
                quirks.append(f"region as given by the report: {region}")
            if r["accelerator_model"] == "Gaudi":
                quirks.append("Habana Gaudi accelerators, not GPUs: no GPU speed figure applies")
            if r["note"]:
                quirks.append(r["note"])
            od, spot = num(r["ondemand_usd_hr"]), num(r["spot_usd_hr"])
            if od and spot and abs(spot - 0.3 * od) <= 0.006:
                # Every Feb 2022 spot figure is 30 % of on-demand to the cent (0.27/0.90, 2.16/7.20, 0.92/3.06,
                # 3.67/12.24, 3.93/13.11): the author's estimate, not observed spot prices (cloud/SOURCE.md).
                quirks.append("spot price is exactly 30 % of on-demand: the report author's estimate, not a quote")
            if od and spot and spot == od:
                quirks.append("spot price equals on-demand in the source: no real spot discount listed")
            out.append(
                {
                    "provider": "aws",
                    "instance_type": r["instance_type"],
                    "region": region.replace(" (assumed)", "") if "(assumed)" in region else region,
                    "gpu_model": r["accelerator_model"],
                    "gpu_count": n,
                    "vram_gb_each": round(float(r["accel_mem_gib_total"]) / n, 2),
                    "vcpus": int(r["vcpus"]),
                    "ram_gb": float(r["memory_gib"]),
                    "ondemand_usd_h": od,
                    "spot_usd_h": spot,
                    "source": QUOTED,
                    "data_date": r["data_date"],
                    "data_date_note": r["data_date"],
                    "snapshot": f"quoted {r['data_date']}",
                    "quirks": quirks,
                }
            )
    return out


def flag_odd_memory_prices(rows: list[dict[str, Any]]) -> None:
    """An 80 GB A100 (or H100) VM priced below the 40 GB one of the same provider, region, snapshot and GPU count is
    odd (the larger memory costs more everywhere else): flagged on both, kept as listed."""
    pairs = {"A100-80GB": "A100"}
    index: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in rows:
        index.setdefault((r["provider"], r["region"], r["snapshot"], r["gpu_count"], r["gpu_model"]), r)
    for r in rows:
        small = pairs.get(r["gpu_model"] or "")
        if not small:
            continue
        other = index.get((r["provider"], r["region"], r["snapshot"], r["gpu_count"], small))
        if (
            other
            and r.get("ondemand_usd_h")
            and other.get("ondemand_usd_h")
            and r["ondemand_usd_h"] < other["ondemand_usd_h"]
        ):
            msg = (
                f"odd price: {r['instance_type']} ({r['gpu_count']}x {r['gpu_model']}, {r['ondemand_usd_h']:g}/h) is "
                f"cheaper than {other['instance_type']} ({other['gpu_count']}x {small}, {other['ondemand_usd_h']:g}/h) "
                "in the same region"
            )
            r["quirks"] = [*r["quirks"], msg]
            other["quirks"] = [*other["quirks"], msg]


def offer_id(r: dict[str, Any]) -> str:
    base = f"{r['provider']}:{r['instance_type']}:{r['region']}"
    return base if r["snapshot"] == "current" else f"{base}@{r['snapshot'].replace('quoted ', 'quoted-')}"


def main() -> int:
    from sources import data_dir  # the cache of tools/fetch_sources.py, or a local mirror

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, help="the source snapshots (default: see tools/sources.py)")
    ap.add_argument("--out", type=Path, default=ROOT / "parts" / "cloud")
    a = ap.parse_args()
    cloud = (a.data or data_dir()) / "cloud"
    rows, _ = skypilot_rows(cloud / "gpu_instances_skypilot_catalog.csv", skip_provider="aws")
    aws, fractional = skypilot_rows(cloud / "aws_gpu_v9_complete.csv")
    rows += aws
    have = {(r["region"], r["instance_type"]) for r in rows if r["provider"] == "aws"}
    rows += v7_rows(cloud / "aws_us-east-1_gpu_instances_skypilot-v7_compiled.csv", have)
    rows += ec2info_rows(cloud / "ec2instances.info-0.0.2_2017-10_gpu_instances.json")
    rows += seed_rows(cloud / "seed_2022_us-east-1.csv")
    rows += quoted_rows(cloud / "quoted_prices_2018-2022.csv")
    flag_odd_memory_prices(rows)
    estimated = flag_estimated_speed(rows, ROOT / "parts" / "gpu_perf.yaml")
    offers: dict[str, dict[str, Any]] = {}
    dupes = 0
    for r in rows:
        r["id"] = offer_id(r)
        if r["id"] in offers:
            dupes += 1
            r["id"] += f"#{dupes}"
        Offer.model_validate(r)  # fail the import, not the app, on a bad row
        offers[r["id"]] = {k: v for k, v in r.items() if v is not None and v != []}
    ordered = [offers[k] for k in sorted(offers)]
    a.out.mkdir(parents=True, exist_ok=True)
    header = (
        "# RigPlan cloud GPU offers. Generated by tools/import_cloud.py from SkyPilot's catalog\n"
        "# (provider price lists), ec2instances.info (MIT) and dated 2017-2022 price quotes.\n"
        "# Prices in USD per instance-hour.\n"
    )
    # libyaml's safe dumper when PyYAML has it: the same text as yaml.safe_dump, in about a fifth of the time.
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    doc = {"format": OFFERS_FORMAT, "offers": ordered}
    body = yaml.dump(doc, Dumper=dumper, sort_keys=False, allow_unicode=True, width=200)
    (a.out / "offers.yaml").write_text(header + body, encoding="utf-8")
    write_compiled_offers(a.out)
    by = {}
    for o in ordered:
        by[(o["provider"], o["snapshot"])] = by.get((o["provider"], o["snapshot"]), 0) + 1
    print(
        f"wrote {len(ordered)} offers to {a.out / 'offers.yaml'} (duplicate ids suffixed: {dupes}; "
        f"fractional-GPU rows: {fractional}; offers with an estimated speed: {estimated})"
    )
    for (prov, snap), n in sorted(by.items()):
        print(f"  {prov:7} {snap:20} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
