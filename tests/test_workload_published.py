"""The workload planner against published figures (issue 28): memory within +-20 %, speed within +-30 %.

Each row names its source (URL or paper, and the table). Rows used to fit a constant are not here: they are listed
in docs/workload.md with the fitted constants. Figures that disagree and why are in docs/workload.md too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest

from rigplan.catalog import load_catalog
from rigplan.model import Gpu, Kind
from rigplan.model.workload import Engine, LoraTargets, Offload, Precision, Strategy, Task, Weights, WorkloadSpec
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
QWEN = (
    "qwen.readthedocs.io/en/latest/benchmark/speed_benchmark.html (github.com/QwenLM/Qwen2.5 "
    "docs/source/benchmark/speed_benchmark.rst), A100 80GB, batch 1, 2,048 tokens generated after a 1-token prompt"
)
UNSLOTH = (
    "github.com/unslothai/unsloth README (2025-01), 'Context length benchmarks': Llama QLoRA rank 32 on all "
    "linear layers, batch 1, longest context that fits"
)
LLAMACPP_Q = "github.com/ggml-org/llama.cpp tools/quantize/README.md, 'Memory/Disk Requirements' (Llama 3.1)"
MLC = (
    "blog.mlc.ai/2023/10/19/Scalable-Language-Model-Inference-on-Multiple-NVDIA-AMD-GPUs: 4-bit Llama2-70B at "
    "34.5 tok/sec on two NVIDIA RTX 4090"
)
EXL2 = "github.com/turboderp/exllamav2 README (2024-12), 'Performance': RTX 4090"
LLAMA2 = (
    "Touvron et al. 2023, Llama 2 (arXiv 2307.09288) Table 2: GPU hours on A100-80GB for 2T tokens at 4,096 "
    "tokens a sequence; tokens/s per GPU = 2e12 / (hours x 3,600)"
)
TT_TITAN_H100 = (
    "github.com/pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md Table 1: Llama 3.1 8B, "
    "FSDP on 8 H100, local batch 2, seq 8192, torch.compile"
)


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
    link: str = "pcie"  # "sxm": NVLink boards


def ul(rid: str, model: str, engine: Engine, vram: int, published: int, label: str) -> Row:
    """A row of Unsloth's context table: QLoRA rank 32 on all linear layers, batch 1, the longest context in `vram`."""
    spec = WorkloadSpec(model=model, task=Task.QLORA, engine=engine, lora_rank=32)
    return Row(rid, "A100 80GB SXM4", 1, spec, "max_seq", published, "tokens", f"{UNSLOTH}, {label}: {published:,}",
               vram=vram)  # fmt: skip


def W(model: str, task: str, **kw: object) -> WorkloadSpec:
    return WorkloadSpec(model=model, task=Task(task), **kw)  # type: ignore[arg-type]


MEMORY2 = [
    Row("llamacpp-q4km-70b-file", "H100", 1, W("llama-3.1-70b", "inference", weights=Weights.Q4_K_M), "weights",
        43.1, "GB", LLAMACPP_Q + ": 70B Q4_K_M 43.1 GB"),
    Row("llamacpp-q4km-405b-file", "H100", 1, W("llama-3.1-405b", "inference", weights=Weights.Q4_K_M), "weights",
        249.1, "GB", LLAMACPP_Q + ": 405B Q4_K_M 249.1 GB"),
    Row("qwen-7b-gptq4-mem", "A100 80GB SXM4", 1,
        W("qwen2.5-7b", "inference", weights=Weights.GPTQ_INT4, engine=Engine.HF, seq=2049), "total", 5.52, "GiB",
        QWEN + ", transformers: Qwen2.5-7B-Instruct GPTQ-Int4, 5.52 GB"),
    Row("qwen-14b-bf16-mem", "A100 80GB SXM4", 1, W("qwen2.5-14b", "inference", engine=Engine.HF, seq=2049),
        "total", 28.08, "GiB", QWEN + ", transformers: Qwen2.5-14B-Instruct BF16, 28.08 GB"),
    Row("qwen-32b-awq-mem", "A100 80GB SXM4", 1,
        W("qwen2.5-32b", "inference", weights=Weights.AWQ, engine=Engine.HF, seq=2049), "total", 18.67, "GiB",
        QWEN + ", transformers: Qwen2.5-32B-Instruct AWQ, 18.67 GB"),
    Row("qwen-72b-gptq4-mem", "A100 80GB SXM4", 1,
        W("qwen2.5-72b", "inference", weights=Weights.GPTQ_INT4, engine=Engine.HF, seq=2049), "total", 39.91, "GiB",
        QWEN + ", transformers: Qwen2.5-72B-Instruct GPTQ-Int4, 39.91 GB"),
    Row("qwen-7b-bf16-30k-mem", "A100 80GB SXM4", 1, W("qwen2.5-7b", "inference", engine=Engine.HF, seq=32768),
        "total", 16.0, "GiB", QWEN + ", transformers: Qwen2.5-7B-Instruct BF16, input 30,720: 16.00 GB"),
    Row("torchtune-qlora-405b-8xa100", "A100 80GB SXM4", 8,
        W("llama-3.1-405b", "qlora", engine=Engine.TORCHTUNE, strategy=Strategy.SHARD), "total", 44.8, "GB",
        TORCHTUNE + ": Llama 3.1 405B QLoRA on 8x A100, 44.8 GB (rank 16 on all linear layers, batch 1)", link="sxm"),
    Row("torchtune-lora-70b-8xa100", "A100 80GB SXM4", 8,
        W("llama-3.1-70b", "lora", batch=2, engine=Engine.TORCHTUNE, strategy=Strategy.SHARD, lora_rank=16,
          lora_targets=LoraTargets.ATTENTION), "total", 27.6, "GiB",
        TORCHTUNE + ": Llama 3.1 70B LoRA on 8x A100, 27.6 GiB (rank 16 on q, k, v)", link="sxm"),
    Row("torchtune-full-70b-offload", "A100 80GB SXM4", 8,
        W("llama-3.1-70b", "full", batch=2, engine=Engine.TORCHTUNE, strategy=Strategy.SHARD, offload=Offload.PARAMS),
        "total", 13.9, "GiB", TORCHTUNE + ": Llama 3.1 70B full on 8x A100 with CPU offload, 13.9 GiB", link="sxm"),
    Row("unsloth-hf-8b-24gb", "GeForce RTX 4090", 1,
        W("llama-3.1-8b", "qlora", engine=Engine.HF, lora_rank=32), "max_seq", 5789, "tokens",
        UNSLOTH + ", Llama 3.1 (8B), Hugging Face + FA2, 24 GB: 5,789", vram=24),
    Row("unsloth-hf-8b-80gb", "A100 80GB SXM4", 1,
        W("llama-3.1-8b", "qlora", engine=Engine.HF, lora_rank=32), "max_seq", 28454, "tokens",
        UNSLOTH + ", Llama 3.1 (8B), Hugging Face + FA2, 80 GB: 28,454", vram=80),
    Row("unsloth-hf-8b-40gb", "A100", 1,
        W("llama-3.1-8b", "qlora", engine=Engine.HF, lora_rank=32), "max_seq", 12264, "tokens",
        UNSLOTH + ", Llama 3.1 (8B), Hugging Face + FA2, 40 GB: 12,264", vram=40),
    Row("unsloth-8b-24gb", "GeForce RTX 4090", 1,
        W("llama-3.1-8b", "qlora", engine=Engine.UNSLOTH, lora_rank=32), "max_seq", 78475, "tokens",
        UNSLOTH + ", Llama 3.1 (8B), Unsloth, 24 GB: 78,475", vram=24),
    Row("unsloth-8b-80gb", "A100 80GB SXM4", 1,
        W("llama-3.1-8b", "qlora", engine=Engine.UNSLOTH, lora_rank=32), "max_seq", 342733, "tokens",
        UNSLOTH + ", Llama 3.1 (8B), Unsloth, 80 GB: 342,733", vram=80),
    ul("unsloth-hf-8b-16gb", "llama-3.1-8b", Engine.HF, 16, 2551, "Llama 3.1 (8B), Hugging Face + FA2, 16 GB"),
    ul("unsloth-hf-8b-48gb", "llama-3.1-8b", Engine.HF, 48, 15502, "Llama 3.1 (8B), Hugging Face + FA2, 48 GB"),
    ul("unsloth-8b-12gb", "llama-3.1-8b", Engine.UNSLOTH, 12, 21848, "Llama 3.1 (8B), Unsloth, 12 GB"),
    ul("unsloth-8b-16gb", "llama-3.1-8b", Engine.UNSLOTH, 16, 40724, "Llama 3.1 (8B), Unsloth, 16 GB"),
    ul("unsloth-8b-40gb", "llama-3.1-8b", Engine.UNSLOTH, 40, 153977, "Llama 3.1 (8B), Unsloth, 40 GB"),
    ul("unsloth-8b-48gb", "llama-3.1-8b", Engine.UNSLOTH, 48, 191728, "Llama 3.1 (8B), Unsloth, 48 GB"),
    ul("unsloth-70b-48gb", "llama-3.3-70b", Engine.UNSLOTH, 48, 12106, "Llama 3.3 (70B), Unsloth, 48 GB"),
    Row("unsloth-70b-80gb", "A100 80GB SXM4", 1,
        W("llama-3.3-70b", "qlora", engine=Engine.UNSLOTH, lora_rank=32), "max_seq", 89389, "tokens",
        UNSLOTH + ", Llama 3.3 (70B), Unsloth, 80 GB: 89,389", vram=80),
]  # fmt: skip

SPEED2 = [
    Row("qwen-vllm-7b-bf16", "A100 80GB SXM4", 1, W("qwen2.5-7b", "inference", engine=Engine.VLLM, seq=2049),
        "tokens_per_s", 84.28, "tok/s", QWEN + ", vLLM 0.6.3: Qwen2.5-7B-Instruct BF16, 84.28"),
    Row("qwen-vllm-7b-gptq4", "A100 80GB SXM4", 1,
        W("qwen2.5-7b", "inference", engine=Engine.VLLM, weights=Weights.GPTQ_INT4, seq=2049), "tokens_per_s",
        154.05, "tok/s", QWEN + ", vLLM 0.6.3: Qwen2.5-7B-Instruct GPTQ-Int4, 154.05"),
    Row("qwen-vllm-14b-bf16", "A100 80GB SXM4", 1, W("qwen2.5-14b", "inference", engine=Engine.VLLM, seq=2049),
        "tokens_per_s", 46.30, "tok/s", QWEN + ", vLLM 0.6.3: Qwen2.5-14B-Instruct BF16, 46.30"),
    Row("qwen-vllm-14b-awq", "A100 80GB SXM4", 1,
        W("qwen2.5-14b", "inference", engine=Engine.VLLM, weights=Weights.AWQ, seq=2049), "tokens_per_s", 92.66,
        "tok/s", QWEN + ", vLLM 0.6.3: Qwen2.5-14B-Instruct AWQ, 92.66"),
    Row("qwen-vllm-32b-gptq4", "A100 80GB SXM4", 1,
        W("qwen2.5-32b", "inference", engine=Engine.VLLM, weights=Weights.GPTQ_INT4, seq=2049), "tokens_per_s",
        55.83, "tok/s", QWEN + ", vLLM 0.6.3: Qwen2.5-32B-Instruct GPTQ-Int4, 55.83"),
    Row("qwen-vllm-72b-bf16-tp4", "A100 80GB SXM4", 4,
        W("qwen2.5-72b", "inference", engine=Engine.VLLM, seq=2049, strategy=Strategy.TENSOR), "tokens_per_s",
        31.37, "tok/s", QWEN + ", vLLM 0.6.3: Qwen2.5-72B-Instruct BF16 on 4 GPUs, 31.37", link="sxm"),
    Row("qwen-vllm-72b-gptq8-tp2", "A100 80GB SXM4", 2,
        W("qwen2.5-72b", "inference", engine=Engine.VLLM, weights=Weights.GPTQ_INT8, seq=2049,
          strategy=Strategy.TENSOR), "tokens_per_s", 31.40, "tok/s",
        QWEN + ", vLLM 0.6.3: Qwen2.5-72B-Instruct GPTQ-Int8 on 2 GPUs, 31.40", link="sxm"),
    Row("qwen-vllm-72b-awq-tp2", "A100 80GB SXM4", 2,
        W("qwen2.5-72b", "inference", engine=Engine.VLLM, weights=Weights.AWQ, seq=2049, strategy=Strategy.TENSOR),
        "tokens_per_s", 44.30, "tok/s", QWEN + ", vLLM 0.6.3: Qwen2.5-72B-Instruct AWQ on 2 GPUs, 44.30", link="sxm"),
    Row("qwen-hf-7b-bf16", "A100 80GB SXM4", 1, W("qwen2.5-7b", "inference", engine=Engine.HF, seq=2049),
        "tokens_per_s", 40.38, "tok/s", QWEN + ", transformers: Qwen2.5-7B-Instruct BF16, 40.38"),
    Row("qwen-hf-32b-bf16", "A100 80GB SXM4", 1, W("qwen2.5-32b", "inference", engine=Engine.HF, seq=2049),
        "tokens_per_s", 17.54, "tok/s", QWEN + ", transformers: Qwen2.5-32B-Instruct BF16, 17.54"),
    Row("mlc-2x4090-70b-q4", "GeForce RTX 4090", 2,
        W("llama-2-70b", "inference", engine=Engine.MLC, weights=Weights.INT4, seq=1024, strategy=Strategy.TENSOR),
        "tokens_per_s", 34.5, "tok/s", MLC + " (q4f16_1: 4 bits and an fp16 scale per 32 = the nominal int4)"),
    Row("llamacpp-l40s-70b-q4", "L40S", 1, W("llama-3.1-70b", "inference", weights=Weights.Q4_K_M, seq=1024),
        "tokens_per_s", 15.31, "tok/s", LLAMACPP + ", Llama 3 table: L40S 48GB, 70B Q4_K_M, 15.31"),
    Row("llamacpp-4x4090-70b-q4", "GeForce RTX 4090", 4,
        W("llama-3.1-70b", "inference", weights=Weights.Q4_K_M, seq=1024, strategy=Strategy.SPLIT), "tokens_per_s",
        18.83, "tok/s", LLAMACPP + ", Llama 3 table: 4090 24GB x 4, 70B Q4_K_M, 18.83"),
    Row("llamacpp-8x4090-70b-f16", "GeForce RTX 4090", 8,
        W("llama-3.1-70b", "inference", weights=Weights.FP16, seq=1024, strategy=Strategy.SPLIT), "tokens_per_s",
        6.45, "tok/s", LLAMACPP + ", Llama 3 table: 4090 24GB x 8, 70B F16, 6.45"),
    Row("torchtitan-8b-h100-fp8", "H100", 1, W("llama-3.1-8b", "full", batch=2, seq=8192, precision=Precision.FP8),
        "tokens_per_s", 8532, "tok/s", TT_TITAN_H100 + " + Float8: 8,532 tokens/s per GPU"),
    Row("torchtune-lora-70b-speed", "A100 80GB SXM4", 8,
        W("llama-3.1-70b", "lora", batch=2, engine=Engine.TORCHTUNE, strategy=Strategy.SHARD, lora_rank=16,
          lora_targets=LoraTargets.ATTENTION), "tokens_per_s", 3497, "tok/s",
        TORCHTUNE + ": Llama 3.1 70B LoRA on 8x A100, 3,497 tokens/s", link="sxm"),
    Row("exl2-4090-7b-3bpw", "GeForce RTX 4090", 1,
        W("llama-2-7b", "inference", engine=Engine.EXLLAMAV2, weights=Weights.EXL2, bpw=3.0, seq=256), "tokens_per_s",
        257, "tok/s", EXL2 + ", Llama2 7B EXL2 3.0 bpw: 257 t/s"),
    Row("exl2-4090-7b-5bpw", "GeForce RTX 4090", 1,
        W("llama-2-7b", "inference", engine=Engine.EXLLAMAV2, weights=Weights.EXL2, bpw=5.0, seq=256), "tokens_per_s",
        179, "tok/s", EXL2 + ", Llama2 7B EXL2 5.0 bpw: 179 t/s"),
    Row("exl2-4090-7b-gptq", "GeForce RTX 4090", 1,
        W("llama-2-7b", "inference", engine=Engine.EXLLAMAV2, weights=Weights.GPTQ_INT4, seq=256), "tokens_per_s",
        205, "tok/s", EXL2 + ", Llama 7B GPTQ group 128: 205 t/s (LLaMA 7B has Llama 2 7B's shapes)"),
    Row("exl2-4090-13b-gptq", "GeForce RTX 4090", 1,
        W("llama-2-13b", "inference", engine=Engine.EXLLAMAV2, weights=Weights.GPTQ_INT4, seq=256), "tokens_per_s",
        114, "tok/s", EXL2 + ", Llama 13B GPTQ group 128: 114 t/s (LLaMA 13B has Llama 2 13B's shapes)"),
    Row("llama2-paper-7b", "A100 80GB SXM4", 1, W("llama-2-7b", "full", seq=4096), "tokens_per_s", 3014, "tok/s",
        LLAMA2 + ": 7B 184,320 GPU hours = 3,014 tokens/s per GPU"),
    Row("llama2-paper-13b", "A100 80GB SXM4", 1, W("llama-2-13b", "full", seq=4096), "tokens_per_s", 1507, "tok/s",
        LLAMA2 + ": 13B 368,640 GPU hours = 1,507 tokens/s per GPU"),
    Row("llama2-paper-70b", "A100 80GB SXM4", 1, W("llama-2-70b", "full", seq=4096), "tokens_per_s", 323, "tok/s",
        LLAMA2 + ": 70B 1,720,320 GPU hours = 323 tokens/s per GPU"),
    Row("torchtune-full-70b-offload-speed", "A100 80GB SXM4", 8,
        W("llama-3.1-70b", "full", batch=2, engine=Engine.TORCHTUNE, strategy=Strategy.SHARD, offload=Offload.PARAMS),
        "tokens_per_s", 1568, "tok/s", TORCHTUNE + ": Llama 3.1 70B full on 8x A100 with CPU offload, 1,568 tokens/s",
        link="sxm"),
]  # fmt: skip

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
    Row("hf-lora-70b", "H100", 1, W("llama-3.1-70b", "lora"), "total", 160, "GB", HF_LLAMA31 + ": LoRA 70B 160 GB"),
    Row("hf-qlora-70b", "H100", 1, W("llama-3.1-70b", "qlora"), "total", 48, "GB", HF_LLAMA31 + ": Q-LoRA 70B 48 GB"),
    Row("torchtune-lora-8b-4090", "GeForce RTX 4090", 1, W("llama-3.1-8b", "lora", batch=2, engine=Engine.TORCHTUNE,
        lora_rank=8, lora_targets=LoraTargets.ATTENTION), "total", 16.2, "GiB",
        TORCHTUNE + ": Llama 3.1 8B LoRA on 1x 4090, 16.2 GiB (recipe 8B_lora_single_device: rank 8 on q, v)"),
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
    ul("unsloth-hf-8b-12gb", "llama-3.1-8b", Engine.HF, 12, 932, "Llama 3.1 (8B), Hugging Face + FA2, 12 GB"),
    ul("unsloth-8b-8gb", "llama-3.1-8b", Engine.UNSLOTH, 8, 2972, "Llama 3.1 (8B), Unsloth, 8 GB"),
    Row("unsloth-hf-70b-80gb", "A100 80GB SXM4", 1,
        W("llama-3.3-70b", "qlora", engine=Engine.HF, lora_rank=32), "max_seq", 6916, "tokens",
        UNSLOTH + ", Llama 3.3 (70B), Hugging Face + FA2, 80 GB: 6,916", vram=80),
    Row("hf-lora-8b", "H100", 1, W("llama-3.1-8b", "lora"), "total", 16, "GB", HF_LLAMA31 + ": LoRA 8B 16 GB"),
    Row("qwen-vllm-72b-gptq4-1gpu", "A100 80GB SXM4", 1,
        W("qwen2.5-72b", "inference", engine=Engine.VLLM, weights=Weights.GPTQ_INT4, seq=2049), "tokens_per_s",
        16.47, "tok/s", QWEN + ", vLLM 0.6.3: Qwen2.5-72B-Instruct GPTQ-Int4 on 1 GPU, 16.47"),
    Row("torchtune-qlora-8b-4090", "GeForce RTX 4090", 1,
        W("llama-3.1-8b", "qlora", batch=2, engine=Engine.TORCHTUNE, lora_rank=8), "total", 7.4, "GiB",
        TORCHTUNE + ": Llama 3.1 8B QLoRA on 1x 4090, 7.4 GiB (recipe 8B_qlora_single_device: rank 8)"),
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


MEMORY += MEMORY2
SPEED += SPEED2


@cache
def _catalog_gpus() -> list[Gpu]:
    """The committed catalog's GPUs, loaded once (it was loaded again for each of 22 rows: about 0.2 s each)."""
    return [p for p in load_catalog().of_kind(Kind.GPU) if isinstance(p, Gpu)]


def _catalog_gpu(chipset: str) -> Gpu:
    for part in _catalog_gpus():
        if isinstance(part, Gpu) and part.chipset == chipset and part.memory_bandwidth_gbs and part.fp16_tflops:
            return part
    raise AssertionError(f"no {chipset} in the catalog")


def _hardware(row: Row) -> Hardware:
    spec = table_gpu(row.gpu) or gpu_spec(_catalog_gpu(row.gpu))
    if row.vram is not None:
        spec = replace(spec, vram_gb=row.vram)
    return Hardware(row.gpu, spec, row.count, row.link)


@cache  # one figure per row: the doc-table test and the row's own test ask for the same one
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
    if row.measure == "max_seq":
        from rigplan.workload.reverse import longest_context

        got = longest_context(e.model, e.setup, row.vram or 0)
        assert got is not None
        return float(got)
    gib = e.memory.total if row.measure in ("total", "fits") else e.memory.parts[row.measure]
    return gib * GIB / 1e9 if row.unit == "GB" else gib


def test_enough_published_figures() -> None:
    assert len(MEMORY) + len(SPEED) >= 40
    for row in MEMORY + SPEED + MISSES:  # the table in docs/workload.md lists every row
        got = _measured(row)
        print(f"| {row.id} | {row.published:g} {row.unit} | {got:.3g} | {got / row.published - 1:+.0%} |")
    assert len({r.id for r in MEMORY + SPEED}) == len(MEMORY + SPEED)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "workload.md").read_text("utf-8")
    assert all(f"| {r.id} |" in doc for r in MEMORY + SPEED + MISSES)
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
