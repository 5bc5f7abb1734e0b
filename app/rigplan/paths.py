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


# --- The user's own folders: data, cache, logs, autosaves, fallbacks (issue 35) -------------------------------------


class UnsafeFolderError(PermissionError):
    """A folder RigPlan would keep the user's data, cache or log in is controlled by someone else. One line."""


def folder_problem(path: Path, *, private: bool = False) -> str | None:
    """Why an existing folder must not hold the user's data, cache or log, or None when it may. Refused: a folder
    owned by another user (whoever made it first, e.g. a predictable name in /tmp, decides what is in it), and one
    others may write in without the sticky bit (they could replace a log with a link to any file of the user's).
    Group-writable is allowed for the user's own primary group only (the "user private group" scheme, umask 002).
    `private`: no access at all for group or others (a fallback in the shared temporary folder). POSIX only."""
    if not hasattr(os, "geteuid"):
        return None
    import stat

    try:
        st = os.stat(path)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if st.st_uid != os.geteuid():
        return f"belongs to another user (uid {st.st_uid})"
    mode = stat.S_IMODE(st.st_mode)
    if private and mode & 0o077:
        return f"is open to other users (mode {mode:o}; a private folder is 700)"
    sticky = bool(mode & stat.S_ISVTX)
    if mode & stat.S_IWOTH and not sticky:
        return f"is writable by every user (mode {mode:o}, no sticky bit)"
    if mode & stat.S_IWGRP and not sticky and st.st_gid != os.getegid():
        return f"is writable by group {st.st_gid} (mode {mode:o}), which is not yours"
    return None


def own_folder(path: Path, *, private: bool = False) -> Path:
    """`path`, created if needed (mode 700 for what is made here), when it is the user's own: else
    UnsafeFolderError, one line. Every folder the user's data, cache and log go in is made through this."""
    path = Path(path)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    problem = folder_problem(path, private=private)
    if problem is None:  # the folders above: another user who may rename them could swap this one for theirs
        problem = next(filter(None, (_ancestor_problem(p) for p in path.absolute().parents)), None)
    if problem is not None:
        raise UnsafeFolderError(f"{path} {problem}; RigPlan does not keep your files there")
    return path


def _ancestor_problem(folder: Path) -> str | None:
    """A folder above the user's own: owned by the user or by root (the system's /home, /tmp), and not writable by
    others without the sticky bit (/tmp is 1777: others may add names there but not rename this user's)."""
    problem = folder_problem(folder)
    if problem is None or not problem.startswith("belongs to another user (uid 0)"):
        return None if problem is None else f"is inside {folder}, which {problem}"
    import stat

    mode = stat.S_IMODE(os.stat(folder).st_mode)
    if mode & 0o022 and not mode & stat.S_ISVTX:
        return f"is inside {folder}, which others may write in (mode {mode:o}, no sticky bit)"
    return None


_FALLBACK: list[Path] = []


def private_temp_folder(name: str) -> Path:
    """`<private>/<name>`, where <private> is made once per process by tempfile.mkdtemp (a name nobody can guess,
    mode 700, made atomically: no other user can have made it first). For when the data folder cannot be used."""
    import tempfile

    if not _FALLBACK or folder_problem(_FALLBACK[0], private=True) is not None:
        # one made earlier by this user (so autosaves and logs stay in one place), else a new one
        mine = [p for p in Path(tempfile.gettempdir()).glob("rigplan-*") if _mine_and_private(p)]
        _FALLBACK[:] = [min(mine) if mine else Path(tempfile.mkdtemp(prefix="rigplan-"))]
    return own_folder(_FALLBACK[0] / name, private=True)


def _mine_and_private(p: Path) -> bool:
    """A folder private_temp_folder made (mkdtemp's 8 random characters), still this user's own with mode 700."""
    return len(p.name) == len("rigplan-") + 8 and not p.is_symlink() and folder_problem(p, private=True) is None


def shared_lock_folder() -> Path:
    """A folder every RigPlan process of this user finds (so a lock in it is shared): $XDG_RUNTIME_DIR/rigplan (the
    user's private runtime folder), else <temp>/rigplan-<uid>-locks. Both are checked: if another user made the
    name first, UnsafeFolderError (the caller then goes on without the lock, never with the other user's folder)."""
    import tempfile

    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and folder_problem(Path(runtime), private=True) is None:
        return own_folder(Path(runtime) / "rigplan", private=True)
    uid = getattr(os, "getuid", os.getpid)()
    return own_folder(Path(tempfile.gettempdir()) / f"rigplan-{uid}-locks", private=True)


def earlier_private_folders(name: str) -> list[Path]:
    """`<private>/<name>` of earlier processes' private_temp_folder (so recovery finds the autosaves a crashed RigPlan
    left in its fallback): only folders this user owns with mode 700, never one another user made."""
    import tempfile

    out = []
    for parent in Path(tempfile.gettempdir()).glob("rigplan-*"):
        if _FALLBACK and parent == _FALLBACK[0]:
            continue
        if _mine_and_private(parent) and folder_problem(parent / name, private=True) is None:
            out.append(parent / name)
    return out
