"""Tokens per second of a workload (docs/workload.md, "Speed"): training from FLOPs x a published utilisation,
decode from memory bandwidth and the bytes read per token, prefill from FLOPs. Every figure is an estimate and says
which constants made it."""

from __future__ import annotations

from dataclasses import dataclass

from rigplan.costs.perf import load_perf
from rigplan.model.workload import Strategy, Task
from rigplan.workload.hardware import Hardware
from rigplan.workload.memory import GIB, Setup, weight_bits
from rigplan.workload.models import ModelSpec, constant


@dataclass(frozen=True)
class Speed:
    tokens_per_s: float | None  # training tokens/s, or decode tokens/s (all sequences of the batch) for inference
    prefill_tokens_per_s: float | None  # inference only
    kind: str  # "estimate"
    basis: str


def train_flops_per_token(m: ModelSpec, s: Setup) -> float:
    """Model FLOPs per trained token: 6 N (forward 2 N, backward 4 N) for full training, 4 N with frozen weights
    (LoRA: no weight gradients), plus attention 12 L s d (PaLM, Chowdhery et al. 2022, appendix B)."""
    k = 6.0 if s.task is Task.FULL else 4.0
    return k * m.matmul_params + 12.0 * m.layers * s.seq * m.attn_dim


def _scaling(hw: Hardware) -> tuple[float, str]:
    scaling = load_perf().scaling
    sc = scaling.get(hw.interconnect) or scaling["pcie"]
    factor = sc.speedup(hw.count)
    return factor, f"{hw.count} GPUs give {factor:.2f}x one GPU ({sc.basis})"


def training_speed(m: ModelSpec, s: Setup, hw: Hardware) -> Speed:
    g = hw.gpu
    if not g.train_tflops:
        return Speed(None, None, "estimate", f"no tensor-core figure for the {g.name}: training speed unknown")
    mfu, mfu_src = constant("mfu_training")
    bits = [f"{g.train_tflops:g} TFLOPS ({g.source})", f"MFU {mfu:.2f} ({mfu_src})"]
    if s.task is Task.QLORA:
        f, src = constant("qlora_slowdown")
        mfu *= f
        bits.append(f"x {f:g} for 4-bit weights ({src})")
    flops = train_flops_per_token(m, s)
    per_gpu = g.train_tflops * 1e12 * mfu / flops
    if hw.count > 1 and s.strategy is not Strategy.SPLIT:
        factor, how = _scaling(hw)
        total = per_gpu * factor
        bits.append(how)
    else:
        total = per_gpu
        if hw.count > 1:
            bits.append("layers split across the GPUs run one after the other (no pipeline overlap)")
    basis = f"{flops / 1e9:.1f} GFLOP per token; " + "; ".join(bits)
    return Speed(total, None, "estimate", basis)


def inference_speed(m: ModelSpec, s: Setup, hw: Hardware) -> Speed:
    g = hw.gpu
    eff, eff_src = constant("decode_bandwidth_efficiency")
    t0_us, t0_src = constant("decode_layer_overhead_us")
    if not g.bandwidth_gbs:
        return Speed(None, None, "estimate", f"no memory bandwidth for the {g.name}: speed unknown")
    weight_bytes = m.active_params * weight_bits(s.weights) / 8
    kv_bytes = m.kv_bytes_per_token() * s.seq / 2 * s.batch  # on average half the context is in the cache
    step = (weight_bytes + kv_bytes) / (g.bandwidth_gbs * 1e9 * eff) + m.layers * t0_us * 1e-6
    copies = hw.count if s.strategy is Strategy.REPLICATE else 1
    decode = s.batch / step * copies
    prefill = None
    if g.infer_tflops:
        p_eff, _ = constant("prefill_efficiency")
        flops = 2.0 * m.matmul_params + 4.0 * m.layers * s.seq * m.attn_dim
        prefill = g.infer_tflops * 1e12 * p_eff / flops * copies
    where = (
        ""
        if hw.count == 1
        else (
            f"; {copies} copies" if copies > 1 else f"; layers split across {hw.count} GPUs, read one after the other"
        )
    )
    basis = (
        f"decode reads {weight_bytes / GIB:.1f} GB of weights"
        + (f" ({m.active_params / 1e9:.1f}B active parameters)" if m.experts > 1 else "")
        + f" and {kv_bytes / GIB:.2f} GB of KV cache per step at {g.bandwidth_gbs:g} GB/s x {eff:g} ({eff_src}), "
        f"plus {t0_us:g} us per layer ({t0_src}){where}; bandwidth: {g.source}"
    )
    return Speed(decode, prefill, "estimate", basis)


def speed(m: ModelSpec, s: Setup, hw: Hardware) -> Speed:
    return inference_speed(m, s, hw) if s.task is Task.INFERENCE else training_speed(m, s, hw)
