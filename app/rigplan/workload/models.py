"""Language-model architectures: the bundled ones (parts/models.yaml) and any model's Hugging Face config.json."""

from __future__ import annotations

import math
import os
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from rigplan.paths import parts_dir
from rigplan.workload.spec import MAX_CONFIG_BYTES, ModelSpec, WorkloadError  # noqa: F401 - their old home

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

    return plausible(spec_from_config(doc, name))


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
