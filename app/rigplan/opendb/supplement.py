"""The workstation and server supplement (parts/workstation.yaml, issue 36): boards and CPUs that OpenDB lacks (SP3,
SP5, sWRX8, sTR5 PRO, LGA4677, LGA4189, LGA3647), written by hand from their makers' specifications.

Each record carries its own `spec_source` (the maker's page or a published review, with the date it was read); it
states only the fields that source gives (everything else stays unknown) and no price unless a source dates one. The
importer adds the records to their kind as they are: no OpenDB value, no data-quality inference and no price join
touches them, so what the catalog says of them is what the cited page says. A record the model refuses stops the
import (a hand-written file is fixed, not skipped)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rigplan.model.parts import PART_ADAPTER, Kind

from .corrections import entries

PREFIX = "ws-"  # every supplement id starts with it: never an OpenDB UUID


class SupplementError(ValueError):
    pass


def load(path: Path) -> dict[Kind, list[dict[str, Any]]]:
    """The supplement's records by kind; an empty map when the file is absent."""
    out: dict[Kind, list[dict[str, Any]]] = {}
    seen: set[str] = set()
    for i, rec in enumerate(entries(path, "parts")):
        pid = str(rec.get("id") or "")
        where = f"{path.name}: part {i + 1} ({pid or 'no id'})"
        if not pid.startswith(PREFIX) or pid in seen:
            raise SupplementError(f"{where}: ids start with '{PREFIX}' and are unique")
        if not str(rec.get("spec_source") or "").strip():
            raise SupplementError(f"{where}: no spec_source")
        price = rec.get("price")
        if price is not None and not (price.get("source") and price.get("date")):
            raise SupplementError(f"{where}: a price needs its source and date")
        try:
            PART_ADAPTER.validate_python(rec)
        except Exception as exc:
            raise SupplementError(f"{where}: {' '.join(str(exc).splitlines()[1:3])}") from exc
        seen.add(pid)
        out.setdefault(Kind(rec["kind"]), []).append(dict(rec))
    return out
