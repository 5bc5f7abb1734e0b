"""parts/platforms.yaml covers the catalog: every socket, form-factor and chipset spelling maps to a known entry."""

from __future__ import annotations

import pytest

from rigplan.catalog import Catalog
from rigplan.model import Kind
from rigplan.rules.platforms import key, platforms
from rigplan.rules.power import PSU_SIZES, round_up_psu


def _values(catalog: Catalog, kind: Kind, field: str) -> set[str]:
    out: set[str] = set()
    for v in catalog.table(kind).column(field):
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, (list, tuple)):
            out.update(x for x in v if isinstance(x, str))
    return out


def test_every_catalog_socket_maps_to_a_canonical_socket(catalog: Catalog) -> None:
    pf = platforms()
    spellings = (
        _values(catalog, Kind.CPU, "socket")
        | _values(catalog, Kind.MOTHERBOARD, "socket")
        | _values(catalog, Kind.COOLER, "sockets")
    )
    unmapped = sorted(s for s in spellings if pf.socket(s) is None and key(s) not in pf.unknown)
    assert unmapped == []
    # The spellings the issue names: one socket, not two.
    assert pf.canonical_socket("TR4") == pf.canonical_socket("sTR4") == "sTR4"
    assert pf.canonical_socket("2 x LGA 2011-3") == "LGA 2011-3"
    assert pf.canonical_socket("LGA1700") == "LGA 1700"
    # Every canonical socket names a mount that is described with its source, unless the CPU is soldered.
    for sock in set(pf.sockets.values()):
        assert sock.soldered or sock.mount in pf.mounts, sock.name
        if sock.mount:
            assert pf.mounts[sock.mount][1], sock.mount


@pytest.mark.parametrize(
    ("listed", "cpu", "fits"),
    [
        ("AM4", "AM5", True),  # AMD kept the AM4 mount on AM5
        ("LGA 1700", "LGA 1851", True),  # Intel kept the LGA1700 mount on LGA1851
        ("LGA 1150", "LGA 1200", True),  # the 75 mm 115x pattern
        ("LGA 1156", "LGA 1151", True),
        ("sTRX4", "sTR5", True),  # Noctua TR4-SP3 line, AMD
        ("TR4", "sTR5", True),
        ("AM3+", "AM4", False),  # AM4 moved the holes
        ("LGA 1200", "LGA 1700", False),  # 75 mm vs 78 mm
        ("LGA 2011-3", "LGA 2011-3 Narrow", False),  # square vs narrow ILM
    ],
)
def test_cooler_mount_families(listed: str, cpu: str, fits: bool) -> None:
    pf = platforms()
    assert (pf.mount(listed) == pf.mount(cpu)) is fits


def test_every_board_and_case_form_factor_is_known(catalog: Catalog) -> None:
    pf = platforms()
    spellings = _values(catalog, Kind.MOTHERBOARD, "form_factor") | _values(
        catalog, Kind.CASE, "motherboard_form_factors"
    )
    assert sorted(s for s in spellings if pf.board_form_factor(s) is None) == []
    psu = _values(catalog, Kind.PSU, "form_factor") | _values(catalog, Kind.CASE, "psu_form_factors")
    assert sorted(s for s in psu if pf.psu_form_factor(s) is None) == []
    # SSI CEB (12 x 10.5 in, ATX holes) fits a case that takes E-ATX; E-ATX does not fit an ATX-only case.
    assert "EATX" in pf.board_form_factor("SSI CEB").fits  # type: ignore[union-attr]
    assert "ATX" not in pf.board_form_factor("E-ATX").fits  # type: ignore[union-attr]


def test_every_catalog_chipset_of_a_tabled_socket_is_in_the_table(catalog: Catalog) -> None:
    """A board of a socket with a support table whose chipset the table lacks would be 'not checked' forever."""
    pf = platforms()
    t = catalog.table(Kind.MOTHERBOARD)
    missing = set()
    for sock, chip in zip(t.column("socket"), t.column("chipset"), strict=True):
        name = pf.canonical_socket(sock)
        if name in pf.chipsets and chip:
            known = pf.chipsets[name][0]
            if chip.split()[-1].upper() not in known:
                missing.add((name, chip))
    assert sorted(missing) == [("AM4", "AMD 570X")]  # not a real chipset: OpenDB's typo, left "not checked"
    cpus = catalog.table(Kind.CPU)
    archs = {
        (pf.canonical_socket(s), a)
        for s, a, n in zip(cpus.column("socket"), cpus.column("microarchitecture"), cpus.column("name"), strict=True)
        if pf.canonical_socket(s) in pf.chipsets and a and pf.cpu_line(s, n) is None  # a product line covers it
    }
    assert sorted(x for x in archs if x[1] not in pf.chipsets[x[0]][1]) == [("AM5", "2x Zen 4 , 4x Zen 4c")]


def test_str5_chipsets_by_product_line(catalog: Catalog) -> None:
    """AMD: WRX90 takes Threadripper PRO 7000/9000 WX only; TRX50 takes both lines. Both are Zen 4/5 on sTR5, so the
    table reads the CPU's name; every sTR5 CPU of the catalog falls in one line."""
    pf = platforms()
    strs = [c for c in catalog.of_kind(Kind.CPU) if c.socket == "sTR5"]
    assert strs and all(pf.cpu_line("sTR5", c.name) for c in strs)
    assert pf.chipset_support("sTR5", "Zen 4", "AMD WRX90", "AMD Ryzen Threadripper 7980X") == "no"
    assert pf.chipset_support("sTR5", "Zen 4", "AMD TRX50", "AMD Ryzen Threadripper 7980X") == "ok"
    assert pf.chipset_support("sTR5", "Zen 4", "AMD WRX90", "AMD Ryzen Threadripper PRO 7985WX") == "ok"
    assert pf.chipset_support("sTR5", "Zen 5", "AMD WRX90", "AMD Ryzen Threadripper 9985WX") == "ok"


def test_psu_sizes_exist_in_the_catalog(catalog: Catalog) -> None:
    rated = {w for w in catalog.table(Kind.PSU).column("wattage") if w}
    assert sorted(set(PSU_SIZES) - rated) == []
    # Sizes sold as 20+ models, and every size from 1500 W up, are all there.
    counts = list(catalog.table(Kind.PSU).column("wattage"))
    wanted = {w for w in rated if (300 <= w < 1500 and counts.count(w) >= 20) or w >= 1500}
    assert sorted(wanted ^ set(PSU_SIZES)) == []
    assert round_up_psu(1735) == 1800 and round_up_psu(1601) == 1650


def test_memory_named_registered_is_registered(catalog: Catalog) -> None:
    """OpenDB lists 152 registered modules (Samsung M393/M386, Kingston FURY Renegade Pro, Kingston Server
    Premier...) as "Unbuffered"; the importer trusts the product name (tools/catalog_sanity.py)."""
    import re

    named = re.compile(r"\b(Registered|RDIMM|LRDIMM)\b", re.I)
    mems = list(catalog.of_kind(Kind.MEMORY))
    wrong = [m.name for m in mems if named.search(m.name) and m.registered is not True]  # type: ignore[attr-defined]
    assert not wrong, wrong[:5]
    assert sum(1 for m in mems if named.search(m.name)) >= 150


def test_registered_memory_verdicts(catalog: Catalog) -> None:
    """An RDIMM kit on a desktop board is an error (AM5 takes unbuffered DIMMs); on an sTR5 (Threadripper 7000)
    board it passes the memory-registered rule, where the wrong flag made it an error before."""
    from rigplan.model.build import Build, BuildItem
    from rigplan.rules import check

    ddr5 = [m for m in catalog.of_kind(Kind.MEMORY) if "Registered" in m.name and m.ram_type == "DDR5"]  # type: ignore[attr-defined]
    boards = list(catalog.of_kind(Kind.MOTHERBOARD))
    trx50 = next(b for b in boards if b.socket == "sTR5")  # type: ignore[attr-defined]
    desktop = next(b for b in boards if b.socket == "AM5" and b.ram_type == "DDR5")  # type: ignore[attr-defined]

    def rule(board: object) -> list[str]:
        build = Build(items=(BuildItem(part=board), BuildItem(part=ddr5[0])))  # type: ignore[arg-type]
        return [f.severity.value for f in check(build).findings if f.rule == "memory-registered"]

    assert rule(desktop) == ["error"]
    assert "error" not in rule(trx50)
