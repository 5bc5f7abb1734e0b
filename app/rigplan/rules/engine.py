"""check(build) -> Report: every rule, on whatever the build has so far."""

from __future__ import annotations

from rigplan.model.build import Build
from rigplan.model.parts import Kind
from rigplan.rules.context import Ctx
from rigplan.rules.electrical import psu_eps, psu_pcie, psu_wattage, wall_circuit
from rigplan.rules.findings import Report
from rigplan.rules.fit import FIT_RULES
from rigplan.rules.power import estimate_power

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


def check(build: Build) -> Report:
    c = Ctx(build)
    power = estimate_power(build)
    c.report.power = power
    for rule in FIT_RULES:
        rule(c)
    psu_wattage(c, power)
    psu_pcie(c)
    psu_eps(c)
    wall_circuit(c, power)
    missing(c)
    c.report.sort()
    return c.report
