"""Per-kind vectorised versions of the rules, for compatible(). Each mirrors a rule in fit.py / electrical.py and
returns a boolean mask of candidates that add no error; tests/test_compat.py holds them equal to check()."""

from __future__ import annotations

import numpy as np

from rigplan.catalog.loader import KindTable
from rigplan.model.parts import Gpu, Kind
from rigplan.rules.arrays import col, derived, none_of, not_in, num, sub
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


def registered_ok(b: Base, sockets: np.ndarray) -> np.ndarray:
    """No memory-registered error: RDIMMs on a UDIMM platform or the reverse (sockets as norm_socket keys)."""
    ok = np.ones(len(sockets), dtype=bool)
    for mem, _ in b.c.memory:
        bad = "UDIMM" if mem.registered is True else "RDIMM" if mem.registered is False else None
        if bad:
            ok &= np.fromiter((socket_memory(s) != bad for s in sockets), dtype=bool, count=len(sockets))
    return ok


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
        chip = c.board.chipset
        cache: dict[tuple[str | None, str | None], bool] = {}
        arch = t.column("microarchitecture")
        raw_sock = t.column("socket")
        bsock = norm_socket(c.board.socket) if c.board.socket else None
        ok &= np.fromiter(
            (
                s != bsock or cache.setdefault((r, a), platforms().chipset_support(r, a, chip) != "no")
                for s, r, a in zip(sock, raw_sock, arch, strict=True)
            ),
            dtype=bool,
            count=len(t),
        )
    types = derived(t, "memory_types_set", lambda cols, i: frozenset(col(cols, "memory_types", i) or ()))
    for mem, _ in c.memory:
        if mem.ram_type:
            ok &= ~none_of(types, mem.ram_type)
    if c.cooler and c.cooler.sockets:
        ok &= _cooler_ok(c.cooler.sockets, sock)
    if c.memory and b.mem_known:
        ok &= ~(b.mem_gb > num(t, "max_memory_gb"))
    if c.memory and not (c.board and c.board.socket):
        ok &= registered_ok(b, sock)
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


def _board_line(sockets: list[str | None], cpu_socket: str | None) -> np.ndarray:
    return np.array([board_watts(None, s or cpu_socket)[0] for s in sockets])


def _fits_cases(board_ff: str, case_ffs: np.ndarray) -> np.ndarray:
    cache: dict[frozenset[str], bool] = {}
    out = np.ones(len(case_ffs), dtype=bool)
    for i, ffs in enumerate(case_ffs):
        if ffs:
            if ffs not in cache:
                cache[ffs] = board_fits_case(board_ff, tuple(ffs))
            out[i] = cache[ffs]
    return out


def motherboard(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    n = len(t)
    sock = derived(t, "socket_n", _sock)
    ok = np.ones(n, dtype=bool)
    if c.cpu and c.cpu.socket:
        soldered = derived(t, "soldered", lambda cols, i: _soldered(col(cols, "socket", i)), bool)
        ok &= ~not_in(sock, {norm_socket(c.cpu.socket)}) & ~soldered
        cpu_sock, arch = c.cpu.socket, c.cpu.microarchitecture
        chips = t.column("chipset")
        cache: dict[str | None, bool] = {}
        ok &= np.fromiter(
            (
                s != norm_socket(cpu_sock)
                or cache.setdefault(ch, platforms().chipset_support(cpu_sock, arch, ch) != "no")
                for s, ch in zip(sock, chips, strict=True)
            ),
            dtype=bool,
            count=n,
        )
    if c.case and c.case.motherboard_form_factors:
        case_ffs = c.case.motherboard_form_factors
        ffs = t.column("form_factor")
        cache: dict[str, bool] = {}
        ok &= np.fromiter(
            (v is None or cache.setdefault(v, board_fits_case(v, case_ffs)) for v in ffs), dtype=bool, count=n
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
        cpu_sock = norm_socket(c.cpu.socket) if c.cpu and c.cpu.socket else None
        ok &= registered_ok(b, np.array([s or cpu_sock for s in sock], dtype=object))
    ok &= _storage_on_boards(b, t)
    if c.gpus:
        x16 = derived(t, "x16", lambda cols, i: _x16(col(cols, "pcie_slots", i)), float)
        ok &= ~(len(c.gpus) > x16)
    if c.psu and c.psu.connectors and c.psu.connectors.eps8 == 0:
        ok &= ~derived(t, "has_eps", lambda cols, i: bool(col(cols, "eps_connectors", i)), bool)
    cpu_socket = c.cpu.socket if c.cpu else None
    dl = b.delta(0.0, board_line=_board_line(t.column("socket"), cpu_socket))
    return ok & power_ok(b, n, dl)


def _x16(slots: list[dict] | None) -> float:
    if slots is None:
        return np.nan
    return float(sum(s.get("count", 1) for s in slots if s.get("lanes", 0) >= 16))


def _storage_on_boards(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    ok = np.ones(len(t), dtype=bool)
    m2 = [d for d, q in c.storage for _ in range(q) if d.is_m2]
    sata = sum(q for d, q in c.storage if d.is_sata and not d.is_m2)
    if m2:
        slots = derived(t, "m2_m", lambda cols, i: _m_slots(col(cols, "m2_slots", i)))
        count = np.array([np.nan if s is None else len(s) for s in slots])
        ok &= ~(len(m2) > count)
        for d in {d.id: d for d in m2}.values():
            size = (d.form_factor or "").removeprefix("M.2-")
            if size.isdigit():
                ok &= ~np.fromiter(
                    (bool(s) and all(x and size not in x for x in s) for s in slots), dtype=bool, count=len(t)
                )
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
    ram = np.array(t.column("ram_type"), dtype=object)
    if c.board and c.board.ram_type:
        ok &= ~not_in(ram, {c.board.ram_type})
    if c.cpu and c.cpu.memory_types:
        ok &= ~not_in(ram, set(c.cpu.memory_types))
    socket = (c.board.socket if c.board and c.board.socket else None) or (c.cpu.socket if c.cpu else None)
    reg = t.column("registered")
    takes = socket_memory(socket)
    if takes:
        bad = np.fromiter(
            ((r is True and takes == "UDIMM") or (r is False and takes == "RDIMM") for r in reg), dtype=bool, count=n
        )
        ok &= ~bad
    if c.board and c.board.memory_form_factor:
        forms = derived(t, "dimm_form", lambda cols, i: dimm_form(col(cols, "form_factor", i)))
        ok &= ~not_in(forms, {c.board.memory_form_factor})
    modules, cap = num(t, "modules"), num(t, "capacity_gb")
    if b.mem_known:  # unknown layouts anywhere make the totals "not checked"
        if c.board and c.board.memory_slots is not None:
            ok &= ~(b.mem_modules + modules > c.board.memory_slots)
        for part in (c.board, c.cpu):
            if part is not None and part.max_memory_gb is not None:
                ok &= ~(b.mem_gb + cap > part.max_memory_gb)
    per = np.array([6.0 if r else 3.0 for r in reg])
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
                ok &= ~(
                    is_m2
                    & np.fromiter(
                        (s.isdigit() and all(x and s not in x for x in sizes) for s in ff), dtype=bool, count=n
                    )
                )
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
        base = _cards(c.gpus)
        verdict: dict[tuple[float, float, float], bool] = {}
        bad = np.zeros(n, dtype=bool)
        for i in range(n):
            if np.isnan(p16[i]):
                continue  # the candidate's connectors are unknown: check() lists it as not checked
            k = (p16[i], p8[i], tdp_raw[i])
            if k not in verdict:
                cand = Gpu.model_construct(name="candidate", tdp_w=None if np.isnan(k[2]) else int(k[2]))
                cards = [*base, (len(base) + 1, cand, (int(k[0]), int(k[1])))]
                verdict[k] = _cables_short(cards, conn.pcie16, conn.pcie8)
            bad[i] = verdict[k]
        ok &= ~bad
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
        cache: dict[str, bool] = {}
        ok &= np.fromiter(
            (v is None or cache.setdefault(v, psu_fit_level(v, allowed) != "no") for v in t.column("form_factor")),
            dtype=bool,
            count=n,
        )
    if c.case and c.case.max_psu_length_mm is not None:
        ok &= ~(num(t, "length_mm") > c.case.max_psu_length_mm)
    cards = _cards(c.gpus)
    if cards:
        p16, p8 = sub(t, "connectors", "pcie16"), sub(t, "connectors", "pcie8")
        verdict: dict[tuple[float, float], bool] = {}
        bad = np.zeros(n, dtype=bool)
        for i in range(n):
            if np.isnan(p16[i]) or np.isnan(p8[i]):
                continue
            k = (p16[i], p8[i])
            if k not in verdict:
                verdict[k] = _cables_short(cards, int(k[0]), int(k[1]))
            bad[i] = verdict[k]
        ok &= ~bad
    if c.board and c.board.eps_connectors:
        ok &= ~(sub(t, "connectors", "eps8") == 0)
    watts = num(t, "wattage")
    rating = np.array([v or "?" for v in t.column("efficiency")], dtype=object)
    atx3 = derived(t, "atx3", lambda cols, i: ATX3_NAME.search(col(cols, "name", i) or "") is not None, bool)
    return ok & power_ok(b, n, 0.0, 0.0, psu_w=watts, rating=rating, atx3=atx3)


def case(b: Base, t: KindTable) -> np.ndarray:
    c = b.c
    n = len(t)
    ok = np.ones(n, dtype=bool)
    if c.board and c.board.form_factor:
        ffs = derived(t, "mb_ffs", lambda cols, i: frozenset(col(cols, "motherboard_form_factors", i) or ()))
        ok &= _fits_cases(c.board.form_factor, ffs)
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
        cache: dict[frozenset[str], bool] = {}
        ff = c.psu.form_factor
        ok &= np.fromiter(
            (not v or cache.setdefault(v, psu_fit_level(ff, tuple(v)) != "no") for v in pffs), dtype=bool, count=n
        )
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
