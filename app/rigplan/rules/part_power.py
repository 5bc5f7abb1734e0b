"""Power figures per part: what each part draws at peak, idle and while training (basis in docs/checks.md)."""

from __future__ import annotations

import re

from rigplan.model.parts import Cooler, Cpu, Gpu, Memory, Motherboard, Storage
from rigplan.rules.platforms import platforms

# Training-load profile for running costs (docs/checks.md, "Two power figures"). A GPU kept busy by training runs
# below its board power on average: RigPlan takes 70 %, between two published measurements: a GTX 1070 Ti (180 W)
# + Pentium G4600 box drew about 180 W at the wall at peak training, which leaves the card about 60 % of its board
# power (thescinder.com, "I too built a rather decent deep learning rig for 900 quid", 2018), and an 8x H100 node
# peaked at 82 % of its rated power while training (Latif et al., arXiv 2412.08602, 2024). The CPU feeds data
# loaders: half its base power (TDP), not its boost.
TRAIN_GPU_SHARE = 0.70
TRAIN_CPU_SHARE = 0.50
VRM_LOSS = 0.10  # board voltage regulators lose about 10 % of what they feed the CPU


# --- per-part figures (peak W, idle W, training W); basis in docs/checks.md ----------------------------------------


def gpu_watts(gpu: Gpu) -> tuple[float, float, float]:
    """Board power at peak; idle 5 % of it within 7-30 W (TechPowerUp idle measurements: GTX 1070 Ti ~8 W, RTX
    4090 FE ~21 W); 75 % of it while training."""
    tdp = float(gpu.tdp_w or 0)
    if not tdp:
        return 0.0, 0.0, 0.0
    return tdp, min(30.0, max(7.0, 0.05 * tdp)), TRAIN_GPU_SHARE * tdp


# Sustained boost power as a multiple of TDP, where the maker's own figure (OpenDB's `ppt`) is missing.
# AMD: PPT = 1.35 x TDP on AM4/AM5 (AMD, "Socket power (PPT)" in Ryzen Master and the AM4/AM5 default limits:
# 65 W -> 88 W, 105 W -> 142 W, 170 W -> 230 W); Threadripper PPT equals TDP (280 W -> 280 W, 350 W -> 350 W).
# Intel 12th-14th gen and Core Ultra: PL2 253 W for 125 W K parts (i9-13900K), so 2.0 x; 10th/11th gen 250 W for
# 125 W (i9-10900K), 2.0 x; 6th-9th gen and HEDT: the datasheet default PL2 = 1.25 x PL1.
BOOST_FACTOR: dict[str, float] = {
    "AM4": 1.35,
    "AM5": 1.35,
    "sTR4": 1.0,
    "sTRX4": 1.0,
    "sTR5": 1.0,
    "sWRX8": 1.0,
    "LGA 1700": 2.0,
    "LGA 1851": 2.0,
    "LGA 1200": 2.0,
}
DEFAULT_BOOST_FACTOR = 1.25


def cpu_boost_w(cpu: Cpu) -> tuple[float, str] | None:
    """(sustained boost watts, where the figure comes from), or None when the CPU's power is unknown."""
    if cpu.boost_power_w:
        return float(cpu.boost_power_w), "maker's figure"
    if not cpu.tdp_w:
        return None
    sock = platforms().canonical_socket(cpu.socket) or ""
    factor = BOOST_FACTOR.get(sock, DEFAULT_BOOST_FACTOR)
    return cpu.tdp_w * factor, f"{factor:g} x TDP ({sock or 'unknown socket'} family rule)"


def cpu_watts(cpu: Cpu) -> tuple[float, float, float]:
    """Sustained boost at peak; idle and training from the TDP (docs/checks.md)."""
    boost = cpu_boost_w(cpu)
    tdp = float(cpu.tdp_w or 0)
    if boost is None or not tdp:
        return (boost[0] if boost else 0.0), 0.0, 0.0
    sock = platforms().socket(cpu.socket)
    apu = re.search(r"\d{4}G[E]?\b", cpu.name) is not None
    if sock and sock.hedt:
        idle = 0.2 * tdp  # Threadripper and Xeon W idle at 40-90 W (their I/O die and mesh stay awake)
    elif sock and sock.vendor == "AMD" and sock.name in {"AM4", "AM5"} and not apu:
        idle = max(15.0, 0.12 * tdp)  # Ryzen chiplet parts: the I/O die alone idles at about 15 W
    else:
        idle = max(3.0, 0.05 * tdp)  # monolithic desktop parts idle at a few watts
    return boost[0], idle, TRAIN_CPU_SHARE * tdp


def board_watts(board: Motherboard | None, socket: str | None) -> tuple[float, float]:
    """Board and chipset without the CPU's VRM losses: (load, idle)."""
    s = platforms().socket(board.socket if board and board.socket else socket)
    return (30.0, 20.0) if s and s.hedt else (10.0, 6.0)


def memory_watts(mem: Memory) -> tuple[float, float, float]:
    per = (6.0, 3.0) if mem.registered else (3.0, 1.0)
    n = mem.modules or 1
    return per[0] * n, per[1] * n, per[0] * n


def storage_watts(drive: Storage) -> tuple[float, float, float]:
    if (drive.storage_type or "").upper() == "HDD":
        return 8.0, 5.0, 6.0
    if drive.nvme or drive.is_m2:
        return 7.0, 0.5, 3.0
    return 3.0, 0.5, 2.0


def cooler_watts(cooler: Cooler | None) -> tuple[float, float, float]:
    if cooler is None:
        return 3.0, 0.7, 1.5  # a boxed cooler's fan
    fans = cooler.fan_count or (0 if cooler.fanless else 1)
    pump = 5.0 if cooler.water_cooled else 0.0
    return 3.0 * fans + pump, 0.7 * fans + pump, 1.5 * fans + pump


CASE_FANS = (9.0, 2.0, 4.5)  # three 120 mm fans at full, idle and training speed; the case data has no fan count
