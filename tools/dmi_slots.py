"""linuxhw/DMI slot tables (CC BY 4.0): parse dmidecode's "System Slot Information" and read a board's PCIe slots.

linuxhw/DMI (https://github.com/linuxhw/DMI, pinned at PIN below) keeps one dmidecode text per probe under
{Desktop,Server}/{system vendor}/{model prefix}/{model}/{probe id}. The path names the *system*; a DIY desktop's
board is named in the file's "Base Board Information" (MSI systems are filed as "MS-7C02"), so boards are grouped by
that record. The values are licensed CC BY 4.0 ("linux-hardware.org, linuxhw/DMI"): they may be copied with
attribution, which parts/corrections.yaml gives per value (`source: linuxhw/DMI <path> @<commit>, CC BY 4.0`).

What a slot record says (SMBIOS 3.x type 9, as dmidecode prints it):
  * Type: the slot's connector, "PCI Express 4 x16" = a PCIe 4.0 x16-size slot. dmidecode < 3.5 prefixes the data
    bus width ("x8 PCI Express 3 x16": x8 electrical in a x16-size slot); dmidecode >= 3.5 prints the width as its
    own line ("Data Bus Width: 8x or x8"). Either gives electrical and physical width when both are present.
  * Bus Address: the PCI address of the slot's root port, or (some BIOSes) of the card in it; "1f.7" (device 31,
    function 7) with bus 00 or ff is the SMBIOS "not given" value. See `root()` for what it tells and what not.
BIOS tables are written by the maker per board, but some BIOSes copy a reference table (issue 36: some MSI AM4
BIOSes list slots the board does not have); `templates()` finds tables shared by many different boards.
"""

from __future__ import annotations

import re
import subprocess
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = "linuxhw/DMI"
PIN = "57b21bc6fdd863380e99c228c22aafcd1509528c"  # 2025-01-06, "Total reports: 162480"
# Board makers whose boards RigPlan's catalog lists, as linuxhw files them (system vendor folders); "Others" holds
# DIY desktops whose system record is blank ("System manufacturer").
FOLDERS = (
    "Desktop/ASUSTek Computer",
    "Desktop/Gigabyte Technology",
    "Desktop/MSI",
    "Desktop/ASRock",
    "Desktop/Biostar",
    "Desktop/Supermicro",
    "Desktop/ASRockRack",
    "Desktop/EVGA",
    "Desktop/NZXT",
    "Desktop/Others",
    "Server/Supermicro",
    "Server/ASRockRack",
)


@dataclass(frozen=True)
class Slot:
    designation: str
    type: str
    electrical: int | None  # data bus width in lanes
    physical: int | None  # connector size in lanes, from the slot type ("PCI Express 4 x16")
    gen: int | None  # from the slot type; None for "PCI Express" and the Gen-1 types BIOSes use for any gen
    usage: str
    bus: str

    def shape(self) -> tuple[str, int | None, int | None]:
        """What a table repeats across probes: the BIOS's name and widths (not the usage or the card's address)."""
        return (self.designation, self.electrical, self.physical)


@dataclass
class Probe:
    path: str
    board_vendor: str
    board: str
    bios: str
    slots: list[Slot] = field(default_factory=list)


PCIE = re.compile(r"^PCI Express(?: (\d))?(?: x(\d+))?$")
PREFIX = re.compile(r"^x(\d+) (.*)$")
WIDTH = re.compile(r"(\d+)x or x\d+|^x(\d+)$")


def parse_type(type_: str, bus_width: str | None) -> tuple[int | None, int | None, int | None] | None:
    """(electrical, physical, gen) of a PCIe slot's Type (and Data Bus Width) line; None for other slot kinds
    (M.2 sockets, U.2, PCI, mini PCIe)."""
    electrical = None
    if m := PREFIX.match(type_):
        electrical, type_ = int(m.group(1)), m.group(2)
    if bus_width and (w := WIDTH.search(bus_width)):
        electrical = int(w.group(1) or w.group(2))
    if not (m := PCIE.match(type_.strip())):
        return None
    gen = int(m.group(1)) if m.group(1) else None
    physical = int(m.group(2)) if m.group(2) else None
    return electrical, physical, gen


def parse(text: str, path: str = "") -> Probe:
    """One dmidecode dump: the board it names and its PCIe slot records, in the BIOS's order."""
    vendor = board = bios = ""
    slots: list[Slot] = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln.strip() for ln in block.strip().splitlines()]
        if len(lines) < 2 or not lines[0].startswith("Handle"):
            continue
        title = lines[1]
        kv: dict[str, str] = {}
        for ln in lines[2:]:
            k, sep, v = ln.partition(": ")
            if sep:
                kv.setdefault(k, v.strip())
        if title == "Base Board Information" and not board:
            vendor, board = kv.get("Manufacturer", ""), kv.get("Product Name", "")
        elif title == "BIOS Information" and not bios:
            bios = f"{kv.get('Vendor', '')} {kv.get('Version', '')}".strip()
        elif title == "System Slot Information":
            got = parse_type(kv.get("Type", ""), kv.get("Data Bus Width"))
            if got is None:
                continue
            e, p, g = got
            if ONBOARD.search(kv.get("Designation", "")):
                continue
            slots.append(
                Slot(kv.get("Designation", ""), kv.get("Type", ""), e, p, g, kv.get("Current Usage", ""),
                     kv.get("Bus Address", ""))
            )  # fmt: skip
    return Probe(path, vendor, board, bios, slots)


def root(bus: str, platform: str) -> str | None:
    """'cpu', 'chipset' or None (cannot be told) from a slot's Bus Address, on single-root desktop platforms only.

    Intel desktop (LGA 1150-1851): the CPU's PCIe root ports are bus 00 devices 01 (PEG) and 06; the PCH's are bus
    00 devices 1a-1d (Intel 100-800 series datasheets, PCI device numbering). AMD AM4/AM5: the CPU's GPP bridges
    are bus 00 devices 01-03 functions 1-7 (AMD PPR for families 17h/19h); the chipset (Promontory) sits behind one
    of them, so its ports are on a bus > 00, but so is any card when the BIOS writes the card's own address (ASUS
    does for slots in use): a bus > 00 address says nothing on AMD. HEDT/server sockets have several root complexes
    (buses 00, 20, 40, ... on EPYC/Threadripper; 00, 16, 30, ... on Xeon): not read. "1f.7" on bus 00 or ff is
    SMBIOS's "not given"."""
    m = re.match(r"^(?:[0-9a-f]{4}:)?([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])$", bus.strip().lower())
    if not m:
        return None
    b, d, f = int(m.group(1), 16), int(m.group(2), 16), int(m.group(3))
    if (d, f) == (0x1F, 7) or b == 0xFF:
        return None
    if b != 0:
        return None
    if platform == "intel":
        return "cpu" if d in (0x01, 0x06) else "chipset" if d in (0x1A, 0x1B, 0x1C, 0x1D) else None
    if platform == "amd":
        return "cpu" if d in (0x01, 0x02, 0x03) and f >= 1 else None
    return None


def platform_of(socket: str | None) -> str | None:
    s = (socket or "").upper().replace(" ", "")
    if s in ("AM4", "AM5"):
        return "amd"
    if s in ("LGA1150", "LGA1151", "LGA1200", "LGA1700", "LGA1851"):
        return "intel"
    return None


def blobs(git_dir: Path, commit: str, paths: list[str]) -> Iterator[tuple[str, str]]:
    """(path, text) of each path at the commit, through one `git cat-file --batch`."""
    proc = subprocess.Popen(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdin and proc.stdout

    def feed() -> None:
        assert proc.stdin
        for p in paths:
            proc.stdin.write(f"{commit}:{p}\n".encode())
        proc.stdin.close()

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    for p in paths:
        head = proc.stdout.readline().split()
        if len(head) < 3 or head[1] != b"blob":
            continue
        data = proc.stdout.read(int(head[2]) + 1)
        yield p, data[:-1].decode("utf-8", "replace")
    t.join()
    proc.wait()


def probes(git_dir: Path, commit: str = PIN, folders: Iterable[str] = FOLDERS) -> list[Probe]:
    """Every probe under the board makers' folders that lists at least one PCIe slot."""
    out = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only", commit, "--", *folders],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    return [p for path, text in blobs(git_dir, commit, out) if (p := parse(text, path)).slots]


def to_json(ps: list[Probe]) -> list[dict[str, object]]:
    return [asdict(p) for p in ps]


def from_json(rows: list[dict[str, object]]) -> list[Probe]:
    out = []
    for r in rows:
        slots = [Slot(**s) for s in r["slots"]]  # type: ignore[arg-type, attr-defined]
        out.append(Probe(str(r["path"]), str(r["board_vendor"]), str(r["board"]), str(r["bios"]), slots))
    return out


def table(p: Probe) -> tuple[tuple[str, int | None, int | None], ...]:
    return tuple(s.shape() for s in p.slots)


REFERENCE = re.compile(r"^J\d")  # AMI/AMD/Intel reference-board designators: "J6B2", "J10", "J3708 PCIE x4 slot"
ONBOARD = re.compile(r"M\.?2|NGFF|WIFI|WLAN|SSD|U\.2|OCULINK", re.I)  # PCIe-typed records that are no card slot


def templates(ps: list[Probe]) -> set[tuple[tuple[str, int | None, int | None], ...]]:
    """Slot tables that are a BIOS family's template, not a board's own description (issue 36: MSI AM4 BIOSes):
    a table naming its slots by the reference board's designators (J6B2, J8D1, "J3708 PCIE x4 slot from
    Promontory": AMD's and AMI's customer-reference-board names, found on MSI, Gigabyte, ASRock and Biostar boards of
    every size). dmi_compare adds the tables that the catalog's form factors show to be templates."""
    tables = {table(p) for p in ps}
    return {t for t in tables if any(REFERENCE.match(name) for name, _, _ in t)}


VENDORS = {
    "asustek": "asus", "asus": "asus", "micro-star": "msi", "msi": "msi", "gigabyte": "gigabyte",
    "asrock": "asrock", "asrockrack": "asrock", "biostar": "biostar", "supermicro": "supermicro",
    "evga": "evga", "nzxt": "nzxt", "colorful": "colorful",
}  # fmt: skip


def vendor_key(name: str) -> str:
    low = name.lower().replace(" ", "")
    for k, v in VENDORS.items():
        if low.startswith(k):
            return v
    return low.split(",")[0]


def agreed(ps: list[Probe]) -> tuple[tuple[tuple[str, int | None, int | None], ...], int, int]:
    """The table most probes of one board give, how many give it, and how many probes there are."""
    c = Counter(table(p) for p in ps)
    t, n = c.most_common(1)[0]
    return t, n, len(ps)


def wiring(ps: list[Probe], platform: str | None) -> dict[str, set[str]]:
    """Slot designation -> the roots its bus addresses point to, over all probes (empty: cannot be told)."""
    out: dict[str, set[str]] = defaultdict(set)
    for p in ps:
        for s in p.slots:
            r = root(s.bus, platform or "")
            out[s.designation]  # noqa: B018 - every slot gets a key
            if r:
                out[s.designation].add(r)
    return out


def example(ps: list[Probe]) -> str:
    return sorted(p.path for p in ps)[0]
