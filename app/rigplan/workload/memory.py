"""Memory per GPU of a workload, with its breakdown (docs/workload.md, "Memory"), and the host RAM it asks for.

All sizes are in GB of 2^30 bytes, the unit of VRAM sizes, nvidia-smi and PyTorch's memory reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rigplan.model.workload import Engine, LoraTargets, Offload, Optimizer, Precision, Strategy, Task, Weights
from rigplan.workload.engines import engine_spec
from rigplan.workload.formats import weight_format
from rigplan.workload.models import ModelSpec, constant

GIB = 2**30

# Optimizer state bytes per trainable parameter, beyond the weights and gradients. AdamW: fp32 momentum and variance
# (ZeRO paper, section 3.1); 8-bit AdamW: one byte each (Dettmers et al. 2021, "8-bit Optimizers via Block-wise
# Quantization", arXiv 2110.02861; the paged variant pages them to the CPU only under memory pressure); Adafactor:
# factored second moments (rows + columns), no momentum: about nothing per parameter (Shazeer and Stern 2018,
# arXiv 1804.04235); SGD with momentum: one fp32 buffer.
OPTIMIZER_BYTES = {Optimizer.ADAMW: 8.0, Optimizer.ADAMW8BIT: 2.0, Optimizer.PAGED_ADAMW8BIT: 2.0,
                   Optimizer.ADAFACTOR: 0.0, Optimizer.SGD: 4.0}  # fmt: skip
# LoRA's frozen base at --lora-bits: 16-bit, LLM.int8 (8 bits, fp32 row scales: 8.0), NF4 with double quantization
# (4.127, the QLoRA paper), 2-bit HQQ at group 64 with 8-bit scale and zero (2 + 16/64 = 2.25: HQQ's blog, Badri and
# Shaji 2023, "Half-Quadratic Quantization of Large ML Models").
BASE_BITS = {16: 16.0, 8: 8.0, 4: 4.127, 2: 2.25}


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
    engine: Engine = Engine.HF
    bpw: float | None = None
    lora_bits: int = 16
    lora_rank: int = 16
    lora_targets: LoraTargets = LoraTargets.ALL_LINEAR
    optimizer: Optimizer = Optimizer.ADAMW
    offload: Offload = Offload.NONE
    precision: Precision = Precision.MIXED
    kv_bits: int = 16


@dataclass(frozen=True)
class Memory:
    parts: dict[str, float]  # GB per GPU: weights, gradients, optimizer, activations, kv_cache, overhead
    host_gb: float = 0.0  # system RAM the setup keeps there (offloaded states, Unsloth's checkpoints)

    @property
    def total(self) -> float:
        return sum(self.parts.values())


def weight_bytes(m: ModelSpec, w: Weights, bpw: float | None = None, active: bool = False) -> float:
    """Bytes of the weights in format `w` (of the parameters one token reads when `active`)."""
    f = weight_format(w, bpw)
    head = m.vocab * m.hidden
    embed = 0 if m.tied_embeddings else m.vocab * m.hidden
    linear = m.active_linear_params if active else m.linear_params
    rest = m.params - m.linear_params - m.embedding_params  # norms
    return (linear * f.linear_bits + head * f.head_bits + embed * f.embed_bits) / 8 + rest * 2.0


def weight_bits(w: Weights) -> float:
    """Average bits per weight of a format on the blocks' linear layers (the label's figure)."""
    return weight_format(w).linear_bits


def kv_cache_bytes(m: ModelSpec, seq: int, seqs: int, bits: int = 16) -> float:
    """Keys and values of every attention layer over the context it keeps (a sliding-window layer keeps its window;
    an MLA layer its compressed latent), for `seqs` sequences."""
    return m.kv_bytes_for(seq, bits / 8) * seqs


def _activations(m: ModelSpec, s: Setup, layers: float, tp: int) -> tuple[float, float]:
    """Bytes of activations kept for the backward pass on one GPU, one micro-batch, and those kept in host RAM.

    Per layer without checkpointing, bf16, FlashAttention (no s x s score matrix): the attention block keeps about
    11 s b h bytes and the two norms 4 s b h (Korthikanti et al. 2022, arXiv 2205.05198, section 4.1), the gated
    MLP 2 s b h for its input and 8 s b f for its gate, up, activation and product. With checkpointing each layer
    keeps only its input (2 s b h), plus one layer recomputed at a time and the backward's fp32 gradient of the
    residual stream with its bf16 copy (6 s b h, estimate). The loss holds the engine's bytes per vocabulary entry
    per token (rigplan.workload.engines): 16 for transformers' fp32 loss, 3.5 for torchtune's chunked loss, none
    for Unsloth's fused one. Tensor parallelism divides a layer's activations by its degree (Megatron-LM)."""
    sb = s.seq * s.batch
    e = engine_spec(s.engine)
    mlp_tensors = 4 * (m.mlp_matrices - 1)  # bf16 f-wide tensors kept: gate, up, activation, product (2 if plain)
    per_layer = sb * (17 * m.hidden + mlp_tensors * m.ffn_active) / tp
    host = 0.0
    if s.checkpointing:
        inputs = layers * 2 * sb * m.hidden
        if e.offloads_checkpoints:
            host, inputs = inputs, 0.0
        kept = inputs + per_layer + 6 * sb * m.hidden
    else:
        kept = layers * per_layer
    return kept + e.loss_bytes_per_vocab * sb * m.vocab, host


def _training(m: ModelSpec, s: Setup) -> tuple[float, float, float, float]:
    """Weights, gradients, optimizer states on the GPU (unsharded), and what goes to host RAM, in bytes."""
    params = m.params
    states = OPTIMIZER_BYTES[s.optimizer]
    if s.task is Task.FULL:
        if s.precision is Precision.BF16:  # no fp32 master copy; fp32 states (AdamW, SGD) kept in bf16
            bf16_states = states / 2 if s.optimizer in (Optimizer.ADAMW, Optimizer.SGD) else states
            weights, grads, optim = params * 2.0, params * 2.0, params * bf16_states
        else:  # mixed precision (and FP8 compute): bf16 weights and gradients, fp32 master weights
            weights, grads, optim = params * 2.0, params * 2.0, params * (4.0 + states)
    else:
        adapters = m.lora_params(s.lora_rank, s.lora_targets is LoraTargets.ALL_LINEAR)
        bits = BASE_BITS[s.lora_bits]
        rest_bytes = 4.0 if bits < 16 and engine_spec(s.engine).fp32_non_quantized else 2.0
        weights = m.linear_params * bits / 8 + (params - m.linear_params) * rest_bytes
        weights += adapters * 4.0  # fp32 adapter weights (PEFT keeps adapters in fp32)
        grads, optim = adapters * 4.0, adapters * states
    host = 0.0
    if s.offload is not Offload.NONE:
        host, optim = optim, 0.0
        if s.offload is Offload.PARAMS:  # weights and gradients stream in a layer at a time
            host += weights + grads
            weights, grads = 2 * weights / m.layers, 2 * grads / m.layers
    return weights, grads, optim, host


@lru_cache(maxsize=8192)  # the verdict's search sizes the same setups again and again
def memory(m: ModelSpec, s: Setup) -> Memory:
    n = s.gpus
    sharded = s.strategy in (Strategy.SHARD, Strategy.SPLIT, Strategy.TENSOR) and n > 1
    share = 1.0 / n if sharded else 1.0
    tp = n if s.strategy is Strategy.TENSOR and n > 1 else 1
    overhead = constant("framework_overhead_gb")[0]
    grads = optim = act = kv = host = 0.0
    if s.task is Task.INFERENCE:
        weights = weight_bytes(m, s.weights, s.bpw)
        kv = kv_cache_bytes(m, s.seq, s.batch, s.kv_bits) * share
        # the working buffers of one forward pass: the logits of the last position and one layer's intermediates
        act = s.batch * (m.vocab * 4 + 8 * m.ffn_active) * min(s.seq, 512)
    else:
        weights, grads, optim, host = _training(m, s)
        layers = m.layers / n if s.strategy is Strategy.SPLIT and n > 1 else m.layers
        act, ckpt_host = _activations(m, s, layers, tp)
        host += ckpt_host
    if s.offload is not Offload.PARAMS or s.task is Task.INFERENCE:
        weights *= share
        grads *= share
    optim *= share
    if s.strategy is Strategy.SHARD and n > 1 and s.offload is not Offload.PARAMS:
        # FSDP gathers a layer's full weights, and prefetches the next, at the precision they are stored in
        # (4-bit for QLoRA: torchtune's 405B QLoRA on 8x A100 at 44.8 GB per GPU)
        stored = BASE_BITS[s.lora_bits] / 8 if s.task is not Task.FULL else 2.0
        weights += 2 * m.linear_params / m.layers * stored
    parts = {
        "weights": weights / GIB,
        "gradients": grads / GIB,
        "optimizer": optim / GIB,
        "activations": act / GIB,
        "kv_cache": kv / GIB,
        "overhead": overhead,
    }
    return Memory(parts, host / GIB)
