"""Server and workstation platform rules (issue 36): CPU sockets per board and per CPU, EPS inputs per socket, the
PSU's input voltage against the wall circuit, passively cooled GPUs outside server airflow, SAS and U.2 drives
against the board's ports. Each rule once, with its source here and in docs/checks.md."""

from __future__ import annotations

import re

from rigplan.model.parts import Kind, Storage
from rigplan.rules.context import Ctx
from rigplan.rules.rule import Power, Rule, count_only, facts

K = Kind


def cpu_count(c: Ctx) -> int:
    return c.build.count(K.CPU)


def board_cpu_sockets(c: Ctx) -> None:
    """Intel ARK 'Scalability' (Xeon E5-1600, E3, E-2000, W: 1S only; E5-2600: 2S) and AMD (EPYC 'P' parts are
    single-socket): two single-socket CPUs cannot run on a dual-socket board; more CPUs than sockets cannot fit.
    One CPU on a dual-socket board runs, with only the memory slots and PCIe slots wired to CPU 1 (the board
    makers' manuals: Supermicro X10DRi 'CPU2 slots and DIMMs need CPU2 installed', ASUS Z10PE-D16)."""
    if not (c.cpu and c.board):
        return
    n, sockets = cpu_count(c), c.board.cpu_sockets
    kinds = (K.CPU, K.MOTHERBOARD)
    if sockets is None:
        if n >= 2:
            c.unchecked("board-cpu-sockets", f"{n} CPUs: the board's number of CPU sockets is unknown", kinds)
        return
    if n > sockets:
        c.error(
            "board-cpu-sockets",
            f"The build has {n} CPUs; the {c.board.name} has {sockets} CPU socket{'s' if sockets != 1 else ''}.",
            "Use as many CPUs as the board has sockets, or a dual-socket board.",
            [c.cpu, c.board],
            kinds,
        )
        return
    if n >= 2:
        most = c.cpu.max_sockets
        if most is None:
            c.unchecked("board-cpu-sockets", f"whether the {c.cpu.name} runs in a {n}-socket system is unknown", kinds)
        elif most < n:
            c.error(
                "board-cpu-sockets",
                f"The {c.cpu.name} is a {most}-socket part (Intel ARK scalability '1S only'; AMD EPYC 'P' parts "
                f"are single-socket): {n} of them cannot run together on the {sockets}-socket board.",
                "Choose a dual-socket CPU (Xeon E5-2600, Xeon Scalable, EPYC without 'P'), or one CPU.",
                [c.cpu, c.board],
                kinds,
            )
        return
    if sockets >= 2:
        c.note(
            "board-cpu-sockets",
            f"One CPU on the {sockets}-socket {c.board.name}: it runs, but only the memory slots and PCIe slots "
            "wired to CPU 1 work (about half of each; the board's manual shows which).",
            "Put the memory and GPUs in CPU 1's slots, or add a second CPU of the same model.",
            [c.cpu, c.board],
            kinds,
        )


def psu_eps_sockets(c: Ctx) -> None:
    """Each processor of a dual-socket board has its own 8-pin 12 V input (SSI EEB 3.61; Supermicro, ASUS, ASRock
    Rack dual-socket manuals: both must be connected with both CPUs installed)."""
    if not (c.psu and c.board) or (c.board.cpu_sockets or 1) < 2:
        return
    n = min(cpu_count(c), c.board.cpu_sockets or 1)
    if n < 2:
        return
    have = c.psu.connectors.eps8 if c.psu.connectors else None
    kinds = (K.PSU, K.MOTHERBOARD)
    if have is None:
        c.unchecked("psu-eps-sockets", f"{n} CPUs: the PSU's EPS (CPU power) cable count is unknown", kinds)
    elif have < n:
        c.error(
            "psu-eps-sockets",
            f"{n} CPUs on the dual-socket board need one EPS 8-pin cable each; the PSU has {have}.",
            "Choose a PSU with at least two EPS 8-pin cables (most units of 1,000 W and more have them).",
            [c.psu, c.board],
            kinds,
        )


# Desktop units below 1,600 W are sold in 100-240 V (active PFC) versions; their 200-240 V-only versions carry
# '230V' in the name, which the importer reads (rigplan/opendb/invariants.py, psu-input-voltage). From 1,600 W up,
# units that hold their rating only on 200-240 V are common (server and 2,000 W+ units): there an unknown input
# range is said.
FULL_RANGE_BELOW_W = 1600


def psu_input_voltage(c: Ctx) -> None:
    """A unit rated 200-240 V only (the '230V' versions) does not start on a 100-127 V circuit (the makers'
    specifications: AC input range)."""
    if not c.psu:
        return
    volts = c.assumptions.wall_voltage
    if volts >= 200:
        return
    low = c.psu.input_voltage_min_v
    doubt = c.psu.input_voltage_doubt
    if low is None and doubt:
        c.unchecked(
            "psu-input-voltage",
            f"the {c.psu.name}'s AC input range is unknown ({doubt}); a {volts:g} V circuit needs a 100-240 V unit",
            (K.PSU,),
        )
        return
    if low is None and (c.psu.wattage or FULL_RANGE_BELOW_W) < FULL_RANGE_BELOW_W:
        return  # a desktop unit under 1,600 W not named as a 230 V version: full range (see FULL_RANGE_BELOW_W)
    if low is None:
        c.unchecked(
            "psu-input-voltage",
            f"the {c.psu.name}'s AC input range is not in the data (a {volts:g} V circuit needs a 100-240 V unit)",
            (K.PSU,),
        )
    elif low > volts:
        c.error(
            "psu-input-voltage",
            f"The {c.psu.name} takes {low}-240 V AC input; the wall circuit is {volts:g} V.",
            f"Choose a full-range (100-240 V) unit, or a {low}-240 V circuit.",
            [c.psu],
            (K.PSU,),
        )


# Chassis classes built for passive cards: rack chassis push air through the cards in line. A tower sold as a
# "Server Edition" (Phanteks Enthoo Pro 2 Server Edition: an SSI EEB tower with front intake fans, no card duct) is
# still a desktop tower; "server chassis" in a name is a rack or pedestal server enclosure.
SERVER_CASE = re.compile(r"\b(rack|rackmount|[1-8]U)\b|\bserver (chassis|case)\b", re.I)
# A passive card up to 75 W (slot power) is a fanless desktop card (GT 710/1030) that case airflow cools.
PASSIVE_DESKTOP_W = 75


def gpu_passive_airflow(c: Ctx) -> None:
    """NVIDIA: data-centre boards (A100, H100, L40S, A16, Tesla) are passively cooled and rely on the server's
    airflow through the heat sink (NVIDIA product briefs, 'Thermal solution: passive'; NVIDIA qualified-system
    guidance). In a desktop tower they overheat without a ducted fan: a warning, since a fitted duct or fan shroud
    makes it work."""
    if not c.gpus:
        return
    passive = [g for g in c.gpus if (g.cooling or "").lower() == "passive"]
    if not passive:
        return
    hot = [g for g in passive if g.tdp_w is None or g.tdp_w > PASSIVE_DESKTOP_W]
    if not hot:
        return
    if c.case is None:
        return
    label = f"{c.case.form_factor or ''} {c.case.name}"
    if SERVER_CASE.search(label):
        return
    if any(g.tdp_w is None for g in hot):
        c.unchecked("gpu-passive-airflow", "a passive GPU's board power is unknown", (K.GPU, K.CASE))
        return
    if not c.case.form_factor:
        c.unchecked("gpu-passive-airflow", "the case's class (desktop or server chassis) is unknown", (K.GPU, K.CASE))
        return
    names = ", ".join(sorted({f"{g.name} ({g.tdp_w} W)" for g in hot}))
    c.warn(
        "gpu-passive-airflow",
        f"Passively cooled GPU{'s' if len(hot) > 1 else ''} ({names}) in a {c.case.form_factor} case: a passive "
        "card has no fan and relies on server airflow forced through its heat sink (NVIDIA product briefs); in a "
        "desktop case it throttles or overheats.",
        "Use a server chassis with front-to-back airflow, or fit a ducted blower fan to each card.",
        [*hot, c.case],
        (K.GPU, K.CASE),
    )


HBA = re.compile(r"\bHBA\b|\bSAS\b|\bLSI\b|MegaRAID|\b9[2-6]\d\d-\d+i\b|\bTri-Mode\b", re.I)


def _drives(c: Ctx, prefix: str) -> list[tuple[Storage, int]]:
    return [(d, q) for d, q in c.storage if (d.interface or "").startswith(prefix)]


def storage_sas(c: Ctx) -> None:
    """A SAS drive needs a SAS port: SATA controllers do not speak SAS (a SATA drive works on a SAS port, not the
    reverse; SFF-8482 keys the connector so that a SAS drive does not fit a SATA cable)."""
    sas = _drives(c, "SAS")
    if not (sas and c.board):
        return
    n = sum(q for _, q in sas)
    ports = c.board.sas_ports
    hba = [o for o in c.build.other if HBA.search(o.name)]
    kinds = (K.STORAGE, K.MOTHERBOARD)
    if hba:
        return
    if ports is None:
        c.unchecked("storage-sas", "whether the board has SAS ports is not in the data (nor is an HBA listed)", kinds)
    elif n > ports:
        c.error(
            "storage-sas",
            f"The build has {n} SAS drive{'s' if n > 1 else ''}; the board has {ports} SAS ports (its SATA ports do "
            "not take SAS drives).",
            "Add a SAS HBA (e.g. a Broadcom/LSI 9300-8i) as an Other item, or choose SATA drives.",
            [*(d for d, _ in sas), c.board],
            kinds,
        )


def storage_u2(c: Ctx) -> None:
    """A U.2 (SFF-8639) NVMe drive needs a U.2 port, or an adapter: an M.2-to-U.2 cable or a PCIe U.2 card."""
    u2 = _drives(c, "U.2")
    if not (u2 and c.board):
        return
    n = sum(q for _, q in u2)
    ports = c.board.u2_ports
    kinds = (K.STORAGE, K.MOTHERBOARD)
    if ports is None:
        c.unchecked("storage-u2", "the board's U.2 port count is not in the data", kinds)
    elif n > ports:
        c.warn(
            "storage-u2",
            f"The build has {n} U.2 drive{'s' if n > 1 else ''}; the board has {ports} U.2 "
            f"port{'s' if ports != 1 else ''}.",
            "Use an M.2-to-U.2 adapter cable or a PCIe U.2 adapter card for each further drive.",
            [*(d for d, _ in u2), c.board],
            kinds,
        )


# Each rule declares its policy (rules/rule.py): whether it can pass, and whether the suggester may accept its "not
# checked" (strict_unknown False) or its warning (strict_warn False).
RULES: tuple[Rule, ...] = (
    Rule(
        ("board-cpu-sockets",),
        board_cpu_sockets,
        {K.CPU: facts("max_sockets"), K.MOTHERBOARD: facts("cpu_sockets", "name")},
        needs=frozenset({K.CPU, K.MOTHERBOARD}),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=Power.NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("psu-eps-sockets",),
        psu_eps_sockets,
        {K.PSU: facts("connectors"), K.MOTHERBOARD: facts("cpu_sockets"), K.CPU: count_only},
        needs=frozenset({K.PSU, K.MOTHERBOARD, K.CPU}),
        passes=True,
        strict_unknown=True,
        strict_warn=False,
        strict_reads=None,
        power=Power.NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # Its "not checked" (a 1,600 W+ unit of unknown input range on a 100-127 V circuit) may be accepted: most such
    # units are full range, and the wall-circuit rule already bounds what a 120 V circuit feeds.
    Rule(
        ("psu-input-voltage",),
        psu_input_voltage,
        {K.PSU: facts("input_voltage_min_v", "wattage", "input_voltage_doubt")},
        assumptions=True,
        needs=frozenset({K.PSU}),
        passes=True,
        strict_unknown=False,
        strict_warn=False,
        strict_reads=None,
        power=Power.NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # A warning at most: the filter leaves it out; the suggester takes no passive card into a desktop case.
    Rule(
        ("gpu-passive-airflow",),
        gpu_passive_airflow,
        passes=False,
        strict_unknown=True,
        strict_warn=True,
        strict_reads={K.GPU: facts("cooling", "tdp_w"), K.CASE: facts("form_factor", "name")},
        power=Power.NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    # Its error depends on the build's Other items (a SAS HBA), which no part fact carries: the filter leaves it
    # out, as it does cpu-igpu.
    Rule(
        ("storage-sas",),
        storage_sas,
        passes=False,
        strict_unknown=True,
        strict_warn=False,
        strict_reads={K.STORAGE: facts("interface"), K.MOTHERBOARD: facts("sas_ports")},
        power=Power.NONE,
        gpu_only=False,
        loosest_card=False,
    ),
    Rule(
        ("storage-u2",),
        storage_u2,
        passes=False,
        strict_unknown=False,
        strict_warn=True,
        strict_reads={K.STORAGE: facts("interface"), K.MOTHERBOARD: facts("u2_ports")},
        power=Power.NONE,
        gpu_only=False,
        loosest_card=False,
    ),
)
