"""Tokens per second of a workload (docs/workload.md, "Speed"): training from FLOPs x a published utilisation,
decode from memory bandwidth and the bytes read per token, prefill from FLOPs; tensor parallelism and offload add
their transfers over the links (rigplan.workload.parallel). Every figure is an estimate and says which constants
made it."""

from __future__ import annotations

from dataclasses import dataclass

from rigplan.costs.perf import load_perf
from rigplan.model.workload import Offload, Precision, Strategy, Task
from rigplan.workload.engines import engine_spec
from rigplan.workload.formats import fp8_native, weight_format
from rigplan.workload.hardware import Hardware
from rigplan.workload.memory import GIB, Setup, weight_bytes
from rigplan.workload.models import ModelSpec, constant
from rigplan.workload.parallel import allreduce_s, gpu_link, host_link_gbs


@dataclass(frozen=True)
class Speed:
    tokens_per_s: float | None  # training tokens/s, or decode tokens/s (all sequences of the batch) for inference
    prefill_tokens_per_s: float | None  # inference only
    kind: str  # "estimate"
    basis: str
    ttft_s: float | None = None  # inference: time to the first token of a prompt of the setup's length
    per_request_tokens_per_s: float | None = None  # inference: one request's decode speed in the batch


def train_flops_per_token(m: ModelSpec, s: Setup) -> float:
    """Model FLOPs per trained token: 6 N (forward 2 N, backward 4 N) for full training, 4 N with frozen weights
    (LoRA: no weight gradients), plus attention 12 L s d (PaLM, Chowdhery et al. 2022, appendix B)."""
    k = 6.0 if s.task is Task.FULL else 4.0
    return k * m.matmul_params + 12.0 * m.layers * s.seq * m.attn_dim


def _scaling(hw: Hardware, count: int) -> tuple[float, str]:
    scaling = load_perf().scaling
    sc = scaling.get(hw.interconnect) or scaling["pcie"]
    factor = sc.speedup(count)
    return factor, f"{count} GPUs give {factor:.2f}x one GPU ({sc.basis})"


def _offload_s_per_token(m: ModelSpec, s: Setup, hw: Hardware) -> tuple[float, str]:
    """Offload's transfers per trained token over the GPU's PCIe link: the gradients down and the weights up once per
    optimizer step (one step per micro-batch of every GPU: no gradient accumulation assumed), and with parameters
    offloaded the weights streamed in for the forward and the backward pass."""
    if s.offload is Offload.NONE:
        return 0.0, ""
    trainable = m.params if s.task is Task.FULL else m.lora_params(s.lora_rank)
    per_step = 4.0 * trainable / max(s.gpus, 1)  # bf16 gradients down, bf16 weights up, each GPU its share
    if s.offload is Offload.PARAMS:
        per_step += 2 * weight_bytes(m, s.weights) / max(s.gpus, 1) * (2 if s.task is not Task.FULL else 1)
    gbs = host_link_gbs(hw)
    t = per_step / (gbs * 1e9) / (s.batch * s.seq)
    return t, f"offload moves {per_step / GIB:.1f} GB per step over PCIe at {gbs:g} GB/s"


def training_speed(m: ModelSpec, s: Setup, hw: Hardware) -> Speed:
    g = hw.gpu
    if not g.train_tflops:
        return Speed(None, None, "estimate", f"no tensor-core figure for the {g.name}: training speed unknown")
    mfu, mfu_src = constant("mfu_training")
    bits = [f"{g.train_tflops:g} TFLOPS ({g.source})", f"MFU {mfu:.2f} ({mfu_src})"]
    if s.task is not Task.FULL and s.lora_bits < 16:
        f, src = constant("qlora_slowdown")
        mfu *= f
        bits.append(f"x {f:g} for quantized base weights ({src})")
    if s.precision is Precision.FP8:
        if fp8_native(g.name):
            f, src = constant("fp8_training_speedup")
            mfu *= f
            bits.append(f"x {f:g} for FP8 matrix multiplies ({src})")
        else:
            bits.append(f"no FP8 tensor cores on the {g.name} (Ada, Hopper and newer): bf16 speed")
    flops = train_flops_per_token(m, s)
    per_gpu_s = flops / (g.train_tflops * 1e12 * mfu)  # seconds per token on one GPU
    off_s, off_how = _offload_s_per_token(m, s, hw)
    n = hw.count
    if n > 1 and s.strategy is Strategy.TENSOR:
        link = gpu_link(hw)
        comm = 4 * m.layers * allreduce_s(link, n, 2.0 * m.hidden * s.batch * s.seq) / (s.batch * s.seq)
        total = 1.0 / (per_gpu_s / n + comm + off_s)
        bits.append(f"tensor parallel over {n} GPUs, 4 all-reduces a layer over {link.label}")
    elif n > 1 and s.strategy is not Strategy.SPLIT:
        factor, how = _scaling(hw, n)
        total = factor / (per_gpu_s + off_s)
        bits.append(how)
    else:
        total = 1.0 / (per_gpu_s + off_s)
        if n > 1:
            bits.append("layers split across the GPUs run one after the other (no pipeline overlap)")
    if off_how:
        bits.append(off_how)
    if hw.nodes > 1:
        total, how = _nodes(m, s, hw, total)
        bits.append(how)
    e = engine_spec(s.engine)
    basis = f"{e.label} ({e.attention}): {flops / 1e9:.1f} GFLOP per token; " + "; ".join(bits)
    return Speed(total, None, "estimate", basis)


def _nodes(m: ModelSpec, s: Setup, hw: Hardware, one: float) -> tuple[float, str]:
    """Data parallel across nodes: each node's speed, less the gradient all-reduce over the network per step (no
    overlap with compute assumed: a floor)."""
    if not hw.node_gbs:
        return (
            one * hw.nodes,
            f"{hw.nodes} nodes; the network between them is not published: linear scaling (a ceiling)",
        )
    trainable = m.params if s.task is Task.FULL else m.lora_params(s.lora_rank)
    step_tokens = s.batch * s.seq * hw.count
    compute = step_tokens / one
    comm = 2 * (hw.nodes - 1) / hw.nodes * 2.0 * trainable / (hw.node_gbs * 1e9)
    total = hw.nodes * step_tokens / (compute + comm)
    return total, f"{hw.nodes} nodes over {hw.node_gbs * 8:g} Gb/s: gradient all-reduce {comm * 1e3:.0f} ms per step"


def inference_speed(m: ModelSpec, s: Setup, hw: Hardware) -> Speed:
    g = hw.gpu
    eff, eff_src = constant("decode_bandwidth_efficiency")
    if not g.bandwidth_gbs:
        return Speed(None, None, "estimate", f"no memory bandwidth for the {g.name}: speed unknown")
    e = engine_spec(s.engine)
    fmt = weight_format(s.weights, s.bpw)
    t0_us = e.layer_us_quantized if fmt.quantized else e.layer_us_16bit
    n = hw.count
    tp = n if s.strategy is Strategy.TENSOR and n > 1 else 1
    w_bytes = weight_bytes(m, s.weights, s.bpw, active=True)
    kv_bytes = m.kv_bytes_for(s.seq, s.kv_bits / 8) / 2 * s.batch  # on average half the context is in the cache
    bw = g.bandwidth_gbs * 1e9 * eff
    step = (w_bytes + kv_bytes) / tp / bw + m.layers * t0_us * 1e-6
    where = ""
    link = gpu_link(hw) if n > 1 else None
    if tp > 1 and link:
        step += 2 * m.layers * allreduce_s(link, tp, 2.0 * m.hidden * s.batch)
        where = f"; tensor parallel over {tp} GPUs, 2 all-reduces a layer over {link.label}"
    elif n > 1:
        where = (
            f"; {n} copies"
            if s.strategy is Strategy.REPLICATE
            else f"; layers split across {n} GPUs, read one after the other"
        )
    copies = n if s.strategy is Strategy.REPLICATE else 1
    decode = s.batch / step * copies
    prefill = ttft = None
    if g.infer_tflops:
        p_eff, _ = constant("prefill_efficiency")
        flops = 2.0 * m.matmul_params + 4.0 * m.layers * s.seq * m.attn_dim
        per_token = flops / (g.infer_tflops * 1e12 * p_eff * tp)
        if tp > 1 and link:
            per_token += 2 * m.layers * 2 * (tp - 1) / tp * 2.0 * m.hidden / (link.gbs * 1e9)
        prefill = copies / per_token
        ttft = s.seq * per_token + step
    basis = (
        f"{e.label} ({e.attention}): decode reads {w_bytes / GIB:.1f} GB of weights ({fmt.label})"
        + (f" ({m.active_params / 1e9:.1f}B active parameters)" if m.experts > 1 else "")
        + f" and {kv_bytes / GIB:.2f} GB of KV cache per step at {g.bandwidth_gbs:g} GB/s x {eff:g} ({eff_src}), "
        f"plus {t0_us:g} us per layer ({e.source}){where}; bandwidth: {g.source}"
    )
    return Speed(decode, prefill, "estimate", basis, ttft, 1.0 / step)


def speed(m: ModelSpec, s: Setup, hw: Hardware) -> Speed:
    return inference_speed(m, s, hw) if s.task is Task.INFERENCE else training_speed(m, s, hw)
