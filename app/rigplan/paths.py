"""Where RigPlan finds its bundled data. Nothing here creates folders: callers pass user folders in."""

from __future__ import annotations

import os
import sys
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _bundled(name: str) -> Path:
    # Installed wheel: the data sits inside the package (rigplan/_parts, rigplan/_resources).
    # Source checkout or editable install: the top-level folder of the repository.
    # PyInstaller bundle: next to the package in sys._MEIPASS.
    candidates = [_PKG / f"_{name}", _PKG.parents[1] / name]
    meipass = getattr(sys, "_MEIPASS", None)
    if meipass:
        candidates.insert(0, Path(meipass) / name)
    for c in candidates:
        if c.is_dir():
            return c
    return candidates[-1]


def parts_dir() -> Path:
    override = os.environ.get("RIGPLAN_PARTS_DIR")
    return Path(override) if override else _bundled("parts")


def resources_dir() -> Path:
    return _bundled("resources")


def default_data_dir() -> Path:
    """Per-user data folder for logs and autosaves when Qt is not there to say (the CLI)."""
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "RigPlan"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "RigPlan"
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "RigPlan"


def default_cache_dir() -> Path:
    """The per-user cache folder (the GUI passes QStandardPaths' instead; this serves the CLI)."""
    override = os.environ.get("RIGPLAN_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local")) / "RigPlan" / "cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "RigPlan"
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rigplan"
