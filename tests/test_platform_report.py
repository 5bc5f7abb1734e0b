"""docs/data.md's "Workstation platforms for 3+ GPUs" (issue 37): per current workstation platform, the catalog's
parts of each kind a build needs, how many are priced, and the kind whose missing price keeps the suggester off it."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from catalog_parts import build, part
from rigplan.catalog import Catalog
from rigplan.model.parts import Kind
from rigplan.opendb import platform_report as pr
from rigplan.rules import check
from rigplan.rules.findings import Severity

ROOT = Path(__file__).resolve().parents[1]
TR_7960X = "6cac8d9c-"  # AMD Ryzen Threadripper 7960X (sTR5, no price in the 2025-07-23 snapshot)
AERO_D = "24ab4038-"  # Gigabyte TRX50 AERO D (sTR5, AMD TRX50)
NH_U14S_TR4 = "Noctua NH-U14S Air 165mm TR4-SP3 82.52 CFM"  # lists sTR4 and sTRX4 only


@pytest.fixture(scope="module")
def records(catalog: Catalog) -> dict[Kind, list[dict[str, Any]]]:
    return {k: [p.model_dump(mode="json") for p in catalog.of_kind(k)] for k in pr.NEEDED}


def _platform(cov: list[pr.Coverage], socket: str, pro: bool) -> pr.Coverage:
    return next(c for c in cov if c.platform.socket == socket and ("PRO" in c.platform.name) == pro)


def test_every_str5_cpu_and_board_is_counted_under_its_product_line(records: dict[Kind, list[dict[str, Any]]]) -> None:
    cov = pr.coverage(records)
    trx50, pro = _platform(cov, "sTR5", False), _platform(cov, "sTR5", True)
    str5_cpus = [d for d in records[Kind.CPU] if d.get("socket") == "sTR5"]
    wx = [d for d in str5_cpus if re.search(r"\d{4}WX\b", d["name"])]
    assert str5_cpus and wx
    assert trx50.total[Kind.CPU] == len(str5_cpus) - len(wx) and pro.total[Kind.CPU] == len(wx)
    boards = [d for d in records[Kind.MOTHERBOARD] if d.get("socket") == "sTR5"]
    trx50_boards = [d for d in boards if (d.get("chipset") or "").endswith("TRX50")]
    assert trx50.total[Kind.MOTHERBOARD] == len(trx50_boards) >= 3  # TRX50 AERO D, TRX50 AI TOP, TRX50-SAGE
    assert pro.total[Kind.MOTHERBOARD] == len(boards)  # WRX90 boards too (the WRX90E-SAGE SE supplement board)
    assert trx50.total[Kind.MEMORY] == sum(
        1 for d in records[Kind.MEMORY] if d.get("ram_type") == "DDR5" and d.get("registered") is True
    )


def test_the_wrx80_platform_counts_ddr4_rdimm_kits_and_the_others_ddr5(
    records: dict[Kind, list[dict[str, Any]]],
) -> None:
    def registered(ddr: str) -> int:
        return sum(1 for d in records[Kind.MEMORY] if d.get("ram_type") == ddr and d.get("registered") is True)

    by_socket = {c.platform.socket: c for c in pr.coverage(records)}
    assert by_socket["sWRX8"].total[Kind.MEMORY] == registered("DDR4") > 0
    assert by_socket["SP5"].total[Kind.MEMORY] == by_socket["LGA 4677"].total[Kind.MEMORY] == registered("DDR5")
    assert by_socket["sWRX8"].total[Kind.CPU] == 2  # Threadripper PRO 5975WX and 5995WX (parts/workstation.yaml)


def test_a_tr4_sp3_cooler_counts_for_str5_by_its_mount_and_an_am5_cooler_does_not(
    records: dict[Kind, list[dict[str, Any]]],
) -> None:
    trx50 = next(p for p in pr.PLATFORMS if p.socket == "sTR5")
    members = {d["name"] for d in pr._members(trx50, Kind.COOLER, records[Kind.COOLER])}
    noctua = next(d for d in records[Kind.COOLER] if d["name"] == NH_U14S_TR4)
    assert "sTR5" not in noctua["sockets"] and NH_U14S_TR4 in members
    am5_only = next(d for d in records[Kind.COOLER] if d.get("sockets") == ["AM5"])
    assert am5_only["name"] not in members


def test_the_missing_kinds_are_those_without_a_priced_part_and_a_price_clears_them(
    records: dict[Kind, list[dict[str, Any]]],
) -> None:
    wrx80 = next(c for c in pr.coverage(records) if c.platform.socket == "sWRX8")
    for kind in pr.NEEDED:  # the report's verdict matches the catalog, kind by kind
        assert (kind in wrx80.missing()) == (wrx80.priced[kind] == 0)
    assert wrx80.missing() == [Kind.CPU, Kind.MOTHERBOARD]  # Threadripper PRO 5000WX: nothing of the line priced

    priced = copy.deepcopy(records)
    price = {"amount": 1.0, "currency": "USD", "date": "2026-11-28", "source": "a test's price"}
    for kind in (Kind.CPU, Kind.MOTHERBOARD):
        next(d for d in priced[kind] if d.get("socket") == "sWRX8")["price"] = price
    after = next(c for c in pr.coverage(priced) if c.platform.socket == "sWRX8")
    assert after.missing() == []
    row = next(line for line in pr.section(priced) if line.startswith("| Ryzen Threadripper PRO 5000 WX on WRX80"))
    assert row.endswith("| nothing (a build can be priced) |")
    assert "1 / " in row.split("|")[2]  # one priced CPU of the line


def test_the_swiss_listings_price_a_trx50_build(records: dict[Kind, list[dict[str, Any]]]) -> None:
    """The 7960X and the TRX50-SAGE carry dated Swiss retail listings (parts/list-prices.yaml, basis retail): the
    TRX50 line misses nothing, and the cheapest CPU and board are those two, each with its listing as source."""
    trx50 = _platform(pr.coverage(records), "sTR5", False)
    assert trx50.missing() == []
    cpu, board = trx50.cheapest[Kind.CPU], trx50.cheapest[Kind.MOTHERBOARD]
    assert cpu["id"].startswith(TR_7960X) and board["name"] == "ASUS Pro WS TRX50-SAGE WIFI"
    for d, chf in ((cpu, "CHF 966.00"), (board, "CHF 642.00")):  # stored in USD at the ECB rate of the listing's date
        assert (d["price"]["currency"], d["price"]["date"]) == ("USD", "2026-02-17")
        src = d["price"]["source"]
        assert src.startswith("retail listing: Swiss retail, the lowest price toppreise.ch listed")
        per = float(re.search(rf"{chf} at the ECB reference rate of 2026-02-17, ([\d.]+) CHF per USD", src).group(1))  # type: ignore[union-attr]
        assert d["price"]["amount"] == pytest.approx(float(chf.split()[1]) / per, rel=2e-4)  # the rate said to 4 places
    assert trx50.priced[Kind.CPU] == 1 and trx50.priced[Kind.MOTHERBOARD] == 1  # AERO D and AI TOP stay unpriced
    assert next(d for d in records[Kind.MOTHERBOARD] if d["id"].startswith(AERO_D)).get("price") is None


def test_the_epyc_list_prices_leave_sp5_missing_only_its_board_and_cooler(
    records: dict[Kind, list[dict[str, Any]]],
) -> None:
    sp5 = next(c for c in pr.coverage(records) if c.platform.socket == "SP5")
    assert sp5.priced[Kind.CPU] == 3  # EPYC 9124, 9354P, 9554: AMD's 1kU prices (parts/list-prices.yaml)
    assert sp5.cheapest[Kind.CPU]["name"] == "AMD EPYC 9124"
    assert sp5.cheapest[Kind.CPU]["price"]["source"].startswith("list price: AMD 1kU list price, 2023-07-09, AMD")
    assert sp5.missing() == [Kind.MOTHERBOARD, Kind.COOLER]


def test_docs_data_md_carries_the_section_the_catalog_gives(records: dict[Kind, list[dict[str, Any]]]) -> None:
    text = (ROOT / "docs" / "data.md").read_text("utf-8")
    lines = pr.section(records)
    start = text.index(lines[0])
    assert text[start:].splitlines()[: len(lines)] == lines


def test_four_blower_gpus_on_the_trx50_sage_are_checked_slot_by_slot_and_pass_at_240_v(catalog: Catalog) -> None:
    """The board's PCIe 5.0 x8 slot is x16-size (linuxhw/DMI, parts/corrections.yaml): with four x16-size slots the
    gpu-slots rule checks four cards instead of leaving them 'not checked', and a Threadripper 7970X build with a
    registered DDR5 kit and a TR4-SP3 cooler passes every rule on a 240 V / 30 A circuit."""
    sage = part(catalog, "7dd5b755")
    assert [(s.gen, s.lanes, s.count, s.physical) for s in sage.pcie_slots][:2] == [
        ("5.0", 16, 2, 16),
        ("5.0", 8, 1, 16),
    ]
    b = build(
        (part(catalog, "d5ff7ec3"), 1),  # AMD Ryzen Threadripper 7970X
        (sage, 1),
        (part(catalog, "5fa38eee"), 1),  # G.Skill Zeta R5 Neo Registered DDR5-6000 128GB (4x32GB)
        (part(catalog, "1dc41387"), 1),  # Noctua NH-U12S TR4-SP3 (lists sTR4, sTRX4: the TR4 / SP3 family mount)
        (part(catalog, "060a50e7"), 1),  # Samsung 990 Pro 2TB
        (part(catalog, "35e4d252"), 4),  # PNY RTX A5000 (2-slot blower)
        (part(catalog, "0cc671f4"), 1),  # MSI MEG Ai-T 1600W
        (part(catalog, "6364fa3c"), 1),  # Fractal Design Define 7 XL (SSI CEB / EEB)
        wall_voltage=240,
        wall_amps=30,
    )
    r = check(b)
    assert not [f for f in r.findings if f.severity is Severity.ERROR]
    assert "gpu-slots" not in {n.rule for n in r.not_checked}
    assert any(f.rule == "cooler-socket" and "TR4 / SP3" in f.message for f in r.findings)
