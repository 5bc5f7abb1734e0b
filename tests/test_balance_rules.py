"""Issue 29: balance notes (rules/balance.py) on real builds: each fires with both numbers and its source, stays
quiet on a balanced build, and is "not checked" when a value it needs is unknown. Notes only: the exit code of
`rigplan check` and the "compatible only" filter do not change."""

from __future__ import annotations

from pathlib import Path

from rigplan.files import load
from rigplan.model import Build, BuildItem, Kind
from rigplan.model.parts import Cpu, Memory
from rigplan.rules import Severity, check

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _example(name: str) -> Build:
    return load(EXAMPLES / name)


def _swap(build: Build, kind: Kind, *items: BuildItem) -> Build:
    return build.model_copy(update={"items": tuple(i for i in build.items if i.part.kind != kind) + items})


def _notes(build: Build, rule: str) -> list[str]:
    return [f"{f.message} {f.hint}" for f in check(build).findings if f.rule == rule and f.severity is Severity.NOTE]


def _unchecked(build: Build) -> set[str]:
    return {n.rule for n in check(build).not_checked}


def test_four_fast_ddr5_dimms_on_am5() -> None:
    build = _example("2x-rtx-4090.rigplan")  # two 2x32 GB DDR5-6000 kits on an AM5 board
    (text,) = _notes(build, "balance-am5-dimms")
    assert "4 DDR5 DIMMs at 6,000 MT/s" in text and "3,600 MT/s" in text and "AMD" in text
    kit = next(i for i in build.items if i.part.kind is Kind.MEMORY)
    two = _swap(build, Kind.MEMORY, kit.model_copy(update={"quantity": 1}))  # one kit: two DIMMs
    assert _notes(two, "balance-am5-dimms") == []
    unknown = Memory(id="custom-mem", name="Unknown kit", custom=True, capacity_gb=64, ram_type="DDR5")
    assert "balance-am5-dimms" in _unchecked(_swap(build, Kind.MEMORY, BuildItem(part=unknown, quantity=2)))


def test_system_ram_below_gpu_memory() -> None:
    build = _example("2x-rtx-4090.rigplan")  # 128 GB of RAM, 2x 24 GB of GPU memory: balanced
    assert _notes(build, "balance-ram") == []
    kit = next(i for i in build.items if i.part.kind is Kind.MEMORY)
    small = Memory(id="custom-small", name="One 32 GB kit", custom=True, capacity_gb=32, ram_type="DDR5", modules=2)
    (text,) = _notes(_swap(build, Kind.MEMORY, BuildItem(part=small)), "balance-ram")
    assert "32 GB of system RAM for 48 GB of GPU memory" in text and "Puget" in text
    no_size = Memory(id="custom-nosize", name="Kit", custom=True, ram_type="DDR5", modules=2)
    assert "balance-ram" in _unchecked(_swap(build, Kind.MEMORY, BuildItem(part=no_size)))
    assert kit.part.capacity_gb  # type: ignore[attr-defined]


def test_fewer_than_two_cores_per_gpu() -> None:
    build = _example("2x-rtx-4090.rigplan")  # 16 cores for 2 GPUs
    assert _notes(build, "balance-cores") == []
    cpu = next(i.part for i in build.items if i.part.kind is Kind.CPU)
    quad = cpu.model_copy(update={"id": "custom-quad", "name": "Quad core", "custom": True, "cores": 3})
    (text,) = _notes(_swap(build, Kind.CPU, BuildItem(part=quad)), "balance-cores")
    assert "3 CPU cores for 2 GPUs: 1.5 a GPU" in text and "Dettmers" in text
    blank = Cpu(id="custom-cpu", name="CPU", custom=True, socket="AM5")
    assert "balance-cores" in _unchecked(_swap(build, Kind.CPU, BuildItem(part=blank)))


def test_notes_do_not_change_errors() -> None:
    build = _example("2x-rtx-4090.rigplan")
    assert not check(build).errors()
