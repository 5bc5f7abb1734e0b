"""Rules about power: PSU rating, PCIe and EPS cables, and the wall circuit."""

from __future__ import annotations

from rigplan.model.parts import Kind
from rigplan.rules.context import Ctx, gpu_cables
from rigplan.rules.power import PowerEstimate

K = Kind
CONTINUOUS_SHARE = 0.8  # a breaker may carry 80 % of its rating continuously (US NEC 210.19/210.20)
ADAPTER_8PIN_PER_16PIN = 4  # the 16-pin adapter shipped with 450-600 W cards takes up to four 8-pin cables


def circuit_limit_w(volts: float, amps: float) -> float:
    return volts * amps * CONTINUOUS_SHARE


def psu_wattage(c: Ctx, p: PowerEstimate) -> None:
    if not c.psu or not p.load_w:
        return
    if c.psu.wattage is None:
        c.unchecked("psu-wattage", "the PSU's wattage is unknown", (K.PSU,))
        return
    w = c.psu.wattage
    if p.load_w > w:
        c.error(
            "psu-wattage",
            f"The parts draw about {p.load_w:.0f} W at load; the PSU is rated {w} W.",
            f"Choose a PSU of at least {p.recommended_psu_w} W, or fewer or lower-power GPUs.",
            [c.psu],
            (K.PSU,),
        )
    elif w < p.recommended_psu_w:
        c.warn(
            "psu-wattage",
            f"The PSU is rated {w} W; for {p.load_w:.0f} W at load RigPlan recommends {p.recommended_psu_w} W "
            f"(+10 % and headroom for GPU power spikes).",
            f"Choose a PSU of at least {p.recommended_psu_w} W.",
            [c.psu],
            (K.PSU,),
        )


def psu_pcie(c: Ctx) -> None:
    if not (c.psu and c.gpus):
        return
    need16 = need8 = 0
    unknown = []
    for g in c.gpus:
        cables = gpu_cables(g)
        if cables is None:
            unknown.append(g.name)
            continue
        need16 += cables[0]
        need8 += cables[1]
    if unknown:
        c.unchecked(
            "psu-pcie-connectors", f"power connectors unknown for {', '.join(sorted(set(unknown)))}", (K.GPU, K.PSU)
        )
    conn = c.psu.connectors
    if conn is None or conn.pcie8 is None or conn.pcie16 is None:
        c.unchecked("psu-pcie-connectors", "the PSU's PCIe cable counts are unknown", (K.PSU, K.GPU))
        return
    if not (need16 or need8):
        return
    short16 = max(0, need16 - conn.pcie16)
    spare8 = conn.pcie8 - need8
    parts = [c.psu, *(i.part for i in c.gpu_items)]
    have = f"{conn.pcie16}x 16-pin and {conn.pcie8}x 6+2-pin"
    want = " + ".join(b for b in (f"{need16}x 16-pin" if need16 else "", f"{need8}x 6+2-pin" if need8 else "") if b)
    if spare8 < 0 or short16 * ADAPTER_8PIN_PER_16PIN > spare8:
        c.error(
            "psu-pcie-connectors",
            f"The GPUs need {want} PCIe power cables; the PSU has {have}.",
            "Choose a PSU with enough native cables (no splitters or pigtails are assumed).",
            parts,
            (K.PSU, K.GPU),
        )
    elif short16:
        c.warn(
            "psu-pcie-connectors",
            f"The GPUs need {need16}x 16-pin; the PSU has {conn.pcie16}. {short16} card(s) would run on the 8-pin "
            f"adapter shipped with the card ({ADAPTER_8PIN_PER_16PIN}x 6+2-pin each).",
            "A PSU with native 16-pin (12V-2x6) cables is the safer choice.",
            parts,
            (K.PSU, K.GPU),
        )


def psu_eps(c: Ctx) -> None:
    if not (c.psu and c.board):
        return
    sockets = c.board.eps_connectors
    have = c.psu.connectors.eps8 if c.psu.connectors else None
    if not sockets or have is None:
        c.unchecked("psu-eps", "the board's CPU power sockets or the PSU's EPS cables are unknown", (K.PSU,))
        return
    if have == 0:
        c.error(
            "psu-eps",
            "The PSU has no EPS (CPU power) cable; the board needs at least one.",
            "Choose a PSU with EPS 8-pin cables.",
            [c.psu, c.board],
            (K.PSU, K.MOTHERBOARD),
        )
    elif have < len(sockets):
        c.warn(
            "psu-eps",
            f"The board has {len(sockets)} CPU power sockets ({' + '.join(sockets)}); the PSU has {have} EPS cable"
            f"{'s' if have != 1 else ''}.",
            "Boards start with one, but a high-power CPU wants all of them: choose a PSU with enough EPS cables.",
            [c.psu, c.board],
            (K.PSU, K.MOTHERBOARD),
        )


def wall_circuit(c: Ctx, p: PowerEstimate) -> None:
    if not p.load_w:
        return
    a = c.assumptions
    limit = circuit_limit_w(a.wall_voltage, a.wall_amps)
    if p.wall_load_w > limit:
        c.error(
            "wall-circuit",
            f"At load the build draws about {p.wall_load_w:.0f} W from the wall; a {a.wall_voltage:g} V / "
            f"{a.wall_amps:g} A circuit carries {limit:.0f} W continuously (80 % of the breaker).",
            "Use a dedicated higher-rated circuit (e.g. 230 V, or 120 V / 20 A), fewer GPUs, or lower power limits.",
            [c.psu] if c.psu else [],
            (K.PSU,),
        )
