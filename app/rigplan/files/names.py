"""A build's name as a file name every platform accepts (issue 40: Save As proposed "Suggested: 15,000 GBP
budget.rigplan", and ':' is invalid on Windows). Windows refuses <>:"/\\|?*, control characters, names ending in a
dot or space and the device names CON, PRN, AUX, NUL, COM1-9, LPT1-9 (Microsoft, "Naming Files, Paths, and
Namespaces"); macOS refuses ':' in Finder and '/' everywhere; Linux refuses '/' and NUL."""

from __future__ import annotations

import re

_BAD = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]+')
_DEVICES = {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(1, 10)), *(f"LPT{n}" for n in range(1, 10))}
MAX_STEM = 120  # well under every file system's 255, leaving room for the suffix and a folder


def file_stem(name: str, fallback: str = "build") -> str:
    """ "Suggested: 15,000 GBP budget" -> "Suggested - 15,000 GBP budget"; never empty, never a device name."""
    stem = _BAD.sub(lambda m: " - " if ":" in m.group() else "-", name)
    stem = re.sub(r"\s+", " ", stem).strip().rstrip(". ")[:MAX_STEM].rstrip(". ")
    stem = re.sub(r"(\s-)+\s", " - ", stem)
    if not stem or stem.split(".")[0].upper() in _DEVICES:
        stem = f"{stem}_" if stem else fallback
    return stem
