"""Issue 25: the importer's data-quality layer, checked on the whole committed catalog and on the named cases, and
the corrections file's re-check when the source data changes. Over 400 lines: one test per named case of
docs/data.md, in its order."""

from __future__ import annotations

import csv
import gzip
import re
from pathlib import Path

import pytest
import yaml

from rigplan.catalog import Catalog
from rigplan.catalog.overlay import get_field
from rigplan.model import Cpu, Gpu, Kind, Memory, Motherboard, Psu, Storage

ROOT = Path(__file__).resolve().parents[1]

from rigplan.opendb import corrections as corr  # noqa: E402
from rigplan.opendb import data_quality as dq  # noqa: E402


def test_no_large_psu_without_pcie_outputs(catalog: Catalog) -> None:
    for psu in catalog.of_kind(Kind.PSU):
        assert isinstance(psu, Psu)
        c = psu.connectors
        if psu.wattage and psu.wattage >= 850 and c is not None:
            assert c.pcie8 != 0, psu.name
        if psu.wattage and psu.wattage >= 1000 and c is not None and c.pcie8 is not None:
            assert c.pcie8 + 2 * (c.pcie16 or 0) >= 2, psu.name


def test_the_silverstone_1200w_unit_is_unknown_not_zero(catalog: Catalog) -> None:
    psu = catalog.get("f553c96a-ce2a-4494-8be2-71f32eb7dd5c")
    assert isinstance(psu, Psu) and psu.wattage == 1200
    assert psu.connectors is not None and psu.connectors.pcie8 is None and psu.connectors.eps8 == 2


def test_every_xeon_e5_v3_v4_is_on_lga2011_3_with_rdimm(catalog: Catalog) -> None:
    xeons = [c for c in catalog.of_kind(Kind.CPU) if re.search(r"Xeon E5[- ][124]6\d\d[A-Z]?\s*v[34]\b", c.name, re.I)]
    assert len(xeons) >= 50
    for cpu in xeons:
        assert isinstance(cpu, Cpu)
        assert (cpu.socket, cpu.memory_types, cpu.ecc, cpu.rdimm_support) == ("LGA 2011-3", ("DDR4",), True, True)
    e5_2680v4 = catalog.get("4e6c1ad8-8bc8-4e6d-a384-10ff8335d427")
    assert e5_2680v4 is not None and e5_2680v4.socket == "LGA 2011-3"


def test_x99_core_i7_takes_no_registered_memory(catalog: Catalog) -> None:
    i7s = [
        c for c in catalog.of_kind(Kind.CPU) if re.search(r"i7[- ](5820K|5930K|5960X|6800K|6850K|6900K|6950X)", c.name)
    ]
    assert i7s
    assert all(c.rdimm_support is False and c.ecc is False and c.socket == "LGA 2011-3" for c in i7s)


def test_amd_boost_power_is_tdp_times_1_35(catalog: Catalog) -> None:
    cpu = catalog.get("8fcefb4e-6fa9-4b70-8fa7-5679a9e15e9c")
    assert isinstance(cpu, Cpu) and cpu.name == "AMD Ryzen 9 9900X3D"
    assert (cpu.tdp_w, cpu.boost_power_w) == (120, 162)
    for c in catalog.of_kind(Kind.CPU):
        if c.socket in ("AM4", "AM5") and c.tdp_w == 170 and "Ryzen" in c.name:
            assert c.boost_power_w == 230, c.name


def test_am5_cpus_are_not_capped_at_the_launch_128_gb(catalog: Catalog) -> None:
    cpu = catalog.get("63f23f26-d52c-4e3c-be6e-0d25163cff59")
    assert isinstance(cpu, Cpu) and cpu.name == "AMD Ryzen 9 7950X"
    assert cpu.max_memory_gb == 256
    assert all((c.max_memory_gb or 256) >= 256 for c in catalog.of_kind(Kind.CPU) if c.socket == "AM5")


def test_eps_fed_workstation_cards_have_an_eps_input(catalog: Catalog) -> None:
    cards = [g for g in catalog.of_kind(Kind.GPU) if isinstance(g, Gpu) and g.chipset in ("RTX A6000", "A40 PCIe")]
    assert any(g.chipset == "RTX A6000" for g in cards)
    for g in cards:
        assert g.power_connectors is not None
        assert (g.power_connectors.eps8, g.power_connectors.pin8) == (1, 0), g.name


def test_gpu_inputs_cover_the_board_power_or_are_unknown(catalog: Catalog) -> None:
    for g in catalog.of_kind(Kind.GPU):
        assert isinstance(g, Gpu)
        if g.power_connectors is not None and g.tdp_w and g.tdp_w > 75:
            assert dq.connector_watts(g.power_connectors.model_dump()) >= 0.8 * g.tdp_w, g.name


PCIE3_CHIPSETS = ("AMD B450", "Intel X99", "Intel C612")


def test_pcie3_platforms_list_no_pcie4_slot(catalog: Catalog) -> None:
    boards = [b for b in catalog.of_kind(Kind.MOTHERBOARD) if b.chipset in PCIE3_CHIPSETS]
    assert len(boards) > 150
    for b in boards:
        assert isinstance(b, Motherboard)
        for s in b.pcie_slots or ():
            assert s.gen in (None, "1.0", "2.0", "3.0"), (b.name, s)


def test_mainstream_boards_have_one_cpu_x16_and_chipset_slots_at_most_x4(catalog: Catalog) -> None:
    one_cpu = {"AMD B450", "AMD A320", "AMD A520", "Intel B760", "Intel H610", "Intel B660"}
    seen = 0
    for b in catalog.of_kind(Kind.MOTHERBOARD):
        assert isinstance(b, Motherboard)
        if b.chipset not in one_cpu or not b.pcie_slots:
            continue
        seen += 1
        assert sum(s.count for s in b.pcie_slots if s.lanes == 16) <= 1, b.name
        for s in b.pcie_slots:
            if s.wired_to == "chipset":
                assert s.lanes <= 4, b.name
    assert seen > 300
    # A B450 micro-ATX board listed with two x16 slots: one CPU x16 and a x16-size chipset slot wired x4 at most.
    b = catalog.get("4033565e-4d94-4491-895a-29e6e5d6717b")
    assert isinstance(b, Motherboard)
    assert b.x16_size_slots() == 2
    assert [(s.lanes, s.physical, s.wired_to, s.gen) for s in b.pcie_slots or ()][:2] == [
        (16, 16, "cpu", "3.0"),
        (4, 16, "chipset", "2.0"),
    ]


def test_boards_list_no_more_slots_than_their_form_factor_has(catalog: Catalog) -> None:
    for b in catalog.of_kind(Kind.MOTHERBOARD):
        limit = dq.SLOT_POSITIONS.get(b.form_factor or "")
        if limit and b.pcie_slots:
            assert sum(s.count for s in b.pcie_slots) <= limit, b.name
    # MSI B550M PRO-VDH WIFI (CEC): OpenDB lists four x16 and three x1 slots on a micro-ATX board
    b = catalog.get("b71b1bf9-0c7b-423b-b4ee-dce317e28fb2")
    assert isinstance(b, Motherboard) and b.pcie_slots is None


def test_consumer_ddr5_kits_are_not_ecc(catalog: Catalog) -> None:
    for m in catalog.of_kind(Kind.MEMORY):
        assert isinstance(m, Memory)
        if m.ram_type == "DDR5" and m.ecc is True:
            assert re.search(r"\bECC\b|RDIMM|Registered", m.name, re.I), m.name


def test_drive_capacity_agrees_with_the_name(catalog: Catalog) -> None:
    for s in catalog.of_kind(Kind.STORAGE):
        assert isinstance(s, Storage)
        caps = {float(n) * (1000 if u.upper() == "TB" else 1) for n, u in dq.CAP.findall(s.name)}
        if len(caps) == 1 and s.capacity_gb and min(caps) >= 16:
            assert abs(s.capacity_gb - min(caps)) <= 0.05 * min(caps), s.name


def test_add_in_card_drives_do_not_take_an_m2_slot(catalog: Catalog) -> None:
    cards = [s for s in catalog.of_kind(Kind.STORAGE) if isinstance(s, Storage) and s.form_factor == "PCIe"]
    assert len(cards) > 40
    assert all(s.is_m2 is False for s in cards), [s.name for s in cards if s.is_m2]
    aorus = next(s for s in cards if s.name.startswith("Gigabyte AORUS 8TB"))
    # OpenDB gives "M.2 PCIe 3.0 x16": the "M.2 " prefix is dropped for an add-in card, and parts/corrections.yaml
    # sets the generation to 4.0 (the AORUS Gen4 AIC, issue 25 audit).
    assert isinstance(aorus, Storage) and aorus.interface == "PCIe 4.0 x16"


def test_a_384_tb_drive_is_not_3000_gb() -> None:
    d = {"id": "x", "name": "Micron 7450 PRO 3.84TB U.3 NVMe", "capacity_gb": 3000, "form_factor": '2.5"'}
    changes = dq.check(Kind.STORAGE, d, dq.Tables())
    assert d["capacity_gb"] == 3840 and [c.field for c in changes] == ["capacity_gb"]


def test_intel_only_cooler_loses_amd_sockets(catalog: Catalog) -> None:
    d = {"id": "x", "name": "Intel Laminar RM1 cooler", "manufacturer": "Intel", "sockets": ["AM4", "AM5", "LGA 1700"]}
    dq.check(Kind.COOLER, d, dq.Tables())
    assert d["sockets"] == ["LGA 1700"]
    noctua = catalog.get("54d922d5-aeb3-4701-a3a3-7d73fa07762d")  # NH-L9i "for Intel LGA1200 & LGA115x"
    assert noctua is not None and "AM4" not in (noctua.sockets or ())


def test_am5_boards_take_48_gb_per_dimm_slot(catalog: Catalog) -> None:
    """Issue 25: 4x 48 GB on AM5 is no error; boards listed at their launch 128 GB now say 192 GB (4 slots)."""
    am5 = [b for b in catalog.of_kind(Kind.MOTHERBOARD) if b.socket == "AM5" and b.memory_slots and b.max_memory_gb]
    assert am5 and all(b.max_memory_gb >= 48 * b.memory_slots for b in am5 if isinstance(b, Motherboard))


def test_case_named_e_atx_takes_e_atx_boards() -> None:
    d = {"id": "x", "name": "Acme Tower 9 E-ATX Full Tower", "motherboard_form_factors": ["ATX"]}
    dq.check(Kind.CASE, d, dq.Tables())
    assert d["motherboard_form_factors"] == ["ATX", "EATX"]
    # The Define 7 XL's line row (Fractal) adds what the name does not say.
    d = {"id": "y", "name": "Fractal Design Define 7 XL E-ATX Full Tower", "motherboard_form_factors": ["ATX"]}
    dq.check(Kind.CASE, d, dq.Tables())
    assert d["motherboard_form_factors"] == ["ATX", "EATX", "SSI CEB", "SSI EEB"]


def test_atx3_is_true_only_on_evidence_else_unknown(catalog: Catalog) -> None:
    """The name or a product line with its source says ATX 3.x; a native 16-pin cable alone leaves it unknown (the
    2022 PRIME TX-1600 has two and is ATX 2.53); 'not ATX 3.x' only from a line or a launch year before 2022."""
    named = catalog.search(Kind.PSU, "MSI MAG A850GL PCIE5")
    assert named and all(p.atx3 is True for p in named)
    t = dq.Tables()
    native_unknown = 0
    for p in catalog.of_kind(Kind.PSU):
        assert isinstance(p, Psu)
        line = next((f for f in t.psu_families if f["rx"].search(p.name)), None)
        year = dq.YEAR.search(p.name)
        if p.atx3 is True:
            assert dq.ATX3_NAME.search(p.name) or (line and line["atx3"]), p.name
        elif p.atx3 is False:
            assert (line and not line["atx3"]) or (year and int(year.group(1)) < 2022), p.name
        elif p.connectors is not None and p.connectors.pcie16:
            native_unknown += 1
    assert native_unknown > 100  # units with a native 16-pin and no maker's word: unknown, not "ATX 3.x"


@pytest.mark.parametrize(
    ("name", "atx3"),
    [
        ("SeaSonic PRIME TX 1600W Fully Modular 80+ Titanium Certified ATX", False),  # Seasonic: ATX 2.53
        ("SeaSonic PRIME TX-1600 ATX 3.1 Black / Silver 1600W Fully Modular", True),  # the name says so
        ("SeaSonic PRIME TX-1600 Noctua Edition Brown / Black 1600W", None),  # no statement in the table
        ("EVGA SuperNOVA 1600 G2 ATX 1600W 80+ Gold Fully Modular", False),  # a 2014 line
        ("Corsair RM850x (2018) ATX 850W Fully Modular", False),  # dated before ATX 3.0
        ("Corsair HX1500i (2025) Black 1500W Fully Modular 80+ Platinum", True),  # Corsair: ATX 3.1
        ("Corsair HX1500i (2022) Black 1500W Fully Modular", None),  # 2022: the year does not settle it
        ("Cougar GEX X2 Black 1000W Fully Modular 80+ Gold Certified", None),  # native 16-pin only: unknown
    ],
)
def test_psu_atx3_from_name_line_or_year(name: str, atx3: bool | None) -> None:
    d = {"id": "x", "name": name, "wattage": 1000, "connectors": {"pcie8": 6, "pcie16": 2, "eps8": 2}, "atx3": True}
    dq.check(Kind.PSU, d, dq.Tables())
    assert d.get("atx3") is atx3


def test_no_board_lists_a_pcie_generation_its_socket_never_had(catalog: Catalog) -> None:
    """PCIe 4.0 came to desktops in 2019 (X570) and 2021 (LGA1200): no board on an older socket lists it, whether its
    chipset has a row in tools/chipsets.yaml (X99, C612, X299) or not (P67, Q87, C226: the socket's ceiling)."""
    t = dq.Tables()
    order = dq.GEN_ORDER
    for b in catalog.of_kind(Kind.MOTHERBOARD):
        assert isinstance(b, Motherboard)
        cap = dq.socket_cap(t, b.socket)
        for s in b.pcie_slots or ():
            if cap and s.gen in order:
                assert order[s.gen] <= order[cap], f"{b.name}: PCIe {s.gen} on {b.socket}"


def test_chipset_without_maker_and_unknown_chipset_are_capped() -> None:
    t = dq.Tables()
    p67 = {"id": "x", "name": "Some P67 board", "socket": "LGA 1155", "chipset": "Intel P67",
           "pcie_slots": [{"gen": "4.0", "lanes": 16, "count": 2}, {"gen": "2.0", "lanes": 1, "count": 2}]}  # fmt: skip
    changes = dq.check(Kind.MOTHERBOARD, p67, t)
    assert [s["gen"] for s in p67["pcie_slots"]] == ["3.0", "2.0"] and p67["pcie_slots"][0]["count"] == 2
    assert "LGA 1155 platform" in changes[0].reason
    bare = {"id": "y", "name": "B850 board", "socket": "AM5", "chipset": "B850", "form_factor": "ATX",
            "pcie_slots": [{"gen": "5.0", "lanes": 16, "count": 2}]}  # fmt: skip
    dq.check(Kind.MOTHERBOARD, bare, t)
    assert bare["pcie_slots"][0]["wired_to"] == "cpu"  # read as AMD B850: the chipset facts applied


def test_m2_slots_listed_twice_count_once(catalog: Catalog) -> None:
    pairs = [{"size": "2242-2260", "key": "M", "interface": "PCIe 4.0 x4"}, {"size": "2280", "key": "M",
             "interface": "PCIe 4.0 x4"}] * 3 + [{"size": "2280", "key": "E", "interface": "PCIe 4.0 x4"}]  # fmt: skip
    d = {"id": "x", "name": "ASUS PRIME Z690-P", "m2_slots": pairs}
    dq.check(Kind.MOTHERBOARD, d, dq.Tables())
    assert len(d["m2_slots"]) == 4  # three M-key slots and the Wi-Fi E-key slot (ASUS: three M.2 slots)
    # each merged slot still takes a 2280 drive: a pair is one slot for 2242, 2260 and 2280 (the merge once kept only
    # the range, and the 2x RTX 4090 example's 2280 SSD became an error)
    assert [s["size"] for s in d["m2_slots"] if s["key"] == "M"] == ["2242-2260/2280"] * 3
    strix = catalog.get("7288ca72-4ed1-4b34-8859-92f5b6803766")  # ASUS ROG STRIX X670E-A: four M.2 2280 slots
    assert strix and len(strix.m2_slots or ()) == 4 and all("2280" in (s.size or "") for s in strix.m2_slots or ())
    z790p = catalog.search(Kind.MOTHERBOARD, "MSI PRO Z790-P WIFI DDR4")
    assert z790p and all(sum(s.key == "M" for s in b.m2_slots or ()) == 4 for b in z790p)  # MSI: four M.2


def test_board_with_31_x16_slots_is_unknown(catalog: Catalog) -> None:
    ace = next(p for p in catalog.of_kind(Kind.MOTHERBOARD) if p.id.startswith("ac075410"))
    assert isinstance(ace, Motherboard) and ace.pcie_slots is None
    d = {"id": "x", "name": "Odd board", "pcie_slots": [{"gen": "3.0", "lanes": 16, "count": 31}]}
    changes = dq.check(Kind.MOTHERBOARD, d, dq.Tables())
    assert "pcie_slots" not in d and "31 slots listed on a board" in changes[0].reason


def test_rtx_40_50_listing_without_its_16_pin_is_unknown(catalog: Catalog) -> None:
    gamingpro = catalog.search(Kind.GPU, "Palit GeForce RTX 5070 Ti GamingPro OC")
    assert gamingpro and all(g.power_connectors is None for g in gamingpro)
    for g in catalog.of_kind(Kind.GPU):
        assert isinstance(g, Gpu)
        if g.chipset in ("GeForce RTX 4080", "GeForce RTX 4090", "GeForce RTX 5070 Ti", "GeForce RTX 5080",
                         "GeForce RTX 5090") and g.power_connectors is not None:  # fmt: skip
            assert g.power_connectors.pin16, g.name


def test_family_rows_fix_the_corpus_catalog_values(catalog: Catalog) -> None:
    """EPYC 4004 runs ECC (AMD), Define 7 XL / Enthoo Pro 2 Server take SSI EEB (Fractal, Phanteks), and a Xeon W-2100
    takes RDIMMs on LGA 2066 (Intel ARK): from the family tables, for every listing."""
    epyc = [c for c in catalog.of_kind(Kind.CPU) if "EPYC 4" in c.name]
    assert epyc and all(isinstance(c, Cpu) and c.ecc is True for c in epyc)
    cases = [c for c in catalog.of_kind(Kind.CASE) if re.search(r"Define 7 XL|Enthoo Pro 2 Server", c.name)]
    assert len(cases) >= 4 and all("SSI EEB" in (c.motherboard_form_factors or ()) for c in cases)
    d = {"id": "x", "name": "Intel Xeon W-2145", "socket": "LGA 2066", "memory_types": ["DDR4"]}
    dq.check(Kind.CPU, d, dq.Tables())
    assert d["rdimm_support"] is True and d["ecc"] is True


def test_implausible_values_become_unknown_with_the_reason() -> None:
    d = {"id": "x", "name": "Some case", "max_cooler_height_mm": 279, "max_gpu_length_mm": 400}
    changes = dq.check(Kind.CASE, d, dq.Tables())
    assert "max_cooler_height_mm" not in d and d["max_gpu_length_mm"] == 400
    assert changes[0].new is None and "implausible (279)" in changes[0].reason


def test_data_md_reports_the_pass_with_counts_per_field() -> None:
    text = (ROOT / "docs" / "data.md").read_text(encoding="utf-8")
    assert "## Data-quality pass (issue 25)" in text
    assert re.search(r"\| psu \| `connectors` \| made unknown \| [\d,]+ \|", text) or "| psu | `connectors` |" in text
    with gzip.open(ROOT / "docs" / "data-quality.csv.gz", "rt", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert any(r["part_id"] == "4e6c1ad8-8bc8-4e6d-a384-10ff8335d427" and r["field"] == "socket" for r in rows)


# --- corrections.yaml: applied by id, re-checked when the source data changes ---------------------------------------


def _corrections(tmp_path: Path, was: object) -> list[corr.Correction]:
    p = tmp_path / "corrections.yaml"
    p.write_text(
        yaml.safe_dump(
            {"corrections": [{"id": "p1", "field": "connectors.pcie8", "value": 8, "was": was, "source": "maker page"}]}
        )
    )
    return corr.load(p)


def test_correction_applies_while_the_source_value_is_unchanged(tmp_path: Path) -> None:
    part = {"id": "p1", "name": "PSU", "connectors": {"eps8": 2}}
    changes, stale = corr.apply(_corrections(tmp_path, 0), {"p1": part}, {"p1": {"connectors": {"pcie8": 0}}}, "psu")
    assert part["connectors"] == {"eps8": 2, "pcie8": 8} and stale == []
    assert changes[0].reason == "maker page" and changes[0].check == "correction"


def test_correction_is_reported_not_applied_when_the_source_changed(tmp_path: Path) -> None:
    part = {"id": "p1", "name": "PSU", "connectors": {"pcie8": 6}}
    changes, stale = corr.apply(_corrections(tmp_path, 0), {"p1": part}, {"p1": {"connectors": {"pcie8": 6}}}, "psu")
    assert changes == [] and part["connectors"] == {"pcie8": 6}
    assert len(stale) == 1 and "now 6" in stale[0] and "not applied" in stale[0]


def test_correction_without_a_source_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "corrections.yaml"
    p.write_text(yaml.safe_dump({"corrections": [{"id": "p1", "field": "wattage", "value": 1, "source": " "}]}))
    with pytest.raises(corr.CorrectionError, match="source"):
        corr.load(p)


def test_committed_corrections_have_sources_and_are_applied(catalog: Catalog) -> None:
    fixes = corr.load_all(ROOT / "parts")  # corrections.yaml and corrections-*.yaml
    text = (ROOT / "docs" / "data.md").read_text(encoding="utf-8")
    for c in fixes:
        part = catalog.get(c.part_id)
        assert part is not None, c.part_id
        have = _drop_none(get_field(part.model_dump(mode="json"), c.field))
        if c.field == "pcie_slots" and isinstance(have, list):  # slot positions come after, from the layouts step
            have = [{k: v for k, v in s.items() if k not in ("positions", "labels")} for s in have]
        assert have == c.value, (c.part_id, c.field)
        assert f"`{c.part_id[:8]}`" in text


def _drop_none(v: object) -> object:
    if isinstance(v, dict):
        return {k: _drop_none(x) for k, x in v.items() if x is not None}
    if isinstance(v, list | tuple):
        return [_drop_none(x) for x in v]
    return v


def test_a_listing_that_disagrees_with_its_part_number_siblings_is_unknown(catalog: Catalog) -> None:
    # Define 7 (FD-C-DEF7A-07) listed with 290 mm of GPU room; the other listing of that part number says 467 mm.
    case = catalog.get("16b43d8f-2d7c-4951-b863-e4847853991a")
    assert case is not None and case.max_gpu_length_mm is None
    with gzip.open(ROOT / "docs" / "data-quality.csv.gz", "rt", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    why = next(r["reason"] for r in rows if r["part_id"].startswith("16b43d8f") and r["field"] == "max_gpu_length_mm")
    assert "FDCDEF7A07" in why and "290" in why and "467" in why


def test_sibling_check_keeps_the_majority_and_drops_the_outlier() -> None:
    recs = [
        {"id": f"g{i}", "name": "TUF 4070", "length_mm": v, "_part_numbers": ["TUF-RTX4070-O12G-GAMING"]}
        for i, v in enumerate([301, 301, 228])
    ]
    changes = dq.sibling_check(Kind.GPU, recs)
    assert [c.part_id for c in changes] == ["g2"] and "length_mm" not in recs[2]
    assert recs[0]["length_mm"] == recs[1]["length_mm"] == 301
    # EAN codes and short codes do not tie listings together
    eans = [
        {"id": f"e{i}", "name": "x", "length_mm": v, "_part_numbers": ["0840006687541"]} for i, v in enumerate((1, 300))
    ]
    assert dq.sibling_check(Kind.GPU, eans) == []


def test_e_chipsets_and_x870_list_a_pcie5_graphics_slot(catalog: Catalog) -> None:
    """Issue 25: AMD defines X670E/B650E (and X870E/X870) by PCIe 5.0 on the CPU graphics slot; 39 boards listed it
    as PCIe 4.0. B850/B650/X670 boards keep what they list (PCIe 5.0 graphics optional there)."""
    seen: dict[str, int] = {}
    for b in catalog.of_kind(Kind.MOTHERBOARD):
        chip = (b.chipset or "").removeprefix("AMD ")
        if not isinstance(b, Motherboard) or chip not in ("X670E", "B650E", "X870E", "X870", "B650", "B850"):
            continue
        cpu_slot = next((s for s in b.pcie_slots or () if s.wired_to == "cpu"), None)
        if cpu_slot is None:
            continue
        seen[chip] = seen.get(chip, 0) + 1
        if chip in ("X670E", "B650E", "X870E", "X870"):
            assert cpu_slot.gen == "5.0", (b.name, cpu_slot)
    assert seen["X670E"] >= 20 and seen["B650E"] >= 20 and seen["X870"] >= 30
    b650 = [b for b in catalog.of_kind(Kind.MOTHERBOARD) if b.chipset == "AMD B650" and isinstance(b, Motherboard)]
    gens = {next((s.gen for s in b.pcie_slots or () if s.wired_to == "cpu"), None) for b in b650}
    assert {"4.0", "5.0"} <= gens  # a floor only where the chipset defines it


def test_graphics_floor_names_its_source_and_leaves_a_b650_alone() -> None:
    t = dq.Tables()
    slots = [{"gen": "4.0", "lanes": 16, "count": 1}, {"gen": "4.0", "lanes": 1, "count": 1}]
    for chipset, gen in (("AMD X670E", "5.0"), ("B650E", "5.0"), ("AMD X870", "5.0"), ("AMD B650", "4.0")):
        d = {"id": "x", "name": "Board", "socket": "AM5", "form_factor": "ATX", "chipset": chipset, "pcie_slots": slots}
        changes = dq.check(Kind.MOTHERBOARD, d, t)
        assert d["pcie_slots"][0]["gen"] == gen, chipset
        if gen == "5.0":
            assert any("requires PCIe 5.0 on the CPU graphics slot" in c.reason for c in changes)


def test_lga1700_ddr5_boards_at_48_gb_per_slot_where_the_maker_lists_it(catalog: Catalog) -> None:
    """Issue 25: Z790/B760/Z690 DDR5 boards run 4x 48 GB; a maker whose own listings keep the launch figure (EVGA)
    is left as listed, and DDR4 boards stay at 32 GB per slot."""
    boards = [
        b
        for b in catalog.of_kind(Kind.MOTHERBOARD)
        if isinstance(b, Motherboard) and b.socket == "LGA 1700" and b.memory_slots and b.max_memory_gb
    ]
    ddr5 = {m: [b for b in boards if b.ram_type == "DDR5" and b.manufacturer == m] for m in ("ASUS", "MSI", "EVGA")}
    for maker in ("ASUS", "MSI"):
        low = [
            b.name
            for b in ddr5[maker]
            if b.chipset in ("Intel Z790", "Intel B760") and b.max_memory_gb < 48 * b.memory_slots
        ]
        assert low == [], maker
    assert all(b.max_memory_gb <= 32 * b.memory_slots for b in ddr5["EVGA"])
    assert all(b.max_memory_gb <= 128 for b in boards if b.ram_type == "DDR4" and b.manufacturer == "EVGA")


def test_lga1700_rule_needs_the_makers_pattern() -> None:
    from rigplan.opendb import board_memory  # noqa: PLC0415

    def board(i: int, maker: str, top: int) -> dict[str, object]:
        return {
            "id": f"{maker}{i}",
            "name": f"{maker} Z790 {i}",
            "manufacturer": maker,
            "socket": "LGA 1700",
            "ram_type": "DDR5",
            "chipset": "Intel Z790",
            "memory_slots": 4,
            "max_memory_gb": top,
        }

    recs = [board(0, "Acme", 192), board(1, "Acme", 192), board(2, "Acme", 128)]
    recs += [board(0, "Other", 128), board(1, "Other", 128), board(2, "Other", 192)]
    changes = board_memory.lga1700_ddr5_check(recs)
    assert [(c.part_id, c.new) for c in changes] == [("Acme2", 192)]
    assert recs[5]["max_memory_gb"] == 192 and recs[3]["max_memory_gb"] == 128


def test_a_unit_launched_before_2020_has_no_16_pin_output(catalog: Catalog) -> None:
    """Issue 25 scan: OpenDB lists the EVGA SuperNOVA G2 650W (a 2013-2015 line) with two 16-pin outputs; the first
    12-pin GPU connector came in 2020, so the count is unknown, and the G2 line is read as not ATX 3.x."""
    g2 = [p for p in catalog.of_kind(Kind.PSU) if p.name == "EVGA SuperNOVA G2 650W"]
    assert len(g2) == 1 and isinstance(g2[0], Psu) and g2[0].connectors is not None
    assert g2[0].connectors.pcie16 is None and g2[0].connectors.pcie8 == 2 and g2[0].atx3 is False
    d = {
        "id": "x",
        "name": "Acme Power 750 (2019)",
        "wattage": 750,
        "form_factor": "ATX",
        "connectors": {"pcie8": 4, "pcie16": 1, "eps8": 1},
    }
    changes = dq.check(Kind.PSU, d, dq.Tables())
    assert "pcie16" not in d["connectors"] and any("before the first 12/16-pin" in c.reason for c in changes)
    d = {"id": "y", "name": "Acme Power 850 (2023)", "wattage": 850, "connectors": {"pcie8": 2, "pcie16": 1}}
    dq.check(Kind.PSU, d, dq.Tables())
    assert d["connectors"]["pcie16"] == 1
