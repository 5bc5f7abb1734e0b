"""What a workload asks of a machine's GPUs, as plain numbers: GB of memory per GPU on 1, 2, ... n GPUs. The
suggester (issue 26, "must fit this workload") takes this table as data; the CLI and the GUI compose the two (the
layers keep suggest and workload apart)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rigplan.model.workload import Strategy, Task, WorkloadSpec
from rigplan.workload.hardware import GpuSpec, Hardware
from rigplan.workload.memory import memory
from rigplan.workload.models import find_model
from rigplan.workload.plan import setup_for

_ANY_GPU = GpuSpec("any GPU", None, None, None, None, False, False, "")


@dataclass(frozen=True)
class FitTable:
    label: str  # "Llama 3.1 70B, qlora, sequence 2048, micro-batch 1"
    per_gpu_gb: tuple[tuple[int, float, str], ...]  # (GPU count, GB per GPU, strategy) for each count


def memory_table(spec: WorkloadSpec, counts: range | list[int]) -> FitTable:
    """GB per GPU the workload needs as set, on each number of GPUs. With no strategy given, the planner's own
    choice (rigplan.workload.plan.setup_for): a full copy per GPU when it fits, else sharded (split for inference)
    -- so the need is the smaller of the two. Raises WorkloadError on a bad model or option (one line)."""
    m = find_model(spec.model)
    rows = []
    for n in counts:
        s = setup_for(spec, m, Hardware(f"{n} GPUs", _ANY_GPU, n, "pcie"))  # validates the options too
        need = memory(m, s).total
        strategy = s.strategy
        if spec.strategy is None and n > 1:
            replicate = memory(m, replace(s, strategy=Strategy.REPLICATE)).total
            spread = Strategy.SPLIT if spec.task is Task.INFERENCE else Strategy.SHARD
            shard = memory(m, replace(s, strategy=spread)).total
            need, strategy = (replicate, Strategy.REPLICATE) if replicate <= shard else (shard, spread)
        rows.append((n, need, strategy.value))
    task = spec.task.value + (f" ({spec.weights.value} weights)" if spec.weights else "")
    label = f"{m.name}, {task}, sequence {spec.seq}, micro-batch {spec.batch}"
    return FitTable(label, tuple(rows))
