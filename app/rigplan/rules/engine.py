"""check(build) -> Report: every rule, on whatever the build has so far. RULES is the one list of rules, each entry
with its whole policy (rule.py); the "compatible only" filter (compat.py), the Passed list (passed.py) and the
suggester's strict verdicts (suggest/expert.py) all read it. Over 400 lines because it is that one table: each
entry states every policy field, one to a line, so that a new rule cannot leave one out (docs/checks.md, "How a
rule is added")."""

from __future__ import annotations

from rigplan.model.build import Build
from rigplan.model.parts import Kind, Psu
from rigplan.rules import cooling, fit, gpu, link, memory, server, spacing, units
from rigplan.rules import electrical as el
from rigplan.rules import workstation as ws
from rigplan.rules.balance import balance
from rigplan.rules.context import Ctx, eps_fed, open_air
from rigplan.rules.findings import Report
from rigplan.rules.platforms import one_table
from rigplan.rules.power import is_atx3, psu_units
from rigplan.rules.power_mask import psu_wattage_errors, wall_circuit_errors
from rigplan.rules.rule import Power, Rule, count_only, facts

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


def one(a: Kind) -> frozenset[Kind]:
    return frozenset({a})


NONE = Power.NONE


RULES: tuple[Rule, ...] = (
    Rule(
        ("cpu-socket",),
        fit.cpu_socket,
        {K.CPU: facts("socket"), K.MOTHERBOARD: facts("socket")},
        needs=both(K.CPU, K.MOTHERBOARD),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("cpu-chipset",),
        fit.cpu_chipset,
        {K.CPU: fit.cpu_chipset_facts, K.MOTHERBOARD: facts("socket", "chipset")},
        needs=both(K.CPU, K.MOTHERBOARD),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # No display output is about a part still missing, not about a candidate's fit: the filter leaves it out, or
    # it would hide every Threadripper until a GPU is chosen.
    Rule(
        ("cpu-igpu",),
        fit.cpu_igpu,
        passes=False,
        strict_unknown=False,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("cpu-memory-type",),
        fit.cpu_memory_type,
        {K.CPU: facts("memory_types"), K.MEMORY: facts("ram_type")},
        needs=both(K.CPU, K.MEMORY),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("cooler-socket",),
        fit.cooler_fit,
        {K.CPU: facts("socket"), K.COOLER: facts("sockets"), K.MOTHERBOARD: facts("socket")},
        needs=both(K.CPU, K.COOLER),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("cooler-capacity",),
        cooling.cooler_capacity,
        {},
        needs=both(K.CPU, K.COOLER),
        passes=False,
        strict_unknown=False,
        strict_warn=True,
        strict_reads={K.CPU: facts("boost_power_w", "tdp_w", "socket"), K.COOLER: facts("rated_tdp_w")},
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("cooler-height",),
        fit.cooler_height,
        {K.COOLER: facts("height_mm"), K.CASE: facts("max_cooler_height_mm")},
        needs=both(K.COOLER, K.CASE),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
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
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("board-form-factor",),
        fit.board_form_factor,
        {K.MOTHERBOARD: facts("form_factor"), K.CASE: facts("motherboard_form_factors")},
        needs=both(K.MOTHERBOARD, K.CASE),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("psu-form-factor",),
        fit.psu_form_factor_rule,
        {K.PSU: facts("form_factor"), K.CASE: facts("psu_form_factors")},
        needs=both(K.PSU, K.CASE),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # Not strict: few PSUs and cases give a length, and a PSU a few mm long for its bay is rare.
    Rule(
        ("psu-length",),
        fit.psu_length,
        {K.PSU: facts("length_mm"), K.CASE: facts("max_psu_length_mm")},
        needs=both(K.PSU, K.CASE),
        passes=True,
        strict_unknown=False,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("memory-type",),
        memory.memory_type,
        {K.MEMORY: facts("ram_type"), K.MOTHERBOARD: facts("ram_type")},
        needs=both(K.MEMORY, K.MOTHERBOARD),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("memory-registered",),
        memory.memory_registered,
        {
            K.MEMORY: facts("registered"),
            K.MOTHERBOARD: facts("socket"),
            K.CPU: facts("socket", "rdimm_support"),
        },
        needs=one(K.MEMORY),
        needs_any=both(K.MOTHERBOARD, K.CPU),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("memory-form-factor",),
        memory.memory_form_factor,
        {K.MEMORY: facts("form_factor"), K.MOTHERBOARD: facts("memory_form_factor")},
        needs=both(K.MEMORY, K.MOTHERBOARD),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("memory-slots",),
        memory.memory_slots,
        {K.MEMORY: facts("modules", "capacity_gb"), K.MOTHERBOARD: facts("memory_slots")},
        needs=both(K.MEMORY, K.MOTHERBOARD),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("memory-capacity",),
        memory.memory_capacity,
        {
            K.MEMORY: facts("modules", "capacity_gb"),
            K.MOTHERBOARD: facts("max_memory_gb"),
            K.CPU: facts("max_memory_gb"),
        },
        needs=one(K.MEMORY),
        needs_any=both(K.MOTHERBOARD, K.CPU),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # a warning at most: the filter leaves it out
    Rule(
        ("memory-ecc",),
        ws.memory_ecc,
        passes=False,
        strict_unknown=False,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("memory-rdimm-cpu",),
        ws.memory_rdimm_cpu,
        {
            K.MEMORY: facts("registered"),
            K.CPU: facts("socket", "rdimm_support"),
            K.MOTHERBOARD: facts("socket"),
        },
        needs=both(K.MEMORY, K.CPU),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("storage-m2",),
        memory.storage_m2,
        {K.STORAGE: facts("form_factor", "interface"), K.MOTHERBOARD: facts("m2_slots")},
        needs=both(K.STORAGE, K.MOTHERBOARD),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("storage-sata",),
        memory.storage_sata,
        {K.STORAGE: facts("form_factor", "interface"), K.MOTHERBOARD: facts("sata_ports")},
        needs=both(K.STORAGE, K.MOTHERBOARD),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("gpu-length",),
        gpu.gpu_length,
        {K.GPU: facts("length_mm"), K.CASE: facts("max_gpu_length_mm")},
        needs=both(K.GPU, K.CASE),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=True,
    ),
    Rule(
        ("gpu-slots",),
        gpu.gpu_slots_rule,
        {K.GPU: count_only, K.MOTHERBOARD: facts("pcie_slots")},
        needs=both(K.GPU, K.MOTHERBOARD),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("gpu-expansion-slots",),
        gpu.gpu_expansion_slots,
        {K.GPU: facts("slot_width"), K.CASE: facts("expansion_slots")},
        needs=both(K.GPU, K.CASE),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=True,
    ),
    Rule(
        ("board-slot-positions",),
        ws.board_slot_positions,
        {K.GPU: facts("slot_width"), K.MOTHERBOARD: facts("form_factor")},
        needs=both(K.GPU, K.MOTHERBOARD),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=True,
    ),
    # a warning at most
    Rule(
        ("gpu-slot-lanes",),
        ws.gpu_slot_lanes,
        passes=False,
        strict_unknown=True,
        strict_warn=False,
        strict_reads={K.GPU: count_only, K.MOTHERBOARD: gpu.board_slots},
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # Its "not checked" (a board without a recorded layout) fails a suggestion for cards of 2.5 slots or more
    Rule(
        ("gpu-slot-spacing",),
        spacing.gpu_slot_spacing,
        {K.GPU: facts("slot_width"), K.MOTHERBOARD: facts("pcie_slots"), K.CASE: facts("expansion_slots")},
        needs=both(K.GPU, K.MOTHERBOARD),
        passes=True,
        strict_unknown=spacing.thick_cards,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # A warning: open-air cards with no empty slot between them on a recorded layout (rules/spacing.py)
    Rule(
        ("gpu-intake-gap",),
        spacing.gpu_intake_gap,
        needs=both(K.GPU, K.MOTHERBOARD),
        passes=False,
        strict_unknown=False,
        strict_warn=True,
        strict_reads={K.GPU: lambda g: (g.slot_width, open_air(g)), K.MOTHERBOARD: facts("pcie_slots")},
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # 2+ GPUs: a note, or a warning below x8. One GPU (rules/link.py): a note when its link is below the card's
    # own, a warning at 8 GB/s or less; its "not checked" (a generation not in the data) is strict for 2+ GPUs only.
    Rule(
        ("gpu-lanes",),
        gpu.gpu_lanes_rule,
        needs=one(K.GPU),
        passes=False,
        strict_unknown=gpu.lanes_strict_unknown,
        strict_warn=True,
        strict_reads={
            K.GPU: link.link_card,
            K.MOTHERBOARD: link.link_board,
            K.CPU: facts("pcie_lanes", "graphics_lanes", "pcie_gen"),
        },
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # a warning at most: 3+ open-air cards
    Rule(
        ("gpu-spacing",),
        gpu.gpu_spacing,
        needs=one(K.GPU),
        passes=False,
        strict_unknown=True,
        strict_warn=True,
        strict_reads={K.GPU: lambda g: (open_air(g),)},
        power=NONE,
        gpu_only=True,
        loosest_card=False,
    ),
    # "not checked" only: hybrid and custom-loop cards
    Rule(
        ("gpu-radiator",),
        gpu.gpu_radiator,
        needs=one(K.GPU),
        passes=False,
        strict_unknown=True,
        strict_warn=False,
        strict_reads={K.GPU: facts("cooling")},
        power=NONE,
        gpu_only=True,
        loosest_card=False,
    ),
    # notes only (rules/balance.py)
    Rule(
        (
            "balance-ram",
            "balance-cores",
            "balance-am5-dimms",
        ),
        balance,
        passes=False,
        strict_unknown=False,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("psu-wattage",),
        el.psu_wattage,
        POWER_FACTS,
        assumptions=True,
        needs=one(K.PSU),
        vector=psu_wattage_errors,
        passes=True,
        strict_unknown=True,
        strict_warn=True,
        strict_reads=None,
        power=Power.RATING,
        gpu_only=False,
        loosest_card=True,
    ),
    Rule(
        ("wall-circuit",),
        el.wall_circuit,
        POWER_FACTS,
        assumptions=True,
        needs_any=frozenset(Kind),  # any part: the build's draw; without a PSU a note states the Gold unit assumed
        vector=wall_circuit_errors,
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=Power.CIRCUIT,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("psu-quantity",),
        units.psu_quantity,
        POWER_FACTS,
        needs=one(K.PSU),
        applies=lambda b, _kind: psu_units(b) > 1,
        passes=True,
        strict_unknown=True,
        strict_warn=True,
        strict_reads=None,
        power=Power.UNITS,
        gpu_only=False,
        loosest_card=False,
    ),
    # a note at most
    Rule(
        ("psu-atx3",),
        ws.psu_atx3,
        passes=False,
        strict_unknown=False,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("psu-pcie-connectors",),
        el.psu_pcie,
        {K.GPU: facts("power_connectors", "tdp_w"), K.PSU: facts("connectors")},
        needs=both(K.GPU, K.PSU),
        passes=True,
        strict_unknown=True,
        strict_warn=True,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=True,
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
        passes=True,
        strict_unknown=True,
        strict_warn=True,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("psu-eps",),
        el.psu_eps,
        {K.PSU: facts("connectors"), K.MOTHERBOARD: facts("eps_connectors", "cpu_sockets")},
        needs=both(K.PSU, K.MOTHERBOARD),
        passes=True,
        strict_unknown=False,
        strict_warn=True,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # The PSU's EPS count: known and at least one passes; unknown is a hole the suggester does not take; none
    # beside a board with known CPU power sockets is an error.
    Rule(
        ("psu-eps-count",),
        el.psu_eps_count,
        {K.PSU: facts("connectors"), K.MOTHERBOARD: facts("eps_connectors")},
        needs=both(K.PSU, K.MOTHERBOARD),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    *server.RULES,  # server and workstation platforms (issue 36)
)


def check(build: Build) -> Report:
    with one_table():  # the platform table read once for the whole check (platforms.py)
        c = Ctx(build)
        c.report.power = c.power
        for rule in RULES:
            rule.run(c)
        missing(c)
    c.report.sort()
    return c.report
