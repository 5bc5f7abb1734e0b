"""Autosave and crash recovery, without Qt: the GUI calls save() on a timer and remove() on a normal close.

Each running instance writes its own file, `autosave-<pid>-<token>.rigplan`, a small JSON sidecar (original
path, time) and a `.lock` file that it keeps locked while it runs (files.oslock). The OS drops that lock when the
process ends, however it ends, so at the next start `orphans()` offers exactly the autosaves whose lock is free:
a crashed or killed instance, even when its process id now belongs to another process (after a reboot, or in
another PID namespace). Autosaves written before locks existed have no lock file and fall back to the pid check.
Autosaves of earlier versions are named `autosave-<pid>-<token>.rigplan.yaml` (sidecars `.rigplan.json`,
`.rigplan.lock`) and are still found; each file's sidecars are its own name with the last suffix swapped.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from rigplan import BUILD_SUFFIX, OLD_BUILD_SUFFIX
from rigplan.files.buildfile import load, save
from rigplan.files.errors import BuildFileError
from rigplan.files.oslock import InstanceLock, owner_alive
from rigplan.files.safeio import Fingerprint, read_user_text
from rigplan.model.build import Build

PREFIX = "autosave-"


@dataclass(frozen=True)
class Autosaved:
    path: Path
    name: str
    saved_at: dt.datetime
    original: str | None
    pid: int
    items: int
    # What the original file held when this was autosaved: saving the recovered build there asks first if the
    # file has changed since (files.tracked).
    original_fingerprint: Fingerprint | None = None

    def load(self) -> Build:
        return load(self.path)


def pid_alive(pid: int) -> bool:
    """Only for autosaves from before lock files: a reused pid makes this say "alive" wrongly."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    except OSError:
        return False
    return True


class AutosaveStore:
    def __init__(self, folder: Path, pid: int | None = None) -> None:
        self.folder = folder
        self.pid = os.getpid() if pid is None else pid
        self.token = secrets.token_hex(4)
        self.file = folder / f"{PREFIX}{self.pid}-{self.token}{BUILD_SUFFIX}"
        self.meta = self.file.with_suffix(".json")
        self.lock = InstanceLock(self.file.with_suffix(".lock"))

    def save(self, build: Build, original: Path | None, original_fingerprint: Fingerprint | None = None) -> None:
        # The lock first: an autosave on disk always has a live lock until this instance ends.
        try:
            locked = self.lock.acquire()
        except OSError:
            # No file locks here (some network mounts): autosave anyway, without a lock file, so recovery falls
            # back to the process id check rather than losing the autosave.
            self.lock.path.unlink(missing_ok=True)
            locked = True
        if not locked:
            raise BuildFileError(self.lock.path, "another RigPlan holds this autosave's lock")
        save(build, self.file, keep_backup=False)
        info = {
            "name": build.name,
            "saved_at": dt.datetime.now().isoformat(timespec="seconds"),
            "original": str(original) if original else None,
            "pid": self.pid,
            "items": sum(i.quantity for i in build.items),
            "original_fingerprint": dataclasses.asdict(original_fingerprint) if original_fingerprint else None,
        }
        tmp = self.meta.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(info), encoding="utf-8")
        os.replace(tmp, self.meta)

    def remove(self) -> None:
        """Nothing left to recover (saved, or closed normally). The lock stays held while the instance runs."""
        for p in (self.file, self.meta):
            p.unlink(missing_ok=True)

    def close(self) -> None:
        self.remove()
        self.lock.release(delete=True)

    def orphans(self) -> list[Autosaved]:
        """Autosaves left by instances that are no longer running, newest first."""
        out: list[Autosaved] = []
        if not self.folder.is_dir():
            return out
        found = [*self.folder.glob(f"{PREFIX}*{BUILD_SUFFIX}"), *self.folder.glob(f"{PREFIX}*{OLD_BUILD_SUFFIX}")]
        for build_file in found:
            lock = build_file.with_suffix(".lock")
            info = _read_meta(build_file.with_suffix(".json"))
            if lock.exists():
                if owner_alive(lock):
                    continue
            elif pid_alive(_int(info.get("pid"), 0)):
                continue
            out.append(_describe(build_file, info))
        self._sweep_locks()
        return sorted(out, key=lambda a: a.saved_at, reverse=True)

    def _sweep_locks(self) -> None:
        # A lock without its autosave whose owner is gone: a normal end that could not delete it.
        for lock in self.folder.glob(f"{PREFIX}*.lock"):
            # autosave-1-ab.lock belongs to autosave-1-ab.rigplan, an older autosave-1-ab.rigplan.lock to .rigplan.yaml
            build_file = lock.with_suffix(".yaml" if lock.name.endswith(".rigplan.lock") else BUILD_SUFFIX)
            if lock != self.lock.path and not build_file.exists() and not owner_alive(lock):
                lock.unlink(missing_ok=True)

    @staticmethod
    def discard(entry: Autosaved) -> None:
        for p in (entry.path, entry.path.with_suffix(".json"), entry.path.with_suffix(".lock")):
            p.unlink(missing_ok=True)

    @staticmethod
    def try_load(entry: Autosaved) -> Build | str:
        try:
            return entry.load()
        except BuildFileError as exc:
            return exc.message


def _int(value: object, default: int) -> int:
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return default


def _read_meta(meta: Path) -> dict[str, object]:
    try:
        # the one safe read: a FIFO or device put in the autosave folder is refused, never waited on at start-up
        info = json.loads(read_user_text(meta, 1 << 20, what="autosave sidecar", seconds=5))
    except (OSError, ValueError):  # BuildFileError is a ValueError
        return {}
    return info if isinstance(info, dict) else {}


def _describe(build_file: Path, info: dict[str, object]) -> Autosaved:
    """Name and size from the autosave itself (the sidecar may be one save behind, or missing after a kill)."""
    try:
        when = dt.datetime.fromisoformat(str(info["saved_at"]))
    except (KeyError, ValueError):
        when = dt.datetime.fromtimestamp(build_file.stat().st_mtime)
    try:
        build = load(build_file)
        name, items = build.name, sum(i.quantity for i in build.items)
    except BuildFileError:
        name, items = str(info.get("name", "?")), _int(info.get("items"), 0)
    original = info.get("original")
    try:
        fingerprint = Fingerprint(**info["original_fingerprint"])  # type: ignore[arg-type]
    except (KeyError, TypeError):
        fingerprint = None
    # The sidecar is missing after a kill between the first autosave and its sidecar: the name still has the pid.
    pid = _int(info.get("pid"), _int(build_file.name.removeprefix(PREFIX).split("-")[0], 0))
    return Autosaved(build_file, name, when, str(original) if original else None, pid, items, fingerprint)
