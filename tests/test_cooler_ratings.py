"""parts/cooler-ratings.yaml (issue 37): coolers' capacity with a source, applied by the importer; a measured figure is
recorded as inferred; the bundled catalog carries them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rigplan.catalog.loader import load_base_catalog
from rigplan.model.parts import Cooler, Kind
from rigplan.opendb import cooler_ratings

RATINGS = Path(__file__).resolve().parents[1] / "parts" / "cooler-ratings.yaml"


def test_every_rating_has_a_source_and_a_date() -> None:
    ratings = cooler_ratings.load(RATINGS)
    assert len(ratings) >= 20
    assert all(r.source.strip() and r.date and r.watts > 0 for r in ratings)


def test_apply_rates_by_name_and_marks_a_measurement_inferred() -> None:
    recs = [
        {"id": "a", "name": "Thermalright AXP90-X36 Air Cooler Gray"},
        {"id": "b", "name": "Thermalright Peerless Assassin 120 SE Air 155mm Black"},
        {"id": "c", "name": "Iceberg Thermal IceFLOE T95 Air 41 CFM Teal / Silver"},
        {"id": "d", "name": "Thermalright AXP90-X36 Air Cooler Black", "rated_tdp_w": 90},  # the source's own
    ]
    changes = cooler_ratings.apply(cooler_ratings.load(RATINGS), recs)
    assert recs[0]["rated_tdp_w"] == 95 and "inferred" not in recs[0]  # the maker's figure
    assert recs[1]["rated_tdp_w"] == 250 and "published measurement" in recs[1]["inferred"]["rated_tdp_w"]
    assert "rated_tdp_w" not in recs[2]  # no source: unknown, never a guess
    assert recs[3]["rated_tdp_w"] == 90  # a rating the source data gives is kept
    assert [c.part_id for c in changes] == ["a", "b"]


def test_a_rating_without_a_source_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "cooler-ratings.yaml"
    bad.write_text("ratings:\n  - {match: '^X', rated_tdp_w: 100, basis: maker, date: '2024'}\n", "utf-8")
    with pytest.raises(cooler_ratings.RatingError, match="source"):
        cooler_ratings.load(bad)


def test_the_bundled_catalog_carries_the_ratings() -> None:
    coolers = [p for p in load_base_catalog().of_kind(Kind.COOLER) if isinstance(p, Cooler)]
    rated = [p for p in coolers if p.rated_tdp_w is not None]
    assert len(rated) >= 60 and sum(1 for p in rated if p.price) >= 25
    pa = next(p for p in rated if p.name.startswith("Thermalright Peerless Assassin 120 SE"))
    assert pa.rated_tdp_w == 250 and pa.inferred and "rated_tdp_w" in pa.inferred
