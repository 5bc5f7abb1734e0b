"""The reference answer for the build suggester: every combination of one part per kind (GPUs: 1 or 2 of one part)
on a reduced catalog (parts of the real one), each judged by check(). tests/test_suggest_bruteforce.py holds the
search's answers equal to it; benchmarks/suggest.py times it. Kept here, outside tests/, so the benchmark needs no
test module (and no pytest)."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from rigplan.catalog.loader import Catalog, load_catalog
from rigplan.costs.analysis import desktop_throughput
from rigplan.costs.perf import gpu_speed, load_perf
from rigplan.model.assumptions import Assumptions
from rigplan.model.build import Build, BuildItem
from rigplan.model.parts import Cpu, Gpu, Kind, Part
from rigplan.rules import check

A = Assumptions()
PERF = load_perf()


@dataclass(frozen=True)
class Row:
    total: float
    throughput: float
    vram: float
    count: int
    ram: float
    build: Build


def priced(catalog: Catalog, kind: Kind) -> list[Part]:
    return [p for p in catalog.of_kind(kind) if p.price is not None and p.price.currency == "USD"]


def reduced(seed: int, full: Catalog | None = None) -> list[Part]:
    """A small catalog that still has real conflicts: boards of two sockets and two memory types, CPUs of both
    sockets and one of another, GPUs of several lengths and powers, weak and strong PSUs, small and large cases.
    Drawn from `full` (default: the catalog in use, loaded for the purpose)."""
    full = load_catalog() if full is None else full
    rng = random.Random(seed)
    boards = rng.sample([b for b in priced(full, Kind.MOTHERBOARD) if b.socket and b.ram_type], 3)
    sockets = {b.socket for b in boards}
    cpus = [c for c in priced(full, Kind.CPU) if isinstance(c, Cpu)]
    parts: list[Part] = [*boards]
    parts += rng.sample([c for c in cpus if c.socket in sockets], min(3, len([c for c in cpus if c.socket in sockets])))
    parts += rng.sample([c for c in cpus if c.socket not in sockets], 1)
    types = {b.ram_type for b in boards}
    parts += rng.sample([m for m in priced(full, Kind.MEMORY) if m.ram_type in types], 3)
    gpus = [g for g in priced(full, Kind.GPU) if isinstance(g, Gpu) and gpu_speed(PERF, g)]
    parts += rng.sample(gpus, 3)
    for kind, n in ((Kind.STORAGE, 2), (Kind.PSU, 1), (Kind.CASE, 1), (Kind.COOLER, 2)):
        parts += rng.sample(priced(full, kind), n)
    # Two strong PSUs and two ATX cases so that most catalogs have valid builds, beside a random (often failing) one.
    parts += rng.sample([p for p in priced(full, Kind.PSU) if (getattr(p, "wattage", 0) or 0) >= 850], 2)
    atx = [c for c in priced(full, Kind.CASE) if "ATX" in (getattr(c, "motherboard_form_factors", None) or ())]
    parts += rng.sample(atx, 2)
    return parts


def brute_force(parts: list[Part]) -> list[Row]:
    """Every build of one board, CPU, memory kit, drive, PSU, case, cooler (or the CPU's own) and 1-2 of one GPU
    that passes check() with no errors."""
    by = {k: [p for p in parts if p.kind == k] for k in Kind}
    rows = []
    for board, cpu, mem, drive, psu, case, gpu, n in itertools.product(
        by[Kind.MOTHERBOARD], by[Kind.CPU], by[Kind.MEMORY], by[Kind.STORAGE], by[Kind.PSU], by[Kind.CASE],
        by[Kind.GPU], (1, 2),
    ):  # fmt: skip
        assert isinstance(cpu, Cpu) and isinstance(gpu, Gpu)
        coolers: list[Part | None] = [*by[Kind.COOLER], *([None] if cpu.includes_cooler else [])]
        for cooler in coolers:
            chosen = [board, cpu, mem, drive, psu, case, *([cooler] if cooler else [])]
            items = (BuildItem(part=gpu, quantity=n), *(BuildItem(part=p) for p in chosen))
            build = Build(items=items, assumptions=A)
            if not check(build).ok:
                continue
            tp, _, _ = desktop_throughput(build, PERF, A)
            assert tp is not None
            total = sum(p.price.amount for p in chosen if p.price) + n * gpu.price.amount  # type: ignore[union-attr]
            rows.append(Row(total, tp, (gpu.vram_gb or 0) * n, n, getattr(mem, "capacity_gb", 0) or 0, build))
    return rows
