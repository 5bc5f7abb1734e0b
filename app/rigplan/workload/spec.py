"""The model description the workload planner computes with (ModelSpec) and its error type: a module of their own
so that `models` (the bundled list, config files) and `config` (every config.json key family) both build on them
without importing each other."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

MAX_CONFIG_BYTES = 1_000_000  # a config.json is a few kB; a large file is not one


class WorkloadError(ValueError):
    """Input the workload planner cannot use (unknown model, broken config.json...): one line for the user."""


@dataclass(frozen=True)
class ModelSpec:
    id: str
    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int
    head_dim: int
    context: int | None = None
    experts: int = 1
    experts_per_token: int = 1
    tied_embeddings: bool = False
    mlp_matrices: int = 3  # gated MLP (SwiGLU / GeGLU: gate, up, down); 2 for a plain MLP (GPT-NeoX, Falcon, Phi-2)
    stated_params_b: float | None = None  # the maker's figure, to check the count below
    stated_active_b: float | None = None
    source: str = ""
    # Mixtures of experts with experts of their own size, shared experts, dense first layers (DeepSeek, Qwen-MoE)
    expert_ffn: int | None = None  # a routed expert's MLP size (None: ffn)
    shared_ffn: int = 0  # the shared experts' MLP size, all together
    dense_layers: int = 0  # the first layers with a dense MLP of size ffn
    # Attention variants: sliding-window layers, MLA's compressed latent, hybrid attention / state-space stacks
    sliding_window: int | None = None
    sliding_layers: int = 0  # layers that attend to the window only
    attn_layers: int | None = None  # layers with attention (a KV cache); None: all
    mla: tuple[int, int, int, int, int] | None = None  # q_lora_rank, kv_lora_rank, qk_nope, qk_rope, v_head_dim

    @property
    def attn_dim(self) -> int:
        return self.heads * (self.mla[2] + self.mla[3] if self.mla else self.head_dim)

    @property
    def kv_dim(self) -> int:
        return self.kv_heads * self.head_dim

    @property
    def moe_layers(self) -> int:
        return self.layers - self.dense_layers if self.experts > 1 else 0

    def _attn_params(self) -> int:
        if self.mla:
            q_lora, kv_lora, nope, rope, v = self.mla
            q = self.hidden * q_lora + q_lora * self.heads * (nope + rope) if q_lora else self.hidden * self.attn_dim
            kv = self.hidden * (kv_lora + rope) + kv_lora * self.heads * (nope + v)
            return q + kv + self.heads * v * self.hidden
        return self.hidden * self.attn_dim * 2 + self.hidden * self.kv_dim * 2  # q, o; k, v

    def _mlp_params(self, experts: int) -> int:
        """All layers' MLP parameters with `experts` routed experts per MoE layer."""
        dense = self.mlp_matrices * self.hidden * self.ffn
        if self.experts == 1:
            return dense * self.layers
        moe = self.mlp_matrices * self.hidden * ((self.expert_ffn or self.ffn) * experts + self.shared_ffn)
        router = self.hidden * self.experts
        return dense * self.dense_layers + (moe + router) * self.moe_layers

    @property
    def embedding_params(self) -> int:
        """Input embedding plus the output head (one matrix when tied)."""
        return self.vocab * self.hidden * (1 if self.tied_embeddings else 2)

    @cached_property
    def linear_params(self) -> int:
        """Parameters in the transformer blocks' linear layers: what 4-bit quantization and LoRA act on."""
        return self.layers * self._attn_params() + self._mlp_params(self.experts)

    @cached_property
    def active_linear_params(self) -> int:
        return self.layers * self._attn_params() + self._mlp_params(self.experts_per_token)

    @cached_property
    def params(self) -> int:
        return self.linear_params + self.embedding_params + self.hidden * (2 * self.layers + 1)

    @cached_property
    def active_params(self) -> int:
        """Parameters one token passes through (a mixture of experts uses experts_per_token of its experts)."""
        return self.active_linear_params + self.embedding_params + self.hidden * (2 * self.layers + 1)

    @property
    def ffn_active(self) -> int:
        """The MLP width one token goes through in a layer (the activations' f)."""
        if self.experts == 1:
            return self.ffn
        return (self.expert_ffn or self.ffn) * self.experts_per_token + self.shared_ffn

    @property
    def matmul_params(self) -> int:
        """Active parameters that cost matrix-multiply FLOPs per token: blocks plus the output head (the input
        embedding is a lookup)."""
        return self.active_params - self.vocab * self.hidden * (0 if self.tied_embeddings else 1)

    def kv_bytes_for(self, seq: int, bytes_per_value: float = 2.0) -> float:
        """KV-cache bytes of one sequence of `seq` tokens: keys and values of each attention layer over the tokens
        it keeps (its window for a sliding-window layer); MLA keeps one latent of kv_lora_rank + rope per token."""
        width = (self.mla[1] + self.mla[3]) if self.mla else 2 * self.kv_dim
        attn = self.attn_layers if self.attn_layers is not None else self.layers
        local = min(self.sliding_layers, attn) if self.sliding_window else 0
        tokens = (attn - local) * seq + local * min(seq, self.sliding_window or seq)
        return width * tokens * bytes_per_value

    def kv_bytes_per_token(self, bytes_per_value: float = 2.0) -> float:
        """Per token of context when every attention layer keeps it (no window)."""
        width = (self.mla[1] + self.mla[3]) if self.mla else 2 * self.kv_dim
        return width * (self.attn_layers if self.attn_layers is not None else self.layers) * bytes_per_value

    def lora_params(self, rank: int, all_linear: bool = True) -> int:
        """LoRA adapters of `rank` on every linear layer (q, k, v, o, gate, up, down), or on attention only:
        r x (in + out) each."""
        per_layer = (self.hidden + self.attn_dim) * 2 + (self.hidden + self.kv_dim) * 2  # q, o; k, v
        if all_linear:
            per_layer += (self.hidden + self.ffn_active) * self.mlp_matrices  # MLP (of the experts in use)
        return rank * per_layer * self.layers
