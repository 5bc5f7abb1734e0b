"""Print a bundle's unpacked size and the installers' sizes; fail when an expected installer is missing or the
bundle is over its limit. CI runs it after each build (.github/workflows/installers.yml).

    python packaging/sizes.py BUNDLE_DIR DIST_DIR [--expect .deb,.tar.gz] [--max-mb 150]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

INSTALLERS = (".deb", ".tar.gz", "-setup.exe", ".dmg")
MB = 2**20  # as `du -m` counts: the unit the 150 MB target was measured in (issue 7, docs/packaging.md)


def tree_bytes(folder: Path) -> int:
    # Symlinks count once, as links (rigplan-cli on Linux; the frameworks' Versions/Current on macOS).
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle", type=Path)
    ap.add_argument("dist", type=Path)
    ap.add_argument("--expect", default="", help="comma-separated installer endings that must exist")
    ap.add_argument("--max-mb", type=float, default=0, help="fail when the unpacked bundle is larger")
    a = ap.parse_args(argv)
    if not a.bundle.is_dir():
        print(f"FAIL no bundle at {a.bundle}")
        return 1
    mb = tree_bytes(a.bundle) / MB
    limit = f" (limit {a.max_mb:g} MB)" if a.max_mb else ""
    print(f"- bundle {a.bundle.name}: {mb:.0f} MB unpacked{limit}")
    found = sorted(p for p in a.dist.iterdir() if p.name.endswith(INSTALLERS)) if a.dist.is_dir() else []
    for p in found:
        print(f"- {p.name}: {p.stat().st_size / MB:.0f} MB")
    missing = [e for e in filter(None, a.expect.split(",")) if not any(p.name.endswith(e) for p in found)]
    if missing:
        print(f"FAIL no installer ending in {', '.join(missing)} in {a.dist}")
        return 1
    if a.max_mb and mb > a.max_mb:
        print(f"FAIL the bundle is {mb:.0f} MB, over {a.max_mb:g} MB")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
