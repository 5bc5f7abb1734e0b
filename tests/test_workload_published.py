"""The workload planner against published figures (issue 28): memory within +-20 %, speed within +-30 %.

Each row names its source (URL or paper, and the table). Rows used to fit a constant are not here: they are listed
in docs/workload.md with the fitted constants. Figures that disagree and why are in docs/workload.md too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from rigplan.catalog import load_catalog
from rigplan.model import Gpu, Kind
from rigplan.model.workload import Strategy, Task, Weights, WorkloadSpec
from rigplan.workload import Hardware, estimate, gpu_spec, table_gpu
from rigplan.workload.memory import GIB
from rigplan.workload.speed import speed

HF_LLAMA31 = (
    "huggingface.co/blog/llama31 (2024-07-23), 'Inference Memory Requirements' and 'Training Memory Requirements'"
)
TORCHTUNE = "github.com/pytorch/torchtune README (2024-09), 'Memory and training speed' (batch 2, seq 2048)"
LITGPT = "github.com/Lightning-AI/litgpt tutorials/resource-tables.md (2023-10-20), A100-SXM4-40GB"
LLAMACPP = "github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference README, llama.cpp on RunPod (May 2024)"
TORCHTITAN = "github.com/pytorch/torchtitan docs/performance.md, FSDP2 on 64 A100 80GB"


@dataclass(frozen=True)
class Row:
    id: str
    gpu: str  # a catalog chipset, or a data-centre GPU of parts/models.yaml
    count: int
    spec: WorkloadSpec
    measure: str  # "total", "weights", "kv_cache", "fits", "tokens_per_s", "prefill", "tflops_per_gpu"
    published: float
    unit: str  # "GB" (1e9 bytes), "GiB", "tok/s", "TFLOPS"
    source: str
    vram: float | None = None  # the GPU's memory when the source states it differently


def W(model: str, task: str, **kw: object) -> WorkloadSpec:
    return WorkloadSpec(model=model, task=Task(task), **kw)  # type: ignore[arg-type]


MEMORY = [
    Row("qlora-65b-48gb", "RTX A6000", 1, W("llama-65b", "qlora", seq=512), "fits", 48, "GiB",
        "Dettmers et al. 2023, QLoRA (arXiv 2305.14314) abstract: 'finetune a 65B parameter model "
        "on a single 48GB GPU'"),
    Row("hf-8b-bf16", "H100", 1, W("llama-3.1-8b", "inference"), "weights", 16, "GB", HF_LLAMA31 + ": 8B FP16 16 GB"),
    Row("hf-70b-bf16", "H100", 1, W("llama-3.1-70b", "inference"), "weights", 140, "GB",
        HF_LLAMA31 + ": 70B FP16 140 GB"),
    Row("hf-405b-bf16", "H100", 1, W("llama-3.1-405b", "inference"), "weights", 810, "GB",
        HF_LLAMA31 + ": 405B FP16 810 GB"),
    Row("hf-70b-4bit", "H100", 1, W("llama-3.1-70b", "inference", weights=Weights.INT4), "weights", 34, "GB",
        HF_LLAMA31 + ", 'Using Hugging Face Transformers': 4-bit loading of the 70B takes about 34 GB"),
    Row("hf-kv-8b-16k", "H100", 1, W("llama-3.1-8b", "inference", seq=16000), "kv_cache", 1.95, "GiB",
        HF_LLAMA31 + ": KV cache 8B, 16k tokens, 1.95 GB"),
    Row("hf-kv-70b-16k", "H100", 1, W("llama-3.1-70b", "inference", seq=16000), "kv_cache", 4.88, "GiB",
        HF_LLAMA31 + ": KV cache 70B, 16k tokens, 4.88 GB"),
    Row("hf-lora-8b", "H100", 1, W("llama-3.1-8b", "lora"), "total", 16, "GB", HF_LLAMA31 + ": LoRA 8B 16 GB"),
    Row("hf-lora-70b", "H100", 1, W("llama-3.1-70b", "lora"), "total", 160, "GB", HF_LLAMA31 + ": LoRA 70B 160 GB"),
    Row("hf-qlora-70b", "H100", 1, W("llama-3.1-70b", "qlora"), "total", 48, "GB", HF_LLAMA31 + ": Q-LoRA 70B 48 GB"),
    Row("torchtune-lora-8b-4090", "GeForce RTX 4090", 1, W("llama-3.1-8b", "lora", batch=2), "total", 16.2, "GiB",
        TORCHTUNE + ": Llama 3.1 8B LoRA on 1x 4090, 16.2 GiB"),
    Row("litgpt-lora-7b", "A100", 1, W("llama-2-7b", "lora", seq=1304, checkpointing=False), "total", 21.30, "GB",
        LITGPT + ", 'Finetuning with LoRA on 1 GPU': Llama 2 7B, micro-batch 1, 21.30 GB "
        "(longest example 1,304 tokens)"),
    Row("litgpt-lora-13b", "A100", 1, W("llama-2-13b", "lora", seq=1304, checkpointing=False), "total", 38.12, "GB",
        LITGPT + ", 'Finetuning with LoRA on 1 GPU': Llama 2 13B, micro-batch 1, 38.12 GB"),
    Row("litgpt-qlora-7b", "A100", 1, W("llama-2-7b", "qlora", seq=1304, checkpointing=False), "total", 13.84, "GB",
        LITGPT + ", 'Finetuning with LoRA on 1 GPU': Llama 2 7B bnb.nf4-dq, 13.84 GB"),
    Row("litgpt-infer-7b", "A100", 1, W("llama-2-7b", "inference", seq=1304), "total", 13.52, "GB",
        LITGPT + ", 'Single-GPU Inference': Llama 2 7B bf16, 13.52 GB"),
    Row("litgpt-infer-70b-4bit", "A100 80GB SXM4", 1, W("llama-2-70b", "inference", weights=Weights.INT4, seq=1304),
        "total", 37.21, "GB", LITGPT + ", 'Single-GPU Inference': Llama 2 70B bnb.nf4-dq, 37.21 GB"),
]  # fmt: skip

# Published figures the estimate misses by more than the tolerance, kept so the miss stays visible (strict xfail:
# a fix that brings one inside turns the test red until it moves up). Why each misses: docs/workload.md.
MISSES = [
    Row("torchtune-qlora-8b-4090", "GeForce RTX 4090", 1, W("llama-3.1-8b", "qlora", batch=2), "total", 7.4, "GiB",
        TORCHTUNE + ": Llama 3.1 8B QLoRA on 1x 4090, 7.4 GiB"),
    Row("llamacpp-a100-8b-f16", "A100 80GB SXM4", 1,
        W("llama-3.1-8b", "inference", weights=Weights.FP16, seq=1024), "tokens_per_s", 54.56, "tok/s",
        LLAMACPP + ", Llama 3 overview: A100 PCIe 80GB, 8B F16"),
]  # fmt: skip

SPEED = [
    Row("llamacpp-3090-8b-f16", "GeForce RTX 3090", 1, W("llama-3.1-8b", "inference", weights=Weights.FP16, seq=1024),
        "tokens_per_s", 46.51, "tok/s", LLAMACPP + ", Llama 3 table: 3090 24GB, 8B F16, tg 1024"),
    Row("llamacpp-3090-8b-q4", "GeForce RTX 3090", 1, W("llama-3.1-8b", "inference", weights=Weights.INT4, seq=1024),
        "tokens_per_s", 111.74, "tok/s", LLAMACPP + ", Llama 3 table: 3090 24GB, 8B Q4_K_M, tg 1024"),
    Row("llamacpp-4080-8b-f16", "GeForce RTX 4080", 1, W("llama-3.1-8b", "inference", weights=Weights.FP16, seq=1024),
        "tokens_per_s", 40.29, "tok/s", LLAMACPP + ", Llama 3 table: 4080 16GB, 8B F16, tg 1024"),
    Row("llamacpp-4080-8b-q4", "GeForce RTX 4080", 1, W("llama-3.1-8b", "inference", weights=Weights.INT4, seq=1024),
        "tokens_per_s", 106.22, "tok/s", LLAMACPP + ", Llama 3 table: 4080 16GB, 8B Q4_K_M, tg 1024"),
    Row("llamacpp-2x4090-70b-q4", "GeForce RTX 4090", 2,
        W("llama-3.1-70b", "inference", weights=Weights.INT4, seq=1024, strategy=Strategy.SPLIT),
        "tokens_per_s", 19.06, "tok/s", LLAMACPP + ", Llama 3 table: 4090 24GB x 2, 70B Q4_K_M, tg 1024"),
    Row("llamacpp-2x3090-70b-q4", "GeForce RTX 3090", 2,
        W("llama-3.1-70b", "inference", weights=Weights.INT4, seq=1024, strategy=Strategy.SPLIT),
        "tokens_per_s", 16.29, "tok/s", LLAMACPP + ", Llama 3 table: 3090 24GB x 2, 70B Q4_K_M, tg 1024"),
    Row("llamacpp-3090-llama2-7b-f16", "GeForce RTX 3090", 1, W("llama-2-7b", "inference", weights=Weights.FP16),
        "tokens_per_s", 51.85, "tok/s", LLAMACPP + ", Llama 2 overview: 3090 24GB, 7B_f16"),
    Row("llamacpp-3090-8b-pp512", "GeForce RTX 3090", 1, W("llama-3.1-8b", "inference", weights=Weights.FP16, seq=512),
        "prefill", 4444.65, "tok/s", LLAMACPP + ", Llama 3 table: 3090 24GB, 8B F16, pp 512"),
    Row("llamacpp-4080-8b-pp512", "GeForce RTX 4080", 1, W("llama-3.1-8b", "inference", weights=Weights.FP16, seq=512),
        "prefill", 7246.97, "tok/s", LLAMACPP + ", Llama 3 table: 4080 16GB, 8B F16, pp 512"),
    Row("vllm-a100-8b", "A100", 1, W("llama-3.1-8b", "inference", seq=1152), "tokens_per_s", 75, "tok/s",
        "johnmusgrave.com/p/vllm-throughput-latency-sweep-on: vLLM, Llama 3.1 8B BF16 on one A100 40GB, one request "
        "at a time (1,024 in, 128 out): about 75 tokens/s"),
    Row("torchtitan-8b-a100", "A100 80GB SXM4", 1, W("llama-3.1-8b", "full", seq=8192), "tokens_per_s", 2904, "tok/s",
        TORCHTITAN + ", Llama 3 table: 8B, batch 1, selective layer checkpointing, 2,904 tokens/s per GPU"),
    Row("torchtitan-70b-a100", "A100 80GB SXM4", 1, W("llama-3.1-70b", "full", seq=8192), "tokens_per_s", 331, "tok/s",
        TORCHTITAN + ", Llama 3 table: 70B, batch 1, full checkpointing, 331 tokens/s per GPU"),
    Row("torchtitan-13b-a100", "A100 80GB SXM4", 1, W("llama-2-13b", "full", seq=4096, batch=2), "tokens_per_s", 1914,
        "tok/s", TORCHTITAN + ", Llama 2 table: 13B, batch 2, selective layer checkpointing, 1,914 tokens/s per GPU"),
    Row("torchtune-full-8b-4090", "GeForce RTX 4090", 1, W("llama-3.1-8b", "full", batch=2), "tokens_per_s", 1650,
        "tok/s", TORCHTUNE + ": Llama 3.1 8B full finetune on 1x 4090, 1,650 tokens/s"),
    Row("torchtune-lora-8b-4090-speed", "GeForce RTX 4090", 1, W("llama-3.1-8b", "lora", batch=2), "tokens_per_s",
        3083, "tok/s", TORCHTUNE + ": Llama 3.1 8B LoRA on 1x 4090, 3,083 tokens/s"),
    Row("llama3-405b-h100", "H100", 1, W("llama-3.1-405b", "full", seq=8192), "tflops_per_gpu", 400, "TFLOPS",
        "Meta, The Llama 3 Herd of Models (arXiv 2407.21783) Table 4: 380-430 BF16 TFLOPS per H100 "
        "(16,384 and 8,192 GPUs)"),
]  # fmt: skip


def _catalog_gpu(chipset: str) -> Gpu:
    for part in load_catalog().of_kind(Kind.GPU):
        if isinstance(part, Gpu) and part.chipset == chipset and part.memory_bandwidth_gbs and part.fp16_tflops:
            return part
    raise AssertionError(f"no {chipset} in the catalog")


def _hardware(row: Row) -> Hardware:
    spec = table_gpu(row.gpu) or gpu_spec(_catalog_gpu(row.gpu))
    return Hardware(row.gpu, spec, row.count, "pcie")


def _measured(row: Row) -> float:
    hw = _hardware(row)
    e = estimate(row.spec, hw)
    if row.measure in ("tokens_per_s", "prefill", "tflops_per_gpu"):
        # the speed of the setup as published (it ran), even where RigPlan's memory estimate would change it
        e = replace(e, speed=speed(e.model, e.setup, hw))
    if row.measure == "tokens_per_s":
        assert e.speed.tokens_per_s is not None, e.speed.basis
        return e.speed.tokens_per_s
    if row.measure == "prefill":
        assert e.speed.prefill_tokens_per_s is not None, e.speed.basis
        return e.speed.prefill_tokens_per_s
    if row.measure == "tflops_per_gpu":
        assert e.speed.tokens_per_s is not None
        from rigplan.workload.speed import train_flops_per_token

        return e.speed.tokens_per_s * train_flops_per_token(e.model, e.setup) / 1e12
    gib = e.memory.total if row.measure in ("total", "fits") else e.memory.parts[row.measure]
    return gib * GIB / 1e9 if row.unit == "GB" else gib


def test_enough_published_figures() -> None:
    assert len(MEMORY) + len(SPEED) >= 15
    for row in MEMORY + SPEED + MISSES:  # the table in docs/workload.md lists every row
        got = _measured(row)
        print(f"| {row.id} | {row.published:g} {row.unit} | {got:.3g} | {got / row.published - 1:+.0%} |")
    assert len({r.id for r in MEMORY + SPEED}) == len(MEMORY + SPEED)
    assert all(r.source for r in MEMORY + SPEED)


@pytest.mark.parametrize("row", MEMORY, ids=lambda r: r.id)
def test_memory_within_20_percent(row: Row) -> None:
    got = _measured(row)
    if row.measure == "fits":  # the source states a capacity it fits in, not a size
        e = estimate(row.spec, _hardware(row))
        assert e.fits is True and e.verdict == "fits" and got <= row.published, e.summary
        return
    assert got == pytest.approx(row.published, rel=0.20), f"{row.id}: {got:.2f} {row.unit} vs {row.published}"


@pytest.mark.parametrize("row", SPEED, ids=lambda r: r.id)
def test_speed_within_30_percent(row: Row) -> None:
    got = _measured(row)
    assert got == pytest.approx(row.published, rel=0.30), f"{row.id}: {got:.1f} {row.unit} vs {row.published}"


@pytest.mark.parametrize("row", MISSES, ids=lambda r: r.id)
@pytest.mark.xfail(strict=True, reason="known miss, explained in docs/workload.md")
def test_known_misses(row: Row) -> None:
    got = _measured(row)
    tol = 0.30 if row.unit in ("tok/s", "TFLOPS") else 0.20
    assert got == pytest.approx(row.published, rel=tol)
