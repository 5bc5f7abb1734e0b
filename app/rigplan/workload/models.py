"""Language-model architectures: the bundled ones (parts/models.yaml) and any model's Hugging Face config.json."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml

from rigplan.paths import parts_dir

MAX_CONFIG_BYTES = 1_000_000  # a config.json is a few kB; a large file is not one
MAX_CONFIG_DEPTH = 16  # transformers' configs nest 2-3 levels (text_config, rope_scaling, quantization_config)

# Plausibility bounds for a config.json (issue 35: 10^303 in intermediate_size overflowed, 8,192 heads on a hidden
# size of 4,096 made heads of zero width). Each bound is several times the largest released model's value, so no
# real config is refused, and every figure computed from them stays finite and readable:
#   Llama 3.1 405B (Meta's config.json): hidden 16,384, 126 layers, 128 heads, intermediate 53,248, vocab 128,256;
#   Gemma 3 (Google's config.json): vocab 262,208; DeepSeek-V3: 256 routed experts, 61 layers, vocab 129,280;
#   Kimi K2 (Moonshot's config.json): 384 experts, about 1.04 x 10^12 parameters, the largest open weights to date;
#   Switch-C (Fedus et al. 2021, "Switch Transformers", JMLR 23): 1.6 x 10^12, the largest published model size.
# No released model has over 10^13 parameters, six times the largest, so a larger count is refused as a typo or junk.
CONFIG_BOUNDS = {
    "hidden_size": 131_072,
    "num_hidden_layers": 1_024,
    "num_attention_heads": 1_024,
    "intermediate_size": 1_048_576,
    "vocab_size": 4_194_304,
    "head_dim": 1_024,
    "experts": 4_096,
    "max_position_embeddings": 1 << 30,
}
MIN_HEAD_DIM = 8  # the narrowest heads of released models are 64 wide (GPT-2, Llama); 8 leaves a wide margin
MAX_PARAMS = 10**13


# model_type values of transformers' configs: models whose MLP is one up and one down projection (no gate), and
# encoder models the decoder formulas do not describe.
PLAIN_MLP = frozenset({"gpt_neox", "falcon", "phi", "gpt2", "gptj", "bloom", "opt", "starcoder2", "gpt_bigcode", "mpt"})
ENCODERS = frozenset({"bert", "roberta", "xlm-roberta", "distilbert", "electra", "deberta", "deberta-v2", "albert",
                      "t5", "mt5", "umt5", "bart", "mbart", "pegasus", "whisper", "marian"})  # fmt: skip
UNSUPPORTED_KEYS = ("moe_intermediate_size", "shared_expert_intermediate_size", "n_shared_experts", "kv_lora_rank")


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

    @property
    def attn_dim(self) -> int:
        return self.heads * self.head_dim

    @property
    def kv_dim(self) -> int:
        return self.kv_heads * self.head_dim

    def _layer_params(self, experts: int) -> int:
        attn = self.hidden * self.attn_dim * 2 + self.hidden * self.kv_dim * 2  # q, o; k, v
        mlp = self.mlp_matrices * self.hidden * self.ffn * experts
        router = self.hidden * self.experts if self.experts > 1 else 0
        return attn + mlp + router + 2 * self.hidden  # two norms

    @property
    def embedding_params(self) -> int:
        """Input embedding plus the output head (one matrix when tied)."""
        return self.vocab * self.hidden * (1 if self.tied_embeddings else 2)

    @cached_property
    def params(self) -> int:
        return self.layers * self._layer_params(self.experts) + self.embedding_params + self.hidden

    @cached_property
    def active_params(self) -> int:
        """Parameters one token passes through (a mixture of experts uses experts_per_token of its experts)."""
        return self.layers * self._layer_params(self.experts_per_token) + self.embedding_params + self.hidden

    @cached_property
    def linear_params(self) -> int:
        """Parameters in the transformer blocks' linear layers: what 4-bit quantization and LoRA act on."""
        return self.params - self.embedding_params - self.hidden - self.layers * 2 * self.hidden

    @property
    def matmul_params(self) -> int:
        """Active parameters that cost matrix-multiply FLOPs per token: blocks plus the output head (the input
        embedding is a lookup)."""
        return self.active_params - self.vocab * self.hidden * (0 if self.tied_embeddings else 1)

    def kv_bytes_per_token(self, bytes_per_value: float = 2.0) -> float:
        return 2 * self.layers * self.kv_dim * bytes_per_value

    def lora_params(self, rank: int) -> int:
        """LoRA adapters of `rank` on every linear layer (q, k, v, o, gate, up, down): r x (in + out) each."""
        per_layer = (
            (self.hidden + self.attn_dim) * 2  # q, o
            + (self.hidden + self.kv_dim) * 2  # k, v
            + (self.hidden + self.ffn) * self.mlp_matrices * self.experts_per_token  # MLP (of the experts in use)
        )
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


def _int(cfg: dict[str, Any], *keys: str, required: bool = True) -> int | None:
    for k in keys:
        v = cfg.get(k)
        if isinstance(v, bool):
            continue
        if isinstance(v, int) and v > 0:
            return v
    if required:
        raise WorkloadError(f"config.json has no positive whole number for {' / '.join(keys)}")
    return None


def model_from_config(doc: Any, name: str) -> ModelSpec:
    """A decoder-only transformer from the fields transformers' config.json uses (Llama, Mistral, Mixtral, Qwen2,
    Gemma, Phi-3 and most others): hidden_size, num_hidden_layers, num_attention_heads, num_key_value_heads,
    intermediate_size, vocab_size, and num_local_experts / num_experts_per_tok for a mixture of experts."""
    if not isinstance(doc, dict):
        raise WorkloadError("config.json is not a JSON object")
    inner = doc.get("text_config")
    cfg: dict[str, Any] = inner if isinstance(inner, dict) else doc  # multimodal configs wrap the language model
    kind = str(cfg.get("model_type") or doc.get("model_type") or "").lower()
    if cfg.get("is_encoder_decoder") or kind in ENCODERS:
        raise WorkloadError(f"{kind or 'this model'} is an encoder or encoder-decoder: only decoder language models "
                            "are planned")  # fmt: skip
    unsupported = [k for k in UNSUPPORTED_KEYS if cfg.get(k)]
    if unsupported:
        raise WorkloadError(
            f"config.json has {unsupported[0]}: experts of their own size, shared experts or compressed key/value "
            "attention (DeepSeek, Qwen-MoE) are not modelled yet"
        )
    hidden = _int(cfg, "hidden_size", "n_embd", "d_model")
    layers = _int(cfg, "num_hidden_layers", "n_layer", "num_layers")
    heads = _int(cfg, "num_attention_heads", "n_head", "num_heads")
    assert hidden and layers and heads
    kv = _int(cfg, "num_key_value_heads", "num_kv_heads", required=False) or heads
    ffn = _int(cfg, "intermediate_size", "n_inner", "ffn_dim", "d_ff", required=False)
    if ffn is None:
        raise WorkloadError("config.json has no intermediate_size: only transformer language models are supported")
    vocab = _int(cfg, "vocab_size")
    assert vocab
    head_dim = _int(cfg, "head_dim", required=False) or hidden // heads
    experts = _int(cfg, "num_local_experts", "num_experts", "n_routed_experts", required=False) or 1
    per_tok = _int(cfg, "num_experts_per_tok", "moe_top_k", required=False) or 1
    if kv > heads or per_tok > experts or hidden * layers > 10**9:
        raise WorkloadError("config.json describes an impossible model (key/value heads, experts or size)")
    ctx = _int(cfg, "max_position_embeddings", "n_positions", "seq_length", required=False)
    return plausible(ModelSpec(
        id=name,
        name=str(doc.get("_name_or_path") or name),
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv,
        ffn=ffn,
        vocab=vocab,
        head_dim=head_dim,
        context=ctx,
        experts=experts,
        experts_per_token=min(per_tok, experts),
        tied_embeddings=bool(cfg.get("tie_word_embeddings", doc.get("tie_word_embeddings", False))),
        mlp_matrices=2 if kind in PLAIN_MLP else 3,
        source=f"architecture read from {name}" + (f" ({kind})" if kind else ""),
    ))  # fmt: skip


def plausible(m: ModelSpec) -> ModelSpec:
    """`m` when every dimension is within CONFIG_BOUNDS and the parameter count under MAX_PARAMS, else one
    WorkloadError line naming the value. Checked on whole numbers only, before any figure is computed in floats."""
    if m.head_dim < MIN_HEAD_DIM:
        raise WorkloadError(
            f"config.json gives {m.heads:,} attention heads on a hidden size of {m.hidden:,}: heads {m.head_dim} "
            f"wide (at least {MIN_HEAD_DIM}); not a real model's config"
        )
    for key, value in (
        ("hidden_size", m.hidden), ("num_hidden_layers", m.layers), ("num_attention_heads", m.heads),
        ("intermediate_size", m.ffn), ("vocab_size", m.vocab), ("head_dim", m.head_dim), ("experts", m.experts),
        ("max_position_embeddings", m.context or 0),
    ):  # fmt: skip
        if value > CONFIG_BOUNDS[key]:
            shown = f"{value:,}" if value < 10**15 else f"a {len(str(value))}-digit number"
            raise WorkloadError(
                f"config.json gives {key} {shown}, over {CONFIG_BOUNDS[key]:,} (several times the largest released "
                "model): not a real model's config"
            )
    if m.params > MAX_PARAMS:
        raise WorkloadError(
            f"config.json describes {m.params:.2e} parameters, over 10^13 (no released model has that many; the "
            "largest have about 1.6 x 10^12)"
        )
    return m


def load_config(path: Path | str) -> ModelSpec:
    """Read through the one safe read (files.safeio: regular files only, so a FIFO or /dev/zero is refused at once,
    never waited on or read without end; at most MAX_CONFIG_BYTES), then JSON of bounded nesting."""
    from rigplan.files.errors import BuildFileError
    from rigplan.files.jsonsafe import loads_bounded
    from rigplan.files.safeio import read_user_text

    p = Path(path)
    if not os.path.lexists(p):
        # A path saved in a build was made absolute from the build file's folder on load (files.buildfile), so the
        # full path shown is where RigPlan looked.
        raise WorkloadError(f"the model's config file {p} was not found")
    try:
        doc = loads_bounded(read_user_text(p, MAX_CONFIG_BYTES, what="model's config.json"), MAX_CONFIG_DEPTH)
    except BuildFileError as exc:
        raise WorkloadError(f"the model's config file {exc}") from None
    except ValueError as exc:
        raise WorkloadError(f"{p.name} is not valid JSON ({' '.join(str(exc).split())})") from None
    return model_from_config(doc, p.name if p.name != "config.json" else f"{p.parent.name}/config.json")


def find_model(ref: str) -> ModelSpec:
    """A bundled model by id (case-insensitive), or a config.json path."""
    models = bundled_models()
    hit = models.get(ref.strip().lower())
    if hit:
        return hit
    if ref.lower().endswith(".json") or os.path.lexists(ref):  # a device or FIFO is refused by the safe read
        return load_config(ref)
    import difflib

    close = difflib.get_close_matches(ref.lower(), list(models), n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    raise WorkloadError(f"unknown model {ref!r}; {hint}models: {', '.join(models)}, or a config.json file")


def billions(n: float) -> str:
    return f"{n / 1e9:.1f}B" if n < 1e11 else f"{n / 1e9:.0f}B"


def finite(v: float) -> bool:
    return math.isfinite(v)
