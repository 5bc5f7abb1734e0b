"""Issue 25: every price join (exact name, tokens, attributes) passes the model-word checks, and the importer records
which price row priced each part."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from rigplan.catalog import Catalog
from rigplan.model import Kind
from rigplan.model.common import SOURCED_PRICES

ROOT = Path(__file__).resolve().parents[1]

from rigplan.opendb.price_checks import join_problem  # noqa: E402


@pytest.mark.parametrize(
    ("kind", "row", "part", "why"),
    [
        (Kind.CPU, {"name": "Intel Core i5-3550"}, {"name": "Intel Core i5 3550S OEM/Tray"}, "model suffix"),
        (Kind.CPU, {"name": "AMD Ryzen 9 7950X"}, {"name": "AMD Ryzen 9 7950X3D"}, "model suffix"),
        (
            Kind.MOTHERBOARD,
            {"name": "Gigabyte B650 AORUS ELITE AX"},
            {"name": "Gigabyte B650E AORUS ELITE AX"},
            "suffix",
        ),
        (Kind.STORAGE, {"name": "Toshiba S300 Pro"}, {"name": 'Toshiba X300 Pro 8TB 3.5" HDD'}, "model letters"),
        (
            Kind.MEMORY,
            {"name": "Patriot Viper 4 16 GB"},
            {"name": "Patriot Viper Elite DDR4-2400 CL15 16GB"},
            "borrowed",
        ),
        (
            Kind.GPU,
            {"name": "MSI VENTUS 3X", "chipset": "GeForce RTX 4070"},
            {"name": "MSI GeForce RTX 4070 VENTUS 3X OC 12G", "chipset": "GeForce RTX 4070"},
            "premium variant",
        ),
        (
            Kind.STORAGE,
            {"name": "Plextor M6M", "form_factor": "mSATA"},
            {"name": "Plextor M6M 256GB", "form_factor": '2.5"'},
            "form factor",
        ),
        (
            Kind.STORAGE,
            {"name": "Intel DC P3600", "form_factor": '2.5"', "interface": "U.2"},
            {"name": "Intel DC P3600 400GB", "form_factor": "PCIe", "interface": "PCIe x4"},
            "form factor",
        ),
        (
            Kind.STORAGE,
            {"name": "KingSpec XF", "form_factor": "M.2-2230"},
            {"name": "KingSpec XF 1TB", "form_factor": "M.2-2280"},
            "form factor",
        ),
    ],
)
def test_a_sibling_product_is_refused(kind: Kind, row: dict, part: dict, why: str) -> None:
    problem = join_problem(kind, row, part)
    assert problem is not None and why in problem


@pytest.mark.parametrize(
    ("kind", "row", "part"),
    [
        (Kind.CPU, {"name": "Intel Core i5-3550"}, {"name": "Intel Core i5-3550"}),
        (Kind.MOTHERBOARD, {"name": "ASRock A520M-HDV"}, {"name": "ASRock A520 M-HDV DDR4 Micro ATX"}),
        (Kind.MEMORY, {"name": "Corsair Vengeance RGB 64 GB"}, {"name": "Corsair Vengeance RGB DDR5-6400 CL32 64GB"}),
        (Kind.COOLER, {"name": "Antec VORTEX 240"}, {"name": "Antec VORTEX Water 240mm Black"}),
        (
            Kind.PSU,
            {"name": "EVGA 650 B5"},
            {"name": "EVGA 650 B5 Black 650W Fully Modular 80+ Bronze", "wattage": 650},
        ),
        (
            Kind.GPU,
            {"name": "MSI VENTUS 3X OC", "chipset": "GeForce RTX 4070 Ti"},
            {"name": "MSI GeForce RTX 4070 Ti VENTUS 3X OC 12G", "chipset": "GeForce RTX 4070 Ti"},
        ),
    ],
)
def test_the_same_product_passes(kind: Kind, row: dict, part: dict) -> None:
    assert join_problem(kind, row, part) is None


def test_every_priced_part_names_its_price_row_and_passes_the_checks(catalog: Catalog) -> None:
    rows = list(csv.DictReader((ROOT / "parts" / "price_sources.csv").open(encoding="utf-8")))
    every = {p.id: p for k in Kind for p in catalog.of_kind(k) if p.price is not None}
    # A price of parts/list-prices.yaml (issue 37: a maker's list price, a dated retail listing) has no PCPartPicker
    # row: it names its source instead.
    listed = {i for i, p in every.items() if p.price is not None and p.price.source.startswith(SOURCED_PRICES)}
    assert listed and all(every[i].price.source.count("http") == 1 for i in listed)  # type: ignore[union-attr]
    priced = {i: p for i, p in every.items() if i not in listed}
    assert {r["part_id"] for r in rows} == set(priced)
    assert {r["join"] for r in rows} == {"exact", "tokens", "attributes"}
    for r in rows:
        part = priced[r["part_id"]]
        assert part.price is not None and abs(part.price.amount - float(r["price_usd"])) < 0.005
        row = {"name": r["price_row"], **json.loads(r["price_row_attributes"])}
        assert join_problem(Kind(r["kind"]), row, part.model_dump()) is None, (r["price_row"], part.name)


def test_the_report_counts_dropped_joins_by_reason() -> None:
    text = (ROOT / "docs" / "data.md").read_text(encoding="utf-8")
    assert "## Price joins checked for the right product (issue 25)" in text
    assert "| cpu | (tokens): model suffix |" in text
    dropped = list(csv.DictReader((ROOT / "docs" / "price-joins-dropped.csv").open(encoding="utf-8")))
    assert any(d["price_row"] == "Intel Core i5-3550" and "3550s" in d["reason"] for d in dropped)
