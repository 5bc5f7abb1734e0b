"""One workload on one machine: memory per GPU, the verdict (fits / fits with a named change / does not fit), speed
and hours per job."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rigplan.model.workload import Strategy, Task, Weights, WorkloadSpec
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


def setup_for(spec: WorkloadSpec, m: ModelSpec, hw: Hardware) -> Setup:
    training = spec.task is not Task.INFERENCE
    if spec.weights is not None and training:
        raise WorkloadError("--weights applies to inference; full and lora train bf16 weights, qlora 4-bit")
    if spec.seq > (m.context or spec.seq) and spec.model == m.id:
        raise WorkloadError(f"--seq {spec.seq} is longer than {m.name}'s context of {m.context} tokens")
    weights = spec.weights or Weights.BF16
    ckpt = training if spec.checkpointing is None else spec.checkpointing
    strategy = spec.strategy or Strategy.REPLICATE
    s = Setup(spec.task, weights, spec.seq, spec.batch, hw.count, strategy, ckpt)
    if spec.strategy is None and hw.count > 1 and not _fits(m, s, hw):
        s = replace(s, strategy=Strategy.SPLIT if spec.task is Task.INFERENCE else Strategy.SHARD)
    return s


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
    spread = Strategy.SPLIT if s.task is Task.INFERENCE else Strategy.SHARD
    word = "split the layers" if spread is Strategy.SPLIT else "shard (FSDP / ZeRO-3)"
    if s.gpus > 1 and s.strategy is Strategy.REPLICATE:
        out.append((f"{word} across the {s.gpus} GPUs", replace(s, strategy=spread)))
    for n in range(s.gpus + 1, available + 1):
        out.append((f"{word} across {n} GPUs", replace(s, gpus=n, strategy=spread)))
    if s.task is Task.FULL:
        out.append(("LoRA instead of full fine-tuning", replace(s, task=Task.LORA)))
        out.append(("QLoRA (4-bit base weights)", replace(s, task=Task.QLORA)))
    elif s.task is Task.LORA:
        out.append(("QLoRA (4-bit base weights)", replace(s, task=Task.QLORA)))
    elif s.task is Task.INFERENCE:
        for w in (Weights.INT8, Weights.INT4):
            if s.weights in (Weights.BF16, Weights.FP16) or (w is Weights.INT4 and s.weights is Weights.INT8):
                out.append((f"{w.value} weights", replace(s, weights=w)))
    if s.seq > 512:
        out.append((f"sequence length {s.seq // 2}", replace(s, seq=s.seq // 2)))
    return out


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
    return Estimate(m, hw, s, mem, vram, fits, verdict, change, changed, sp, hours, spec.tokens, hw.notes)


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
        "tokens_per_s": r(e.speed.tokens_per_s, 1),
        "prefill_tokens_per_s": r(e.speed.prefill_tokens_per_s, 0),
        "speed_kind": e.speed.kind,
        "tokens": e.tokens,
        "hours": r(e.hours, 3),
        "basis": e.speed.basis,
        "notes": list(e.notes),
    }
