"""PCPartPicker list import (issue 19) on hand-written exports in the published Text and Markup formats, against the
real catalog: every line's part and price is checked."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from rigplan.catalog import Catalog
from rigplan.cli.main import run_cli
from rigplan.costs.analysis import cost_build
from rigplan.files import load, save
from rigplan.imports.list_import import apply_picks, match_list, to_build
from rigplan.imports.pcpartpicker import ListFormatError, parse_list
from rigplan.kinds import Kind

DATA = Path(__file__).parent / "data" / "pcpartpicker"

RYZEN_7950X = "63f23f26-d52c-4e3c-be6e-0d25163cff59"
RTX_4090_FE = "7b22a20f-74d2-4855-85d2-b4674da07de1"
SAMSUNG_990_PRO_2TB = "18e3b4f5-7f63-4cf9-a266-141344d2cd82"
PROART_X670E = "acaef132-83e0-4c7f-8e96-b333deafdf8d"
RM1000X_2021 = "a3301677-be7d-487a-948a-05edcccaefde"
I5_13400F = "22546c6c-9af1-4646-a9af-0ede3444c6b7"
ENTHOO_PRO_2_SERVER = "39285a3d-4800-4e0f-abc9-e027a30ead20"
DARK_POWER_PRO_13_1600 = "076cbb45-7984-4d95-9f3f-c9c52d077f74"
RENEGADE_PRO_4X32 = "b7aa4c83-2bd0-4711-ab85-6c4431d81a7e"  # Kingston FURY Renegade Pro DDR5-5600 CL28 4x32GB


def _lines(result):  # noqa: ANN001, ANN202
    return [(ln.status, ln.choice, ln.line.amount, ln.line.currency) for ln in result.lines]


def test_budget_text_list(catalog: Catalog) -> None:
    result = match_list((DATA / "budget.txt").read_text(), catalog)
    assert result.parts.format == "text"
    assert result.parts.date == dt.date(2025, 7, 23)
    assert result.parts.total == pytest.approx(1152.89)
    assert result.parts.url == "https://pcpartpicker.com/list/Bq7mXy"
    assert _lines(result) == [
        ("matched", I5_13400F, 179.99, "USD"),
        ("matched", "20d00588-4011-47ea-a5ae-1d1af0fceb29", 119.99, "USD"),  # GIGABYTE B760M DS3H AX
        ("uncertain", None, 77.98, "USD"),  # Vengeance LPX 2x16 DDR4-3600 CL18: black and black/yellow
        ("matched", SAMSUNG_990_PRO_2TB, 149.99, "USD"),
        ("uncertain", None, 299.97, "USD"),  # Ventus 2X 12G: the catalog has it with and without "OC"
        ("uncertain", None, 94.99, "USD"),  # 4000D Airflow in black and in white
        ("uncertain", None, 109.99, "USD"),  # RM850e: 2022, 2025, black, white; no "(2023)"
        ("other", None, 119.99, "USD"),  # Windows: an Other item (issue 29)
    ]
    build = to_build(result, catalog)
    assert len(build.items) == 7
    cpu = build.items[0]
    assert cpu.part.id == I5_13400F and not cpu.part.custom
    assert cpu.price_override is not None
    assert cpu.price_override.amount == 179.99 and cpu.price_override.currency == "USD"
    assert cpu.price_override.date == dt.date(2025, 7, 23)
    assert cpu.price_override.source == "PCPartPicker list (Amazon)"
    # Unconfirmed lines are custom parts with the list's name and price, never the best guess.
    gpu = build.of_kind(Kind.GPU)[0]
    assert gpu.part.custom and gpu.part.name.startswith("MSI GeForce RTX 3060 Ventus 2X 12G")
    assert gpu.price_override is not None and gpu.price_override.amount == 299.97
    assert "Operating system: Microsoft Windows 11 Home" in build.notes  # the report names the Other item
    assert [(o.name, o.category.value, o.price.amount if o.price else None) for o in build.other] == [
        ("Microsoft Windows 11 Home OEM - DVD 64-bit", "os", 119.99)
    ]
    assert "Unconfirmed matches" in build.notes


def test_budget_picks_confirm_the_uncertain_lines(catalog: Catalog) -> None:
    result = match_list((DATA / "budget.txt").read_text(), catalog)
    gpu_candidates = [c.part_id for c in result.lines[4].match.candidates]  # type: ignore[union-attr]
    assert gpu_candidates[0] == "c4c44fc0-9231-4578-b947-0ccd887d97e1"  # VENTUS 2X 12G OC, the closest name
    apply_picks(result, {4: "e92b889c-6c80-41a8-9006-bdc6dce764b3"}, catalog)  # the user picks the non-OC card
    build = to_build(result, catalog)
    gpu = build.of_kind(Kind.GPU)[0]
    assert gpu.part.id == "e92b889c-6c80-41a8-9006-bdc6dce764b3" and gpu.part.name.endswith("12GB GDDR6")
    assert gpu.price_override is not None and gpu.price_override.amount == 299.97  # the list's price, not the catalog's
    with pytest.raises(ValueError, match="is a Video Card"):
        apply_picks(result, {4: I5_13400F}, catalog)
    with pytest.raises(ValueError, match="not in the list"):
        apply_picks(result, {40: I5_13400F}, catalog)


def test_two_gpu_markup_list(catalog: Catalog) -> None:
    result = match_list((DATA / "two-gpu.md").read_text(), catalog)
    assert result.parts.format == "markup"
    assert result.parts.total == pytest.approx(5318.79)
    assert result.parts.date == dt.date(2025, 7, 23)
    assert _lines(result) == [
        ("matched", RYZEN_7950X, 549.0, "USD"),
        ("matched", "3bfcf7c5-ae6c-4c84-a94a-57227fd7c7cc", 109.95, "USD"),  # Noctua NH-D15 (not chromax, not G2)
        ("matched", PROART_X670E, 459.99, "USD"),
        ("uncertain", None, 189.99, "USD"),  # Corsair Vengeance 2x32 DDR5-6000 CL30: several colours
        ("matched", SAMSUNG_990_PRO_2TB, 169.99, "USD"),
        ("matched", RTX_4090_FE, 1599.99, "USD"),
        ("matched", RTX_4090_FE, 1599.99, "USD"),
        ("matched", ENTHOO_PRO_2_SERVER, 169.99, "USD"),
        ("matched", DARK_POWER_PRO_13_1600, 469.9, "USD"),
    ]
    assert result.parts.lines[0].url == "https://pcpartpicker.com/product/22XJ7P/amd-ryzen-9-7950x"
    build = to_build(result, catalog)
    gpus = build.of_kind(Kind.GPU)
    assert len(gpus) == 1 and gpus[0].quantity == 2  # two identical lines: one item of two
    assert gpus[0].price_override is not None and gpus[0].price_override.source == "PCPartPicker list (Best Buy)"


def test_four_gpu_list_with_a_part_without_price(catalog: Catalog) -> None:
    result = match_list((DATA / "four-gpu.txt").read_text(), catalog)
    assert _lines(result) == [
        ("matched", "92e90c8a-4ba7-4bab-934c-67cc037a9568", 3899.99, "USD"),  # Threadripper PRO 7975WX
        ("matched", "ws-asus-pro-ws-wrx90e-sage-se", 1299.99, "USD"),  # the workstation supplement's WRX90E-SAGE SE
        ("matched", RENEGADE_PRO_4X32, 549.99, "USD"),  # module layout, speed and CL all agree
        ("matched", RENEGADE_PRO_4X32, 549.99, "USD"),
        ("uncertain", None, 319.99, "USD"),  # 990 Pro 4 TB with and without heatsink
        *[("uncertain", None, 599.99, "USD")] * 4,  # PNY VERTO 4070 SUPER: two VERTO models
        ("matched", ENTHOO_PRO_2_SERVER, 169.99, "USD"),
        ("matched", DARK_POWER_PRO_13_1600, 469.9, "USD"),
        ("matched", RM1000X_2021, None, None),  # listed without a price
    ]
    # A 4070 SUPER listing never offers a plain 4070 (the chipset the name states must be the card's).
    names = [c.name for c in result.lines[5].match.candidates]  # type: ignore[union-attr]
    assert names and all("4070 SUPER" in n for n in names)
    pny = "632335d0-5448-4161-8c9f-bfdc1e6a9f14"
    apply_picks(result, {n: pny for n in (5, 6, 7, 8)}, catalog)
    build = to_build(result, catalog)
    gpus = build.of_kind(Kind.GPU)
    assert [(g.part.id, g.quantity) for g in gpus] == [(pny, 4)]
    mem = build.of_kind(Kind.MEMORY)
    assert [(m.part.id, m.quantity) for m in mem] == [(RENEGADE_PRO_4X32, 2)]
    psus = build.of_kind(Kind.PSU)
    assert [p.part.id for p in psus] == [DARK_POWER_PRO_13_1600, RM1000X_2021]
    assert psus[1].price_override is None  # no list price: the catalog's (if any) applies, never a 0


def test_uk_list_in_pounds(catalog: Catalog) -> None:
    result = match_list((DATA / "uk-gbp.txt").read_text(), catalog)
    assert result.parts.currency == "GBP" and result.parts.total == pytest.approx(2798.93)
    assert _lines(result) == [
        ("matched", RYZEN_7950X, 479.99, "GBP"),
        ("matched", PROART_X670E, 429.98, "GBP"),
        ("matched", SAMSUNG_990_PRO_2TB, 139.97, "GBP"),
        ("matched", RTX_4090_FE, 1579.0, "GBP"),  # "£1,579.00"
        ("matched", RM1000X_2021, 169.99, "GBP"),
    ]
    build = to_build(result, catalog)
    assert all(i.price_override and i.price_override.currency == "GBP" for i in build.items)
    assert build.items[3].price_override.date == dt.date(2025, 7, 24)  # type: ignore[union-attr]


def test_german_markup_list_in_euros(catalog: Catalog) -> None:
    result = match_list((DATA / "de-eur.md").read_text(), catalog)
    assert result.parts.currency == "EUR" and result.parts.total == pytest.approx(2542.90)
    assert _lines(result) == [
        ("matched", RYZEN_7950X, 529.0, "EUR"),  # "€529,00"
        ("matched", RTX_4090_FE, 1859.0, "EUR"),  # "1.859,00 €"
        ("matched", SAMSUNG_990_PRO_2TB, 154.9, "EUR"),
    ]


def test_parts_missing_from_the_catalog_become_custom_parts(catalog: Catalog) -> None:
    result = match_list((DATA / "missing-parts.txt").read_text(), catalog)
    assert _lines(result) == [
        ("matched", I5_13400F, 179.99, "USD"),
        ("custom", None, 2999.0, "USD"),
        ("custom", None, 59.99, "USD"),
        ("other", None, 7.99, "USD"),  # case fan: an Other item
        ("matched", RM1000X_2021, 150.0, "USD"),  # "Purchased For $150.00"
        ("other", None, 25.0, "USD"),  # a "Custom" line has no kind RigPlan can check: an Other item
    ]
    build = to_build(result, catalog)
    gpu = build.of_kind(Kind.GPU)[0]
    assert gpu.part.custom and gpu.part.name == "Zotac GAMING Quantum Flux RTX 9999 Ti 48 GB Video Card"
    assert gpu.part.vram_gb is None  # type: ignore[union-attr]  # the name says 48 GB; specs stay unknown
    assert gpu.price_override is not None and gpu.price_override.amount == 2999.0
    case = build.of_kind(Kind.CASE)[0]
    assert case.part.custom and case.part.id.startswith("custom-pcpp-")


@pytest.mark.parametrize(
    "text",
    ["", "hello world", "CPU AMD Ryzen without a colon", "Type|Item|Price\n:----|:----|:----\n"],
)
def test_not_a_list_is_one_clear_error(text: str) -> None:
    with pytest.raises(ListFormatError, match="no parts found"):
        parse_list(text)


def test_huge_text_is_refused() -> None:
    with pytest.raises(ListFormatError, match="characters long"):
        parse_list("CPU: x ($1.00 @ y)\n" * 20_000)


def test_fans_os_cables_and_ups_become_other_items_so_the_totals_agree(catalog: Catalog, tmp_path: Path) -> None:
    """Issue 29: a $4,636.76 list with fans, an OS, a riser cable, a monitor, peripherals and a UPS imports at
    $4,636.76 (it showed $4,406.88 when those lines were dropped): every line is a part or an Other item."""
    result = match_list((DATA / "with-extras.txt").read_text(), catalog)
    assert result.parts.total == pytest.approx(4636.76)
    assert result.imported_total == pytest.approx(4636.76)
    assert [ln.status for ln in result.lines].count("other") == 10
    build = to_build(result, catalog)
    other = {o.name: o for o in build.other}
    fans = other["ARCTIC P14 PWM PST 72.8 CFM 140 mm Fan"]
    assert fans.category.value == "fan" and fans.quantity == 3  # three identical lines: one item of three
    assert fans.price is not None and fans.price.amount == 9.99 and fans.price.date == dt.date(2025, 7, 23)
    assert fans.price.source == "PCPartPicker list (Amazon)" and fans.watts is None  # power unknown, not 0
    assert other["Cable Matters PCIe 4.0 x16 Riser Cable 30 cm"].category.value == "cable"  # a "Custom" riser
    assert other["Microsoft Windows 11 Pro OEM - DVD 64-bit"].category.value == "os"
    assert other["APC Smart-UPS SMT1500C 1500 VA Line Interactive UPS"].category.value == "ups"
    assert other['Dell S2721DGF 27.0" 2560 x 1440 165 Hz Monitor'].category.value == "monitor"
    assert "Other items (counted in the total, read by no check): Case fans: ARCTIC P14" in build.notes
    # The build's parts cost is the list's total, through the real cost model and a saved and reopened file.
    path = tmp_path / "extras.rigplan"
    save(build, path)
    reopened = load(path)
    assert reopened == build and "format_version: 4" in path.read_text("utf-8")
    assert cost_build(reopened).own.parts_usd == pytest.approx(4636.76)


def test_cli_import_reports_other_items_and_the_matching_total(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert run_cli(["import", "pcpartpicker", str(DATA / "with-extras.txt"), "-o", str(tmp_path / "x.rigplan")]) == 0
    out = capsys.readouterr().out
    assert "8 parts and 8 Other items from 18 list lines" in out
    assert "Imported total: $4,636.76 (the list says $4,636.76)." in out
    assert out.count(" other ") == 10  # the per-line table says what each line became
    args = ["import", "pcpartpicker", str(DATA / "with-extras.txt"), "-o", str(tmp_path / "y.rigplan"), "--json"]
    assert run_cli(args) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["imported_total"] == doc["list_total"] == pytest.approx(4636.76)
    assert [r["status"] for r in doc["lines"]].count("other") == 10


def test_markup_list_other_lines_and_an_unknown_type_keep_the_total(catalog: Catalog) -> None:
    """The Markup format too: fans, an OS, a UPS and a type this parser does not know ("Power Strip", priced) all
    become Other items, the unknown one named in the problems, so the imported total is the list's."""
    text = (
        "Type|Item|Price\n:----|:----|:----\n"
        "**CPU** | [AMD Ryzen 9 7950X 4.5 GHz 16-Core Processor](https://pcpartpicker.com/p/22XJ7P) | $549 @ Amazon\n"
        "**Case Fan** | [ARCTIC P12 PWM PST 56.3 CFM 120 mm Fan](https://pcpartpicker.com/product/x) | $6.99 @ Amazon\n"
        "**Operating System** | Microsoft Windows 11 Home Retail - USB 64-bit | $119.99 @ Newegg\n"
        "**UPS** | [CyberPower CP1500PFCLCD 1500 VA UPS](https://pcpartpicker.com/product/y) | $219.95 @ Amazon\n"
        "**Power Strip** | Belkin 12-outlet surge protector | $29.99 @ Amazon\n"
        '**Monitor** | Dell U2723QE 27.0" 3840 x 2160 60 Hz Monitor | No Prices Available\n'
        " | **Total** | **$925.92**\n"
        " | Generated by [PCPartPicker](https://pcpartpicker.com) 2025-07-23 10:12 EDT-0400 |\n"
    )
    result = match_list(text, catalog)
    assert result.parts.format == "markup"
    assert [ln.status for ln in result.lines] == ["matched", "other", "other", "other", "other", "other"]
    assert result.imported_total == pytest.approx(925.92) == result.parts.total
    assert any("'Power Strip' is not a type RigPlan knows; kept as an Other item" in p for p in result.parts.problems)
    build = to_build(result, catalog)
    assert [(o.category.value, o.price.amount if o.price else None) for o in build.other] == [
        ("fan", 6.99),
        ("os", 119.99),
        ("ups", 219.95),
        ("other", 29.99),
        ("monitor", None),  # no price on the list: no price, never 0 (the total is "at least")
    ]
    assert cost_build(build).own.unpriced == ('Dell U2723QE 27.0" 3840 x 2160 60 Hz Monitor',)
