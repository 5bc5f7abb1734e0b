"""One workload on one machine: memory per GPU, the verdict (fits / fits with a named change / does not fit), speed
and hours per job."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rigplan.model.workload import (
    Engine,
    LoraTargets,
    Offload,
    Optimizer,
    Precision,
    Strategy,
    Task,
    Weights,
    WorkloadSpec,
)
from rigplan.workload.engines import SERVING, TRAINING, default_engine, engine_spec
from rigplan.workload.formats import fp8_native, weight_format
from rigplan.workload.hardware import Hardware
from rigplan.workload.memory import Memory, Setup, memory
from rigplan.workload.models import ModelSpec, WorkloadError, find_model
from rigplan.workload.speed import Speed, speed

FITS, FITS_WITH, NO_FIT, UNKNOWN = "fits", "fits-with-change", "does-not-fit", "memory-unknown"


@dataclass(frozen=True)
class Estimate:
    model: ModelSpec
    hardware: Hardware
    setup: Setup
    memory: Memory
    vram_gb: float | None
    fits: bool | None
    verdict: str  # FITS, FITS_WITH, NO_FIT, UNKNOWN
    change: str | None  # the change that makes it fit (verdict FITS_WITH)
    changed: Setup | None  # the setup after that change
    speed: Speed
    hours: float | None
    tokens: float | None
    notes: tuple[str, ...] = field(default=())
    reverse: dict[str, Any] = field(default_factory=dict)  # the questions asked the other way round

    @property
    def summary(self) -> str:
        need = f"{self.memory.total:.1f} GB per GPU"
        have = f"{self.vram_gb:g} GB" if self.vram_gb else "unknown memory"
        if self.verdict == FITS:
            return f"fits: {need} of {have}"
        if self.verdict == FITS_WITH:
            return f"does not fit as set ({need} of {have}); fits with: {self.change}"
        if self.verdict == UNKNOWN:
            return f"needs {need}; the GPU's memory is unknown"
        return f"does not fit: {need} of {have}, and no change of one or two options makes it fit"


def _check(spec: WorkloadSpec, engine: Engine) -> None:
    training = spec.task is not Task.INFERENCE
    if training and engine not in TRAINING:
        raise WorkloadError(f"--engine {engine.value} serves models; training engines: hf, torchtune, unsloth")
    if not training and engine not in SERVING:
        raise WorkloadError(f"--engine {engine.value} trains models; inference engines: hf, llama.cpp, vllm, tgi, "
                            "exllamav2, mlc")  # fmt: skip
    if spec.weights is not None and training and spec.weights is not Weights.FP8:
        raise WorkloadError("--weights applies to inference (and fp8 to full training); full and lora train bf16 "
                            "weights, qlora 4-bit (--lora-bits for others)")  # fmt: skip
    if spec.weights is not None and not training and engine not in weight_format(spec.weights, spec.bpw).engines:
        raise WorkloadError(f"--weights {spec.weights.value} is not a format {engine_spec(engine).label} loads")
    if spec.bpw is not None and spec.weights is not Weights.EXL2:
        raise WorkloadError("--bpw is the bits per weight of an EXL2 file: give --weights exl2")
    _check_options(spec, engine)


def _check_options(spec: WorkloadSpec, engine: Engine) -> None:
    """The options that apply to some tasks only: refused in one line elsewhere."""
    training = spec.task is not Task.INFERENCE
    lora_only = {"lora_bits": spec.lora_bits, "lora_rank": spec.lora_rank, "lora_targets": spec.lora_targets}
    given = [k for k, v in lora_only.items() if v is not None]
    if given and spec.task not in (Task.LORA, Task.QLORA):
        raise WorkloadError(f"--{given[0].replace('_', '-')} applies to lora and qlora")
    if spec.task is Task.QLORA and spec.lora_bits == 16:
        raise WorkloadError("qlora quantizes the base: --lora-bits 8, 4 or 2 (or --task lora for 16)")
    if not training and (spec.optimizer or spec.offload or spec.precision):
        raise WorkloadError("--optimizer, --offload and --precision apply to training")
    if training and (spec.kv_bits or spec.concurrent):
        raise WorkloadError("--kv-bits and --concurrent apply to inference")
    if spec.precision is not None and spec.task is not Task.FULL:
        raise WorkloadError("--precision applies to full fine-tuning (LoRA trains fp32 adapters)")
    if spec.strategy is Strategy.TENSOR and training and engine is not Engine.TORCHTUNE:
        raise WorkloadError("tensor-parallel training: torchtune (or Megatron-class trainers); give --engine torchtune")


def setup_for(spec: WorkloadSpec, m: ModelSpec, hw: Hardware) -> Setup:
    training = spec.task is not Task.INFERENCE
    engine = spec.engine or default_engine(spec.task)
    _check(spec, engine)
    context = m.context or spec.seq
    if spec.seq > context * (spec.rope_scaling or 1.0):  # --rope-scaling F stretches it (docs/workload.md)
        scaled = f" x {spec.rope_scaling:g} (RoPE scaling)" if spec.rope_scaling else ""
        raise WorkloadError(f"--seq {spec.seq} is longer than {m.name}'s context of {m.context} tokens{scaled}")
    weights = spec.weights or Weights.BF16
    ckpt = training if spec.checkpointing is None else spec.checkpointing
    strategy = spec.strategy or Strategy.REPLICATE
    lora_bits = spec.lora_bits or (4 if spec.task is Task.QLORA else 16)
    batch = spec.concurrent if (spec.concurrent and not training) else spec.batch
    precision = spec.precision or (Precision.FP8 if training and weights is Weights.FP8 else Precision.MIXED)
    s = Setup(spec.task, weights, spec.seq, batch, hw.count, strategy, ckpt, engine, spec.bpw, lora_bits,
              spec.lora_rank or 16, spec.lora_targets or LoraTargets.ALL_LINEAR, spec.optimizer or Optimizer.ADAMW,
              spec.offload or Offload.NONE, precision, spec.kv_bits or 16)  # fmt: skip
    if training:
        s = replace(s, weights=Weights.BF16)
    if spec.strategy is None and hw.count > 1 and not _fits(m, s, hw):
        s = replace(s, strategy=spread_for(s))
    return s


def spread_for(s: Setup) -> Strategy:
    """How the engine spreads one copy over several GPUs: llama.cpp and transformers split the layers (a
    pipeline), vLLM / TGI / MLC / ExLlamaV2 split every layer (tensor parallel); training shards (FSDP)."""
    if s.task is Task.INFERENCE:
        return engine_spec(s.engine).multi_gpu_serving
    return Strategy.SHARD


def _fits(m: ModelSpec, s: Setup, hw: Hardware) -> bool:
    return hw.gpu.vram_gb is not None and memory(m, s).total <= hw.gpu.vram_gb


def _changes(s: Setup, hw: Hardware, available: int) -> list[tuple[str, Setup]]:
    """Single changes to try, mildest first."""
    out: list[tuple[str, Setup]] = []
    training = s.task is not Task.INFERENCE
    if training and not s.checkpointing:
        out.append(("turn gradient checkpointing on", replace(s, checkpointing=True)))
    b = s.batch
    while b > 1:
        b //= 2
        out.append((f"micro-batch {b} (accumulate gradients for the same batch)" if training else f"batch {b}",
                    replace(s, batch=b)))  # fmt: skip
    spread = spread_for(s)
    if training and not engine_spec(s.engine).shards:
        spread = Strategy.SPLIT
    word = {Strategy.SPLIT: "split the layers", Strategy.TENSOR: "tensor parallel",
            Strategy.SHARD: "shard (FSDP / ZeRO-3)"}[spread]  # fmt: skip
    if s.gpus > 1 and s.strategy is Strategy.REPLICATE:
        out.append((f"{word} across the {s.gpus} GPUs", replace(s, strategy=spread)))
    for n in range(s.gpus + 1, available + 1):
        out.append((f"{word} across {n} GPUs", replace(s, gpus=n, strategy=spread)))
    if training and s.optimizer is Optimizer.ADAMW:
        out.append(("8-bit AdamW", replace(s, optimizer=Optimizer.ADAMW8BIT)))
    if s.task is Task.FULL:
        out.append(("LoRA instead of full fine-tuning", replace(s, task=Task.LORA, precision=Precision.MIXED)))
        out.append(("QLoRA (4-bit base weights)", replace(s, task=Task.QLORA, lora_bits=4, precision=Precision.MIXED)))
    elif s.task is Task.LORA and s.lora_bits == 16:
        out.append(("QLoRA (4-bit base weights)", replace(s, task=Task.QLORA, lora_bits=4)))
    elif s.task is Task.INFERENCE:
        for w in _smaller_formats(s):
            out.append((f"{w.value} weights", replace(s, weights=w, bpw=None)))
    if training and s.offload is Offload.NONE:
        out.append(("offload the optimizer to system RAM", replace(s, offload=Offload.OPTIMIZER)))
    if s.seq > 512:
        out.append((f"sequence length {s.seq // 2}", replace(s, seq=s.seq // 2)))
    return out


def _smaller_formats(s: Setup) -> list[Weights]:
    """Formats the engine loads that are smaller than the one set, largest first."""
    from rigplan.workload.formats import BEST_FIRST, SERVE_BEST_FIRST

    bits = weight_format(s.weights, s.bpw).linear_bits
    if s.engine is Engine.LLAMA_CPP:
        order: tuple[Weights, ...] = BEST_FIRST
    elif s.engine is Engine.EXLLAMAV2:
        order = ()
    elif s.engine is Engine.MLC:  # MLC's q8f16 / q4f16_1: 8 or 4 bits with an fp16 scale per 32, the nominal sizes
        order = (Weights.INT8, Weights.INT4)
    else:
        order = (*SERVE_BEST_FIRST, Weights.NF4) if s.engine is Engine.HF else SERVE_BEST_FIRST
    fits = [w for w in order if s.engine in weight_format(w).engines and weight_format(w).linear_bits < bits]
    return sorted(set(fits), key=lambda w: -weight_format(w).linear_bits)


def _first_fit(m: ModelSpec, s: Setup, hw: Hardware, available: int, vram: float) -> tuple[str, Setup] | None:
    """The mildest single change that fits, else the mildest pair (e.g. 4-bit weights and split across 2 GPUs)."""
    singles = _changes(s, hw, available)
    for text, alt in singles:
        if memory(m, alt).total <= vram:
            return text, alt
    for text, alt in singles:
        for text2, alt2 in _changes(alt, hw, available):
            if memory(m, alt2).total <= vram:
                return f"{text}, and {text2}", alt2
    return None


def estimate(spec: WorkloadSpec, hw: Hardware, available_gpus: int | None = None) -> Estimate:
    m = find_model(spec.model)
    s = setup_for(spec, m, hw)
    mem = memory(m, s)
    vram = hw.gpu.vram_gb
    change = changed = None
    if vram is None:
        verdict, fits = UNKNOWN, None
    elif mem.total <= vram:
        verdict, fits = FITS, True
    else:
        verdict, fits = NO_FIT, False
        found = _first_fit(m, s, hw, available_gpus or hw.count, vram)
        if found:
            verdict, (change, changed) = FITS_WITH, found
    run = s if fits else changed  # the speed of what would actually run
    used = replace(hw, count=run.gpus) if run is not None else hw
    sp = speed(m, run, used) if run is not None else Speed(None, None, "estimate", "does not fit: no speed")
    if verdict == FITS_WITH and change:
        sp = replace(sp, basis=f"with the change ({change}): {sp.basis}")
    hours = None
    if spec.tokens is not None and sp.tokens_per_s:
        hours = spec.tokens / sp.tokens_per_s / 3600
    notes = list(hw.notes) + _notes(m, run or s, memory(m, run) if run else mem, hw)
    return Estimate(m, hw, s, mem, vram, fits, verdict, change, changed, sp, hours, spec.tokens, tuple(notes),
                    _reverse(m, s, hw))  # fmt: skip


def _reverse(m: ModelSpec, s: Setup, hw: Hardware) -> dict[str, Any]:
    """The longest context that fits as set; for inference the best format that fits, and llama.cpp's layers on the
    GPUs with the rest in system RAM when the model does not fit them (rigplan.workload.reverse)."""
    from rigplan.workload.reverse import best_format, cpu_offload, longest_context, most_requests

    vram = hw.gpu.vram_gb
    if vram is None:
        return {}
    out: dict[str, Any] = {"longest_context": longest_context(m, s, vram)}
    if s.task is Task.INFERENCE:
        best = best_format(m, s, vram)
        out["best_weights"] = best.value if best else None
        out["most_requests"] = most_requests(m, s, vram)  # of --seq tokens each, at once
        if s.engine is Engine.LLAMA_CPP and memory(m, s).total > vram:
            off = cpu_offload(m, s, hw, hw.ram_mts)
            if off is not None:
                out["cpu_offload"] = {"gpu_layers": off.gpu_layers, "layers": m.layers, "cpu_gb": r(off.cpu_gb),
                                      "tokens_per_s": r(off.tokens_per_s, 1), "basis": off.basis}  # fmt: skip
    return out


def _notes(m: ModelSpec, s: Setup, mem: Memory, hw: Hardware) -> list[str]:
    """What the user should know about the setup that runs: a nearly full card, FP8 without FP8 tensor cores, the
    host RAM that offload and Unsloth's checkpoints need against the machine's."""
    out: list[str] = []
    vram = hw.gpu.vram_gb
    if vram and 0.9 * vram < mem.total <= vram:
        out.append(f"{mem.total:.1f} of {vram:g} GB per GPU is over 90 %: the CUDA context, fragmentation and other "
                   "programs may not leave room; a smaller format, sequence or batch is safer")  # fmt: skip
    fp8 = s.weights is Weights.FP8 or s.precision is Precision.FP8
    if fp8 and not fp8_native(hw.gpu.name):
        out.append(
            f"the {hw.gpu.name} has no FP8 tensor cores (Ada, Hopper and newer have): FP8 weights are stored in "
            "8 bits and computed in 16 (vLLM's weight-only FP8), FP8 training runs at bf16 speed"
        )
    if mem.host_gb > 0:
        need = mem.host_gb * (s.gpus if s.strategy is Strategy.REPLICATE else 1)
        ram = hw.ram_gb
        if ram is None:
            out.append(f"needs {need:.0f} GB of system RAM (offloaded states or checkpoints); the machine's RAM is "
                       "unknown: not checked")  # fmt: skip
        elif need > ram:
            out.append(f"needs {need:.0f} GB of system RAM (offloaded states or checkpoints) but the machine has "
                       f"{ram:g} GB: does not run as set")  # fmt: skip
        else:
            out.append(f"uses {need:.0f} of {ram:g} GB of system RAM (offloaded states or checkpoints)")
    if s.engine is Engine.UNSLOTH and s.gpus > 1:
        out.append("Unsloth's open-source release trains on one GPU: the others run copies (data parallel) at most")
    return out


def r(v: float | None, nd: int = 2) -> float | None:
    return None if v is None else round(v, nd) + 0.0


def to_json(e: Estimate) -> dict[str, Any]:
    s = e.setup
    return {
        "model": {
            "id": e.model.id,
            "name": e.model.name,
            "params_b": r(e.model.params / 1e9),
            "source": e.model.source,
        },
        "task": s.task.value,
        "weights": s.weights.value if s.task is Task.INFERENCE else None,
        "seq": s.seq,
        "batch": s.batch,
        "checkpointing": s.checkpointing if s.task is not Task.INFERENCE else None,
        "optimizer": s.optimizer.value if s.task is not Task.INFERENCE else None,
        "offload": s.offload.value if s.task is not Task.INFERENCE else None,
        "precision": s.precision.value if s.task is Task.FULL else None,
        "lora": {"bits": s.lora_bits, "rank": s.lora_rank, "targets": s.lora_targets.value}
        if s.task in (Task.LORA, Task.QLORA)
        else None,
        "kv_bits": s.kv_bits if s.task is Task.INFERENCE else None,
        "hardware": e.hardware.label,
        "gpu": e.hardware.gpu.name,
        "gpus": s.gpus,
        "strategy": s.strategy.value,
        "vram_gb_per_gpu": e.vram_gb,
        "memory_gb_per_gpu": r(e.memory.total),
        "breakdown": {k: r(v) for k, v in e.memory.parts.items()},
        "fits": e.fits,
        "verdict": e.verdict,
        "change": e.change,
        "summary": e.summary,
        "engine": s.engine.value,
        "weights_format": weight_format(s.weights, s.bpw).label if s.task is Task.INFERENCE else None,
        "host_ram_gb": r(e.memory.host_gb),
        "tokens_per_s": r(e.speed.tokens_per_s, 1),
        "per_request_tokens_per_s": r(e.speed.per_request_tokens_per_s, 1),
        "ttft_s": r(e.speed.ttft_s, 3),
        "prefill_tokens_per_s": r(e.speed.prefill_tokens_per_s, 0),
        "speed_kind": e.speed.kind,
        "tokens": e.tokens,
        "hours": r(e.hours, 3),
        "basis": e.speed.basis,
        "notes": list(e.notes),
        **e.reverse,
    }
