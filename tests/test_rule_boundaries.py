"""Every size and power rule at its limit and one unit past it, on real catalog parts (issue 34: a `>` turned `>=`
survived every test because no case sat exactly at a limit).

The limit side is a maker's figure, asserted against the catalog first (so the expectation does not come from the
code under test); the other side is the real part with the one figure set to the limit, then one unit over:
- NVIDIA GeForce RTX 4090 Founders Edition: 304 mm long, 3 slots, 450 W, one 16-pin connector (NVIDIA, GeForce
  RTX 4090 specifications).
- Fractal Design North: GPUs up to 355 mm, coolers up to 170 mm, 7 expansion slots (Fractal Design, North
  specifications; TechPowerUp's and tweakpc's North reviews repeat them), a 360 mm radiator in the front and at most
  240 mm under the top (TechPowerUp, "Fractal Design North review", p. 4; Hardwareluxx, "Fractal Design North im
  Test", p. 3).
- Noctua NH-D15: 165 mm tall with its fan (Noctua, NH-D15 specifications).
- ARCTIC Liquid Freezer III 360: a 360 mm radiator (ARCTIC: the model's name).
- ASUS TUF Gaming RTX 3080 (TUF-RTX3080-10G-GAMING): 300 mm, two 8-pin connectors (ASUS specifications).
- Corsair RM850x (2018): 850 W, six PCIe 6+2-pin connectors, no 16-pin (Corsair, RM850x specifications); built
  before ATX 3.0 (2022), so its GPUs get the spike margin.
- Seasonic PRIME PX-1600 ATX 3.0: 1600 W, 210 mm long, an ATX 3.0 unit (Seasonic, PRIME PX-1600 specifications;
  the model's name), so no spike margin.
"""

from __future__ import annotations

import pytest

from catalog_parts import build, part
from rigplan.catalog import Catalog
from rigplan.model import Build
from rigplan.rules import Severity, check, estimate_power
from rigplan.rules.power import circuit_limit_w
from rigplan.rules.workstation import FRONT_RADIATOR_MM

RTX_4090_FE = "7b22a20f"
NORTH = "73ae628d"  # Fractal Design North ATX Mid Tower Black Tempered Glass Side Panel
NH_D15 = "3bfcf7c5"
LIQUID_FREEZER_III_360 = "e659af0a"
TUF_3080 = "1fa72c48"
RM850X_2018 = "1904d6f1"
PRIME_PX_1600 = "df85e091"
RYZEN_7950X = "63f23f26"


def errors(b: Build) -> set[str]:
    return check(b).rules(Severity.ERROR)


def test_the_makers_figures_are_the_catalogs(catalog: Catalog) -> None:
    fe, north = part(catalog, RTX_4090_FE), part(catalog, NORTH)
    assert (fe.length_mm, fe.slot_width, fe.tdp_w, fe.power_connectors.pin16) == (304, 3, 450, 1)  # type: ignore[union-attr]
    assert (north.max_gpu_length_mm, north.max_cooler_height_mm, north.expansion_slots) == (355, 170, 7)  # type: ignore[union-attr]
    assert part(catalog, NH_D15).height_mm == 165  # type: ignore[union-attr]
    assert part(catalog, LIQUID_FREEZER_III_360).radiator_mm == 360  # type: ignore[union-attr]
    tuf = part(catalog, TUF_3080)
    assert (tuf.length_mm, tuf.power_connectors.pin8, tuf.power_connectors.pin16) == (300, 2, 0)  # type: ignore[union-attr]
    rm = part(catalog, RM850X_2018)
    assert (rm.wattage, rm.connectors.pcie8, rm.connectors.pcie16, rm.atx3) == (850, 6, 0, False)  # type: ignore[union-attr]
    px = part(catalog, PRIME_PX_1600)
    assert (px.wattage, px.length_mm, px.atx3) == (1600, 210, True)  # type: ignore[union-attr]


def test_psu_length_at_the_limit_and_one_over(catalog: Catalog) -> None:
    px = part(catalog, PRIME_PX_1600)  # 210 mm
    assert "psu-length" not in errors(build((px, 1), (part(catalog, NORTH, max_psu_length_mm=210.0), 1)))
    assert "psu-length" in errors(build((px, 1), (part(catalog, NORTH, max_psu_length_mm=209.0), 1)))


def test_gpu_length_at_the_cases_355_mm_and_one_over(catalog: Catalog) -> None:
    north = part(catalog, NORTH)
    assert "gpu-length" not in errors(build((part(catalog, RTX_4090_FE, length_mm=355.0), 1), (north, 1)))
    assert "gpu-length" in errors(build((part(catalog, RTX_4090_FE, length_mm=356.0), 1), (north, 1)))


def test_cooler_height_at_the_cases_170_mm_and_one_over(catalog: Catalog) -> None:
    north = part(catalog, NORTH)
    assert "cooler-height" not in errors(build((part(catalog, NH_D15, height_mm=170.0), 1), (north, 1)))
    assert "cooler-height" in errors(build((part(catalog, NH_D15, height_mm=171.0), 1), (north, 1)))
    # and the real NH-D15 (165 mm) against a case that takes exactly that, or a millimetre less
    d15 = part(catalog, NH_D15)
    assert "cooler-height" not in errors(build((d15, 1), (part(catalog, NORTH, max_cooler_height_mm=165.0), 1)))
    assert "cooler-height" in errors(build((d15, 1), (part(catalog, NORTH, max_cooler_height_mm=164.0), 1)))


def test_gpu_expansion_slots_at_the_limit_and_one_over(catalog: Catalog) -> None:
    fe = part(catalog, RTX_4090_FE)  # 3 slots each: two take 6
    assert "gpu-expansion-slots" not in errors(build((fe, 2), (part(catalog, NORTH, expansion_slots=6), 1)))
    assert "gpu-expansion-slots" in errors(build((fe, 2), (part(catalog, NORTH, expansion_slots=5), 1)))
    north = part(catalog, NORTH)  # the real 7 slots: 2 + 2 + 3 fit, 2 + 3 + 3 do not
    two_slot = part(catalog, RTX_4090_FE, id="custom-2slot", custom=True, slot_width=2.0)
    assert "gpu-expansion-slots" not in errors(build((two_slot, 2), (fe, 1), (north, 1)))
    assert "gpu-expansion-slots" in errors(build((two_slot, 1), (fe, 2), (north, 1)))


def test_case_radiator_gpu_at_each_limit(catalog: Catalog) -> None:
    """A 360 mm radiator in the North: the top takes 240 mm, so it goes in the front (360 mm, exactly its size),
    where it and its fans take 55 mm of the 355 mm GPU clearance: a 300 mm card (the TUF RTX 3080) fits exactly,
    one of 301 mm does not."""
    aio = part(catalog, LIQUID_FREEZER_III_360)
    north = part(catalog, NORTH, max_radiator_front_mm=360, max_radiator_top_mm=240)
    tuf = part(catalog, TUF_3080)
    assert north.max_gpu_length_mm - FRONT_RADIATOR_MM == tuf.length_mm  # type: ignore[union-attr, operator]
    assert "case-radiator-gpu" not in errors(build((aio, 1), (north, 1), (tuf, 1)))
    assert "case-radiator-gpu" in errors(build((aio, 1), (north, 1), (part(catalog, TUF_3080, length_mm=301.0), 1)))
    # the front one unit short of the radiator, and the top at the radiator's size (then no GPU clearance is lost)
    narrow = part(catalog, NORTH, max_radiator_front_mm=359, max_radiator_top_mm=240)
    assert "case-radiator-gpu" in errors(build((aio, 1), (narrow, 1), (tuf, 1)))
    top = part(catalog, NORTH, max_radiator_front_mm=359, max_radiator_top_mm=360)
    long_card = part(catalog, TUF_3080, length_mm=355.0)
    assert "case-radiator-gpu" not in errors(build((aio, 1), (top, 1), (long_card, 1)))
    low = part(catalog, NORTH, max_radiator_front_mm=359, max_radiator_top_mm=359)
    assert "case-radiator-gpu" in errors(build((aio, 1), (low, 1), (long_card, 1)))


@pytest.mark.parametrize(
    ("psu", "gpus"),
    [(PRIME_PX_1600, 1), (RM850X_2018, 2)],  # ATX 3.0: spikes are the unit's to hold; 2018: 25 % of 900 W more
    ids=["atx3", "spike-margin"],
)
def test_psu_wattage_errs_past_the_sustained_load_and_warns_inside_the_spike_margin(
    catalog: Catalog, psu: str, gpus: int
) -> None:
    """Issue 36's severity: an error once the sustained load exceeds the rating (the unit cannot carry it); the
    spike margin of a unit not rated for spikes (Intel ATX 3.0 design guide 3.2.11: 200 % for 100 us is an ATX 3.x
    unit's own) is a warning, at its limit and one watt inside it."""
    fe, cpu, unit = part(catalog, RTX_4090_FE), part(catalog, RYZEN_7950X), part(catalog, psu)
    est = estimate_power(build((fe, gpus), (cpu, 1), (unit, 1)))
    load = est.load_w
    assert load == int(load)  # whole watts here, so a unit can be rated exactly at it
    rated = lambda w: build((fe, gpus), (cpu, 1), (part(catalog, psu, wattage=int(w)), 1))  # noqa: E731
    assert "psu-wattage" not in errors(rated(load))
    assert "psu-wattage" in errors(rated(load - 1))
    if est.sizing_w > load:  # the spike margin: inside it a warning, never an error
        inside = check(rated(est.sizing_w - 1))
        assert "psu-wattage" in inside.rules(Severity.WARNING) and "psu-wattage" not in inside.rules(Severity.ERROR)
        assert "psu-wattage" not in check(rated(est.sizing_w)).rules(Severity.ERROR)
    else:
        assert psu == PRIME_PX_1600  # only the ATX 3.0 unit sizes to the sustained load


def test_wall_circuit_at_its_continuous_limit_and_one_watt_under(catalog: Catalog) -> None:
    """The circuit's continuous limit (80 % of volts x amps) set to the build's wall draw, then 1 W less."""
    b = build((part(catalog, RTX_4090_FE), 1), (part(catalog, RYZEN_7950X), 1), (part(catalog, PRIME_PX_1600), 1))
    draw = estimate_power(b).wall_peak_w
    at = next(
        (v, amps)
        for v in (120.0, 230.0, 240.0, 100.0, 127.0, 220.0)
        if circuit_limit_w(v, amps := draw / (v * 0.8)) == draw  # exactly, in floating point
    )
    under = (at[0], (draw - 1) / (at[0] * 0.8))
    assert circuit_limit_w(*under) < draw
    assert "wall-circuit" not in errors(b.model_copy(update={"assumptions": _circuit(b, *at)}))
    assert "wall-circuit" in errors(b.model_copy(update={"assumptions": _circuit(b, *under)}))


def _circuit(b: Build, volts: float, amps: float):  # noqa: ANN202
    return b.assumptions.model_copy(update={"wall_voltage": volts, "wall_amps": amps})


def test_psu_pcie_connectors_at_the_psus_six_and_one_over(catalog: Catalog) -> None:
    """Three 2x 8-pin cards take the RM850x's six 6+2-pin cables; a seventh cable (one more card's pair, on a unit
    with one cable less) is one too many. Wattage aside: only the cables are judged here."""
    tuf, rm = part(catalog, TUF_3080), part(catalog, RM850X_2018)
    assert "psu-pcie-connectors" not in check(build((tuf, 3), (rm, 1))).rules()
    five = rm.model_copy(update={"connectors": rm.connectors.model_copy(update={"pcie8": 5})})  # type: ignore[union-attr]
    f = next(f for f in check(build((tuf, 3), (five, 1))).errors() if f.rule == "psu-pcie-connectors")
    assert "6 6+2-pin cables, 1 more than it has" in f.message


def test_cooler_capacity_at_the_cpus_ppt_and_one_watt_under(catalog: Catalog) -> None:
    """AMD: the Ryzen 9 7950X is a 170 W TDP part with a 230 W PPT (its default socket power limit), the heat it
    sustains under an all-core load. A cooler rated 230 W holds it; 229 W is one watt short: a warning."""
    cpu = part(catalog, RYZEN_7950X)
    assert (cpu.tdp_w, cpu.boost_power_w) == (170, 230)  # type: ignore[union-attr]

    def capacity(rated: float) -> set[str]:
        b = build((cpu, 1), (part(catalog, NH_D15, rated_tdp_w=rated), 1))
        return {f.rule for f in check(b).findings if f.severity is Severity.WARNING}

    assert "cooler-capacity" not in capacity(230.0)
    assert "cooler-capacity" in capacity(229.0)
    unrated = check(build((cpu, 1), (part(catalog, NH_D15, rated_tdp_w=None), 1)))
    assert "cooler-capacity" in {n.rule for n in unrated.not_checked}  # unknown: "not checked", never a pass
