"""Autosave and crash recovery, without Qt: the GUI calls save() on a timer and remove() on a normal close.

Each running instance writes its own file, `autosave-<pid>-<token>.rigplan.yaml`, plus a small JSON sidecar (build
name, time, original path, pid), so two instances never overwrite each other. After a crash or a kill the files
stay behind; at the next start `orphans()` lists those whose process is gone, and the user can recover or discard
each one.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from rigplan.files.buildfile import load, save
from rigplan.files.errors import BuildFileError
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

    def load(self) -> Build:
        return load(self.path)


def pid_alive(pid: int) -> bool:
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
        self.file = folder / f"{PREFIX}{self.pid}-{self.token}.rigplan.yaml"
        self.meta = self.file.with_suffix(".json")

    def save(self, build: Build, original: Path | None) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        save(build, self.file, keep_backup=False)
        info = {
            "name": build.name,
            "saved_at": dt.datetime.now().isoformat(timespec="seconds"),
            "original": str(original) if original else None,
            "pid": self.pid,
            "items": sum(i.quantity for i in build.items),
        }
        tmp = self.meta.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(info), encoding="utf-8")
        os.replace(tmp, self.meta)

    def remove(self) -> None:
        for p in (self.file, self.meta):
            p.unlink(missing_ok=True)

    def orphans(self) -> list[Autosaved]:
        """Autosaves left by instances that are no longer running, newest first."""
        out = []
        if not self.folder.is_dir():
            return out
        for meta in self.folder.glob(f"{PREFIX}*.rigplan.json"):
            try:
                info = json.loads(meta.read_text("utf-8"))
                pid = int(info["pid"])
                when = dt.datetime.fromisoformat(info["saved_at"])
            except (OSError, ValueError, KeyError, TypeError):
                continue
            build_file = meta.with_suffix(".yaml")
            if pid_alive(pid) or not build_file.exists():
                continue
            out.append(
                Autosaved(
                    build_file, str(info.get("name", "?")), when, info.get("original"), pid, int(info.get("items", 0))
                )
            )
        return sorted(out, key=lambda a: a.saved_at, reverse=True)

    @staticmethod
    def discard(entry: Autosaved) -> None:
        for p in (entry.path, entry.path.with_suffix(".json")):
            p.unlink(missing_ok=True)

    @staticmethod
    def try_load(entry: Autosaved) -> Build | str:
        try:
            return entry.load()
        except BuildFileError as exc:
            return exc.message
