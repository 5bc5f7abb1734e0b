"""The bundled cloud GPU offers (rigplan.model.offers.Offer): load them, and compile their YAML to JSON.

parts/cloud/offers.yaml is the source (tools/import_cloud.py); offers.json beside it is the compiled form, checked
against the YAML's SHA-256, so start-up reads JSON (~10 ms) instead of parsing YAML (~0.5 s).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from rigplan.model.offers import Offer
from rigplan.paths import parts_dir

OFFERS_FORMAT = 1
_LIST = TypeAdapter(list[Offer])


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _load_yaml(text: str) -> Any:
    """yaml.safe_load, with libyaml's safe loader when PyYAML has it: the same data, the 2,000 offers in about a
    sixth of the time (3.9 -> 0.6 s)."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506 - a safe loader


def write_compiled_offers(folder: Path) -> Path:
    src = folder / "offers.yaml"
    doc = _load_yaml(src.read_text("utf-8"))
    offers = _LIST.validate_python(doc["offers"])
    out = {
        "format": OFFERS_FORMAT,
        "yaml_sha256": _sha(src),
        "offers": [o.model_dump(mode="json", exclude_none=True) for o in offers],
    }
    target = folder / "offers.json"
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".offers-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(out, fh, ensure_ascii=False, separators=(",", ":"))
    os.chmod(tmp, 0o644)
    os.replace(tmp, target)
    return target


class OfferCatalog:
    def __init__(self, offers: Iterable[Offer], problem: str | None = None) -> None:
        self.offers = list(offers)
        self.by_id = {o.id: o for o in self.offers}
        self.problem = problem
        self.origin = "bundled snapshot"  # where the current prices come from (rigplan.cloud.store sets it)

    def __len__(self) -> int:
        return len(self.offers)

    def get(self, offer_id: str) -> Offer | None:
        return self.by_id.get(offer_id)

    def find(
        self,
        provider: str | None = None,
        gpu: str | None = None,
        region: str | None = None,
        instance: str | None = None,
        current_only: bool = False,
    ) -> list[Offer]:
        out = []
        for o in self.offers:
            if provider and o.provider != provider.lower():
                continue
            if gpu and (o.gpu_model is None or gpu.lower() not in o.gpu_model.lower()):
                continue
            if region and o.region != region:
                continue
            if instance and o.instance_type != instance:
                continue
            if current_only and o.snapshot != "current":
                continue
            out.append(o)
        return out

    def providers(self) -> list[str]:
        return sorted({o.provider for o in self.offers})


def load_offers(folder: Path | None = None) -> OfferCatalog:
    """All offers; a missing or broken file gives an empty catalog with `problem` set, never an exception."""
    folder = folder or parts_dir() / "cloud"
    src, compiled = folder / "offers.yaml", folder / "offers.json"
    sha: str | None = None  # None: no YAML source (the installers ship offers.json only), use the compiled file
    try:
        sha = _sha(src)
    except OSError as exc:
        if not compiled.is_file():
            return OfferCatalog([], f"cloud offers not found: {exc}")
    try:
        doc = json.loads(compiled.read_bytes())
        if doc.get("format") == OFFERS_FORMAT and (sha is None or doc.get("yaml_sha256") == sha):
            return OfferCatalog(_LIST.validate_python(doc["offers"]))
    except (OSError, ValueError, ValidationError, AttributeError):
        pass
    try:  # the YAML was edited (or the compiled file is broken): read the YAML itself
        doc = _load_yaml(src.read_text("utf-8"))
        good, bad = [], 0
        for raw in doc.get("offers", []):
            try:
                good.append(Offer.model_validate(raw))
            except ValidationError:
                bad += 1
        return OfferCatalog(good, f"{bad} broken offers skipped" if bad else None)
    except Exception as exc:  # a corrupt offers file must not stop the app
        return OfferCatalog([], f"cloud offers unreadable: {exc}")
