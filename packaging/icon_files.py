"""Multi-size icon containers from PNG images: a Windows .ico and a macOS .icns (no Qt; make_icons.py renders).

Qt's own ICO and ICNS writers store a single image, which Windows and macOS then scale (blurry at 16 px, and
Explorer's large views and Finder's Retina icons want 256 and 1024 px). Both containers are a directory of PNGs:
- ICO: ICONDIR (reserved 0, type 1, count) and one 16-byte ICONDIRENTRY per image; PNG images are read by Windows
  Vista and later (Microsoft, "Icons" in the Win32 docs; https://learn.microsoft.com/windows/win32/menurc/icons).
- ICNS: "icns", the total length, then per image an OSType, its length and a PNG (PNG in every type since
  OS X 10.7; the type list is the one Apple's `iconutil` writes from an .iconset).
"""

from __future__ import annotations

import struct

ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)  # Windows uses 16-48 (small icons, lists) and 256 (large views)
# OSType -> pixel size: 16, 32, 64, 128, 256, 512 and the Retina (@2x) versions of 16-512.
ICNS_TYPES = {
    "icp4": 16, "icp5": 32, "icp6": 64, "ic07": 128, "ic08": 256, "ic09": 512,
    "ic11": 32, "ic12": 64, "ic13": 256, "ic14": 512, "ic10": 1024,
}  # fmt: skip


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return struct.unpack(">II", png[16:24])


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, images = b"", b""
    for size in sizes:
        data = pngs[size]
        side = 0 if size >= 256 else size  # 0 means 256 in the one-byte width and height fields
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset + len(images))
        images += data
    return header + entries + images


def read_ico(data: bytes) -> dict[int, bytes]:
    """{size: PNG} of an .ico written by ico_bytes (tests, and a check in make_icons)."""
    _, kind, count = struct.unpack_from("<HHH", data)
    if kind != 1:
        raise ValueError("not an icon file")
    out = {}
    for i in range(count):
        w, _, _, _, _, _, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        out[w or 256] = data[offset : offset + length]
    return out


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    body = b""
    for ostype, size in ICNS_TYPES.items():
        body += ostype.encode("ascii") + struct.pack(">I", 8 + len(pngs[size])) + pngs[size]
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def read_icns(data: bytes) -> dict[str, bytes]:
    """{OSType: PNG} of an .icns."""
    if data[:4] != b"icns" or struct.unpack(">I", data[4:8])[0] != len(data):
        raise ValueError("not an icns file")
    out, pos = {}, 8
    while pos < len(data):
        ostype, length = data[pos : pos + 4].decode("ascii"), struct.unpack(">I", data[pos + 4 : pos + 8])[0]
        out[ostype] = data[pos + 8 : pos + length]
        pos += length
    return out
