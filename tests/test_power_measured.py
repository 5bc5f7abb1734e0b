"""RigPlan's power figures against published wall-power measurements (issue 11, item 8; issue 27).

Each row is a machine someone measured at the wall, rebuilt from catalog parts or custom parts with the makers'
figures. Parts the source does not name are filled with a common part of the time and marked as such; the tolerance
is +-25 %. A row RigPlan misses by more is kept as a known deviation (a strict expected failure, with the reason).
The table and its errors are in docs/cost-model.md ("Wall power: checked against measurements")"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rigplan.catalog import Catalog
from rigplan.model import Build, BuildItem, Kind
from rigplan.model.parts import Cpu, Gpu, Memory, Part, Psu, Storage
from rigplan.rules import estimate_power
from rigplan.rules.part_power import TRAIN_GPU_SHARE
from rigplan.rules.power import wall_watts

TOLERANCE = 0.25

# The Pentium G4600 is not in the catalog: Intel ARK, Pentium Gold G4600 (Kaby Lake, LGA1151, 2 cores, 51 W).
G4600 = Cpu(
    id="custom-pentium-g4600",
    name="Intel Pentium Gold G4600",
    custom=True,
    socket="LGA 1151",
    microarchitecture="Kaby Lake",
    cores=2,
    threads=4,
    tdp_w=51,
    includes_cooler=True,
)


# Intel ARK, Xeon W-2255 (Cascade Lake, LGA2066, 10 cores, 165 W): Puget's 4x RTX 3090 test system.
W2255 = Cpu(
    id="custom-xeon-w-2255",
    name="Intel Xeon W-2255",
    custom=True,
    socket="LGA2066",
    microarchitecture="Cascade Lake",
    cores=10,
    threads=20,
    tdp_w=165,
)


# Intel ARK, Core i7-965 Extreme Edition (Nehalem/Bloomfield, LGA1366, 4 cores, 130 W): Guru3D's 2012 GPU test system.
I7_965 = Cpu(
    id="custom-core-i7-965",
    name="Intel Core i7-965 Extreme Edition",
    custom=True,
    socket="LGA1366",
    microarchitecture="Nehalem",
    cores=4,
    threads=8,
    tdp_w=130,
)
# NVIDIA H100 SXM5 80 GB: 700 W board power (NVIDIA H100 datasheet, SXM form factor). Not a catalog part.
H100_SXM = Gpu(id="custom-h100-sxm5", name="NVIDIA H100 SXM5 80GB", custom=True, vram_gb=80, tdp_w=700)
# The HGX H100 node's CPUs are not named in the paper's abstract: two 4th-generation Xeon Platinum 8480+ (Intel ARK:
# 56 cores, 350 W), the pair NVIDIA's DGX H100 ships with, are assumed.
XEON_8480 = Cpu(
    id="custom-xeon-platinum-8480plus",
    name="Intel Xeon Platinum 8480+",
    custom=True,
    socket="LGA4677",
    microarchitecture="Sapphire Rapids",
    cores=56,
    threads=112,
    tdp_w=350,
)


# Tom's Hardware's September 2010 $400 System Builder Marathon PC; parts not in the catalog, from the makers' pages.
ATHLON_X3_440 = Cpu(  # AMD: Athlon II X3 440, AM3, 3 cores at 3.0 GHz, 95 W
    id="custom-athlon-ii-x3-440",
    name="AMD Athlon II X3 440",
    custom=True,
    socket="AM3",
    microarchitecture="K10",
    cores=3,
    threads=3,
    tdp_w=95,
    includes_cooler=True,
)
HD5670 = Gpu(  # AMD: Radeon HD 5670 (512 MB GDDR5), 61 W maximum board power
    id="custom-radeon-hd-5670", name="PowerColor AX5670 512MD5-H Radeon HD 5670", custom=True, vram_gb=0.5, tdp_w=61
)
DDR3_2X1GB = Memory(
    id="custom-crucial-ctkit12864ba1339",
    name="Crucial 2 GB (2 x 1 GB) DDR3-1333",
    custom=True,
    ram_type="DDR3",
    speed_mts=1333,
    modules=2,
    module_gb=1,
)
WD2500AAJS = Storage(
    id="custom-wd2500aajs", name="WD Caviar Blue WD2500AAJS 250 GB", custom=True, capacity_gb=250, storage_type="HDD"
)


# Tom's Hardware's June 2010 $550 System Builder Marathon PC.
ATHLON_X3_435 = Cpu(  # AMD: Athlon II X3 435, AM3, 3 cores at 2.9 GHz, 95 W
    id="custom-athlon-ii-x3-435",
    name="AMD Athlon II X3 435",
    custom=True,
    socket="AM3",
    microarchitecture="K10",
    cores=3,
    threads=3,
    tdp_w=95,
    includes_cooler=True,
)
HD5770 = Gpu(  # AMD: Radeon HD 5770 (1 GB GDDR5), 108 W maximum board power
    id="custom-radeon-hd-5770", name="PowerColor Radeon HD 5770 1GB", custom=True, vram_gb=1, tdp_w=108
)


# Intel ARK, Xeon Silver 4410T (Sapphire Rapids, LGA4677, 10 cores, 150 W): server-gear's 4x RTX 4090 server. The
# post writes "4110T" with "TDP 150W"; the 4110 is a 2017 LGA3647 part of 85 W, so the 150 W Sapphire Rapids part it
# means (the SYS-741GE takes 4th-generation Xeons) is used.
S4410T = Cpu(
    id="custom-xeon-silver-4410t",
    name="Intel Xeon Silver 4410T",
    custom=True,
    socket="LGA4677",
    microarchitecture="Sapphire Rapids",
    cores=10,
    threads=20,
    tdp_w=150,
)
# Supermicro SYS-741GE-TNRT, 2x Xeon Silver, 16x 32 GB DDR5-4800 RDIMM, 4x RTX 4090, two 1800 W Titanium units.
SERVER_GEAR: tuple[tuple[str, str | Part, int], ...] = (
    ("cpu", S4410T, 2),
    ("gpu", "7b22a20f", 4),  # NVIDIA Founders Edition GeForce RTX 4090 (450 W)
    ("memory", "d054a46a", 8),  # 8 kits of 2x 32 GB DDR5 for the 16 RDIMMs
    ("psu", "100fe6a2", 1),  # SeaSonic PRIME TX 1600 (80+ Titanium) for the two 1800 W Titanium units
)
SERVER_GEAR_SOURCE = (
    "server-gear.com, 'RTX4090 x4 gpu burn: power and Smart Power' (Supermicro SYS-741GE-TNRT, IPMI reading): "
)


OCAHOLIC_SOURCE = (
    "ocaholic.ch, GTX 980 SLI scaling with a Core i7-5820K at default clocks, conclusion page "
    "(ocaholic.ch/modules/smartsection/item.php?itemid=1523&page=20; 2014-2015, no date in the text read): "
)
OCAHOLIC_ASSUMED = (
    "'two custom GTX 980 graphics cards from ASUS': the STRIX taken (165 W, the reference figure); the load is the "
    "article's 'full load', not named in the text read; board, memory, drives and PSU not named (RigPlan's 80+ Gold "
    "default)"
)


@dataclass(frozen=True)
class Measured:
    source: str
    parts: tuple[tuple[str, str | Part, int], ...]  # (kind, id prefix or a Part, quantity)
    # "train" (wall watts while training), "burn" (GPUs held at board power: rendering, gpu-burn), "burn+cpu" (and
    # the CPUs at 100 %: the sustained worst case that sizes the PSU), "idle"
    profile: str
    watts: float
    assumed: str  # the parts the source does not name
    deviation: str | None = None  # a known miss beyond the tolerance, and why: the test is then an expected failure


# The GTX 1070 Ti + Pentium G4600 box (thescinder.com, 2018), with the parts the post does not name filled in.
THESCINDER: tuple[tuple[str, str | Part, int], ...] = (
    ("cpu", G4600, 1),
    ("gpu", "0a03c877", 1),  # PNY GeForce GTX 1070 Ti (180 W reference card)
    ("motherboard", "0d0a7a1a", 1),
    ("memory", "0ba91eb4", 1),
    ("storage", "b9c869ec", 1),
    ("psu", "054547e6", 1),
)

MEASUREMENTS = [
    Measured(
        "thescinder.com, 'I too built a rather decent deep learning rig for 900 quid' (2018): ~180 W at the wall "
        "at peak training",
        THESCINDER,
        "train",
        180.0,
        "board (a B250 micro-ATX), 2x8 GB DDR4, one SATA SSD and a 500 W 80+ Bronze unit: not named in the post",
    ),
    Measured(
        "same post: 27 W at the wall idle",
        THESCINDER,
        "idle",
        27.0,
        "as above",
    ),
    Measured(
        "twobiers.github.io, 'Do You Know the Power Intake of Your Computer?' (2023): 33 W at the wall idle, "
        "measured with a lab power analyser",
        (
            ("cpu", "ab9e5786", 1),  # AMD Ryzen 7 PRO 4750G
            ("gpu", "30e00ac2", 1),  # Radeon RX 6600 (132 W)
            ("motherboard", "1fb7745a", 1),  # ASUS TUF GAMING B550M-PLUS (WI-FI)
            ("memory", "0ba91eb4", 2),  # 2x16 + 2x8 GB DDR4 in the post: four modules
            ("storage", "b9c869ec", 1),  # Samsung 850 EVO
            ("psu", "054547e6", 1),
        ),
        "idle",
        33.0,
        "the PSU (a 500 W 80+ Bronze unit) and the memory kits' exact models",
    ),
    Measured(
        "Puget Systems (Matt Bach), 'Quad GeForce RTX 3090 in a desktop: does it work?' (2020-10, reported by The "
        "FPS Review 2020-10-22): 1,717 W peak at the wall with four Gigabyte RTX 3090 Turbo cards rendering "
        "(OctaneBench, V-Ray, Redshift) on one EVGA 1600 W unit (92 % efficiency), Xeon W-2255, ASUS WS C422 SAGE, "
        "128 GB DDR4-3200",
        (
            ("cpu", W2255, 1),
            ("gpu", "65adb256", 4),  # Gigabyte TURBO GeForce RTX 3090 24GB
            ("psu", "c3694cd5", 1),  # EVGA SuperNOVA 1600 P2 (80+ Platinum, the 92 % the post quotes)
        ),
        "burn",
        1717.0,
        "the board, memory and drives are not in the catalog: left out (about 50 W DC); the P2 as the 92 % unit",
    ),
    Measured(
        SERVER_GEAR_SOURCE + "about 2,080 W with gpu_burn on the four cards (about 450 W each), CPUs idle",
        SERVER_GEAR,
        "burn",
        2080.0,
        "one 80+ Titanium desktop unit stands for the two 1800 W server units; DDR5 desktop kits for the RDIMMs; "
        "the NVMe drive and the server's fans are not counted",
    ),
    Measured(
        SERVER_GEAR_SOURCE + "about 2,160 W with gpu_burn and stress-ng on every CPU core",
        SERVER_GEAR,
        "burn+cpu",
        2160.0,
        "as above",
    ),
    Measured(
        "Guru3D (Hilbert Hagedoorn), 'GeForce GTX 680 overclock guide', power consumption page (2012, "
        "guru3d.com/review/geforce-gtx-680-overclock-guide/page-3): 307 W at the wall socket with the reference GTX "
        "680 fully stressed and the processor not (their method), Core i7-965 Extreme on X58 at 3.75 GHz",
        (
            ("cpu", I7_965, 1),
            ("gpu", "684dcadc", 1),  # EVGA GeForce GTX 680 (195 W reference board power), the card at default clocks
        ),
        "burn",
        307.0,
        "board, memory, drives and PSU are not named: no PSU, so RigPlan's default (an 80+ Gold unit of the "
        "recommended size) applies; the CPU's 3.75 GHz overclock is not modelled",
    ),
    Measured(
        "Tom's Hardware, 'System Builder Marathon, Sept. 2010: $400 Gaming PC' (2010-09), power page "
        "(tomshardware.com/reviews/gaming-pc-build-a-pc-overclock,2739-15.html): peak 237 W input with FurMark and "
        "Prime95 loading the GPU and every CPU core; parts on the article's first page",
        (
            ("cpu", ATHLON_X3_440, 1),
            ("gpu", HD5670, 1),
            ("memory", DDR3_2X1GB, 1),
            ("storage", WD2500AAJS, 1),
            ("psu", "63efe17e", 1),  # Cooler Master Elite 460 W (no 80 PLUS rating in the data: RigPlan's 80 %)
        ),
        "burn+cpu",
        237.0,
        "the ASRock M3A770DE board is not in the catalog (RigPlan's board line applies); the article does not say "
        "whether 237 W is the stock machine or the undervolted one with a fourth core unlocked; the DVD drive is left "
        "out",
    ),
    Measured(
        "Tom's Hardware, 'System Builder Marathon, June 2010: $550 Gaming PC' (2010-06-17), power page "
        "(tomshardware.com/reviews/cpu-gpu-overclock,2659-14.html): 'barely consumes over 250W' at the AC source with "
        "FurMark and Prime95 loading every CPU and GPU core (stock clocks; under 300 W overclocked)",
        (
            ("cpu", ATHLON_X3_435, 1),
            ("gpu", HD5770, 1),
            ("memory", DDR3_2X1GB, 1),
            ("storage", WD2500AAJS, 1),
        ),
        "burn+cpu",
        250.0,
        "the Asus M4A77TD board is not in the catalog (RigPlan's board line applies); memory, drive and PSU are not "
        "in the text read: a 2x1 GB DDR3 kit and one hard drive stand in, no PSU (RigPlan's 80+ Gold default)",
    ),
    Measured(
        OCAHOLIC_SOURCE + "354 W from the wall under full load with one card",
        (("cpu", "69d0fa11", 1), ("gpu", "6b28af14", 1)),  # Core i7-5820K (140 W); Asus STRIX GTX 980 (165 W)
        "burn",
        354.0,
        OCAHOLIC_ASSUMED,
    ),
    Measured(
        OCAHOLIC_SOURCE + "515 W from the wall under full load with both cards in SLI",
        (("cpu", "69d0fa11", 1), ("gpu", "6b28af14", 2)),
        "burn",
        515.0,
        OCAHOLIC_ASSUMED,
    ),
    Measured(
        "Latif et al., 'Empirical Measurements of AI Training Power Demand on a GPU-Accelerated Node' (arXiv "
        "2412.08602, 2024-12; IEEE Access 2025): an 8-GPU NVIDIA H100 HGX node peaked at about 8.4 kW while "
        "training ResNet and Llama2-13b, with the GPUs near full utilization",
        (
            ("cpu", XEON_8480, 2),
            ("gpu", H100_SXM, 8),
        ),
        "train",
        8400.0,
        "the CPUs (two Xeon Platinum 8480+ assumed), memory, drives, NICs and PSUs are not named in the abstract",
        deviation=(
            "RigPlan under-reads an HGX node by about 40 %: it takes GPUs at 70 % of board power while training, and "
            "this node ran its H100s near full power; its NVSwitches, network adapters and chassis fans "
            "(the paper does not break them down) are not parts RigPlan knows. A desktop estimate, not a server model"
        ),
    ),
]


def _build(catalog: Catalog, m: Measured) -> Build:
    items = []
    for kind, ref, qty in m.parts:
        if isinstance(ref, str):
            table = catalog.table(Kind(kind))
            rows = [i for i, pid in enumerate(table.ids) if pid.startswith(ref)]
            assert len(rows) == 1, (kind, ref)
            part = table.part(rows[0])
        else:
            part = ref
        items.append(BuildItem(part=part, quantity=qty))
    return Build(name="measured", items=tuple(items))


def rigplan_wall_watts(catalog: Catalog, m: Measured) -> float:
    """RigPlan's wall figure for the measurement's load, through the build's PSU (or, with none, RigPlan's default:
    an 80+ Gold unit of the recommended size)."""
    build = _build(catalog, m)
    p = estimate_power(build)
    psu = build.first(Kind.PSU)
    unit = psu if isinstance(psu, Psu) else None
    if m.profile == "burn":  # GPUs at board power, the rest as while training
        return wall_watts(p.train_w + (1 - TRAIN_GPU_SHARE) * p.gpu_w, unit, p.recommended_psu_w)
    if m.profile == "burn+cpu":  # the sustained worst case: GPUs at board power, CPUs at sustained boost
        return wall_watts(p.load_w, unit, p.recommended_psu_w)
    return p.wall_load_w if m.profile == "train" else p.wall_idle_w


def _case(m: Measured) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=m.deviation)] if m.deviation else []
    return pytest.param(m, marks=marks, id=f"{m.profile}-{m.watts:g}W")


@pytest.mark.parametrize("m", [_case(m) for m in MEASUREMENTS])
def test_wall_power_matches_published_measurements(catalog: Catalog, m: Measured) -> None:
    got = rigplan_wall_watts(catalog, m)
    assert abs(got - m.watts) <= TOLERANCE * m.watts, f"{got:.0f} W vs {m.watts:g} W measured ({m.source})"


def test_enough_measurements_under_load_are_within_tolerance(catalog: Catalog) -> None:
    """Issue 27 asks for 8 published measurements under training or GPU burn within +-25 %; this pins how many there
    are (raise the floor as rows are added, never lower it) and that every known deviation is still outside."""
    loaded = [m for m in MEASUREMENTS if m.profile != "idle"]
    within = [m for m in loaded if abs(rigplan_wall_watts(catalog, m) - m.watts) <= TOLERANCE * m.watts]
    assert {m.source for m in within} == {m.source for m in loaded if not m.deviation}
    assert len(within) >= 9


def test_sizing_figure_is_the_worst_case_not_the_running_one(catalog: Catalog) -> None:
    """The PSU is sized for GPUs at board power and the CPU at sustained boost, far above the training draw."""
    p = estimate_power(_build(catalog, MEASUREMENTS[0]))
    assert p.load_w >= 180 + 51  # board power of the card + the CPU's boost (1.25x TDP on LGA1151)
    assert p.train_w < 0.8 * p.load_w
    assert p.sizing_w == pytest.approx(p.load_w + 0.25 * 180)  # not an ATX 3.x unit: GPU-spike margin
