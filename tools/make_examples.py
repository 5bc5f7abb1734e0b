"""Write examples/*.rigplan from real catalog parts (ids below), so the examples stay reproducible.

python tools/make_examples.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))

from rigplan.catalog import Catalog, load_catalog  # noqa: E402
from rigplan.files import save  # noqa: E402
from rigplan.model import Assumptions, Build, BuildItem  # noqa: E402

# (file stem, build name, notes, [(id prefix, quantity)], assumption overrides)
EXAMPLES = [
    (
        "budget-1-gpu",
        "Budget single-GPU learner",
        "A first deep-learning box: one 16 GB RTX 4060 Ti on AM5, with room for a second drive.",
        [
            ("6b03b443", 1),  # AMD Ryzen 5 7600
            ("1418de1e", 1),  # Thermalright Peerless Assassin 120 SE V3
            ("0246829c", 1),  # Asus PRIME B650-PLUS WIFI
            ("0610c605", 1),  # TEAMGROUP T-Force Vulcan Eco DDR5-6000 32GB (2x16GB)
            ("057bb908", 1),  # Lexar NM710 1TB NVMe
            ("5dc81d44", 1),  # MSI GeForce RTX 4060 Ti VENTUS 2X BLACK 16G OC
            ("7e93a614", 1),  # Thermaltake Toughpower GF2 ARGB 650W 80+ Gold (2 EPS cables for the board's 2 sockets)
            ("0b37c59c", 1),  # Antec FLUX SE ATX Mid Tower
        ],
        {},
    ),
    (
        "2x-rtx-4090",
        "2x RTX 4090 workstation",
        "Two 24 GB RTX 4090 Founders Edition cards on X670E (x8/x8), 128 GB DDR5, 1600 W Titanium PSU, full tower.",
        [
            ("63f23f26", 1),  # AMD Ryzen 9 7950X
            ("1418de1e", 1),  # Thermalright Peerless Assassin 120 SE V3
            ("7288ca72", 1),  # Asus ROG STRIX X670E-A GAMING WIFI
            ("1f62aa5b", 2),  # G.Skill Ripjaws S5 DDR5-6000 64GB (2x32GB), two kits
            ("060a50e7", 1),  # Samsung 990 Pro w/Heatsink 2TB
            ("7b22a20f", 2),  # NVIDIA Founders Edition GeForce RTX 4090 (3 slots)
            ("da1773b7", 1),  # ADATA XPG FUSION 1600W 80+ Titanium (2x 16-pin)
            ("79e38fa7", 1),  # Antec Performance 1 FT Full Tower (8 slots, EATX)
        ],
        {},
    ),
    (
        "4-gpu-threadripper",
        "4-GPU Threadripper workstation",
        "Four 2-slot RTX A4500 (20 GB) blowers on TRX40 with 64 CPU lanes, 128 GB DDR4, full tower with 8 slots.",
        [
            ("32aeba0c", 1),  # AMD Ryzen Threadripper 3960X
            ("1dc41387", 1),  # Noctua NH-U12S TR4-SP3 (158 mm)
            ("18d66e44", 1),  # Gigabyte TRX40 AORUS MASTER (EATX)
            ("30b2869a", 1),  # G.Skill Ripjaws V DDR4-3600 128GB (4x32GB)
            ("060a50e7", 1),  # Samsung 990 Pro w/Heatsink 2TB
            ("8490c035", 4),  # PNY RTX A4500 20GB
            ("da1773b7", 1),  # ADATA XPG FUSION 1600W 80+ Titanium (10x 6+2-pin)
            ("79e38fa7", 1),  # Antec Performance 1 FT Full Tower (8 slots, EATX)
        ],
        {},
    ),
]


# Broken builds, one per main rule: (rule id, base example, {kind: [(id prefix, qty)] replacing that kind},
# assumption overrides). `rigplan check` on each must exit 1 and name the rule (tests/test_check_cli.py).
BROKEN = [
    ("cpu-socket", "2x-rtx-4090", {"cpu": [("8f4be642", 1)]}, {}),  # AM4 Ryzen 7 5800X on an AM5 board
    # DDR5 kit in a DDR4 board (AM4 CPU and board, so the socket itself matches)
    ("memory-type", "budget-1-gpu", {"cpu": [("8f4be642", 1)], "motherboard": [("18daa624", 1)]}, {}),
    ("gpu-length", "2x-rtx-4090", {"case": [("6bccc006", 1)]}, {}),  # 304 mm cards, 241 mm Silverstone CS380
    # 4x RTX 4090 on a 1000 W PSU
    ("psu-wattage", "4-gpu-threadripper", {"gpu": [("20543e00", 4)], "psu": [("33e96b5a", 1)]}, {}),
    # four 16-pin cards on a PSU with one 16-pin and three 6+2-pin cables
    ("psu-pcie-connectors", "4-gpu-threadripper", {"gpu": [("20543e00", 4)], "psu": [("175bcd75", 1)]}, {}),
    ("cooler-height", "budget-1-gpu", {"case": [("6bccc006", 1)]}, {}),  # 155 mm cooler, 146 mm limit
    ("cooler-socket", "budget-1-gpu", {"cooler": [("03f70afc", 1)]}, {}),  # cooler without AM5 support
    ("board-form-factor", "4-gpu-threadripper", {"case": [("00db095c", 1)]}, {}),  # EATX board, ATX case
    ("gpu-slots", "budget-1-gpu", {"gpu": [("5dc81d44", 2)]}, {}),  # two GPUs, one x16 slot
    ("memory-slots", "budget-1-gpu", {"memory": [("0610c605", 3)]}, {}),  # six modules, four slots
    ("storage-m2", "budget-1-gpu", {"storage": [("96a56703", 3)]}, {}),  # three M.2 drives, two slots
    # 4x RTX 4090 on a 2800 W PSU: the PSU copes, a 120 V / 15 A circuit does not
    ("wall-circuit", "4-gpu-threadripper", {"gpu": [("20543e00", 4)], "psu": [("937dd5fa", 1)]}, {}),
    ("cpu-igpu", "4-gpu-threadripper", {"gpu": []}, {}),  # Threadripper has no graphics, and no GPU chosen
]


def find(catalog: Catalog, prefix: str):
    hits = [catalog.get(pid) for t in catalog.tables.values() for pid in t.ids if pid.startswith(prefix)]
    if len(hits) != 1 or hits[0] is None:
        raise SystemExit(f"id prefix {prefix!r} matches {len(hits)} parts")
    return hits[0]


def main() -> int:
    catalog = load_catalog(ROOT / "parts")
    out = ROOT / "examples"
    out.mkdir(exist_ok=True)
    bases: dict[str, Build] = {}
    for stem, name, notes, items, overrides in EXAMPLES:
        build = Build(
            name=name,
            notes=notes,
            items=tuple(BuildItem(part=find(catalog, pid), quantity=q) for pid, q in items),
            assumptions=Assumptions(**overrides),
        )
        path = out / f"{stem}.rigplan"
        save(build, path, keep_backup=False)
        print(f"wrote {path.relative_to(ROOT)}")
        bases[stem] = build
    broken = out / "broken"
    broken.mkdir(exist_ok=True)
    for rule, base, swaps, overrides in BROKEN:
        b = bases[base]
        items = [i for i in b.items if i.part.kind.value not in swaps]
        for parts in swaps.values():
            items += [BuildItem(part=find(catalog, pid), quantity=q) for pid, q in parts]
        build = Build(
            name=f"Broken: {rule}",
            notes=f"{b.name} with one change that breaks the {rule} rule (tests/test_check_cli.py).",
            items=tuple(items),
            assumptions=b.assumptions.model_copy(update=overrides),
        )
        path = broken / f"{rule}.rigplan"
        save(build, path, keep_backup=False)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
