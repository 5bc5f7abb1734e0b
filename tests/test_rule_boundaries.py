"""Boundary tests for the rules issue 34 split out of shared functions: each at its limit (passes) and one unit over
(fails), with the limit taken from the makers' figures in the real catalog and the expectation written from those
figures, not from the code's output. An audit once turned psu-length's `>` into `>=` and every test still passed:
no case sat exactly at a limit.

Figures (the catalog's records, from BuildCores OpenDB; `test_the_figures_are_the_makers` pins them so a data
change cannot silently move a limit): the ASUS PRIME B650-PLUS WIFI has 4 DIMM slots and takes up to 192 GB of DDR5
(as ASUS's specification page states); the Kingston FURY kits are 2x48 GB, 2x32 GB and 1x8 GB (their names); the
Montech Sky 3 takes ATX units up to 160 mm deep; a Corsair RM650x is 160 mm deep (Corsair: 150 x 86 x 160 mm); the
Super Flower Leadex Platinum 750 W is listed at 165 mm; the Cooler Master NR200P V2 takes SFX and SFX-L units; an
SFX-L unit is 130 mm deep and an ATX unit 140 mm or more (Intel's SFX12V and ATX12V design guides,
parts/platforms.yaml).
"""

from __future__ import annotations

import pytest

from rigplan.catalog import Catalog
from rigplan.model import Build, BuildItem, Kind, Part
from rigplan.rules import Severity, check

BOARD = "0246829c-801b"  # Asus PRIME B650-PLUS WIFI: 4 slots, 192 GB
KIT_96 = "5fde426f-ee34"  # Kingston FURY Renegade 96 GB (2x48 GB)
KIT_64 = "018e64d2-c744"  # Kingston FURY White 64 GB (2x32 GB)
KIT_8 = "043fe52c-f118"  # Kingston FURY Beast 8 GB (1x8 GB)
CASE_160 = "13890e42-7d80"  # Montech Sky 3: ATX, 160 mm
PSU_160 = "1b9f2f69-5d3a"  # Corsair RM650x, 160 mm
PSU_165 = "00952dd1-42e0"  # Super Flower Leadex Platinum 750 W, 165 mm
CASE_SFX = "81721d18-7067"  # Cooler Master NR200P V2: SFX, SFX-L
PSU_SFX_L = "01467667-ee75"  # Corsair SF1000L: SFX-L (listed as SFX, 130 mm)


def part(catalog: Catalog, kind: Kind, prefix: str) -> Part:
    (found,) = [p for p in catalog.table(kind).parts() if p.id.startswith(prefix)]
    return found


def findings(catalog: Catalog, rule: str, *lines: tuple[Kind, str, int]) -> list[tuple[str, str]]:
    build = Build(name="b", items=tuple(BuildItem(part=part(catalog, k, p), quantity=q) for k, p, q in lines))
    report = check(build)
    return [(str(f.severity), f.message) for f in report.findings if f.rule == rule] + [
        ("not checked", n.reason) for n in report.not_checked if n.rule == rule
    ]


def test_the_figures_are_the_makers(catalog: Catalog) -> None:
    board = part(catalog, Kind.MOTHERBOARD, BOARD)
    assert (board.memory_slots, board.max_memory_gb) == (4, 192)
    kits = [part(catalog, Kind.MEMORY, k) for k in (KIT_96, KIT_64, KIT_8)]
    assert [(k.modules, k.capacity_gb) for k in kits] == [(2, 96), (2, 64), (1, 8)]
    assert part(catalog, Kind.CASE, CASE_160).max_psu_length_mm == 160
    assert [part(catalog, Kind.PSU, p).length_mm for p in (PSU_160, PSU_165)] == [160, 165]


def test_memory_slots_at_the_limit_and_one_module_over(catalog: Catalog) -> None:
    four = [(Kind.MOTHERBOARD, BOARD, 1), (Kind.MEMORY, KIT_64, 2)]  # 2 kits x 2 modules = the board's 4 slots
    assert findings(catalog, "memory-slots", *four) == []
    five = [*four, (Kind.MEMORY, KIT_8, 1)]  # one module more
    assert findings(catalog, "memory-slots", *five) == [
        (Severity.ERROR.value, "The memory has 5 modules; the motherboard has 4 slots.")
    ]


def test_memory_capacity_at_the_limit_and_one_kit_over(catalog: Catalog) -> None:
    at = [(Kind.MOTHERBOARD, BOARD, 1), (Kind.MEMORY, KIT_96, 2)]  # 2 x 96 GB = the board's 192 GB
    assert findings(catalog, "memory-capacity", *at) == []
    over = [*at, (Kind.MEMORY, KIT_8, 1)]  # 200 GB: the smallest kit more
    assert findings(catalog, "memory-capacity", *over) == [
        (Severity.ERROR.value, "The build has 200 GB of memory; the motherboard supports at most 192 GB.")
    ]


@pytest.mark.parametrize(
    ("length_mm", "expected"),
    [(160.0, []), (161.0, [(Severity.ERROR.value, "The PSU is 161 mm long; the case takes at most 160 mm.")])],
)
def test_psu_length_at_the_limit_and_one_mm_over(catalog: Catalog, length_mm: float, expected: list) -> None:
    """The RM650x as Corsair gives it (160 mm), and the same unit 1 mm deeper."""
    psu = part(catalog, Kind.PSU, PSU_160).model_copy(update={"length_mm": length_mm})
    build = Build(name="b", items=(BuildItem(part=part(catalog, Kind.CASE, CASE_160)), BuildItem(part=psu)))
    got = [(str(f.severity), f.message) for f in check(build).findings if f.rule == "psu-length"]
    assert got == expected


def test_a_real_unit_five_mm_over_the_limit(catalog: Catalog) -> None:
    got = findings(catalog, "psu-length", (Kind.CASE, CASE_160, 1), (Kind.PSU, PSU_165, 1))
    assert got == [(Severity.ERROR.value, "The PSU is 165 mm long; the case takes at most 160 mm.")]


def test_psu_form_factor_at_the_limit_and_one_size_over(catalog: Catalog) -> None:
    """The NR200P V2 takes SFX-L, its largest size: an SFX-L unit fits (no finding); an ATX unit, the next size
    up, does not (an error)."""
    sfx_l = part(catalog, Kind.PSU, PSU_SFX_L).model_copy(update={"form_factor": "SFX-L"})
    case = part(catalog, Kind.CASE, CASE_SFX)
    assert set(case.psu_form_factors) == {"SFX", "SFX-L"}
    fits = Build(name="b", items=(BuildItem(part=case), BuildItem(part=sfx_l)))
    assert [f for f in check(fits).findings if f.rule == "psu-form-factor"] == []
    got = findings(catalog, "psu-form-factor", (Kind.CASE, CASE_SFX, 1), (Kind.PSU, PSU_160, 1))
    assert got == [(Severity.ERROR.value, "The PSU is ATX; the case takes SFX, SFX-L units.")]
