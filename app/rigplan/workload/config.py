"""A model's Hugging Face config.json to a ModelSpec: every key family of the decoder families RigPlan lists.

The key names per family are those of the transformers configuration classes (and the models' own remote-code
configs): Llama / Mistral / Qwen2 / Gemma / Phi-3 use hidden_size, num_hidden_layers, num_attention_heads,
num_key_value_heads, intermediate_size; GPT-2 / GPT-J / StarCoder n_embd, n_layer, n_head, n_inner (default 4 x
n_embd); MPT d_model, n_layers, n_heads, expansion_ratio (default 4), attn_config.kv_n_heads; Falcon hidden_size
(n_embed in old files), num_hidden_layers (n_layer), num_attention_heads (n_head), num_kv_heads / n_head_kv or
multi_query (one key/value head), ffn_hidden_size (default 4 x hidden); Phi-2 a plain MLP; Qwen2-MoE num_experts,
moe_intermediate_size, shared_expert_intermediate_size; DeepSeek V2/V3 n_routed_experts, n_shared_experts,
moe_intermediate_size, first_k_dense_replace and MLA's q_lora_rank, kv_lora_rank, qk_nope_head_dim,
qk_rope_head_dim, v_head_dim; Gemma 2 (every other layer a 4,096-token window) and Gemma 3 (sliding_window_pattern:
five local layers in six) and Mistral 7B v0.1 (sliding_window on every layer); newer configs' layer_types list, and
Jamba's layers_block_type / attn_layer_period for hybrid attention / state-space stacks.
"""

from __future__ import annotations

from typing import Any

from rigplan.workload.spec import ModelSpec, WorkloadError

# model_type values of transformers' configs: models whose MLP is one up and one down projection (no gate), and
# encoder models the decoder formulas do not describe.
PLAIN_MLP = frozenset({"gpt_neox", "falcon", "phi", "gpt2", "gptj", "bloom", "opt", "starcoder2", "gpt_bigcode", "mpt"})
ENCODERS = frozenset({"bert", "roberta", "xlm-roberta", "distilbert", "electra", "deberta", "deberta-v2", "albert",
                      "t5", "mt5", "umt5", "bart", "mbart", "pegasus", "whisper", "marian"})  # fmt: skip
TIED_BY_DEFAULT = frozenset({"mpt", "falcon", "gemma", "gemma2", "gemma3", "gemma3_text", "gpt2", "bloom", "opt"})
LOCAL = frozenset({"sliding_attention", "local", "local_attention", "chunked_attention"})
NO_KV = frozenset({"mamba", "linear_attention", "ssm", "mamba2", "recurrent"})


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


def _num(cfg: dict[str, Any], key: str) -> float | None:
    v = cfg.get(key)
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) and v > 0 else None


def _kv_heads(cfg: dict[str, Any], heads: int) -> int:
    attn = cfg.get("attn_config")
    if isinstance(attn, dict) and (kv := _int(attn, "kv_n_heads", required=False)):  # MPT
        return kv
    kv = _int(cfg, "num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num", required=False)
    if kv:
        return kv
    return 1 if cfg.get("multi_query") is True else heads  # Falcon 7B: one key/value head


def _ffn(cfg: dict[str, Any], kind: str, hidden: int) -> int:
    ffn = _int(cfg, "intermediate_size", "ffn_hidden_size", "n_inner", "ffn_dim", "d_ff", required=False)
    if ffn:
        return ffn
    if kind == "mpt":
        return int((_num(cfg, "expansion_ratio") or 4) * hidden)
    if kind in ("falcon", "gpt2", "gpt_bigcode", "gptj", "bloom"):
        return 4 * hidden  # these families default to a 4 x hidden MLP
    raise WorkloadError("config.json has no intermediate_size: only transformer language models are supported")


def _attention_layout(cfg: dict[str, Any], kind: str, layers: int) -> tuple[int | None, int, int | None]:
    """(window, layers using it, layers with attention)."""
    types = cfg.get("layer_types") or cfg.get("layers_block_type")
    window = _int(cfg, "sliding_window", "attention_window", required=False)
    if isinstance(types, list) and types and all(isinstance(t, str) for t in types):
        attn = sum(1 for t in types if t.lower() not in NO_KV)
        local = sum(1 for t in types if t.lower() in LOCAL)
        return (window if local else None), local, attn
    attn_layers = None
    period = _int(cfg, "attn_layer_period", required=False)
    if period:  # Jamba: one attention layer in every `period`
        attn_layers = layers // period
    if kind == "gemma2" and window:
        return window, layers // 2, attn_layers  # local and global layers alternate
    if kind.startswith("gemma3") and window:
        pattern = _int(cfg, "sliding_window_pattern", required=False) or 6
        return window, layers - layers // pattern, attn_layers  # five local layers in every six
    if window and kind == "mistral" or (window and cfg.get("use_sliding_window") is True):
        return window, layers, attn_layers
    return None, 0, attn_layers


def _mla(cfg: dict[str, Any]) -> tuple[int, int, int, int, int] | None:
    kv_lora = _int(cfg, "kv_lora_rank", required=False)
    if not kv_lora:
        return None
    q_lora = _int(cfg, "q_lora_rank", required=False) or 0
    nope = _int(cfg, "qk_nope_head_dim")
    rope = _int(cfg, "qk_rope_head_dim")
    v = _int(cfg, "v_head_dim")
    assert nope and rope and v
    return q_lora, kv_lora, nope, rope, v


def spec_from_config(doc: Any, name: str) -> ModelSpec:
    if not isinstance(doc, dict):
        raise WorkloadError("config.json is not a JSON object")
    inner = doc.get("text_config")
    cfg: dict[str, Any] = inner if isinstance(inner, dict) else doc  # multimodal configs wrap the language model
    kind = str(cfg.get("model_type") or doc.get("model_type") or "").lower()
    if cfg.get("is_encoder_decoder") or kind in ENCODERS:
        raise WorkloadError(f"{kind or 'this model'} is an encoder or encoder-decoder: only decoder language models "
                            "are planned")  # fmt: skip
    hidden = _int(cfg, "hidden_size", "n_embd", "d_model", "n_embed")
    layers = _int(cfg, "num_hidden_layers", "n_layer", "num_layers", "n_layers")
    heads = _int(cfg, "num_attention_heads", "n_head", "num_heads", "n_heads")
    assert hidden and layers and heads
    kv = _kv_heads(cfg, heads)
    ffn = _ffn(cfg, kind, hidden)
    vocab = _int(cfg, "vocab_size", "padded_vocab_size")
    assert vocab
    head_dim = _int(cfg, "head_dim", "kv_channels", required=False) or hidden // heads
    experts = _int(cfg, "num_local_experts", "num_experts", "n_routed_experts", required=False) or 1
    per_tok = _int(cfg, "num_experts_per_tok", "moe_top_k", required=False) or 1
    expert_ffn = _int(cfg, "moe_intermediate_size", required=False) if experts > 1 else None
    shared = _int(cfg, "shared_expert_intermediate_size", required=False) or 0  # Qwen-MoE: all shared experts
    n_shared = _int(cfg, "n_shared_experts", required=False)
    if n_shared and expert_ffn:
        shared = n_shared * expert_ffn  # DeepSeek: n shared experts of the routed experts' size
    dense = _int(cfg, "first_k_dense_replace", required=False) or 0 if experts > 1 else 0
    if kv > heads or per_tok > experts or hidden * layers > 10**9 or dense > layers:
        raise WorkloadError("config.json describes an impossible model (key/value heads, experts or size)")
    window, local, attn = _attention_layout(cfg, kind, layers)
    ctx = _int(cfg, "max_position_embeddings", "n_positions", "seq_length", "max_seq_len", required=False)
    tied = cfg.get("tie_word_embeddings", doc.get("tie_word_embeddings", kind in TIED_BY_DEFAULT))
    return ModelSpec(
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
        tied_embeddings=bool(tied),
        mlp_matrices=2 if kind in PLAIN_MLP else 3,
        source=f"architecture read from {name}" + (f" ({kind})" if kind else ""),
        expert_ffn=expert_ffn,
        shared_ffn=shared,
        dense_layers=dense,
        sliding_window=window,
        sliding_layers=local,
        attn_layers=attn,
        mla=_mla(cfg),
    )
