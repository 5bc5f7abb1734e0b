"""A lock that dies with its process: an OS file lock held on an open file while the instance runs.

The kernel drops the lock when the process ends, however it ends (crash, SIGKILL, power loss and reboot), so a
lock file that can be locked means its owner is gone, whatever process ids were reused since. A process id check
cannot say that. QLockFile would do, but autosave is core code and must run without Qt.

POSIX: flock(2), which conflicts between two opens of the same file even inside one process (fcntl record locks
would not), so several instances in one test process behave like separate programs. Windows: msvcrt.locking on
the first byte. Written here rather than taken from the `filelock` package: the whole need is two calls per OS,
and a lock file that stays on disk (filelock removes it on release on some platforms, racing the probe).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

if sys.platform == "win32":  # pragma: no cover - exercised on Windows CI only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


class InstanceLock:
    """Held from acquire() until release() or the end of the process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock without waiting. False when another live instance holds it."""
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            locked = _try_lock(fd)
        except OSError:  # a file system without locks (some network mounts): ENOLCK
            os.close(fd)
            raise
        if not locked:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self, *, delete: bool = False) -> None:
        """Give the lock up (closing the file releases it); `delete` also removes the lock file, first, so no one
        can lock a file that is about to vanish."""
        if self._fd is None:
            return
        if delete and os.name != "nt":
            self.path.unlink(missing_ok=True)
        os.close(self._fd)
        self._fd = None
        if delete and os.name == "nt":  # Windows cannot delete a file that is open
            self.path.unlink(missing_ok=True)


def owner_alive(path: Path) -> bool:
    """True while the instance that created `path` holds its lock."""
    probe = InstanceLock(path)
    try:
        if not path.exists():
            return False
        if probe.acquire():
            probe.release()
            return False
        return True
    except OSError:
        return True  # cannot tell: never offer another instance's live work as a crash


class LockTimeout(OSError):
    """Another process held the lock for longer than the caller would wait."""


@contextmanager
def locked(target: Path, seconds: float = 30.0) -> Iterator[None]:
    """Hold the OS lock on `<target>.lock` for the block: the one way to read, merge and write a shared file of the
    data folder, so two processes (two windows, a window and the CLI) never lose each other's changes. Waits for
    the other holder up to `seconds`, then raises LockTimeout. The lock file stays (removing it would race)."""
    lock = InstanceLock(target.with_name(target.name + ".lock"))
    deadline = time.monotonic() + seconds
    delay = 0.005
    while not lock.acquire():
        if time.monotonic() > deadline:
            raise LockTimeout(f"{target} is being changed by another RigPlan for over {seconds:g} s; try again")
        time.sleep(delay)
        delay = min(delay * 2, 0.1)
    try:
        yield
    finally:
        lock.release()
