"""Invariants across fields (issue 36, rigplan/opendb/invariants.py): planted bad records are corrected from a
platform fact or made unknown, inferred values carry their reason, the shipped catalog satisfies every invariant, and
docs/data.md reports each one with its counts."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from rigplan.model.parts import Kind
from rigplan.opendb import invariants
from rigplan.opendb.data_quality import Recorder, Tables, check

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables()


def run(kind: Kind, d: dict[str, Any], t: Tables) -> tuple[dict[str, Any], set[str]]:
    d = {"id": "planted", "kind": kind.value, **d}
    changes = check(kind, d, t)
    return d, {c.check for c in changes}


def test_dual_c612_board_listed_as_lga2011(tables: Tables) -> None:
    d, checks = run(
        Kind.MOTHERBOARD,
        {"name": "Supermicro X10DRL-i Dual-CPU", "socket": "2 x LGA 2011", "chipset": "Intel C612", "ram_type": "DDR4"},
        tables,
    )
    assert d["socket"] == "LGA 2011-3" and d["cpu_sockets"] == 2
    assert d["eps_connectors"] == ["8-pin", "8-pin"]
    assert "SSI EEB" in d["inferred"]["eps_connectors"] and "2 x LGA 2011" in d["inferred"]["cpu_sockets"]
    assert {"invariant board-socket-chipset", "invariant board-socket-count"} <= checks


def test_narrow_name_and_memory_from_chipset(tables: Tables) -> None:
    d, _ = run(
        Kind.MOTHERBOARD,
        {"name": "Board X LGA2011-3 Narrow", "socket": "LGA 2011-3", "chipset": "Intel X99", "ram_type": "DDR3"},
        tables,
    )
    assert d["socket"] == "LGA 2011-3 Narrow" and d["ram_type"] == "DDR4"


def test_m2_generation_clamped_to_the_platform(tables: Tables) -> None:
    slots = [
        {"size": "2280", "key": "M", "interface": "PCIe 4.0 x4"},
        {"size": "2280", "key": "M", "interface": "SATA"},
    ]
    d, checks = run(
        Kind.MOTHERBOARD,
        {"name": "Z390 board", "socket": "LGA 1151", "chipset": "Intel Z390", "m2_slots": slots},
        tables,
    )
    assert [s["interface"] for s in d["m2_slots"]] == ["PCIe 3.0 x4", "SATA"]
    assert "invariant board-m2-generation" in checks
    d, _ = run(Kind.MOTHERBOARD, {"name": "X670E board", "socket": "AM5", "chipset": "AMD X670E", "m2_slots": [
        {"size": "2280", "key": "M", "interface": "PCIe 5.0 x4"}]}, tables)  # fmt: skip
    assert d["m2_slots"][0]["interface"] == "PCIe 5.0 x4"  # within the platform: untouched


def test_board_video_sas_and_single_socket(tables: Tables) -> None:
    d, _ = run(Kind.MOTHERBOARD, {"name": "Board", "manufacturer": "Supermicro", "socket": "LGA 2011-3",
                                  "chipset": "Intel C612", "_video_hints": "Aspeed AST2400 BMC"}, tables)  # fmt: skip
    assert d["onboard_video"] == "ASPEED AST2400 (BMC)" and "_video_hints" not in d and d["cpu_sockets"] == 1
    d, _ = run(Kind.MOTHERBOARD, {"name": "Supermicro X11SSM-F", "manufacturer": "Supermicro", "socket": "LGA 1151",
                                  "chipset": "Intel C236"}, tables)  # fmt: skip
    assert "BMC" in d["onboard_video"] and "sas_ports" not in d  # a server chipset: SAS unknown
    d, _ = run(Kind.MOTHERBOARD, {"name": "ASUS PRIME Z790-P", "socket": "LGA 1700", "chipset": "Intel Z790"}, tables)
    assert d["sas_ports"] == 0 and "onboard_video" not in d and "desktop chipset" in d["inferred"]["sas_ports"]


def test_case_board_list_against_its_slots(tables: Tables) -> None:
    d, _ = run(Kind.CASE, {"name": "HTPC", "motherboard_form_factors": ["Mini-ITX"], "expansion_slots": 7}, tables)
    assert set(d["motherboard_form_factors"]) == {"Mini-ITX", "Micro ATX", "ATX"} and "ATX 2.2" in str(d["inferred"])
    d, _ = run(Kind.CASE, {"name": "Box", "motherboard_form_factors": ["Mini-ITX"], "expansion_slots": 5}, tables)
    assert "motherboard_form_factors" not in d
    d, _ = run(Kind.CASE, {"name": "Small", "motherboard_form_factors": ["Mini-ITX"], "expansion_slots": 3}, tables)
    assert d["motherboard_form_factors"] == ["Mini-ITX"]


@pytest.mark.parametrize(
    ("name", "length", "ff", "kept_length"),
    [
        ("Corsair SF1000L Black SFX 1000W", 130, "SFX-L", 130),
        ("Fractal Design Ion SFX 650W", 125, "SFX-L", 125),
        ("Corsair SF750 Platinum", 100, "SFX", 100),
        ("FSP Group Dagger SFX 600W", 110, "SFX", None),
    ],
)
def test_sfx_length(tables: Tables, name: str, length: int, ff: str, kept_length: int | None) -> None:
    d, _ = run(Kind.PSU, {"name": name, "form_factor": "SFX", "length_mm": length, "wattage": 650}, tables)
    assert d["form_factor"] == ff and d.get("length_mm") == kept_length


def test_psu_230v_and_sf1000_2024(tables: Tables) -> None:
    d, _ = run(
        Kind.PSU, {"name": "FSP Group CANNON PRO (230V) ATX 2000W", "form_factor": "ATX", "wattage": 2000}, tables
    )
    assert d["input_voltage_min_v"] == 200
    d, _ = run(
        Kind.PSU, {"name": "Corsair SF1000 (2024) Black SFX 1000W", "form_factor": "SFX", "wattage": 1000}, tables
    )
    assert d["atx3"] is True


def test_storage_protocol(tables: Tables) -> None:
    d, _ = run(Kind.STORAGE, {"name": "Intel DC P4510 2TB", "interface": "U.2", "nvme": False, "form_factor": "2.5\""},
               tables)  # fmt: skip
    assert d["nvme"] is True
    d, _ = run(Kind.STORAGE, {"name": "SATA SSD", "interface": "SATA 6.0 Gb/s", "nvme": True, "form_factor": "2.5\""},
               tables)  # fmt: skip
    assert d["nvme"] is False


def test_cpu_family_sockets_ecc_and_generation(tables: Tables) -> None:
    d, _ = run(Kind.CPU, {"name": "Intel Xeon E5-1650 v4", "socket": "LGA 2011-3"}, tables)
    assert d["max_sockets"] == 1
    d, _ = run(Kind.CPU, {"name": "Intel Xeon E5-2680 v4", "socket": "LGA 2011-3", "ecc": False}, tables)
    assert d["max_sockets"] == 2 and d["ecc"] is True
    d, _ = run(Kind.CPU, {"name": "AMD EPYC 7443P", "socket": "SP3"}, tables)
    assert d["max_sockets"] == 1
    d, _ = run(Kind.CPU, {"name": "Intel Core i9 13900K", "socket": "LGA 1700",
                          "microarchitecture": "Raptor Lake Refresh"}, tables)  # fmt: skip
    assert d["microarchitecture"] == "Raptor Lake"
    d, _ = run(Kind.CPU, {"name": "Intel Core i9-14900K", "socket": "LGA 1700", "microarchitecture": "Raptor Lake"},
               tables)  # fmt: skip
    assert d["microarchitecture"] == "Raptor Lake Refresh"


def test_noctua_i4_takes_the_narrow_ilm(tables: Tables) -> None:
    d, _ = run(Kind.COOLER, {"name": "Noctua NH-U12DXi4 Air 158mm", "manufacturer": "Noctua",
                             "sockets": ["LGA 2011", "LGA 2066"]}, tables)  # fmt: skip
    assert "LGA 2011-3 Narrow" in d["sockets"] and "LGA 2011" in d["sockets"]


SHIPPED = {Kind.MOTHERBOARD: "motherboard", Kind.CASE: "case", Kind.PSU: "psu", Kind.STORAGE: "storage",
           Kind.CPU: "cpu", Kind.COOLER: "cooler"}  # fmt: skip


@pytest.mark.parametrize("kind", list(SHIPPED), ids=[k.value for k in SHIPPED])
def test_the_shipped_catalog_satisfies_every_invariant(tables: Tables, kind: Kind) -> None:
    """Run over the whole catalog as shipped: every invariant holds, so none changes a value again (the import ran
    them all; a hand edit of parts/ that breaks one shows here)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    parts = yaml.load((ROOT / "parts" / f"{SHIPPED[kind]}.yaml").read_text("utf-8"), Loader=loader)["parts"]  # noqa: S506
    changed = []
    for part in parts:
        r = Recorder(kind, copy.deepcopy(part))
        invariants.run(r, tables)
        changed += [(c.part_id[:8], c.field, c.old, c.new) for c in r.changes]
    assert changed == []


def test_docs_report_each_invariant_with_counts() -> None:
    text = (ROOT / "docs" / "data.md").read_text("utf-8")
    for inv in invariants.INVARIANTS:
        row = re.search(rf"^\| `{re.escape(inv.id)}` \|.*\| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$", text, re.M)
        assert row, inv.id
    dual = re.search(r"^\| `board-socket-chipset` \|.*\| ([\d,]+) \| [\d,]+ \| [\d,]+ \|$", text, re.M)
    assert dual and int(dual.group(1)) >= 1  # the X10DRL-i's "2 x LGA 2011" is LGA 2011-3
