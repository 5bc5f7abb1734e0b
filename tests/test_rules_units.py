"""Two PSUs in one build (psu-quantity, and what psu-wattage, psu-pcie-connectors and wall-circuit make of them), and
GPUs with an EPS power socket (gpu-eps-power), on real catalog parts."""

from __future__ import annotations

from catalog_parts import build, part
from rigplan.catalog import Catalog
from rigplan.model.parts import Gpu, GpuPower, Motherboard, Psu
from rigplan.rules import Severity, check
from rigplan.rules.units import split_gpus

RTX_5090 = "0ad09cb9"  # ZOTAC RTX 5090 SOLID: 575 W, one 12V-2x6
PRIME_PX_1600 = "7a344679"  # Seasonic PRIME PX-1600: 2x 12V-2x6, 8x 6+2-pin, 3 EPS
RM1000E = "11449671"  # Corsair RM1000e (2025): 1x 12V-2x6, 6x 6+2-pin, 2 EPS
TR_9980X = "007a5a23"


def test_the_strongest_cards_are_spread_first_and_unit_1_gets_fewest() -> None:
    cards = [Gpu(id=f"g{n}", name=f"g{n}", tdp_w=w) for n, w in enumerate((300, 575, 575, 450), 1)]
    assert split_gpus(cards, 1) == [[1, 2, 3, 4]]
    # 575 W (GPU 2) -> unit 2, 575 W (GPU 3) -> unit 1, 450 W -> unit 2 (a tie: unit 1 also feeds the rest),
    # 300 W -> unit 1 (575 < 1,025 W).
    assert split_gpus(cards, 2) == [[1, 3], [2, 4]]
    assert split_gpus(cards, 3) == [[1, 4], [3], [2]]


def test_two_units_add_up_and_the_hint_never_says_split(catalog: Catalog) -> None:
    gpu, psu = part(catalog, RTX_5090), part(catalog, PRIME_PX_1600)
    ok = check(build((part(catalog, TR_9980X), 1), (gpu, 3), (psu, 2), wall_voltage=230, wall_amps=16))
    assert "psu-wattage" not in ok.rules() and ok.power is not None and ok.power.psu_w == 3200
    note = next(f for f in ok.findings if f.rule == "psu-quantity")
    assert note.severity is Severity.NOTE and "PSU 2: GPU 1" in note.message and "GPU 3" in note.message
    # Four cards on two 1000 W units: over the pooled 2,000 W too; the hint asks for larger units, not a split.
    small = part(catalog, RM1000E)
    over = check(build((gpu, 4), (small, 2), wall_voltage=230, wall_amps=16))
    err = next(f for f in over.errors() if f.rule == "psu-wattage")
    assert "the 2 PSUs' 2000 W together (2x 1000 W)" in err.message
    assert "split" not in err.hint.lower() and "W each" in err.hint
    assert "psu-quantity" in over.rules(Severity.ERROR)


def test_each_unit_takes_its_own_cables(catalog: Catalog) -> None:
    # One 12V-2x6 and six 6+2-pin per RM1000e: two 5090s on one unit need the native cable and a 4x 8-pin adapter
    # fed by four; on two units each card has its own native cable.
    gpu, psu = part(catalog, RTX_5090), part(catalog, RM1000E)
    two = check(build((gpu, 2), (psu, 2), wall_voltage=230, wall_amps=16))
    assert "psu-pcie-connectors" not in two.rules()
    one = check(build((gpu, 2), (psu, 1), wall_voltage=230, wall_amps=16))
    assert "PSU 1:" not in str([f.message for f in one.findings if f.rule == "psu-pcie-connectors"])


def test_the_wall_circuit_per_unit(catalog: Catalog) -> None:
    # 3x 5090 on two 1600 W units draw about 2,400 W from the wall: over one 120 V / 20 A circuit (1,920 W), but each
    # unit's share fits one: a warning to use one circuit per PSU, not an error.
    b = build((part(catalog, TR_9980X), 1), (part(catalog, RTX_5090), 3), (part(catalog, PRIME_PX_1600), 2),
              wall_voltage=120, wall_amps=20)  # fmt: skip
    r = check(b)
    f = next(f for f in r.findings if f.rule == "wall-circuit")
    assert f.severity is Severity.WARNING and "PSU 1" in f.message and "PSU 2" in f.message
    assert "own circuit" in f.hint
    # The same parts on one 1600 W unit: one circuit, an error.
    one = check(build((part(catalog, TR_9980X), 1), (part(catalog, RTX_5090), 3), (part(catalog, PRIME_PX_1600), 1),
                      wall_voltage=120, wall_amps=20))  # fmt: skip
    assert "wall-circuit" in one.rules(Severity.ERROR)


def _a6000(n: int) -> Gpu:
    return Gpu(id=f"a6000-{n}", name="RTX A6000", tdp_w=300, power_connectors=GpuPower(eps8=1), custom=True)


def test_eps_sockets_use_spare_eps_then_pcie_pairs(catalog: Catalog) -> None:
    psu = part(catalog, PRIME_PX_1600)  # 3 EPS, 8x 6+2-pin
    assert isinstance(psu, Psu)
    board = Motherboard(id="b", name="two EPS sockets", eps_connectors=("8-pin", "8-pin"), custom=True)
    # The board takes two EPS cables: one spare, then pairs of 6+2-pin: 1 + 8 / 2 = 5 cards fed, the 6th is not.
    five = check(build((board, 1), (_a6000(1), 5), (psu, 1), wall_voltage=230, wall_amps=16))
    fed = next(f for f in five.findings if f.rule == "gpu-eps-power")
    assert fed.severity is Severity.NOTE and fed.message.count("EPS adapter") == 4
    six = check(build((board, 1), (_a6000(1), 6), (psu, 1), wall_voltage=230, wall_amps=16))
    err = next(f for f in six.errors() if f.rule == "gpu-eps-power")
    assert "1 left unfed" in err.message and "3 EPS cables (2 for the board)" in err.message
    # EPS cards never count against PCIe cables: no psu-pcie-connectors finding at all.
    assert "psu-pcie-connectors" not in six.rules()


def test_ecc_memory_on_a_board_and_cpu_without_ecc_names_both_in_one_sentence() -> None:
    """memory-ecc: ECC UDIMMs run as plain memory where neither the board nor the CPU runs ECC; the warning names
    both (and, with one side, that side alone)."""
    from rigplan.model.parts import Cpu, Memory

    mem = Memory(id="m", name="ECC UDIMM kit", ram_type="DDR5", ecc=True, registered=False, modules=2, capacity_gb=64)
    cpu = Cpu(id="c", name="Desktop CPU", socket="AM5", ecc=False, memory_types=("DDR5",))
    board = Motherboard(id="b", name="Desktop board", socket="AM5", ram_type="DDR5", ecc_support=False)
    both = [f for f in check(build((cpu, 1), (board, 1), (mem, 1))).findings if f.rule == "memory-ecc"]
    assert len(both) == 1 and both[0].severity is Severity.WARNING
    assert "the motherboard and the CPU do not support ECC" in both[0].message
    one = check(build((cpu.model_copy(update={"ecc": True}), 1), (board, 1), (mem, 1)))
    (only,) = [f for f in one.findings if f.rule == "memory-ecc"]
    assert "the motherboard does not support ECC" in only.message
