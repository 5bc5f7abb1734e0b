"""Memory per GPU of a workload, with its breakdown (docs/workload.md, "Memory").

All sizes are in GB of 2^30 bytes, the unit of VRAM sizes, nvidia-smi and PyTorch's memory reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rigplan.model.workload import Strategy, Task, Weights
from rigplan.workload.models import ModelSpec, constant

GIB = 2**30
WEIGHT_BITS = {Weights.BF16: 16.0, Weights.FP16: 16.0}


@dataclass(frozen=True)
class Setup:
    """One concrete configuration to size: every option decided."""

    task: Task
    weights: Weights
    seq: int
    batch: int
    gpus: int
    strategy: Strategy
    checkpointing: bool


@dataclass(frozen=True)
class Memory:
    parts: dict[str, float]  # GB per GPU: weights, gradients, optimizer, activations, kv_cache, overhead

    @property
    def total(self) -> float:
        return sum(self.parts.values())


def weight_bits(w: Weights) -> float:
    if w is Weights.INT8:
        return constant("int8_bits_per_param")[0]
    if w is Weights.INT4:
        return constant("int4_bits_per_param")[0]
    return WEIGHT_BITS[w]


def _activations(m: ModelSpec, s: Setup, layers: float) -> float:
    """Bytes of activations kept for the backward pass of `layers` layers, on one GPU, one micro-batch.

    Per layer without checkpointing, bf16, FlashAttention (no s x s score matrix): the attention block keeps about
    11 s b h bytes and the two norms 4 s b h (Korthikanti et al. 2022, arXiv 2205.05198, section 4.1), the gated
    MLP 2 s b h for its input and 8 s b f for its gate, up, activation and product. With checkpointing only each
    layer's input (2 s b h) is kept, plus one layer recomputed at a time. The output logits stay in bf16 (2 s b V
    bytes): current trainers compute the loss in chunks (torchtune's CEWithChunkedOutputLoss, Liger's fused
    cross-entropy) instead of an fp32 copy of all logits."""
    sb = s.seq * s.batch
    mlp_tensors = 4 * (m.mlp_matrices - 1)  # bf16 f-wide tensors kept: gate, up, activation, product (2 if plain)
    per_layer = sb * (17 * m.hidden + mlp_tensors * m.ffn * m.experts_per_token)
    kept = layers * 2 * sb * m.hidden + per_layer if s.checkpointing else layers * per_layer
    return kept + 2 * sb * m.vocab


@lru_cache(maxsize=4096)  # the verdict's search sizes the same setups again and again
def memory(m: ModelSpec, s: Setup) -> Memory:
    n = s.gpus
    params = m.params
    rank = int(constant("lora_rank")[0])
    sharded = s.strategy in (Strategy.SHARD, Strategy.SPLIT) and n > 1
    share = 1.0 / n if sharded else 1.0
    overhead = constant("framework_overhead_gb")[0]
    grads = optim = act = kv = 0.0
    if s.task is Task.INFERENCE:
        weights = params * weight_bits(s.weights) / 8
        kv = m.kv_bytes_per_token() * s.seq * s.batch * share
        # the working buffers of one forward pass: the logits of the last position and one layer's intermediates
        act = s.batch * (m.vocab * 4 + 8 * m.ffn * m.experts_per_token) * min(s.seq, 512)
    else:
        if s.task is Task.FULL:
            states = params * constant("adam_bytes_per_param")[0]  # 2 weights + 2 grads + 12 fp32 master/m/v
            weights, grads, optim = params * 2.0, params * 2.0, states - params * 4.0
        else:
            adapters = m.lora_params(rank)
            if s.task is Task.QLORA:
                nf4 = constant("nf4_bits_per_param")[0] / 8
                weights = m.linear_params * nf4 + (params - m.linear_params) * 2.0  # norms, embeddings stay bf16
            else:
                weights = params * 2.0
            weights += adapters * 4.0  # fp32 adapter weights (PEFT keeps adapters in fp32)
            grads, optim = adapters * 4.0, adapters * 8.0
        layers = m.layers / n if s.strategy is Strategy.SPLIT and n > 1 else m.layers
        act = _activations(m, s, layers)
    weights *= share
    grads *= share
    optim *= share
    if s.strategy is Strategy.SHARD and n > 1:
        weights += 2 * params * 2.0 / m.layers  # FSDP gathers a layer's full weights, and prefetches the next
    parts = {
        "weights": weights / GIB,
        "gradients": grads / GIB,
        "optimizer": optim / GIB,
        "activations": act / GIB,
        "kv_cache": kv / GIB,
        "overhead": overhead,
    }
    return Memory(parts)
