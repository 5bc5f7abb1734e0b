"""CPU coolers' capacity in watts (parts/cooler-ratings.yaml, issue 37): OpenDB gives no cooler a rating, so every
cooler was "capacity not checked" and the suggester put a $10 cooler on a 16-core CPU. The file names models by a
pattern of their name, each with its figure, what the figure is (the maker's rating, or a published measurement of
the model, which is recorded as inferred) and its source with a date. Applied on every import to coolers whose
source data has no rating; a cooler no entry names stays unknown."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from .corrections import entries
from .data_quality import Change


@dataclass(frozen=True)
class Rating:
    pattern: re.Pattern[str]
    watts: float
    basis: Literal["maker", "measured"]
    source: str
    date: str

    def why(self) -> str:
        if self.basis == "maker":
            return f"the maker's rating ({self.source}, {self.date})"
        return f"a published measurement of the model, not a maker's rating ({self.source}, {self.date})"


class RatingError(ValueError):
    pass


def load(path: Path) -> list[Rating]:
    out = []
    for i, e in enumerate(entries(path, "ratings")):
        missing = [k for k in ("match", "rated_tdp_w", "basis", "source", "date") if not e.get(k)]
        if missing or e["basis"] not in ("maker", "measured"):
            raise RatingError(f"{path.name}: rating {i + 1} lacks {', '.join(missing) or 'a basis of maker/measured'}")
        out.append(
            Rating(re.compile(e["match"], re.I), float(e["rated_tdp_w"]), e["basis"], e["source"], str(e["date"]))
        )
    return out


def apply(ratings: list[Rating], records: list[dict[str, Any]]) -> list[Change]:
    """Give each unrated cooler record the first matching rating (in place); a measured figure is also written to
    the record's `inferred` (field -> why). Returns the changes for the import report."""
    changes = []
    for d in records:
        if d.get("rated_tdp_w") is not None:
            continue
        hit = next((r for r in ratings if r.pattern.search(d["name"])), None)
        if hit is None:
            continue
        d["rated_tdp_w"] = hit.watts
        if hit.basis == "measured":
            d["inferred"] = {**(d.get("inferred") or {}), "rated_tdp_w": hit.why()}
        changes.append(Change("cooler", d["id"], d["name"], "rated_tdp_w", None, hit.watts, hit.why(), "rating"))
    return changes
