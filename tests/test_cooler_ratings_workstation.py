"""Workstation-socket cooler ratings (issue 37): the entries parts/cooler-ratings.yaml adds for coolers that fit the
TR4-SP3 family mount (sTRX4 / sTR5 / sWRX8), SP5, SP6 and LGA 4677 reach the parts they name in the shipped catalog
and, through them, the cooler-capacity rule. Real catalog, real rule; no figure here is planted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from catalog_parts import build
from rigplan.catalog import Catalog
from rigplan.catalog.loader import load_base_catalog
from rigplan.model.parts import Cooler, Kind, Part
from rigplan.opendb import cooler_ratings
from rigplan.rules import Severity, check
from rigplan.rules.platforms import platforms

RATINGS = Path(__file__).resolve().parents[1] / "parts" / "cooler-ratings.yaml"

# The workstation section's entries: pattern -> (watts, basis, how many catalog coolers it names). The NZXT Kraken
# 240 RGB (2023) comes in black and white; the catalog lists both with sTR4 / sTRX4 among their sockets.
KRAKEN_240_RGB = r"^NZXT Kraken Water 240mm RGB (Black|White)$"
ENTRIES = {KRAKEN_240_RGB: (150.0, "measured", 2)}

TR_FAMILY = "amd-tr4"  # parts/platforms.yaml: sTR4, sTRX4, sTR5, sWRX8 and SP3 share this cooler mount
WORKSTATION_MOUNTS = {TR_FAMILY, "amd-sp5", "amd-sp6", "intel-4677"}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_base_catalog()


def _coolers(catalog: Catalog) -> list[Cooler]:
    return [p for p in catalog.of_kind(Kind.COOLER) if isinstance(p, Cooler)]


def _named(catalog: Catalog, kind: Kind, name: str) -> Part:
    (hit,) = [p for p in catalog.of_kind(kind) if p.name == name]
    return hit


def _workstation(cooler: Cooler) -> bool:
    return any(platforms().mount(s) in WORKSTATION_MOUNTS for s in cooler.sockets or ())


def test_each_workstation_entry_applies_to_the_parts_it_names(catalog: Catalog) -> None:
    ratings = {r.pattern.pattern: r for r in cooler_ratings.load(RATINGS)}
    for pattern, (watts, basis, count) in ENTRIES.items():
        rating = ratings[pattern]
        assert (rating.watts, rating.basis) == (watts, basis)
        assert rating.source.strip() and rating.date
        named = [c for c in _coolers(catalog) if re.search(pattern, c.name, re.I)]
        assert len(named) == count, [c.name for c in named]
        for cooler in named:
            assert cooler.rated_tdp_w == watts
            assert _workstation(cooler), cooler.sockets  # an entry of this section names a workstation-socket cooler
            if basis == "measured":  # a measurement is marked inferred, with its source, on the part itself
                assert cooler.inferred and "published measurement" in cooler.inferred["rated_tdp_w"]
                assert "overclocking.com" in cooler.inferred["rated_tdp_w"]


def test_no_workstation_cooler_carries_a_rating_without_a_source(catalog: Catalog) -> None:
    """Every rated cooler for a workstation socket is rated by an entry of cooler-ratings.yaml (the source data gives
    none): a figure with no source behind it would be a guess presented as fact."""
    ratings = cooler_ratings.load(RATINGS)
    rated = [c for c in _coolers(catalog) if _workstation(c) and c.rated_tdp_w is not None]
    assert {c.name for c in rated} == {"NZXT Kraken Water 240mm RGB Black", "NZXT Kraken Water 240mm RGB White"}
    for cooler in rated:
        hit = next(r for r in ratings if r.pattern.search(cooler.name))
        assert hit.watts == cooler.rated_tdp_w


def _capacity(catalog: Catalog, cpu_name: str, cooler: Part) -> tuple[list[str], list[str]]:
    """cooler-capacity's warnings and its "not checked" reasons for a build of this CPU and cooler."""
    r = check(build((_named(catalog, Kind.CPU, cpu_name), 1), (cooler, 1)))
    warned = [f.message for f in r.findings if f.rule == "cooler-capacity" and f.severity is Severity.WARNING]
    return warned, [n.reason for n in r.not_checked if n.rule == "cooler-capacity"]


def test_a_threadripper_with_the_rated_kraken_fails_cooler_capacity(catalog: Catalog) -> None:
    """The 3960X sustains 280 W (Threadripper: PPT = TDP); the Kraken 240 RGB failed a 200 W load: the rule warns with
    both figures instead of "not checked"."""
    kraken = _named(catalog, Kind.COOLER, "NZXT Kraken Water 240mm RGB Black")
    warned, unchecked = _capacity(catalog, "AMD Ryzen Threadripper 3960X", kraken)
    assert unchecked == []
    assert len(warned) == 1 and "rated for 150 W" in warned[0] and "sustains 280 W" in warned[0]


def test_the_same_rating_passes_a_cpu_it_covers(catalog: Catalog) -> None:
    """The other side of the same sourced figure: a Ryzen 5 7600 sustains 88 W (AMD's PPT): the Kraken passes
    cooler-capacity (no warning, not "not checked"). No Threadripper cooler has a sourced rating at or above a
    Threadripper's sustained power (180-350 W), so this pass is shown on AM5."""
    kraken = _named(catalog, Kind.COOLER, "NZXT Kraken Water 240mm RGB White")
    assert _capacity(catalog, "AMD Ryzen 5 7600", kraken) == ([], [])


def test_an_unrated_threadripper_cooler_stays_not_checked(catalog: Catalog) -> None:
    """The cooler the 3-4 GPU answers choose has no sourced rating: "not checked" naming the CPU's power, never a pass
    and never a warning built on a guess."""
    x9 = _named(catalog, Kind.COOLER, "Iceberg Thermal IceSLEET X9 Dual TR Air 166mm Teal / Silver")
    warned, unchecked = _capacity(catalog, "AMD Ryzen Threadripper 3960X", x9)
    assert warned == []
    assert len(unchecked) == 1 and "rating is not in the data" in unchecked[0] and "280 W" in unchecked[0]
