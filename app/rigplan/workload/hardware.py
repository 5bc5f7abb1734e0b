"""The GPUs a workload runs on: the build's cards (catalog figures) or a cloud offer's (parts/models.yaml)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from rigplan.costs.perf import instance_model
from rigplan.model.build import Build
from rigplan.model.offers import Offer
from rigplan.model.parts import Gpu, Kind, Memory
from rigplan.workload.models import WorkloadError, workload_data


@dataclass(frozen=True)
class GpuSpec:
    name: str
    vram_gb: float | None
    bandwidth_gbs: float | None
    train_tflops: float | None  # dense tensor TFLOPS with FP32 accumulation (mixed-precision training)
    infer_tflops: float | None  # dense tensor TFLOPS with FP16 accumulation (prefill)
    data_centre: bool
    nvlink: bool
    source: str


@dataclass(frozen=True)
class Hardware:
    """n identical GPUs (a build with mixed cards is planned on its smallest, as frameworks do)."""

    label: str
    gpu: GpuSpec
    count: int
    interconnect: str  # a costs.perf scaling group: "pcie" (cards) or "sxm" (NVLink/NVSwitch modules in the cloud)
    notes: tuple[str, ...] = ()
    pcie_gen: float | None = None  # the GPUs' PCIe generation (None: 4.0 assumed, said in the basis)
    ram_gb: float | None = None  # system RAM of the build or instance (offload and CPU layers need it)
    nodes: int = 1  # instances of an offer working together (count is the GPUs of one)
    node_gbs: float | None = None  # the network between nodes, GB/s per direction (None: not published)
    ram_mts: int | None = None  # system RAM speed (llama.cpp layers on the CPU)


def _norm(s: str) -> str:
    return re.sub(r"[\s\-_]+", " ", s.lower()).strip()


@cache
def _table() -> dict[str, GpuSpec]:
    out: dict[str, GpuSpec] = {}
    for g in workload_data()["gpus"]:
        spec = GpuSpec(
            g["name"],
            g.get("vram"),
            g.get("bandwidth"),
            g.get("train"),
            g.get("fp16"),
            True,
            bool(g["nvlink"]),
            g["source"],
        )
        for n in [g["name"], *g.get("aliases", [])]:
            out[_norm(n)] = spec
    return out


def _rtx_rule(chip: str, gpu: Gpu) -> tuple[float | None, float | None, str]:
    """NVIDIA RTX cards (Turing to Blackwell) do 4x their non-tensor FP16 rate on tensor cores with FP16
    accumulation (RTX 4090: 4 x 82.6 = 330 TFLOPS, NVIDIA Ada whitepaper appendix; RTX 3090: 4 x 35.6 = 142,
    Ampere GA102 whitepaper); GeForce cards halve that with FP32 accumulation (4090: 165 TFLOPS), workstation cards
    do not (RTX A6000: 155)."""
    n = chip.lower()
    if not gpu.fp16_tflops or "rtx" not in n or "nvidia" not in (gpu.chipset_manufacturer or "nvidia").lower():
        return None, None, ""
    fp16 = 4 * gpu.fp16_tflops
    geforce = "geforce" in n or re.search(r"\brtx [2345]0\d0", n) is not None
    train = fp16 / 2 if geforce else fp16
    rule = "GeForce: FP32-accumulate rate is half" if geforce else "workstation card: full FP32-accumulate rate"
    return train, fp16, f"4 x {gpu.fp16_tflops:g} FP16 TFLOPS ({gpu.perf_source or 'catalog'}); {rule}"


def gpu_spec(gpu: Gpu) -> GpuSpec:
    chip = gpu.chipset or gpu.name
    known = _table().get(_norm(chip))
    if known:
        return known
    train, infer, rule = _rtx_rule(chip, gpu)
    src = gpu.perf_source or gpu.spec_source or "catalog"
    source = f"memory and bandwidth: {src}" + (f"; tensor TFLOPS: {rule}" if rule else "; no tensor-core figure")
    return GpuSpec(chip, gpu.vram_gb, gpu.memory_bandwidth_gbs, train, infer, False, False, source)


def build_hardware(build: Build, count: int | None = None) -> Hardware:
    cards: list[Gpu] = []
    for item in build.of_kind(Kind.GPU):
        assert isinstance(item.part, Gpu)
        cards += [item.part] * item.quantity
    if not cards:
        raise WorkloadError("the build has no GPU: add one to plan a workload")
    specs = [gpu_spec(g) for g in cards]
    notes: list[str] = []
    if len({s.name for s in specs}) > 1:
        notes.append("the build mixes GPUs: planned on the one with the least memory")
    smallest = min(specs, key=lambda s: s.vram_gb if s.vram_gb is not None else -1.0)
    n = len(cards)
    if count is not None:
        if count > n:
            raise WorkloadError(f"--gpus {count}: the build has {n} GPU{'s' if n > 1 else ''}")
        n = count
    kits = [(i.part, i.quantity) for i in build.of_kind(Kind.MEMORY) if isinstance(i.part, Memory)]
    ram = [k.capacity_gb * q for k, q in kits if k.capacity_gb]
    gens = [_pcie_gen(g.interface) for g in cards]
    gen = min((g for g in gens if g), default=None)
    speeds = [k.speed_mts for k, _ in kits if k.speed_mts]
    return Hardware(build.name, smallest, n, "pcie", tuple(notes), gen, sum(ram) if ram else None,
                    ram_mts=min(speeds) if speeds else None)  # fmt: skip


def _pcie_gen(interface: str | None) -> float | None:
    m = re.search(r"pcie\s*(\d(?:\.\d)?)", (interface or "").lower())
    return float(m.group(1)) if m else None


def offer_hardware(offer: Offer, count: int | None = None) -> Hardware:
    if offer.gpu_fraction:
        raise WorkloadError(f"{offer.id} rents a fraction of a GPU: no workload estimate for a slice")
    board = instance_model(offer)
    spec = _table().get(_norm(board or "")) or _table().get(_norm(offer.gpu_model or ""))
    if spec is None:
        raise WorkloadError(f"{offer.id}: no figures for its GPU ({offer.gpu_model or 'unknown'})")
    if offer.vram_gb_each and spec.vram_gb != offer.vram_gb_each:
        spec = GpuSpec(spec.name, offer.vram_gb_each, *_rest(spec))  # the offer states its own memory
    n = offer.gpu_count if count is None else count
    if n > offer.gpu_count:
        raise WorkloadError(f"--gpus {n}: {offer.instance_type} has {offer.gpu_count} GPU(s)")
    link = "sxm" if spec.nvlink and offer.gpu_count > 1 else "pcie"
    gen = 5.0 if any(k in spec.name.lower() for k in ("h100", "h200", "gh200", "b200", "b300", "l40s")) else 4.0
    if any(k in spec.name.lower() for k in ("v100", "k80", "m60", "p100", "t4", "p4")):
        gen = 3.0
    return Hardware(f"{offer.instance_type} ({offer.gpus_text})", spec, n, link, (), gen, offer.ram_gb,
                    1, node_network_gbs(offer.instance_type))  # fmt: skip


def node_network_gbs(instance_type: str) -> float | None:
    """The network between instances, GB/s per direction, where the provider publishes it (parts/models.yaml)."""
    nets = workload_data().get("node_network", {})
    gbps = nets.get(instance_type, {}).get("gbps")
    return gbps / 8 if gbps else None


def _rest(s: GpuSpec) -> tuple:
    return (s.bandwidth_gbs, s.train_tflops, s.infer_tflops, s.data_centre, s.nvlink, s.source)


def table_gpu(name: str) -> GpuSpec | None:
    """A data-centre or cloud GPU of parts/models.yaml by name or alias (A100, H100 SXM5, L40S...)."""
    return _table().get(_norm(name))
