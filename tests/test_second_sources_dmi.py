"""linuxhw/DMI slot tables (issue 36): the parser on real dmidecode excerpts (tests/data/linuxhw-dmi, CC BY 4.0),
each disagreement class on a real table, the template filter, and the corrections they justified changing verdicts
on the real catalog."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

from rigplan.catalog import Catalog
from rigplan.model import Build, BuildItem, Kind
from rigplan.rules import check
from rigplan.rules.context import x16_size_slots

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import dmi_compare as dc  # noqa: E402
import dmi_slots as ds  # noqa: E402

DATA = ROOT / "tests" / "data" / "linuxhw-dmi"
PROART_X870E = "559dd16f-e58d-4214-bc52-df59fd890ded"


def probe(name: str) -> ds.Probe:
    return ds.parse((DATA / name).read_text("utf-8"), name)


def board(name: str, slots: list[dict[str, Any]], socket: str) -> dc.Board:
    """A catalog-like record with the given slots, matched to the one real probe."""
    p = probe(name)
    part = {"id": "t", "name": p.board, "socket": socket, "pcie_slots": slots}
    b = dc.Board(part, [p])
    b.table, b.agree, b.usable = ds.agreed([p])
    b.wiring = ds.wiring([p], ds.platform_of(socket))
    return b


def S(lanes: int, count: int = 1, physical: int | None = None, wired: str | None = None) -> dict[str, Any]:
    return {"gen": "4.0", "lanes": lanes, "count": count, "physical": physical, "wired_to": wired}


def test_new_format_gives_electrical_and_physical_width_and_the_cpu_root() -> None:
    p = probe("proart-x870e-creator-wifi.txt")
    assert (p.board_vendor, p.board) == ("ASUSTeK COMPUTER INC.", "ProArt X870E-CREATOR WIFI")
    # M.2 sockets are not card slots: three PCIe slots, all x16-size, wired x16 / x8 / x4
    assert [(s.designation, s.electrical, s.physical, s.gen) for s in p.slots] == [
        ("PCIEX16(G5)_1", 16, 16, 5),
        ("PCIEX16(G5)_2", 8, 16, 5),
        ("PCIEX16(G4)", 4, 16, 4),
    ]
    assert [ds.root(s.bus, "amd") for s in p.slots] == ["cpu", None, None]  # 00:01.1, then 00:1f.7 "not given"


def test_old_format_width_prefix_and_an_amd_bus_address_that_says_nothing() -> None:
    p = probe("tuf-gaming-b550-plus.txt")
    assert [(s.electrical, s.physical) for s in p.slots] == [(16, 16), (4, 16), (1, 1), (1, 1), (1, 1)]
    buses = {s.designation: s.bus for s in p.slots}
    assert buses["PCIEX1_2"] == "0000:03:02.0"
    assert ds.root(buses["PCIEX1_2"], "amd") is None  # behind a bridge: chipset or a CPU-port switch, not told
    assert ds.root(buses["PCIEX16_1"], "amd") == "cpu"  # 00:03.1, a GPP bridge


def test_intel_pch_root_ports_read_as_chipset() -> None:
    p = probe("prime-z790-a-wifi.txt")
    roots = {s.designation: ds.root(s.bus, "intel") for s in p.slots}
    assert roots["PCIEx16(G5)"] == "cpu"
    assert roots["PCIEX1(G3)_1"] == roots["PCIEX4(G4)"] == "chipset"  # 00:1c.0, 00:1d.0
    assert roots["PCIEX16(G4)"] is None  # "Unavailable" in this probe: no address (other probes give 00:1c.4)
    assert ds.root("0000:00:1f.7", "intel") is None and ds.root("ff:1f.7", "intel") is None
    assert ds.root("0000:00:1c.0", "hedt") is None  # several root complexes: not read


def test_reference_board_template_is_not_evidence() -> None:
    msi = probe("msi-b450m-pro-vdh-max-template.txt")
    assert msi.board == "B450M PRO-VDH MAX (MS-7A38)"
    assert len(msi.slots) >= 10  # a Micro ATX board "with" ten slots: AMD's reference-board table
    own = probe("tuf-gaming-b550-plus.txt")
    assert ds.templates([msi, own]) == {ds.table(msi)}


def test_count_class() -> None:
    b = board("tuf-gaming-b550-plus.txt", [S(16, 1, 16, "cpu"), S(4), S(1, 2, None, "chipset")], "AM4")
    assert dc.classify(b) == [("count", "catalog 4, DMI 5")]


def test_width_class() -> None:
    slots = [S(16, 1, 16, "cpu"), S(8, 1, 16), S(4), S(1, 2, None, "chipset")]  # an x8 where DMI says x4
    assert dc.classify(board("prime-z790-a-wifi.txt", slots, "LGA1700")) == [
        ("width", "catalog x16 x8 x4 x1 x1, DMI x16 x4 x4 x1 x1")
    ]


def test_physical_class_on_the_proart_x870e_source_value() -> None:
    # the catalog's value before the correction: the chipset slot x4 with no size
    b = board("proart-x870e-creator-wifi.txt", [S(16, 1, 16, "cpu"), S(8, 1, 16), S(4)], "AM5")
    assert ("physical", "DMI: 1 x4 slot(s) of x16 size; catalog: x4 size unstated") in dc.classify(b)


def test_wiring_class() -> None:
    slots = [S(16, 1, 16, "cpu"), S(4, 1, 16, "cpu"), S(4, 1, None, "cpu"), S(1, 2, None, "chipset")]
    found = dc.classify(board("prime-z790-a-wifi.txt", slots, "LGA1700"))
    assert found == [("wiring", "PCIEX4(G4) x4: catalog cpu, DMI bus address chipset")]


def test_name_matching_drops_only_words_one_side_writes() -> None:
    assert dc.key("ASUS", "Asus X870E ProArt CREATOR WIFI AM5 DDR5 ATX") == dc.key(
        "ASUSTeK COMPUTER INC.", "ProArt X870E-CREATOR WIFI"
    )
    assert dc.key("MSI", "MSI B560 M PRO-E DDR4 Micro ATX") == dc.key("Micro-Star", "B560M PRO-E (MS-7D22)")
    # Wi-Fi and non-Wi-Fi boards are kept apart; so are different makers
    assert dc.key("ASUS", "ASUS TUF GAMING B550-PLUS") != dc.key("ASUS", "ASUS TUF GAMING B550-PLUS WIFI")
    assert dc.key("ASUS", "B550 AORUS ELITE") != dc.key("Gigabyte", "B550 AORUS ELITE")


def test_corrections_cite_linuxhw_with_the_pinned_commit() -> None:
    fixes = yaml.safe_load((ROOT / "parts" / "corrections.yaml").read_text("utf-8"))["corrections"]
    dmi = [f for f in fixes if f["source"].startswith("linuxhw/DMI ")]
    assert len(dmi) == 17  # 16 of issue 36, and the ASUS Pro WS TRX50-SAGE WIFI (issue 37)
    assert all(f"@{ds.PIN}, CC BY 4.0" in f["source"] for f in dmi)


def test_proart_x870e_takes_three_single_slot_cards(catalog: Catalog) -> None:
    """Issue 36: the ProArt X870E read as two x16 slots, so three single-slot cards got a false error."""
    proart = catalog.get(PROART_X870E)
    assert proart is not None and proart.kind is Kind.MOTHERBOARD
    assert len(x16_size_slots(proart) or []) == 3  # type: ignore[arg-type]
    single = next(g for g in catalog.of_kind(Kind.GPU) if g.slot_width == 1)  # type: ignore[union-attr]
    cpu = next(p for p in catalog.of_kind(Kind.CPU) if p.socket == "AM5")  # type: ignore[union-attr]
    items = (BuildItem(part=cpu, quantity=1), BuildItem(part=proart, quantity=1), BuildItem(part=single, quantity=3))
    assert "gpu-slots" not in check(Build(name="t", items=items)).rules()
    # the source value the correction replaced gives the false error back
    fixes = yaml.safe_load((ROOT / "parts" / "corrections.yaml").read_text("utf-8"))["corrections"]
    was = next(f["was"] for f in fixes if f["id"] == PROART_X870E)
    before = proart.model_copy(update={"pcie_slots": tuple(type(proart.pcie_slots[0])(**s) for s in was)})  # type: ignore[union-attr, index]
    items_before = (items[0], BuildItem(part=before, quantity=1), items[2])
    assert "gpu-slots" in check(Build(name="t", items=items_before)).rules()
