"""Second sources without a licence (issue 36): the PCPartPicker 2024 scrape and findmyprebuilt flag, never copy;
what they decide lands as a made-unknown or third-source correction; the workstation chipset rows they revealed
correct a planted board. The scrape's and findmyprebuilt's own files are not copied here (no licence): the inputs
below are written in their column formats."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from rigplan.catalog import Catalog
from rigplan.model import Kind
from rigplan.opendb.data_quality import Tables, check

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import fmp_chipsets as fc  # noqa: E402
import pcpp_flags as pf  # noqa: E402

CSV = "Name,Type,Wattage,Length\nUnit A,ATX,750 W,160 mm\nUnit B,SFX,1000 W,130 mm\nUnit C,ATX,850 W,140 mm\n"


def test_pcpp_flags_a_disagreement_and_skips_a_psu_of_another_wattage() -> None:
    scrape = pf.by_name(pf.rows(CSV))
    parts = [
        {"id": "a", "name": "A 750", "wattage": 750, "form_factor": "ATX", "length_mm": 140},
        {"id": "b", "name": "B 1000", "wattage": 1000, "form_factor": "SFX-L", "length_mm": 130},
        {"id": "c", "name": "C 1000", "wattage": 1000, "form_factor": "ATX", "length_mm": 150},  # not Unit C's 850 W
    ]
    n, found = pf.compare("psu", parts, scrape, {"a": "Unit A", "b": "Unit B", "c": "Unit C"})
    assert n == 2
    assert [(i, f) for i, _, f, _, _ in found] == [("a", "length_mm"), ("b", "form_factor")]
    # a length against a length, nothing decides: unknown; SFX vs SFX-L: the record's 130 mm length decides
    assert pf.unknown("psu", parts[0], "length_mm", "160 mm") is True
    assert pf.unknown("psu", parts[1], "form_factor", "SFX") is False


def test_pcpp_case_columns_read_as_the_catalog_means_them() -> None:
    assert pf._gpu_length('282 mm / 11.102" With Drive Cages, 400 mm / 15.748" Without Drive Cages') == 400
    assert pf._slots("7 x Full-Height, 3 x Full-Height via Riser") == 7
    assert pf._boards("ATX, EATX, Micro ATX, Mini ITX") == frozenset({"atx", "eatx", "microatx", "miniitx"})
    assert pf.unknown("case", {}, "max_gpu_length_mm", '325 mm / 12.795"') is True
    assert pf.unknown("case", {}, "max_gpu_length_mm", "210 mm With Drive Cages, 350 mm Without Drive Cages") is False


def test_pcpp_decisions_are_in_the_catalog_without_its_values(catalog: Catalog) -> None:
    fixes = yaml.safe_load((ROOT / "parts" / "corrections.yaml").read_text("utf-8"))["corrections"]
    pcpp = [f for f in fixes if "PcPartPicker-Scraping" in f["source"]]
    assert {(f["id"][:8], f["value"]) for f in pcpp} == {
        ("3ee3bfd9", None), ("fb53c01d", None), ("b94b1010", 325), ("beae551e", 325)
    }  # fmt: skip
    mwe, pa602, ridge = (catalog.get(i) for i in ("3ee3bfd9-5c7a-4d8c-8ff3-a70c37504d1d",
                         "fb53c01d-36be-4892-a4b9-663e6183bc43", "b94b1010-5eda-4636-92a9-197bb6001245"))  # fmt: skip
    assert mwe.length_mm is None and pa602.max_gpu_length_mm is None  # type: ignore[union-attr]
    assert ridge.max_gpu_length_mm == 325  # type: ignore[union-attr]  # Tom's Hardware decides


def test_fmp_chipset_table_and_the_faster_than_chipset_flag() -> None:
    ts = """export const intelChipsets = [
    { name: 'W880', pci_generation: 4, cpu_oc: false },
    { id: "x", name: 'H410', pci_generation: 2, cpu_oc: false },
]
export const formFactors = [
  {name: "ATX"},
]"""
    gens = fc.chipsets(ts)
    assert gens == {"W880": 4, "H410": 2}
    board = {"id": "b", "name": "H410 board", "chipset": "Intel H410",
             "pcie_slots": [{"gen": "3.0", "lanes": 1, "count": 1, "wired_to": "chipset"},
                            {"gen": "3.0", "lanes": 16, "count": 1, "wired_to": "cpu"}]}  # fmt: skip
    assert fc.faster_than_chipset([board], gens) == [
        ("b", "H410 board", "H410", "chipset slot PCIe 3.0 x1, chipset PCIe 2.0")
    ]


def test_workstation_chipset_rows_correct_socket_and_memory() -> None:
    t = Tables()
    d = {"id": "p", "kind": "motherboard", "name": "W680 board", "socket": "LGA 1200", "chipset": "Intel W680",
         "ram_type": "DDR5"}  # fmt: skip
    checks = {c.check for c in check(Kind.MOTHERBOARD, d, t)}
    assert d["socket"] == "LGA 1700" and d["ram_type"] == "DDR5" and "invariant board-socket-chipset" in checks
    d = {"id": "q", "kind": "motherboard", "name": "W880 board", "socket": "LGA 1851", "chipset": "Intel W880",
         "ram_type": "DDR4"}  # fmt: skip
    check(Kind.MOTHERBOARD, d, t)
    assert d["ram_type"] == "DDR5"  # Arrow Lake runs DDR5 only
