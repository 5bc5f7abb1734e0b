"""gpu-slot-lanes is three-valued on "x8 or better per GPU": a board whose slot wiring the data does not give (a
chipset with no row in tools/chipsets.yaml, a board typed in by hand) cannot show that a second GPU gets x8 rather than
x4 from the chipset, so the check says "not checked" instead of passing on the even-split best case. The suggester's
expert minimums read that "not checked" as a failure (it once offered 2x RTX 3090 Ti on a Q670 micro-ATX board whose
wiring no source in the data gives)."""

from __future__ import annotations

from pathlib import Path

from rigplan.catalog import load_catalog
from rigplan.files import load
from rigplan.model import Build, BuildItem, Kind
from rigplan.model.parts import Motherboard, PcieSlot
from rigplan.rules import check

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
Q670M_D3H = "3ac979c3-900d-4cbe-80b6-d7f8e924119b"  # chipset Intel Q670: no row in tools/chipsets.yaml


def _gpu_lanes_unknown(build: Build) -> list[str]:
    """The "no slot's wiring is known" reasons (the split chipsets' own "x8 if the board splits" reason is another)."""
    return [n.reason for n in check(build).not_checked if n.rule == "gpu-slot-lanes" and "no chipset facts" in n.reason]


def _with_board(build: Build, board: Motherboard) -> Build:
    items = tuple(i for i in build.items if i.part.kind is not Kind.MOTHERBOARD) + (BuildItem(part=board),)
    return build.model_copy(update={"items": items})


def test_unknown_wiring_leaves_x8_per_gpu_open() -> None:
    build = load(EXAMPLES / "2x-rtx-4090.rigplan")  # Ryzen 9 7950X (24 lanes: 16 for graphics), two RTX 4090s
    assert _gpu_lanes_unknown(build) == []  # its X670E board's slots are wired by the chipset table
    board = next(i.part for i in build.items if i.part.kind is Kind.MOTHERBOARD)
    typed = board.model_copy(
        update={"id": "custom-board", "custom": True, "pcie_slots": (PcieSlot(gen="4.0", lanes=16, count=2),)}
    )
    (reason,) = _gpu_lanes_unknown(_with_board(build, typed))
    assert reason.startswith("GPU 2: the data does not say which of the board's 2 x16-size slots the CPU feeds")
    # one GPU: nothing to split
    one = build.model_copy(
        update={
            "items": tuple(i.model_copy(update={"quantity": 1}) if i.part.kind is Kind.GPU else i for i in build.items)
        }
    )
    assert _gpu_lanes_unknown(_with_board(one, typed)) == []


def test_a_catalog_board_without_a_chipset_row_is_not_checked_and_known_wiring_passes() -> None:
    q670 = load_catalog().get(Q670M_D3H)
    assert isinstance(q670, Motherboard) and q670.chipset == "Intel Q670"
    assert all(s.wired_to is None for s in q670.pcie_slots or ())
    build = load(EXAMPLES / "2x-rtx-4090.rigplan")
    cpu = next(
        p for p in load_catalog().of_kind(Kind.CPU) if p.name == "Intel Core i5 12400F"
    )  # LGA 1700, 16 + 4 lanes
    items = tuple(i for i in build.items if i.part.kind not in (Kind.MOTHERBOARD, Kind.CPU))
    on_q670 = build.model_copy(update={"items": (*items, BuildItem(part=q670), BuildItem(part=cpu))})
    assert len(_gpu_lanes_unknown(on_q670)) == 1
    # the same slots wired as the chipset table wires a splitting chipset's CPU x16: known, so no "not checked"
    wired = q670.model_copy(
        update={"pcie_slots": (PcieSlot(gen="4.0", lanes=8, count=2, physical=16, wired_to="cpu"),)}
    )
    assert _gpu_lanes_unknown(_with_board(on_q670, wired)) == []


def _lanes(build: Build) -> tuple[str, str]:
    (f,) = [f for f in check(build).findings if f.rule == "gpu-lanes"]
    return f.severity.value, f.message


def test_what_each_gpu_runs_at_follows_the_slots_wiring() -> None:
    """Two GPUs on a 24-lane Ryzen (16 for graphics): a board that splits the CPU's x16 gives x8/x8, said as such;
    a board whose second x16-size slot is the chipset's x4 leaves the first card its x16 (the chipset's lanes are not
    the CPU's) and warns about the x4 one."""
    build = load(EXAMPLES / "2x-rtx-4090.rigplan")
    board = next(i.part for i in build.items if i.part.kind is Kind.MOTHERBOARD)
    cpu16 = PcieSlot(gen="5.0", lanes=16, count=1, physical=16, wired_to="cpu")
    for second, severity, said in (
        (PcieSlot(gen="5.0", lanes=8, physical=16, wired_to="cpu"), "note", "(listed x16/x8): x8/x8"),
        (
            PcieSlot(gen="4.0", lanes=4, physical=16, wired_to="chipset"),
            "warning",
            "x16/x4 from the CPU's 16 graphics lanes (of its 24) and",
        ),
    ):
        found, message = _lanes(_with_board(build, board.model_copy(update={"pcie_slots": (cpu16, second)})))
        assert found == severity and said in message
    assert "A GPU at x4" in message  # the chipset board's x4 card


def test_a_pcie_3_cpu_runs_the_slots_at_pcie_3() -> None:
    """AMD's Ryzen 5 5500 (Cezanne) has PCIe 3.0 lanes, the 5600X PCIe 4.0 (tools/cpu_families.yaml): on a board of
    PCIe 4.0 slots split x8/x8 the lane note says the links run at 3.0 with the 5500, and nothing of it with the
    5600X."""
    catalog = load_catalog()
    cpus = {p.name: p for p in catalog.of_kind(Kind.CPU) if p.name in ("AMD Ryzen 5 5500", "AMD Ryzen 5 5600X")}
    assert cpus["AMD Ryzen 5 5500"].pcie_gen == "3.0" and cpus["AMD Ryzen 5 5600X"].pcie_gen == "4.0"  # type: ignore[attr-defined]
    board = next(p for p in catalog.of_kind(Kind.MOTHERBOARD) if p.name == "Asus ProArt B550-CREATOR")
    build = load(EXAMPLES / "2x-rtx-4090.rigplan")
    kept = tuple(i for i in build.items if i.part.kind not in (Kind.MOTHERBOARD, Kind.CPU, Kind.MEMORY))
    for name, said in (("AMD Ryzen 5 5500", True), ("AMD Ryzen 5 5600X", False)):
        on = build.model_copy(update={"items": (*kept, BuildItem(part=board), BuildItem(part=cpus[name]))})
        _, message = _lanes(on)
        assert "x8/x8" in message
        assert ("at PCIe 3.0: the AMD Ryzen 5 5500's lanes are PCIe 3.0 (the slots PCIe 4.0)" in message) is said


def test_one_lane_figure_and_wording_whatever_the_gpu_count() -> None:
    """Issue 40: the same Threadripper 3960X had "56 graphics lanes" with 4 GPUs and "64 lanes" with 2."""
    from rigplan.rules import check

    build = load(EXAMPLES / "4-gpu-threadripper.rigplan")
    said = []
    for n in (2, 3, 4):
        items = tuple(i.model_copy(update={"quantity": n}) if i.part.kind is Kind.GPU else i for i in build.items)
        said += [f.message for f in check(build.model_copy(update={"items": items})).findings if f.rule == "gpu-lanes"]
    assert len(said) == 3
    assert all("the CPU's 56 graphics lanes (of its 64)" in m for m in said), said


def _with_cpu(build: Build, name: str) -> Build:
    cpu = next(p for p in load_catalog().of_kind(Kind.CPU) if p.name == name)
    items = tuple(i for i in build.items if i.part.kind is not Kind.CPU) + (BuildItem(part=cpu),)
    return build.model_copy(update={"items": items})


def _lanes_message(build: Build) -> tuple[str, str]:
    (hit,) = [(f.severity.name.lower(), f.message) for f in check(build).findings if f.rule == "gpu-lanes"]
    return hit


def test_a_ryzen_8000_phoenix_cpu_gives_its_graphics_slots_x8_not_x16() -> None:
    """AMD's Ryzen 8000G / 8000F 'Phoenix' CPUs have 20 PCIe 4.0 lanes, 16 usable, and run the graphics slot at x8
    ('Phoenix 2', the 8500G / 8300G: 14 lanes, 10 usable, x4): AMD's figures and Gigabyte's B650E AORUS ELITE X AX
    ICE specification as Hardwareluxx and TweakTown reported them (2024-01). Two GPUs on the example's x8/x8 X670E
    board get x8 each from a Ryzen 9 7950X but only x4 each from a Ryzen 7 8700F, and x2 from a Ryzen 5 8500G."""
    build = load(EXAMPLES / "2x-rtx-4090.rigplan")
    level, msg = _lanes_message(_with_cpu(build, "AMD Ryzen 9 7950X"))
    assert level == "note" and "x8/x8" in msg and "16 graphics lanes (of its 24)" in msg
    level, msg = _lanes_message(_with_cpu(build, "AMD Ryzen 7 8700F"))
    assert level == "warning" and "8 graphics lanes (of its 16)" in msg and "x4/x4" in msg, msg
    level, msg = _lanes_message(_with_cpu(build, "AMD Ryzen 5 8500G"))
    assert level == "warning" and "4 graphics lanes (of its 10)" in msg and "x2/x2" in msg, msg
