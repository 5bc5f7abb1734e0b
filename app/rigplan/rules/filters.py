"""Per-kind vectorised versions of the rules, for compatible(). Each mirrors a rule in fit.py / electrical.py and
returns a boolean mask of candidates that add no error; tests/test_compat.py holds them equal to check()."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import numpy as np

from rigplan.catalog.loader import KindTable
from rigplan.model.parts import Gpu, Kind
from rigplan.rules.arrays import by_value, col, derived, none_of, not_in, num, sub
from rigplan.rules.context import (
    Ctx,
    board_fits_case,
    dimm_form,
    gpu_cables,
    gpu_slots,
    norm_socket,
    socket_memory,
)
from rigplan.rules.electrical import circuit_limit_w, plan_cables
from rigplan.rules.fit import psu_fit_level
from rigplan.rules.platforms import platforms
from rigplan.rules.power import (
    ATX3_NAME,
    BOOST_FACTOR,
    CASE_FANS,
    DEFAULT_BOOST_FACTOR,
    DEFAULT_RATING,
    EIGHTY_PLUS,
    PSU_SIZES,
    RECOMMEND_MARGIN,
    TRANSIENT_SHARE,
    UNKNOWN_EFFICIENCY,
    VRM_LOSS,
    board_watts,
    cooler_watts,
    efficiency,
    is_atx3,
)


class Base:
    """What the build without the candidate contributes, computed once per call."""

    def __init__(self, c: Ctx, load: float, gpu_w: float, errors: set[str], power_unknown: bool = False) -> None:
        self.c, self.load, self.gpu_w, self.errors = c, load, gpu_w, errors
        self.power_unknown = power_unknown  # a GPU or CPU without a power figure: power rules are "not checked"
        self.has_items = bool(c.build.items)
        self.fans = CASE_FANS[0] if self.has_items else 0.0
        cpu_socket = c.cpu.socket if c.cpu else None
        self.board_line = board_watts(c.board, cpu_socket)[0] if self.has_items else 0.0
        self.boxed = (
            self.boxed_fan(c.cpu.includes_cooler if c.cpu else None, c.cooler is not None) if self.has_items else 0.0
        )
        total = sum((m.capacity_gb or 0) * q for m, q in c.memory)
        self.mem_known = all(m.modules is not None and m.capacity_gb is not None for m, _ in c.memory)
        self.mem_gb = total
        self.mem_modules = sum((m.modules or 0) * q for m, q in c.memory)

    @staticmethod
    def boxed_fan(includes: bool | None, has_cooler: bool) -> float:
        return cooler_watts(None)[0] if includes and not has_cooler else 0.0

    def delta(
        self,
        own: np.ndarray | float,
        board_line: np.ndarray | float | None = None,
        boxed: np.ndarray | float | None = None,
    ) -> np.ndarray | float:
        """Load change: the candidate's own watts plus the fixed lines it changes."""
        new_board = self.board_line if (board_line is None and self.has_items) else board_line
        if new_board is None:
            new_board = board_watts(self.c.board, self.c.cpu.socket if self.c.cpu else None)[0]
        new_boxed = self.boxed if (boxed is None and self.has_items) else boxed
        if new_boxed is None:
            new_boxed = self.boxed_fan(self.c.cpu.includes_cooler if self.c.cpu else None, self.c.cooler is not None)
        return own + (new_board - self.board_line) + (CASE_FANS[0] - self.fans) + (new_boxed - self.boxed)


def wall_draw(
    load: np.ndarray, gpu_w: np.ndarray, psu_w: np.ndarray, rating: np.ndarray, atx3: np.ndarray | bool
) -> np.ndarray:
    sizes = np.array(PSU_SIZES, dtype=float)
    raw = load * RECOMMEND_MARGIN + load + np.where(atx3, 0.0, TRANSIENT_SHARE * gpu_w)
    pos = np.searchsorted(sizes, raw)
    rec = np.where(pos < len(sizes), sizes[np.minimum(pos, len(sizes) - 1)], np.ceil(raw / 100) * 100)
    size = np.where(np.isnan(psu_w), rec, psu_w)
    frac = load / np.where(size > 0, size, 1.0)
    eff = np.full(load.shape, UNKNOWN_EFFICIENCY)
    for r in set(rating.tolist()):
        m = rating == r
        eff[m] = efficiency(frac[m], r if r in EIGHTY_PLUS else None)
    return np.where(load > 0, load / eff, 0.0)


def power_ok(
    b: Base,
    n: int,
    dl: np.ndarray | float,
    dg: np.ndarray | float = 0.0,
    psu_w: np.ndarray | None = None,
    rating: np.ndarray | None = None,
    atx3: np.ndarray | None = None,
    unknown: np.ndarray | None = None,
) -> np.ndarray:
    """No psu-wattage or wall-circuit error from the candidate. `unknown` marks candidates without a power figure:
    with them (or with such a part already in the build) both rules are "not checked", never failed."""
    ok = np.ones(n, dtype=bool)
    if b.power_unknown:
        return ok
    load = np.broadcast_to(np.asarray(b.load + dl, dtype=float), (n,))
    gpu_w = np.broadcast_to(np.asarray(b.gpu_w + dg, dtype=float), (n,))
    c = b.c
    if psu_w is None:
        psu_w = np.full(n, float(c.psu.wattage) if c.psu and c.psu.wattage else np.nan)
        rating = np.full(n, (c.psu.efficiency if c.psu else DEFAULT_RATING) or "?", dtype=object)
        atx3 = np.full(n, c.psu is None or is_atx3(c.psu))
    assert rating is not None and atx3 is not None
    bad = np.zeros(n, dtype=bool)
    if "psu-wattage" not in b.errors:
        bad |= (load > 0) & (load + np.where(atx3, 0.0, TRANSIENT_SHARE * gpu_w) > psu_w)
    if "wall-circuit" not in b.errors:
        a = c.assumptions
        bad |= wall_draw(load, gpu_w, psu_w, rating, atx3) > circuit_limit_w(a.wall_voltage, a.wall_amps)
    if unknown is not None:
        bad &= ~unknown
    return ok & ~bad


def _sock(cols: dict, i: int) -> str | None:
    s = col(cols, "socket", i)
    return norm_socket(s) if isinstance(s, str) else None


def registered_ok(b: Base, takes: np.ndarray) -> np.ndarray:
    """No memory-registered error, given what each candidate's platform takes ("UDIMM", "RDIMM" or None)."""
    ok = np.ones(len(takes), dtype=bool)
    for mem, _ in b.c.memory:
        bad = "UDIMM" if mem.registered is True else "RDIMM" if mem.registered is False else None
        if bad:
            ok &= takes != bad
    return ok


def _socket_memory_col(t: KindTable) -> np.ndarray:
    return derived(t, "socket_memory", lambda cols, i: socket_memory(col(cols, "socket", i)))


def _cpu_boost(cols: dict, i: int) -> float:
    """Sustained boost as estimate_power counts it (power.cpu_boost_w); NaN when unknown."""
    boost = col(cols, "boost_power_w", i)
    if boost:
        return float(boost)
    tdp = col(cols, "tdp_w", i)
    if not tdp:
        return np.nan
    sock = platforms().canonical_socket(col(cols, "socket", i)) or ""
    return float(tdp) * BOOST_FACTOR.get(sock, DEFAULT_BOOST_FACTOR)


def _soldered(socket: str | None) -> bool:
    s = platforms().socket(socket)
    return bool(s and s.soldered)


def _cooler_ok(cooler_sockets: tuple[str, ...], sockets: np.ndarray) -> np.ndarray:
    pf = platforms()
    listed = {norm_socket(s) for s in cooler_sockets}
    mounts = {m for s in cooler_sockets if (m := pf.mount(s))}
    return np.fromiter(
        (s is None or s in listed or pf.mount(s) in mounts for s in sockets), dtype=bool, count=len(sockets)
    )


def cpu(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    sock = derived(t, "socket_n", _sock)
    ok = np.ones(len(t), dtype=bool)
    if c.board and c.board.socket:
        if _soldered(c.board.socket):
            ok &= np.fromiter((s is None for s in sock), dtype=bool, count=len(t))
        else:
            ok &= ~not_in(sock, {norm_socket(c.board.socket)})
    if c.board and c.board.chipset:
        chip, bsock = c.board.chipset, norm_socket(c.board.socket) if c.board.socket else None
        pairs = derived(t, "socket_arch", lambda cols, i: (col(cols, "socket", i), col(cols, "microarchitecture", i)))

        def runs(pair: tuple[str | None, str | None]) -> bool:
            if pair[0] is None or norm_socket(pair[0]) != bsock:
                return True
            return platforms().chipset_support(pair[0], pair[1], chip) != "no"

        ok &= by_value(t, "socket_arch", pairs, runs, memo=(bsock, chip))
    types = derived(t, "memory_types_set", lambda cols, i: frozenset(col(cols, "memory_types", i) or ()))
    for mem, _ in c.memory:
        if mem.ram_type:
            ok &= ~none_of(types, mem.ram_type)
    if c.cooler and c.cooler.sockets:
        ok &= _cooler_ok(c.cooler.sockets, sock)
    if c.memory and b.mem_known:
        ok &= ~(b.mem_gb > num(t, "max_memory_gb"))
    if c.memory and not (c.board and c.board.socket):
        ok &= registered_ok(b, _socket_memory_col(t))
    raw = t.column("socket")
    board_line = np.array([board_watts(c.board, s)[0] for s in raw]) if not (c.board and c.board.socket) else None
    includes = t.column("includes_cooler")
    boxed = np.array([Base.boxed_fan(v, c.cooler is not None) for v in includes])
    boost = derived(t, "cpu_boost", _cpu_boost, float)
    unknown = np.isnan(boost)
    dl = b.delta(np.nan_to_num(boost) * (1 + VRM_LOSS), board_line, boxed)
    return ok & power_ok(b, len(t), dl, unknown=unknown)


def cooler(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    ok = np.ones(len(t), dtype=bool)
    if c.cpu and c.cpu.socket:
        target = norm_socket(c.cpu.socket)
        mount = platforms().mount(c.cpu.socket)
        socks = derived(
            t, "sockets_n", lambda cols, i: frozenset(norm_socket(s) for s in col(cols, "sockets", i) or ())
        )
        mounts = derived(
            t,
            "mounts",
            lambda cols, i: frozenset(m for s in col(cols, "sockets", i) or () if (m := platforms().mount(s))),
        )
        listed_or_mount = np.fromiter(
            (not s or target in s or (mount is not None and mount in m) for s, m in zip(socks, mounts, strict=True)),
            dtype=bool,
            count=len(t),
        )
        ok &= listed_or_mount
    if c.case and c.case.max_cooler_height_mm is not None:
        ok &= ~(num(t, "height_mm") > c.case.max_cooler_height_mm)

    def watts(cols: dict, i: int) -> float:
        fans = col(cols, "fan_count", i)
        n = fans if fans is not None else (0 if col(cols, "fanless", i) is True else 1)
        return 3.0 * float(n) + (5.0 if col(cols, "water_cooled", i) is True else 0.0)

    dl = b.delta(derived(t, "cooler_load", watts, float), boxed=0.0)
    return ok & power_ok(b, len(t), dl)


def _board_line(t: KindTable, cpu_socket: str | None) -> np.ndarray:
    own = derived(t, "board_line", lambda cols, i: board_watts(None, col(cols, "socket", i))[0], float)
    if cpu_socket is None:
        return own
    unknown = derived(t, "socket_unknown", lambda cols, i: col(cols, "socket", i) is None, bool)
    return np.where(unknown, board_watts(None, cpu_socket)[0], own)


def motherboard(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    n = len(t)
    sock = derived(t, "socket_n", _sock)
    ok = np.ones(n, dtype=bool)
    if c.cpu and c.cpu.socket:
        soldered = derived(t, "soldered", lambda cols, i: _soldered(col(cols, "socket", i)), bool)
        ok &= ~not_in(sock, {norm_socket(c.cpu.socket)}) & ~soldered
        cpu_sock, arch = c.cpu.socket, c.cpu.microarchitecture
        cpu_key = norm_socket(cpu_sock)
        pairs = derived(t, "socket_chipset", lambda cols, i: (col(cols, "socket", i), col(cols, "chipset", i)))

        def runs(pair: tuple[str | None, str | None]) -> bool:
            same = pair[0] is not None and norm_socket(pair[0]) == cpu_key
            return not same or platforms().chipset_support(cpu_sock, arch, pair[1]) != "no"

        ok &= by_value(t, "socket_chipset", pairs, runs, memo=(cpu_key, arch))
    if c.case and c.case.motherboard_form_factors:
        case_ffs = c.case.motherboard_form_factors
        ffs = np.array(t.column("form_factor"), dtype=object)
        ok &= by_value(
            t, "form_factor", ffs, lambda v: v is None or board_fits_case(v, case_ffs), memo=("case", case_ffs)
        )
    ram = np.array(t.column("ram_type"), dtype=object)
    for mem, _ in c.memory:
        if mem.ram_type:
            ok &= ~not_in(ram, {mem.ram_type})
        form = dimm_form(mem.form_factor)
        if form:
            ok &= ~not_in(np.array(t.column("memory_form_factor"), dtype=object), {form})
    if c.memory and b.mem_known:
        ok &= ~(b.mem_modules > num(t, "memory_slots"))
        ok &= ~(b.mem_gb > num(t, "max_memory_gb"))
    if c.memory:
        takes = _socket_memory_col(t)
        if c.cpu and c.cpu.socket:
            own = socket_memory(c.cpu.socket)
            unknown = derived(t, "socket_unknown", lambda cols, i: col(cols, "socket", i) is None, bool)
            takes = takes.copy()
            takes[unknown] = own
        ok &= registered_ok(b, takes)
    ok &= _storage_on_boards(b, t)
    if c.gpus:
        x16 = derived(t, "x16", lambda cols, i: _x16(col(cols, "pcie_slots", i)), float)
        ok &= ~(len(c.gpus) > x16)
    if c.psu and c.psu.connectors and c.psu.connectors.eps8 == 0:
        ok &= ~derived(t, "has_eps", lambda cols, i: bool(col(cols, "eps_connectors", i)), bool)
    cpu_socket = c.cpu.socket if c.cpu else None
    dl = b.delta(0.0, board_line=_board_line(t, cpu_socket))
    return ok & power_ok(b, n, dl)


def _x16(slots: list[dict] | None) -> float:
    if slots is None:
        return np.nan
    return float(sum(s.get("count", 1) for s in slots if (s.get("physical") or s.get("lanes", 0)) >= 16))


def _storage_on_boards(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    ok = np.ones(len(t), dtype=bool)
    m2 = [d for d, q in c.storage for _ in range(q) if d.is_m2]
    sata = sum(q for d, q in c.storage if d.is_sata and not d.is_m2)
    if m2:
        slots = derived(t, "m2_m", lambda cols, i: _m_slots(col(cols, "m2_slots", i)))
        count = derived(t, "m2_count", lambda cols, i: np.nan if slots[i] is None else len(slots[i]), float)
        ok &= ~(len(m2) > count)
        sizes = derived(t, "m2_sizes", lambda cols, i: None if slots[i] is None else tuple(slots[i]))
        for d in {d.id: d for d in m2}.values():
            size = (d.form_factor or "").removeprefix("M.2-")
            if size.isdigit():

                def misfits(s: tuple[str | None, ...] | None, n: str = size) -> bool:
                    return bool(s) and all(x and n not in x for x in s or ())

                ok &= ~by_value(t, "m2_sizes", sizes, misfits, memo=size)
    if sata:
        ok &= ~(sata > num(t, "sata_ports"))
    return ok


def _m_slots(slots: list[dict] | None) -> list[str | None] | None:
    if slots is None:
        return None
    return [s.get("size") for s in slots if (s.get("key") or "M").upper() in {"M", "B+M", "M+B"}]


def memory(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    n = len(t)
    ok = np.ones(n, dtype=bool)
    ram = derived(t, "ram_type", lambda cols, i: col(cols, "ram_type", i))
    if c.board and c.board.ram_type:
        board_ram = c.board.ram_type
        ok &= by_value(t, "ram_type", ram, lambda v: v is None or v == board_ram)
    if c.cpu and c.cpu.memory_types:
        cpu_types = set(c.cpu.memory_types)
        ok &= by_value(t, "ram_type", ram, lambda v: v is None or v in cpu_types)
    socket = (c.board.socket if c.board and c.board.socket else None) or (c.cpu.socket if c.cpu else None)
    reg = derived(t, "registered", lambda cols, i: col(cols, "registered", i))
    takes = socket_memory(socket)
    if takes:
        ok &= by_value(
            t, "registered", reg, lambda r: not ((r is True and takes == "UDIMM") or (r is False and takes == "RDIMM"))
        )
    if c.board and c.board.memory_form_factor:
        forms = derived(t, "dimm_form", lambda cols, i: dimm_form(col(cols, "form_factor", i)))
        board_form = c.board.memory_form_factor
        ok &= by_value(t, "dimm_form", forms, lambda v: v is None or v == board_form)
    modules, cap = num(t, "modules"), num(t, "capacity_gb")
    if b.mem_known:  # unknown layouts anywhere make the totals "not checked"
        if c.board and c.board.memory_slots is not None:
            ok &= ~(b.mem_modules + modules > c.board.memory_slots)
        for part in (c.board, c.cpu):
            if part is not None and part.max_memory_gb is not None:
                ok &= ~(b.mem_gb + cap > part.max_memory_gb)
    per = derived(t, "module_watts", lambda cols, i: 6.0 if col(cols, "registered", i) else 3.0, float)
    dl = b.delta(per * np.where(np.isnan(modules), 1.0, modules))
    return ok & power_ok(b, n, dl)


def storage(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    n = len(t)
    ok = np.ones(n, dtype=bool)

    def kind_of(cols: dict, i: int) -> str:
        ff, iface = col(cols, "form_factor", i), col(cols, "interface", i)
        if ff is None and iface is None:
            return "?"
        if (ff or "").startswith("M.2") or (iface or "").startswith("M.2"):
            return "m2"
        return "sata" if (iface or "").startswith("SATA") else "other"

    kind = derived(t, "storage_kind", kind_of)
    if c.board:
        m2_now = sum(q for d, q in c.storage if d.is_m2)
        sata_now = sum(q for d, q in c.storage if d.is_sata and not d.is_m2)
        is_m2 = kind == "m2"
        if c.board.m2_slots is not None:
            sizes = _m_slots([s.model_dump() for s in c.board.m2_slots]) or []
            if m2_now + 1 > len(sizes):
                ok &= ~is_m2
            ff = derived(t, "m2_size", lambda cols, i: (col(cols, "form_factor", i) or "").removeprefix("M.2-"))
            if sizes:
                misfit = by_value(
                    t, "m2_size", ff, lambda s: s.isdigit() and all(x and s not in x for x in sizes), memo=tuple(sizes)
                )
                ok &= ~(is_m2 & misfit)
        if c.board.sata_ports is not None and sata_now + 1 > c.board.sata_ports:
            ok &= ~(kind == "sata")

    def watts(cols: dict, i: int) -> float:
        if (col(cols, "storage_type", i) or "").upper() == "HDD":
            return 8.0
        return 7.0 if col(cols, "nvme", i) or kind[i] == "m2" else 3.0

    return ok & power_ok(b, n, b.delta(derived(t, "storage_load", watts, float)))


def gpu(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    n = len(t)
    ok = np.ones(n, dtype=bool)
    length = num(t, "length_mm")
    if c.case and c.case.max_gpu_length_mm is not None:
        ok &= ~(length > c.case.max_gpu_length_mm)
    count = len(c.gpus) + 1
    if c.board and (x16 := c.board.x16_size_slots()) is not None and count > x16 and "gpu-slots" not in b.errors:
        ok[:] = False
    widths = [gpu_slots(g) for g in c.gpus]
    if c.case and c.case.expansion_slots is not None and None not in widths and "gpu-expansion-slots" not in b.errors:
        cand = derived(
            t, "slots_int", lambda cols, i: np.ceil(v - 0.05) if (v := col(cols, "slot_width", i)) else np.nan, float
        )
        ok &= ~(sum(w for w in widths if w) + cand > c.case.expansion_slots)
    tdp_raw = num(t, "tdp_w")
    tdp = np.nan_to_num(tdp_raw)
    ok &= power_ok(b, n, b.delta(tdp), tdp, unknown=np.isnan(tdp_raw))
    conn = c.psu.connectors if c.psu else None
    if conn and conn.pcie8 is not None and conn.pcie16 is not None and "psu-pcie-connectors" not in b.errors:
        p16 = sub(t, "power_connectors", "pin16")
        p8 = np.nan_to_num(sub(t, "power_connectors", "pin8")) + np.nan_to_num(sub(t, "power_connectors", "pin6"))
        # Board power matters only for 16-pin cards (their adapter's size): other cards share one key.
        keys = derived(
            t,
            "cable_key",
            lambda cols, i: (
                None
                if np.isnan(p16[i])  # unknown connectors: check() lists the candidate as not checked
                else (int(p16[i]), int(p8[i]), None if p16[i] == 0 or np.isnan(tdp_raw[i]) else int(tdp_raw[i]))
            ),
        )
        base = _cards(c.gpus)
        have16, have8 = conn.pcie16, conn.pcie8

        def fits(k: tuple[int, int, int | None] | None) -> bool:
            if k is None:
                return True
            cand = cast(Gpu, SimpleNamespace(name="candidate", tdp_w=k[2]))  # plan_cables reads name and tdp_w
            return not _cables_short([*base, (len(base) + 1, cand, (k[0], k[1]))], have16, have8)

        ok &= by_value(t, "cable_key", keys, fits)
    return ok


def _cards(gpus: list[Gpu]) -> list[tuple[int, Gpu, tuple[int, int]]]:
    return [(n, g, cables) for n, g in enumerate(gpus, 1) if (cables := gpu_cables(g)) is not None]


def _cables_short(cards: list[tuple[int, Gpu, tuple[int, int]]], have16: int, have8: int) -> bool:
    """Would psu_pcie report an error? (Its early exits, mirrored.)"""
    if not any(x[2][0] or x[2][1] for x in cards):
        return False
    plan = plan_cables(cards, have16, have8)
    return not plan.unknown_adapters and plan.short > 0


def psu(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    n = len(t)
    ok = np.ones(n, dtype=bool)
    if c.case and c.case.psu_form_factors:
        allowed = c.case.psu_form_factors
        ffs = np.array(t.column("form_factor"), dtype=object)
        ok &= by_value(t, "form_factor", ffs, lambda v: v is None or psu_fit_level(v, allowed) != "no")
    if c.case and c.case.max_psu_length_mm is not None:
        ok &= ~(num(t, "length_mm") > c.case.max_psu_length_mm)
    cards = _cards(c.gpus)
    if cards:
        p16, p8 = sub(t, "connectors", "pcie16"), sub(t, "connectors", "pcie8")
        keys = derived(
            t,
            "psu_cable_key",
            lambda cols, i: None if np.isnan(p16[i]) or np.isnan(p8[i]) else (int(p16[i]), int(p8[i])),
        )
        ok &= by_value(t, "psu_cable_key", keys, lambda k: k is None or not _cables_short(cards, k[0], k[1]))
    if c.board and c.board.eps_connectors:
        ok &= ~(sub(t, "connectors", "eps8") == 0)
    watts = num(t, "wattage")
    rating = derived(t, "rating", lambda cols, i: col(cols, "efficiency", i) or "?")
    atx3 = derived(t, "atx3", lambda cols, i: ATX3_NAME.search(col(cols, "name", i) or "") is not None, bool)
    return ok & power_ok(b, n, 0.0, 0.0, psu_w=watts, rating=rating, atx3=atx3)


def case(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    n = len(t)
    ok = np.ones(n, dtype=bool)
    if c.board and c.board.form_factor:
        ffs = derived(t, "mb_ffs", lambda cols, i: frozenset(col(cols, "motherboard_form_factors", i) or ()))
        board_ff = c.board.form_factor
        ok &= by_value(t, "mb_ffs", ffs, lambda v: not v or board_fits_case(board_ff, tuple(v)))
    if c.cooler and c.cooler.height_mm is not None and not (c.cpu and c.cpu.includes_cooler and c.cooler is None):
        ok &= ~(c.cooler.height_mm > num(t, "max_cooler_height_mm"))
    lengths = [g.length_mm for g in c.gpus if g.length_mm is not None]
    if lengths:
        ok &= ~(max(lengths) > num(t, "max_gpu_length_mm"))
    widths = [gpu_slots(g) for g in c.gpus]
    if c.gpus and None not in widths:
        ok &= ~(sum(w for w in widths if w) > num(t, "expansion_slots"))
    if c.psu and c.psu.form_factor:
        pffs = derived(t, "psu_ffs", lambda cols, i: frozenset(col(cols, "psu_form_factors", i) or ()))
        ff = c.psu.form_factor
        ok &= by_value(t, "psu_ffs", pffs, lambda v: not v or psu_fit_level(ff, tuple(v)) != "no")
    if c.psu and c.psu.length_mm is not None:
        ok &= ~(c.psu.length_mm > num(t, "max_psu_length_mm"))
    return ok & power_ok(b, n, b.delta(0.0))


FILTERS = {
    Kind.CPU: cpu,
    Kind.COOLER: cooler,
    Kind.MOTHERBOARD: motherboard,
    Kind.MEMORY: memory,
    Kind.STORAGE: storage,
    Kind.GPU: gpu,
    Kind.PSU: psu,
    Kind.CASE: case,
}
