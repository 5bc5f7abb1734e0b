"""What the build is for: a model, a task and the options of the workload planner (rigplan.workload)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, SerializationInfo, SerializerFunctionWrapHandler, model_serializer

from rigplan.model.assumptions import Workload
from rigplan.model.common import Frozen


class Task(StrEnum):
    FULL = "full"  # full fine-tuning / training: mixed precision with AdamW
    LORA = "lora"
    QLORA = "qlora"  # 4-bit NF4 base weights, bf16 adapters, paged optimizer
    INFERENCE = "inference"


class Weights(StrEnum):
    """Weight formats as people download them (bits per weight and what stays 16-bit: rigplan.workload.formats)."""

    BF16 = "bf16"
    FP16 = "fp16"
    FP8 = "fp8"  # FP8 E4M3 with a per-tensor scale (Hopper, Ada and newer run it natively)
    INT8 = "int8"  # nominal 8-bit (llama.cpp Q8_0 size)
    INT4 = "int4"  # nominal 4-bit (llama.cpp Q4_0 size)
    Q2_K = "q2_k"
    Q3_K_S = "q3_k_s"
    Q3_K_L = "q3_k_l"
    Q4_K_S = "q4_k_s"
    Q4_K_M = "q4_k_m"
    Q5_K_S = "q5_k_s"
    Q5_K_M = "q5_k_m"
    Q6_K = "q6_k"
    Q8_0 = "q8_0"
    GPTQ_INT4 = "gptq-int4"
    GPTQ_INT8 = "gptq-int8"
    AWQ = "awq"
    NF4 = "nf4"  # bitsandbytes 4-bit (transformers' load_in_4bit)
    EXL2 = "exl2"  # ExLlamaV2 at a chosen bits per weight (`bpw`)


class Engine(StrEnum):
    """The software that runs the job: it fixes the loss's memory, the multi-GPU way, the decode overhead."""

    HF = "hf"  # Hugging Face transformers / PEFT / TRL (training), transformers generate (inference)
    TORCHTUNE = "torchtune"
    UNSLOTH = "unsloth"
    LLAMA_CPP = "llama.cpp"
    VLLM = "vllm"
    TGI = "tgi"
    EXLLAMAV2 = "exllamav2"
    MLC = "mlc"


class Optimizer(StrEnum):
    ADAMW = "adamw"
    ADAMW8BIT = "adamw8bit"
    PAGED_ADAMW8BIT = "paged-adamw8bit"
    ADAFACTOR = "adafactor"
    SGD = "sgd"


class Offload(StrEnum):
    NONE = "none"
    OPTIMIZER = "optimizer"  # optimizer states (and fp32 master weights) in host RAM, stepped on the CPU
    PARAMS = "params"  # and the weights too, streamed to the GPU layer by layer (ZeRO-Infinity / FSDP offload)


class Precision(StrEnum):
    MIXED = "mixed"  # bf16 compute with fp32 master weights (the default for full fine-tuning)
    BF16 = "bf16"  # pure bf16: weights, gradients and optimizer states in bf16, no fp32 master copy
    FP8 = "fp8"  # FP8 matrix multiplies (torchao float8 / Transformer Engine), bf16 weights, fp32 master


class LoraTargets(StrEnum):
    ALL_LINEAR = "all-linear"  # q, k, v, o, gate, up, down
    ATTENTION = "attention"  # q, k, v, o


class Strategy(StrEnum):
    REPLICATE = "replicate"  # data parallel (DDP): a full copy per GPU
    SHARD = "shard"  # FSDP / ZeRO-3: weights, gradients and optimizer states split across the GPUs
    SPLIT = "split"  # layers split across the GPUs (pipeline; llama.cpp / accelerate's device_map for inference)
    TENSOR = "tensor"  # tensor parallel: every layer's matrices split across the GPUs (vLLM, TGI, MLC, Megatron)


# The measured models of the speed table (issue 27: resnet50, bert-large...); "all" is an average, not a model.
MEASURED = frozenset(w.value for w in Workload) - {Workload.ALL.value}
# What a measured model's job uses: the rest (task, sequence, batch, weights...) describes a language model.
MEASURED_FIELDS = ("model", "v100_hours")

MAX_SEQ = 1_048_576
MAX_BATCH = 4096


class WorkloadSpec(Frozen):
    """Saved in build files (format 3). `model` is a bundled id (llama-3.1-8b) or a config.json path."""

    model: str = Field(min_length=1, max_length=500)
    task: Task = Task.LORA
    weights: Weights | None = None  # inference only; None: bf16
    seq: Annotated[int, Field(ge=1, le=MAX_SEQ)] = 2048
    batch: Annotated[int, Field(ge=1, le=MAX_BATCH)] = 1
    gpus: Annotated[int, Field(ge=1, le=64)] | None = None  # None: every GPU of the build or instance
    strategy: Strategy | None = None  # None: replicate when one copy fits a GPU, else shard (split for inference)
    checkpointing: bool | None = None  # None: on for training tasks
    tokens: Annotated[float, Field(gt=0, le=1e15, allow_inf_nan=False)] | None = None  # one job's tokens
    # Round two (issue 39): None everywhere means "the default" and is not written to the build file.
    engine: Engine | None = None  # None: hf for training, llama.cpp for inference
    bpw: Annotated[float, Field(ge=2.0, le=8.0, allow_inf_nan=False)] | None = None  # EXL2's bits per weight
    lora_bits: Literal[16, 8, 4, 2] | None = None  # LoRA's frozen base: None = 16 for lora, 4 for qlora
    lora_rank: Annotated[int, Field(ge=1, le=1024)] | None = None  # None: 16
    lora_targets: LoraTargets | None = None  # None: all-linear
    optimizer: Optimizer | None = None  # None: adamw
    offload: Offload | None = None  # None: none
    precision: Precision | None = None  # full fine-tuning's precision; None: mixed
    kv_bits: Literal[16, 8, 4] | None = None  # KV-cache precision for inference; None: 16
    concurrent: Annotated[int, Field(ge=1, le=4096)] | None = None  # requests served at once (continuous batching)
    rope_scaling: Annotated[float, Field(gt=1.0, le=64.0, allow_inf_nan=False)] | None = None  # context stretch
    # A measured model (resnet50, bert-large...: rigplan.workload.measured): one job in hours on one V100 SXM2 16 GB.
    v100_hours: Annotated[float, Field(gt=0, le=1e7, allow_inf_nan=False)] | None = None

    @property
    def measured(self) -> bool:
        return self.model.strip().lower() in MEASURED

    @model_serializer(mode="wrap")
    def _only_what_applies(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, object]:
        """A measured model is saved as its id and job size only: the language-model options it ignores (sequence,
        micro-batch, task...) would read as if they applied. A file that has them still loads (they are ignored)."""
        out: dict[str, object] = handler(self)
        return {k: v for k, v in out.items() if k in MEASURED_FIELDS} if self.measured else out
