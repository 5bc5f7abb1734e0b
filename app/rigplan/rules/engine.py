"""check(build) -> Report: every rule, on whatever the build has so far. RULES is the one list of rules; the
"compatible only" filter (compat.py) runs the same rules (rule.py)."""

from __future__ import annotations

from rigplan.model.build import Build
from rigplan.model.parts import Kind, Psu
from rigplan.rules import electrical as el
from rigplan.rules import fit, gpu, memory, server, units
from rigplan.rules import workstation as ws
from rigplan.rules.balance import balance
from rigplan.rules.context import Ctx, eps_fed
from rigplan.rules.findings import Report
from rigplan.rules.power import is_atx3, psu_units
from rigplan.rules.power_mask import power_errors
from rigplan.rules.rule import Rule, count_only, facts

K = Kind
ESSENTIAL = (Kind.CPU, Kind.MOTHERBOARD, Kind.MEMORY, Kind.STORAGE, Kind.GPU, Kind.PSU, Kind.CASE)


def missing(c: Ctx) -> None:
    for kind in ESSENTIAL:
        if c.build.first(kind) is None:
            extra = " (a deep-learning build needs at least one)" if kind is Kind.GPU else ""
            label = kind.label if kind.label.isupper() else kind.label.lower()  # "No CPU", "No power supply"
            c.note(f"missing-{kind.value}", f"No {label} chosen yet{extra}.", "", [], (kind,))
    if c.build.first(Kind.COOLER) is None and c.cpu and not c.cpu.includes_cooler:
        why = "the CPU comes without one" if c.cpu.includes_cooler is False else "no cooler chosen"
        c.note("missing-cooler", f"No CPU cooler chosen yet ({why}).", "", [], (Kind.COOLER,))


def power_rules(c: Ctx) -> None:
    """PSU rating and wall circuit: one rule object, so the filter estimates each candidate's power once."""
    el.psu_wattage(c, c.power)
    el.wall_circuit(c, c.power)


def _psu_power(p: Psu) -> tuple[object, ...]:
    return p.wattage, p.efficiency, is_atx3(p)


# What each part contributes to the power estimate (power.py: gpu_watts, cpu_watts, memory_watts, ...).
POWER_FACTS = {
    K.GPU: facts("tdp_w"),
    K.CPU: facts("boost_power_w", "tdp_w", "socket", "includes_cooler"),
    K.MEMORY: facts("registered", "modules"),
    K.STORAGE: facts("storage_type", "nvme", "form_factor", "interface"),
    K.COOLER: facts("fan_count", "fanless", "water_cooled"),
    K.MOTHERBOARD: facts("socket"),
    K.PSU: _psu_power,  # is_atx3 reads the name and the atx3 field
    K.CASE: count_only,
}


def both(a: Kind, b: Kind) -> frozenset[Kind]:
    return frozenset({a, b})


RULES: tuple[Rule, ...] = (
    Rule(
        ("cpu-socket",),
        fit.cpu_socket,
        {K.CPU: facts("socket"), K.MOTHERBOARD: facts("socket")},
        needs=both(K.CPU, K.MOTHERBOARD),
    ),
    Rule(
        ("cpu-chipset",),
        fit.cpu_chipset,
        {K.CPU: fit.cpu_chipset_facts, K.MOTHERBOARD: facts("socket", "chipset")},
        needs=both(K.CPU, K.MOTHERBOARD),
    ),
    # No display output is about a part still missing, not about a candidate's fit: the filter leaves it out, or
    # it would hide every Threadripper until a GPU is chosen.
    Rule(("cpu-igpu",), fit.cpu_igpu),
    Rule(
        ("cpu-memory-type",),
        fit.cpu_memory_type,
        {K.CPU: facts("memory_types"), K.MEMORY: facts("ram_type")},
        needs=both(K.CPU, K.MEMORY),
    ),
    Rule(
        ("cooler-socket",),
        fit.cooler_fit,
        {K.CPU: facts("socket"), K.COOLER: facts("sockets"), K.MOTHERBOARD: facts("socket")},
        needs=both(K.CPU, K.COOLER),
    ),
    Rule(
        ("cooler-height",),
        fit.cooler_height,
        {K.COOLER: facts("height_mm"), K.CASE: facts("max_cooler_height_mm")},
        needs=both(K.COOLER, K.CASE),
    ),
    Rule(
        ("case-radiator-gpu",),
        ws.case_radiator_gpu,
        {
            K.COOLER: facts("water_cooled", "radiator_mm"),
            K.CASE: facts("max_radiator_front_mm", "max_radiator_top_mm", "max_gpu_length_mm"),
            K.GPU: facts("length_mm"),
        },
        needs=both(K.COOLER, K.CASE),
    ),
    Rule(
        ("board-form-factor",),
        fit.board_form_factor,
        {K.MOTHERBOARD: facts("form_factor"), K.CASE: facts("motherboard_form_factors")},
        needs=both(K.MOTHERBOARD, K.CASE),
    ),
    Rule(
        ("psu-form-factor", "psu-length"),
        fit.psu_fit,
        {K.PSU: facts("form_factor", "length_mm"), K.CASE: facts("psu_form_factors", "max_psu_length_mm")},
        needs=both(K.PSU, K.CASE),
    ),
    Rule(
        ("memory-type", "memory-registered", "memory-form-factor", "memory-slots", "memory-capacity"),
        memory.memory_rules,
        {
            K.MEMORY: facts("ram_type", "registered", "form_factor", "modules", "capacity_gb"),
            K.MOTHERBOARD: facts("ram_type", "socket", "memory_form_factor", "memory_slots", "max_memory_gb"),
            K.CPU: facts("socket", "max_memory_gb"),
        },
        needs=frozenset({K.MEMORY}),
    ),
    Rule(("memory-ecc",), ws.memory_ecc),  # a warning at most: the filter leaves it out
    Rule(
        ("memory-rdimm-cpu",),
        ws.memory_rdimm_cpu,
        {
            K.MEMORY: facts("registered"),
            K.CPU: facts("socket", "rdimm_support"),
            K.MOTHERBOARD: facts("socket"),
        },
        needs=both(K.MEMORY, K.CPU),
    ),
    Rule(
        ("storage-m2", "storage-sata"),
        memory.storage_rules,
        {K.STORAGE: facts("form_factor", "interface"), K.MOTHERBOARD: facts("m2_slots", "sata_ports")},
        needs=both(K.STORAGE, K.MOTHERBOARD),
    ),
    Rule(
        ("gpu-length",),
        gpu.gpu_length,
        {K.GPU: facts("length_mm"), K.CASE: facts("max_gpu_length_mm")},
        needs=both(K.GPU, K.CASE),
    ),
    Rule(
        ("gpu-slots",),
        gpu.gpu_slots_rule,
        {K.GPU: count_only, K.MOTHERBOARD: facts("pcie_slots")},
        needs=both(K.GPU, K.MOTHERBOARD),
    ),
    Rule(
        ("gpu-expansion-slots",),
        gpu.gpu_expansion_slots,
        {K.GPU: facts("slot_width"), K.CASE: facts("expansion_slots")},
        needs=both(K.GPU, K.CASE),
    ),
    Rule(
        ("board-slot-positions",),
        ws.board_slot_positions,
        {K.GPU: facts("slot_width"), K.MOTHERBOARD: facts("form_factor")},
        needs=both(K.GPU, K.MOTHERBOARD),
    ),
    Rule(("gpu-slot-lanes",), ws.gpu_slot_lanes),  # a warning at most
    Rule(("gpu-slot-spacing", "gpu-lanes", "gpu-spacing"), gpu.gpu_multi),
    Rule(("gpu-radiator",), gpu.gpu_radiator),  # "not checked" only: hybrid and custom-loop cards
    Rule(("balance-ram", "balance-cores", "balance-am5-dimms"), balance),  # notes only: no facts (rules/balance.py)
    Rule(("psu-wattage", "wall-circuit"), power_rules, POWER_FACTS, assumptions=True, vector=power_errors),
    Rule(
        ("psu-quantity",),
        units.psu_quantity,
        POWER_FACTS,
        needs=frozenset({K.PSU}),
        applies=lambda b, _kind: psu_units(b) > 1,
    ),
    Rule(("psu-atx3",), ws.psu_atx3),  # a note at most
    Rule(
        ("psu-pcie-connectors",),
        el.psu_pcie,
        {K.GPU: facts("power_connectors", "tdp_w"), K.PSU: facts("connectors")},
        needs=both(K.GPU, K.PSU),
    ),
    Rule(
        ("gpu-eps-power",),
        el.gpu_eps,
        {
            K.GPU: facts("power_connectors", "tdp_w"),
            K.PSU: facts("connectors"),
            K.MOTHERBOARD: facts("eps_connectors"),
        },
        needs=both(K.GPU, K.PSU),
        applies=lambda b, kind: kind is K.GPU or any(eps_fed(i.part) for i in b.items if i.part.kind is K.GPU),
    ),
    Rule(
        ("psu-eps", "psu-eps-count"),
        el.psu_eps,
        {K.PSU: facts("connectors"), K.MOTHERBOARD: facts("eps_connectors", "cpu_sockets")},
        needs=both(K.PSU, K.MOTHERBOARD),
    ),
    *server.RULES,  # server and workstation platforms (issue 36)
)


def check(build: Build) -> Report:
    c = Ctx(build)
    c.report.power = c.power
    for rule in RULES:
        rule.run(c)
    missing(c)
    c.report.sort()
    return c.report
