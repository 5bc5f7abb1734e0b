"""The questions asked the other way round (docs/workload.md, "Reverse questions"), as VRAM calculators answer them
(gollama's estimator, Unsloth's and koboldcpp's fit checks): the longest context that fits the GPUs, the best weight
format that fits, and for llama.cpp how many layers fit on the GPUs with the rest in system RAM, and what that does
to tokens per second."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rigplan.model.workload import MAX_SEQ, Engine, Strategy, Task, Weights
from rigplan.workload.formats import BEST_FIRST, SERVE_BEST_FIRST, weight_format
from rigplan.workload.hardware import Hardware
from rigplan.workload.memory import GIB, Setup, kv_cache_bytes, memory, weight_bytes
from rigplan.workload.models import ModelSpec, constant

# llama.cpp on the CPU reads its layers from system RAM at about 60 % of the memory's theoretical bandwidth (estimate:
# llama.cpp's CPU decode discussions report 50-70 % on dual-channel DDR4/DDR5 desktops); two channels of 8 bytes at
# the modules' MT/s when the board's channel count is not known.
CPU_BANDWIDTH_EFFICIENCY = 0.6


def longest_context(m: ModelSpec, s: Setup, vram: float) -> int | None:
    """The longest sequence (context) that fits `vram` GB per GPU with everything else as set; None if even one token
    does not."""
    if memory(m, replace(s, seq=1)).total > vram:
        return None
    lo, hi = 1, MAX_SEQ
    if memory(m, replace(s, seq=hi)).total <= vram:
        return hi
    while hi - lo > 1:  # about 20 sizings
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if memory(m, replace(s, seq=mid)).total <= vram else (lo, mid)
    return lo


def most_requests(m: ModelSpec, s: Setup, vram: float) -> int | None:
    """The most requests of the setup's length served at once that fit (their KV caches beside the weights)."""
    from rigplan.model.workload import MAX_BATCH

    if memory(m, replace(s, batch=1)).total > vram:
        return None
    lo, hi = 1, MAX_BATCH
    if memory(m, replace(s, batch=hi)).total <= vram:
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if memory(m, replace(s, batch=mid)).total <= vram else (lo, mid)
    return lo


def best_format(m: ModelSpec, s: Setup, vram: float) -> Weights | None:
    """The highest-quality weight format the engine loads that fits (inference)."""
    if s.engine is Engine.LLAMA_CPP:
        order: tuple[Weights, ...] = BEST_FIRST
    elif s.engine is Engine.MLC:
        order = (Weights.BF16, Weights.INT8, Weights.INT4)
    else:
        order = (*SERVE_BEST_FIRST, Weights.NF4)
    for w in order:
        if s.engine in weight_format(w).engines and memory(m, replace(s, weights=w, bpw=None)).total <= vram:
            return w
    return None


@dataclass(frozen=True)
class CpuOffload:
    gpu_layers: int  # of m.layers
    cpu_gb: float  # weights left in system RAM
    tokens_per_s: float | None  # decode with the CPU's share read from system RAM
    ram_gbs: float | None  # the system RAM bandwidth used
    basis: str


def cpu_offload(m: ModelSpec, s: Setup, hw: Hardware, ram_mts: int | None, channels: int = 2) -> CpuOffload | None:
    """llama.cpp's -ngl: the layers that fit the GPUs (each with its weights and KV cache), the rest on the CPU."""
    vram = hw.gpu.vram_gb
    if s.task is not Task.INFERENCE or vram is None:
        return None
    total = weight_bytes(m, s.weights, s.bpw)
    body = m.linear_params * weight_format(s.weights, s.bpw).linear_bits / 8  # the blocks: what -ngl moves
    kv = kv_cache_bytes(m, s.seq, s.batch, s.kv_bits)
    per_layer = (body + kv) / m.layers
    # embeddings, head, buffers and the CUDA context stay on the GPU (llama.cpp keeps the output layer there)
    fixed = memory(m, replace(s, gpus=1, strategy=Strategy.REPLICATE)).total * GIB - body - kv
    budget = vram * GIB * hw.count - fixed
    gpu_layers = max(0, min(m.layers, int(budget // per_layer)))
    cpu_bytes = (m.layers - gpu_layers) * body / m.layers
    if gpu_layers == m.layers or not hw.gpu.bandwidth_gbs:
        return CpuOffload(gpu_layers, cpu_bytes / GIB, None, None, "all layers fit the GPUs")
    eff, _ = constant("decode_bandwidth_efficiency")
    t0, _ = constant("decode_layer_overhead_us")
    ram_gbs = ram_mts * 8 * channels / 1000 if ram_mts else None
    if ram_gbs is None:
        return CpuOffload(gpu_layers, cpu_bytes / GIB, None, None, "system RAM speed unknown: tokens/s not estimated")
    active = m.active_linear_params / m.linear_params
    gpu_read = (total - cpu_bytes) * active / (hw.gpu.bandwidth_gbs * 1e9 * eff)
    cpu_read = cpu_bytes * active / (ram_gbs * 1e9 * CPU_BANDWIDTH_EFFICIENCY)
    step = gpu_read + cpu_read + m.layers * t0 * 1e-6
    basis = (
        f"{gpu_layers} of {m.layers} layers on the GPUs, {cpu_bytes / GIB:.1f} GB in system RAM read at "
        f"{ram_gbs:g} GB/s x {CPU_BANDWIDTH_EFFICIENCY} ({channels} channels of {ram_mts} MT/s; estimate)"
    )
    return CpuOffload(gpu_layers, cpu_bytes / GIB, s.batch / step, ram_gbs, basis)
