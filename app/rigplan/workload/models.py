"""Language-model architectures: the bundled ones (parts/models.yaml) and any model's Hugging Face config.json."""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from rigplan.paths import parts_dir
from rigplan.workload.spec import MAX_CONFIG_BYTES, ModelSpec, WorkloadError  # noqa: F401 - their old home


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
