"""Issue 25: blower cards read by their product line (rules/blowers.py), in the catalog and for parts the importer
never saw; gpu-spacing warns only about open-air cards."""

from __future__ import annotations

import pytest

from rigplan.catalog import Catalog
from rigplan.model import Build, BuildItem, Gpu, Kind
from rigplan.rules import Severity, check
from rigplan.rules.blowers import blower_line
from rigplan.rules.context import open_air


def _named(catalog: Catalog, name: str) -> Gpu:
    hits = [g for g in catalog.of_kind(Kind.GPU) if g.name == name]
    assert len(hits) == 1, name
    assert isinstance(hits[0], Gpu)
    return hits[0]


def _warnings(gpu: Gpu, n: int) -> set[str]:
    return check(Build(name="t", items=(BuildItem(part=gpu, quantity=n),))).rules(Severity.WARNING)


def test_four_gigabyte_rtx_3090_turbo_are_not_packed_open_air_cards(catalog: Catalog) -> None:
    turbo = _named(catalog, "Gigabyte TURBO Black GeForce RTX 3090 24GB GDDR6X")
    assert turbo.cooling == "Blower" and open_air(turbo) is False
    assert "gpu-spacing" not in _warnings(turbo, 4)
    strix = _named(catalog, "Asus ROG STRIX GAMING OC GeForce RTX 4090 24GB GDDR6X Black")  # three axial fans
    assert open_air(strix) is True and "gpu-spacing" in _warnings(strix, 4)


@pytest.mark.parametrize(
    "maker,chipset,name,line",
    [
        ("ASUS", "GeForce RTX 4070", "Asus GeForce RTX 4070 Turbo 12GB GDDR6X Black", "asus-turbo"),
        ("Gigabyte", "GeForce GTX 1080", "Gigabyte TURBO OC GeForce GTX 1080 8GB", "gigabyte-turbo"),
        ("PNY", "GeForce RTX 2070", "PNY Blower GeForce RTX 2070 8GB GDDR6 Black", "named-blower"),
        (
            "EVGA",
            "GeForce GTX 1080 Ti",
            "EVGA GeForce GTX 1080 Ti FOUNDERS EDITION 11GB",
            "geforce-10-founders-edition",
        ),
        ("NVIDIA", "GeForce GTX 970", "NVIDIA GeForce GTX 970 4GB GDDR5", "nvidia-reference-titan-700-900-pascal"),
        ("PNY", "RTX A6000", "PNY NVIDIA RTX A6000 48GB GDDR6", "workstation"),
        ("AMD", "Radeon RX 5700 XT", "AMD Radeon RX 5700 XT 50th Anniversary 8GB", "amd-reference-polaris-vega-rdna1"),
        ("AMD", "Radeon RX Vega 64", "AMD Radeon RX Vega 64", "amd-reference-polaris-vega-rdna1"),
        # Not blowers: RTX 20-series and later Founders Edition (two axial fans), MSI's AERO ITX (one axial fan),
        # a partner GTX 970, a liquid edition, a Titan RTX (axial)
        ("NVIDIA", "GeForce RTX 2080", "NVIDIA Founders Edition GeForce RTX 2080 8GB", None),
        ("MSI", "GeForce GTX 1070", "MSI AERO ITX OC GeForce GTX 1070 8GB", None),
        ("Gigabyte", "GeForce GTX 970", "Gigabyte GeForce GTX 970 G1 Gaming", None),
        ("AMD", "Radeon Vega Frontier Edition", "AMD Vega Frontier Edition Liquid 16GB HBM2", None),
        ("NVIDIA", "TITAN RTX", "NVIDIA Titan RTX 24GB", None),
        ("Sapphire", "Radeon RX 5700 XT", "Sapphire NITRO+ Radeon RX 5700 XT 8GB", None),  # a partner's axial card
        ("AMD", "Radeon RX 6800 XT", "AMD Radeon RX 6800 XT 16GB", None),  # RDNA 2 reference: axial fans
    ],
)
def test_blower_lines_by_name(maker: str, chipset: str, name: str, line: str | None) -> None:
    found = blower_line(maker, chipset, name)
    assert (found.id if found else None) == line


def test_a_users_own_turbo_card_is_a_blower_and_a_two_fan_listing_keeps_its_fans() -> None:
    """A part that never went through the importer: one fan (or none) recorded, the name decides; a two-fan listing
    of a workstation line is a different cooler (RTX PRO 6000 Blackwell Workstation Edition: flow-through)."""
    mine = Gpu(id="mine", name="ASUS TURBO GeForce RTX 3090 24G", manufacturer="ASUS", chipset="GeForce RTX 3090")
    assert open_air(mine) is False  # no cooling recorded: the line decides, not "unknown"
    assert open_air(mine.model_copy(update={"cooling": "1 Fan"})) is False
    pro = Gpu(
        id="p", name="NVIDIA RTX PRO 6000 Blackwell Workstation Edition", chipset="RTX PRO 6000", cooling="2 Fans"
    )
    assert open_air(pro) is True
    assert open_air(Gpu(id="u", name="Some Card", cooling=None)) is None


def test_liquid_editions_listed_with_one_fan_are_not_open_air(catalog: Catalog) -> None:
    vega = _named(catalog, "AMD Vega Frontier Edition Liquid 16GB HBM2 Gold / Blue")
    assert vega.cooling == "Hybrid" and open_air(vega) is False
    own = Gpu(id="h", name="EVGA GeForce GTX 1080 FTW HYBRID", chipset="GeForce GTX 1080", cooling="1 Fan")
    assert open_air(own) is False


def test_every_catalog_blower_line_listing_is_marked_blower(catalog: Catalog) -> None:
    """The importer writes the table into the catalog: no one-fan listing of a blower line is left as "1 Fan"."""
    left = [
        g.name
        for g in catalog.of_kind(Kind.GPU)
        if isinstance(g, Gpu)
        and (g.cooling or "").startswith("1 Fan")
        and blower_line(g.manufacturer, g.chipset, g.name) is not None
    ]
    assert left == []
    assert sum(1 for g in catalog.of_kind(Kind.GPU) if g.cooling == "Blower") >= 150
