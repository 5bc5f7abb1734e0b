"""Balance notes (issue 29): a build that fits and powers up can still be unbalanced for deep learning. These are
notes, never errors: each says both numbers and where the guidance comes from, and a value that is not known is
"not checked" with the reason. They write no errors, so they declare no facts and the "compatible only" filter
skips them (rules/rule.py).

Sources:
- RAM against GPU memory: Puget Systems, "Hardware Recommendations for Machine Learning / AI"
  (pugetsystems.com/solutions/ai-and-hpc-workstations/machine-learning-ai/hardware-recommendations/): system memory
  of at least the total GPU memory (they suggest about twice as much), so a whole model and its batches can be
  staged in RAM.
- CPU cores per GPU: the same Puget Systems page (a few cores per GPU for the data pipeline) and Tim Dettmers, "A
  Full Hardware Guide to Deep Learning" (timdettmers.com, 2018): data loading and preprocessing need about one to
  two cores per GPU; below two, a GPU can wait on its input.
- Four DDR5 DIMMs on AM5: AMD's Ryzen 7000/9000 product pages (amd.com, "Max. Memory Speed": 2x1R and 2x2R
  DDR5-5200, 4x1R and 4x2R DDR5-3600) rate two DIMMs per channel far below one; board makers' QVL lists say the
  same for four-DIMM kits. An EXPO profile of 6000 MT/s on four DIMMs is not what AMD rates.
"""

from __future__ import annotations

from rigplan.model.parts import Kind
from rigplan.rules.context import Ctx

AM5_TWO_PER_CHANNEL_MTS = 3600  # AMD: 4x1R / 4x2R DDR5-3600 (product pages, "Max. Memory Speed")
FAST_DDR5_MTS = 6000
MIN_CORES_PER_GPU = 2
PUGET = "Puget Systems, Hardware Recommendations for Machine Learning / AI"
DETTMERS = "Tim Dettmers, A Full Hardware Guide to Deep Learning (2018)"
AMD_SPEC = "AMD Ryzen 7000/9000 product pages, Max. Memory Speed: 4x1R/4x2R DDR5-3600"


def balance(c: Ctx) -> None:
    ram_vs_gpu_memory(c)
    cores_per_gpu(c)
    am5_four_dimms(c)


def ram_vs_gpu_memory(c: Ctx) -> None:
    if not c.gpus or not c.memory:
        return
    if any(m.capacity_gb is None for m, _ in c.memory) or any(g.vram_gb is None for g in c.gpus):
        c.unchecked("balance-ram", "a memory kit's capacity or a GPU's memory is unknown", (Kind.MEMORY, Kind.GPU))
        return
    ram = sum((m.capacity_gb or 0) * q for m, q in c.memory)
    vram = sum(g.vram_gb or 0 for g in c.gpus)
    if ram < vram:
        c.note(
            "balance-ram",
            f"{ram:g} GB of system RAM for {vram:g} GB of GPU memory: less RAM than the GPUs hold.",
            f"Plan at least {vram:g} GB of RAM (about {2 * vram:g} GB is the usual advice) so a model and its "
            f"batches can be staged in memory. Source: {PUGET}.",
            [*(m for m, _ in c.memory), *c.gpus],
            (Kind.MEMORY, Kind.GPU),
        )


def cores_per_gpu(c: Ctx) -> None:
    if not c.gpus or c.cpu is None:
        return
    if c.cpu.cores is None:
        c.unchecked("balance-cores", "the CPU's core count is unknown", (Kind.CPU,))
        return
    n = len(c.gpus)
    if c.cpu.cores < MIN_CORES_PER_GPU * n:
        c.note(
            "balance-cores",
            f"{c.cpu.cores} CPU cores for {n} GPUs: {c.cpu.cores / n:.1f} a GPU, under {MIN_CORES_PER_GPU}.",
            f"Data loading and preprocessing need one to two cores per GPU; with fewer a GPU can wait on its input. "
            f"Sources: {DETTMERS}; {PUGET}.",
            [c.cpu, *c.gpus],
            (Kind.CPU, Kind.GPU),
        )


def am5_four_dimms(c: Ctx) -> None:
    socket = (c.board.socket if c.board else None) or (c.cpu.socket if c.cpu else None)
    if not c.memory or (socket or "").upper() != "AM5":
        return
    if any(m.modules is None or m.speed_mts is None for m, _ in c.memory):
        c.unchecked("balance-am5-dimms", "a memory kit's module count or speed is unknown", (Kind.MEMORY,))
        return
    dimms = sum((m.modules or 0) * q for m, q in c.memory)
    fastest = max(m.speed_mts or 0 for m, _ in c.memory)
    if dimms >= 4 and fastest >= FAST_DDR5_MTS:
        c.note(
            "balance-am5-dimms",
            f"{dimms} DDR5 DIMMs at {fastest:,} MT/s on AM5: AMD rates four DIMMs (two per channel) at "
            f"{AM5_TWO_PER_CHANNEL_MTS:,} MT/s.",
            "Expect to run them slower than the kit's profile or to spend time on stability; two larger DIMMs "
            f"keep the rated speed. Source: {AMD_SPEC}; board makers' memory QVLs.",
            [m for m, _ in c.memory],
            (Kind.MEMORY,),
        )
