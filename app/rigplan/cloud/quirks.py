"""Quirks every source's offers get alike, wherever they came from (bundled snapshot, update, imported file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rigplan.costs.perf import load_perf, offer_speed
from rigplan.model.offers import Offer


def flag_estimated_speed(rows: list[dict[str, Any]], perf_path: Path | None = None) -> int:
    """A GPU whose speed RigPlan only estimates (no measurement: the spec fit of gpu_perf.yaml, e.g. the g7e's RTX PRO
    6000 Server) is flagged on each of its offers, so the break-even it feeds is read as an estimate."""
    perf, n = load_perf(perf_path), 0
    for r in rows:
        offer = Offer.model_validate({k: v for k, v in r.items() if v is not None} | {"id": "x"})
        s = offer_speed(perf, offer)
        if s is not None and s.kind == "estimate":
            how = (
                "spec fit"
                if "spec fit" in s.basis
                else f"from the measured {s.basis.split('as the measured ', 1)[1].split(' (')[0]}, same chip"
                if "same chip" in s.basis and "as the measured " in s.basis
                else "scaled from a measured GPU"
                if "measured" in s.basis
                else "specs"
            )
            r["quirks"] = [*r["quirks"], f"speed of the {s.model} is an estimate ({how}), not measured"]
            n += 1
    return n
