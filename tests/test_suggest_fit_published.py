"""The workload table the suggester is given (rigplan.workload.fit.memory_table, what --fit-model and the dialog pass
in as FitNeed) against Answer.AI's published FSDP+QLoRA runs, and the expert's headroom against the machines those
runs trained on (issue 37; docs/suggest.md, "Headroom for a workload").

Source: github.com/AnswerDotAI/fsdp_qlora, benchmarks_03_2024.md ("Benchmarking QLoRA+FSDP", February-March 2024):
Llama 2 QLoRA (bitsandbytes NF4, LoRA on every linear layer), context 2,048, gradient checkpointing, FSDP over the
GPUs, "Peak Memory (GiB)" as PyTorch's peak reserved memory; and its table "Llama-2 70B QLoRA with Context Length of
2048 on Select Accelerators", each row the fastest setting the team found that trained (so it fit)."""

from __future__ import annotations

import pytest

from rigplan.model.workload import Strategy, WorkloadSpec
from rigplan.suggest.expert import FULL_SHARE, fits_with_room
from rigplan.workload.fit import memory_table

SOURCE = "github.com/AnswerDotAI/fsdp_qlora benchmarks_03_2024.md"


def per_gpu(model: str, gpus: int, batch: int, strategy: Strategy = Strategy.SHARD, seq: int = 2048) -> float:
    """GB (GiB) per GPU the suggester is told this workload needs on `gpus` GPUs."""
    spec = WorkloadSpec(model=model, task="qlora", batch=batch, seq=seq, strategy=strategy)  # type: ignore[arg-type]
    ((n, gb, _),) = memory_table(spec, [gpus]).per_gpu_gb
    assert n == gpus
    return gb


# Llama 2 7B on the dual RTX 3090 / 4090 machines: (batch, strategy, published peak GiB).
PEAKS = [
    (1, Strategy.SHARD, 5.21),  # "QLoRA, 2048, 5.21"
    (4, Strategy.SHARD, 11.22),  # "QLoRA, batch 4, 11.22"
    (10, Strategy.SHARD, 20.97),  # "QLoRA, batch 10, 20.97"
    (8, Strategy.REPLICATE, 20.94),  # "QLoRA, DDP True, batch 8, 20.94" (a full copy per GPU)
]


@pytest.mark.parametrize(("batch", "strategy", "published"), PEAKS, ids=[f"b{b}-{s.value}" for b, s, _ in PEAKS])
def test_llama2_7b_qlora_peaks_within_10_percent(batch: int, strategy: Strategy, published: float) -> None:
    """The 7B rows agree within 10 % (RigPlan 4.86, 10.33, 21.28, 19.78 GiB): the planner's QLoRA terms (NF4 base,
    fp32 adapters and their AdamW states, checkpointed activations, the loss's fp32 logits) hold at this size."""
    mine = per_gpu("llama-2-7b", 2, batch, strategy)
    assert abs(mine - published) / published <= 0.10, f"{mine:.2f} GiB vs {published} ({SOURCE})"


# Llama 2 70B runs that trained without CPU offload: (GPUs, the card's GiB, batch, the row).
TRAINED = [
    (2, 40, 1, "A100 40GB SMX, 2 GPUs, offload False, batch 1"),
    (4, 40, 4, "A100 40GB SMX, 4 GPUs, offload False, batch 4"),
    (8, 40, 4, "A100 40GB SMX, 8 GPUs, offload False, batch 4"),
    (2, 48, 2, "A6000 Ada 48GB, 2 GPUs, offload False, batch 2"),
    (4, 48, 3, "A6000 Ada 48GB, 4 GPUs, offload False, batch 3"),
    (4, 24, 1, "A5000 24GB, 4 GPUs, offload False, batch 1"),
    (8, 24, 1, "A5000 24GB, 8 GPUs, offload False, batch 1"),
    (4, 80, 8, "H100 80GB SXM, 4 GPUs, offload False, batch 8"),
]


@pytest.mark.parametrize(("gpus", "card", "batch", "row"), TRAINED, ids=[r for *_, r in TRAINED])
def test_machines_that_trained_llama2_70b_pass_the_headroom(gpus: int, card: float, batch: int, row: str) -> None:
    """Every machine that trained Llama 2 70B QLoRA without offload is one the suggester accepts for it: the
    planner's need per GPU is within FULL_SHARE of the card (the headroom turns down no published working machine)."""
    need = per_gpu("llama-2-70b", gpus, batch)
    assert fits_with_room(need, card), f"{need:.1f} GiB of {card} GiB: {row} ({SOURCE})"


def test_two_24gb_cards_took_cpu_offload_for_70b_and_the_suggester_does_not_offer_them() -> None:
    """On two 24 GB cards (RTX 3090, 4090, A5000) every published 70B run used CPU offload of the weights ("A5000
    24GB, 2 GPUs, CPU+Activation Offload True"; the 3090 and 4090 rows "CPU Offload True, batch 2", 14.92 GiB) while
    four A5000s ran without it: without offload the planner's need is above the card on two (24.6 GiB at batch 1)
    and the suggester, which sizes without offload (docs/suggest.md), does not offer 2x 24 GB for it."""
    need = per_gpu("llama-2-70b", 2, 1)
    assert need > 24 > FULL_SHARE * 24
    assert fits_with_room(per_gpu("llama-2-70b", 4, 1), 24)
