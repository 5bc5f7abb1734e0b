"""What the build is for: a model, a task and the options of the workload planner (rigplan.workload)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field, SerializationInfo, SerializerFunctionWrapHandler, model_serializer

from rigplan.model.assumptions import Workload
from rigplan.model.common import Frozen


class Task(StrEnum):
    FULL = "full"  # full fine-tuning / training: mixed precision with AdamW
    LORA = "lora"
    QLORA = "qlora"  # 4-bit NF4 base weights, bf16 adapters, paged optimizer
    INFERENCE = "inference"


class Weights(StrEnum):
    BF16 = "bf16"
    FP16 = "fp16"
    INT8 = "int8"
    INT4 = "int4"


class Strategy(StrEnum):
    REPLICATE = "replicate"  # data parallel (DDP): a full copy per GPU
    SHARD = "shard"  # FSDP / ZeRO-3: weights, gradients and optimizer states split across the GPUs
    SPLIT = "split"  # layers split across the GPUs (pipeline; llama.cpp / accelerate's device_map for inference)


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
