"""Language-model architectures: the bundled ones (parts/models.yaml) and any model's Hugging Face config.json."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml

from rigplan.paths import parts_dir

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


def _model_from_entry(e: dict[str, Any]) -> ModelSpec:
    return ModelSpec(
        id=str(e["id"]),
        name=str(e["name"]),
        layers=int(e["layers"]),
        hidden=int(e["hidden"]),
        heads=int(e["heads"]),
        kv_heads=int(e["kv_heads"]),
        ffn=int(e["ffn"]),
        vocab=int(e["vocab"]),
        head_dim=int(e.get("head_dim") or e["hidden"] // e["heads"]),
        context=e.get("context"),
        experts=int(e.get("experts", 1)),
        experts_per_token=int(e.get("experts_per_token", 1)),
        tied_embeddings=bool(e.get("tied_embeddings", False)),
        stated_params_b=e.get("params_b"),
        stated_active_b=e.get("active_params_b"),
        source=str(e.get("source", "")),
        expert_ffn=e.get("expert_ffn"),
        shared_ffn=int(e.get("shared_ffn", 0)),
        dense_layers=int(e.get("dense_layers", 0)),
        sliding_window=e.get("sliding_window"),
        sliding_layers=int(e.get("sliding_layers", 0)),
        attn_layers=e.get("attn_layers"),
        mla=tuple(e["mla"]) if e.get("mla") else None,
    )


@cache
def _doc(path: Path) -> dict[str, Any]:
    return yaml.load(path.read_text("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def workload_data(path: Path | None = None) -> dict[str, Any]:
    return _doc(path or parts_dir() / "models.yaml")


@cache
def bundled_models() -> dict[str, ModelSpec]:
    return {e["id"]: _model_from_entry(e) for e in workload_data()["models"]}


@cache
def constant(name: str) -> tuple[float, str]:
    c = workload_data()["constants"][name]
    return float(c["value"]), str(c["source"])


def model_from_config(doc: Any, name: str) -> ModelSpec:
    """A decoder-only transformer from the fields of its config.json (rigplan.workload.config: every key family)."""
    from rigplan.workload.config import spec_from_config

    return spec_from_config(doc, name)


def load_config(path: Path | str) -> ModelSpec:
    p = Path(path)
    try:
        if p.stat().st_size > MAX_CONFIG_BYTES:
            raise WorkloadError(f"{p.name} is over 1 MB: not a model's config.json")
        doc = json.loads(p.read_text("utf-8"))
    except FileNotFoundError:
        # A path saved in a build was made absolute from the build file's folder on load (files.buildfile), so the
        # full path shown is where RigPlan looked.
        raise WorkloadError(f"the model's config file {p} was not found") from None
    except OSError as exc:
        raise WorkloadError(f"cannot read {p}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise WorkloadError(f"{p.name} is not valid JSON ({exc})") from None
    return model_from_config(doc, p.name if p.name != "config.json" else f"{p.parent.name}/config.json")


def find_model(ref: str) -> ModelSpec:
    """A bundled model by id (case-insensitive), or a config.json path."""
    models = bundled_models()
    hit = models.get(ref.strip().lower())
    if hit:
        return hit
    if ref.lower().endswith(".json") or Path(ref).is_file():
        return load_config(ref)
    import difflib

    close = difflib.get_close_matches(ref.lower(), list(models), n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    raise WorkloadError(f"unknown model {ref!r}; {hint}models: {', '.join(models)}, or a config.json file")


def billions(n: float) -> str:
    return f"{n / 1e9:.1f}B" if n < 1e11 else f"{n / 1e9:.0f}B"


def finite(v: float) -> bool:
    return math.isfinite(v)
