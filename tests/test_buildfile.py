"""Build files: exact round trip, self-contained snapshots, custom parts, and the JSON Schema."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from rigplan.catalog import Catalog
from rigplan.files import BuildFileError, dumps, json_schema, load, loads, missing_from_catalog, save
from rigplan.model import Assumptions, Build, BuildItem, Gpu, GpuPower, Kind, Price, Pricing
from rigplan.model.build import FORMAT_VERSION


def _build(catalog: Catalog) -> Build:
    gpu = catalog.get("d2fa0e60-8fa4-4703-a741-ced72bac4e74")
    cpu = catalog.get("63f23f26-d52c-4e3c-be6e-0d25163cff59")
    assert gpu is not None and cpu is not None
    quote = Price(amount=1749.0, currency="EUR", date=dt.date(2026, 11, 1), source="local shop quote")
    return Build(
        name="Round trip — ünïcode ✓",
        items=(BuildItem(part=cpu), BuildItem(part=gpu, quantity=2, price_override=quote)),
        assumptions=Assumptions(currency="EUR", usd_rate=0.92, electricity_per_kwh=0.31, pricing=Pricing.SPOT),
        notes="multi\nline notes",
    )


def test_round_trip_is_exact(tmp_path: Path, catalog: Catalog) -> None:
    build = _build(catalog)
    path = tmp_path / "rt.rigplan.yaml"
    save(build, path)
    first = path.read_bytes()
    loaded = load(path)
    assert loaded == build
    save(loaded, path)
    assert path.read_bytes() == first  # saving what was loaded changes nothing
    assert (tmp_path / "rt.rigplan.yaml.bak").read_bytes() == first


def test_examples_open_and_use_catalog_parts(examples_dir: Path, catalog: Catalog) -> None:
    files = sorted(examples_dir.glob("*.rigplan"))
    names = {f.name for f in files}
    assert {"budget-1-gpu.rigplan", "2x-rtx-4090.rigplan", "4-gpu-threadripper.rigplan"} <= names
    for f in files:
        if f.parent.name == "broken":
            continue
        build = load(f)
        assert build.items, f
        assert missing_from_catalog(build, catalog) == []
        for item in build.items:
            assert catalog.get(item.part.id) == item.part, f"{f.name}: snapshot differs from catalog"
    two = load(examples_dir / "2x-rtx-4090.rigplan")
    assert two.count(Kind.GPU) == 2
    four = load(examples_dir / "4-gpu-threadripper.rigplan")
    assert four.count(Kind.GPU) == 4


def test_part_missing_from_catalog_opens_with_its_snapshot(tmp_path: Path, catalog: Catalog) -> None:
    text = dumps(_build(catalog)).replace("d2fa0e60-8fa4-4703-a741-ced72bac4e74", "gone-from-catalog-0001")
    path = tmp_path / "old.rigplan.yaml"
    path.write_text(text, "utf-8")
    build = load(path)
    gpu = build.first(Kind.GPU)
    assert isinstance(gpu, Gpu)
    assert gpu.length_mm == 358 and gpu.tdp_w == 450  # the saved snapshot
    notes = missing_from_catalog(build, catalog)
    assert len(notes) == 1 and "no longer in the catalog" in notes[0] and "gone-from-catalog-0001" in notes[0]


def test_custom_part_round_trips(tmp_path: Path, catalog: Catalog) -> None:
    custom = Gpu(
        id="custom-used-3090",
        name="Used RTX 3090 from a friend",
        custom=True,
        price=Price(amount=650, date=dt.date(2026, 11, 20), source="my quote"),
        tdp_w=350,
        power_connectors=GpuPower(pin8=2),
        chipset="GeForce RTX 3090",
    )
    build = _build(catalog).model_copy(update={"items": (*_build(catalog).items, BuildItem(part=custom))})
    path = tmp_path / "custom.rigplan.yaml"
    save(build, path)
    again = load(path)
    assert again == build
    part = again.items[-1].part
    assert part.custom and part.name == "Used RTX 3090 from a friend"
    assert isinstance(part, Gpu) and part.length_mm is None  # unknown stays unknown
    assert missing_from_catalog(again, catalog) == []  # custom parts are never "missing"


def test_newer_format_is_refused_naming_both_versions() -> None:
    with pytest.raises(BuildFileError) as err:
        loads("format: rigplan-build\nformat_version: 99\nname: x\n", "future.rigplan.yaml")
    assert "version 99" in err.value.message and f"up to version {FORMAT_VERSION}" in err.value.message


def test_wrong_shape_names_the_field(catalog: Catalog) -> None:
    text = dumps(_build(catalog)).replace("quantity: 2", "quantity: -2")
    with pytest.raises(BuildFileError) as err:
        loads(text, "neg.rigplan.yaml")
    assert err.value.message.startswith("items.1.quantity")


def test_json_schema_describes_the_file() -> None:
    schema = json_schema()
    assert schema["properties"]["format"]["const"] == "rigplan-build"
    assert {"format", "format_version"} <= set(schema["required"])
    assert "items" in schema["properties"]
    json.dumps(schema)  # serialisable
