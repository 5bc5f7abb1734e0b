"""Reading and writing build files on disk without losing data and without blocking. No Qt, no YAML.

Reading: only regular files. The type is checked with os.stat before opening, and the file is opened with
O_NONBLOCK and checked again with fstat, so a named pipe (FIFO) or a device swapped in between never blocks.

Writing (QSaveFile's recipe, plus a backup): a temporary file in the same folder, fsync, then os.replace, so the
target is always one complete version. The previous version becomes `<name>.bak` by a hard link to the old file
(no data copied, so it needs no free space and keeps the original's permissions); where hard links are not
supported it is copied. If the backup cannot be written the save still happens, the previous `.bak` stays as it
was, and the result says so: the caller must tell the user.

Each read and write returns a Fingerprint (size, modification time, SHA-256) so a document can tell whether
another window or program has written its file since (FileChangedError instead of silently overwriting).
"""

from __future__ import annotations

import errno
import hashlib
import os
import secrets
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rigplan.files.errors import BuildFileError, FileChangedError, ReadOnlyFileError

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX; Windows has no FIFOs to block on
_BINARY = getattr(os, "O_BINARY", 0)  # Windows
_CHUNK = 1 << 20
READ_SECONDS = 20.0  # a local disk reads a capped file in well under a second


@dataclass(frozen=True)
class Fingerprint:
    """What a file held when it was read or written. Two fingerprints name the same version when size and
    content hash agree (a `touch` changes only the time, and is not a change)."""

    size: int
    mtime_ns: int
    sha256: str

    def same_content(self, other: Fingerprint | None) -> bool:
        return other is not None and (self.size, self.sha256) == (other.size, other.sha256)


@dataclass(frozen=True)
class SaveResult:
    path: Path  # the file written (a symlink's target)
    fingerprint: Fingerprint
    backup_error: str | None = None  # None: the previous version is in <name>.bak (or there was none)


def _fingerprint(data: bytes, mtime_ns: int) -> Fingerprint:
    return Fingerprint(len(data), mtime_ns, hashlib.sha256(data).hexdigest())


def _why(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "its symbolic links form a loop"
    return exc.strerror or str(exc)


def _not_regular(mode: int, what: str = "build file") -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return f"this is a folder, not a {what}"
    kind = (
        "a named pipe (FIFO)"
        if stat.S_ISFIFO(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a special file"
    )
    return f"this is {kind}, not a regular file; RigPlan reads and writes only regular files"


def read_regular(
    path: Path, limit: int, *, what: str = "build file", seconds: float = READ_SECONDS
) -> tuple[bytes, Fingerprint]:
    """The bytes of a regular file of at most `limit` bytes, and their fingerprint. `what` names the file in
    messages ("price file"); reading stops after `seconds` (a stalled network mount), with one line."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise BuildFileError(path, "no such file") from None
    except OSError as exc:
        raise BuildFileError(path, f"cannot read it ({_why(exc)})") from None
    if (problem := _not_regular(st.st_mode, what)) is not None:
        raise BuildFileError(path, problem)
    if st.st_size > limit:
        raise BuildFileError(path, f"the file is {_mb(st.st_size)}; a {what} is limited to {_mb(limit)}")
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    except OSError as exc:
        raise BuildFileError(path, f"cannot read it ({_why(exc)})") from None
    try:
        st = os.fstat(fd)  # the file actually opened, in case the path changed since the stat above
        if (problem := _not_regular(st.st_mode, what)) is not None:
            raise BuildFileError(path, problem)
        data = _read_bounded(fd, limit, time.monotonic() + seconds)
    except OSError as exc:
        raise BuildFileError(path, f"cannot read it ({_why(exc)})") from None
    except TimeoutError:
        raise BuildFileError(path, f"reading it took over {seconds:g} s (a stalled disk or network share?)") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise BuildFileError(path, f"the file grew over the {_mb(limit)} limit while it was read")
    return data, _fingerprint(data, st.st_mtime_ns)


def _mb(n: int) -> str:
    if n >= 2**20 and n % 2**20 == 0:  # limits are whole MiB: "10 MB", as before
        return f"{n // 2**20} MB"
    return f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n:,} bytes"


def _read_bounded(fd: int, limit: int, deadline: float) -> bytes:
    """At most limit + 1 bytes, in chunks, giving up (TimeoutError) past the deadline."""
    parts: list[bytes] = []
    got = 0
    while got <= limit:
        chunk = os.read(fd, min(_CHUNK, limit + 1 - got))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
        if time.monotonic() > deadline:
            raise TimeoutError
    return b"".join(parts)


def disk_fingerprint(path: Path, limit: int) -> Fingerprint | None:
    """The fingerprint of what is on disk now; None when there is no file. Raises for a special file."""
    try:
        return read_regular(path, limit)[1]
    except BuildFileError:
        if not os.path.lexists(path):
            return None
        raise


def _is_read_only(path: Path, mode: int) -> bool:
    # os.access alone says yes to root for any file; the mode bits show what the owner meant.
    return not (mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) or not os.access(path, os.W_OK)


def write_atomic(
    path: Path,
    data: bytes,
    *,
    keep_backup: bool = True,
    expected: Fingerprint | None = None,
    replace_read_only: bool = False,
    limit: int,
    what: str = "build file",
) -> SaveResult:
    """Write `data` to `path` atomically. With `expected`, refuse (FileChangedError) when the file on disk holds
    something else. A write-protected file raises ReadOnlyFileError unless `replace_read_only`."""
    path = Path(path)
    try:
        st: os.stat_result | None = os.stat(path)  # follows symlinks: what would actually be replaced
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise BuildFileError(path, f"cannot save there ({_why(exc)})") from None
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if st is not None:
        if (problem := _not_regular(st.st_mode, what)) is not None:
            raise BuildFileError(path, problem)
        if not replace_read_only and _is_read_only(target, st.st_mode):
            raise ReadOnlyFileError(path, "the file is write-protected")
        if expected is not None:
            now = disk_fingerprint(target, limit)
            if now is not None and not expected.same_content(now):
                raise FileChangedError(path, "the file was changed by another window or program since it was opened")
    folder = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise BuildFileError(path, f"cannot write here ({_why(exc)})") from None
    backup_error = None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        mode = stat.S_IMODE(st.st_mode) if st is not None else _default_mode()
        os.chmod(tmp, mode)
        if st is not None and keep_backup:
            backup_error = _rotate_backup(target, mode)
        if st is not None and os.name == "nt" and not mode & stat.S_IWUSR:
            os.chmod(target, stat.S_IWRITE)  # Windows refuses to replace a read-only file; the user agreed
        os.replace(tmp, target)
        _fsync_dir(folder)
        mtime = os.stat(target).st_mtime_ns
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise BuildFileError(path, f"could not save ({_why(exc)}); the previous file is unchanged") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return SaveResult(target, _fingerprint(data, mtime), backup_error)


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _rotate_backup(target: Path, mode: int) -> str | None:
    """Make `<target>.bak` the current file. None on success, else why not (the previous .bak is untouched)."""
    backup = target.with_name(target.name + ".bak")
    tmp = backup.with_name(f".{backup.name}.{secrets.token_hex(4)}.tmp")
    try:
        try:
            os.link(target, tmp)  # the old version's own inode: no space needed, permissions kept
        except OSError:
            _copy(target, tmp, mode)  # FAT, some network shares: no hard links
        os.replace(tmp, backup)
        # When <name>.bak is already a link to this very file (a concurrent save linked it a moment ago), rename(2)
        # of one link onto another link of the same inode does nothing and succeeds (POSIX): the temporary name
        # stays. It is a spare name of the file the .bak already holds, so removing it loses nothing.
        tmp.unlink(missing_ok=True)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        return f"the backup {backup.name} could not be written ({_why(exc)}); the previous backup is kept"
    return None


def _copy(src: Path, dst: Path, mode: int) -> None:
    data = src.read_bytes()  # src was checked to be a regular file
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.chmod(dst, mode)


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# --- Any user file (imports, price files, exports, data-folder files): the same rules as build files. ---


def read_user_bytes(path: str | Path, limit: int, *, what: str = "file", seconds: float = READ_SECONDS) -> bytes:
    """The one way to read a file the user names: regular files only (a FIFO is refused, never waited on), at most
    `limit` bytes, within `seconds`; anything else is one BuildFileError line."""
    return read_regular(Path(path), limit, what=what, seconds=seconds)[0]


def read_user_text(path: str | Path, limit: int, *, what: str = "file", seconds: float = READ_SECONDS) -> str:
    """As read_user_bytes, decoded as UTF-8 (a byte-order mark is dropped); other encodings are one line."""
    data = read_user_bytes(path, limit, what=what, seconds=seconds)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BuildFileError(path, f"not UTF-8 text (byte {exc.start + 1:,}); save it as UTF-8") from None


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when both names reach one file (a symlink, a hard link, `./x` and `x`)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def refuse_inputs(path: str | Path, inputs: tuple[str | Path | None, ...], what: str) -> None:
    """A command never writes its output over one of its own inputs (`export B -o B` replaced the build)."""
    for given in inputs:
        if given not in (None, "-", "") and os.path.lexists(path) and same_file(path, given):
            raise BuildFileError(path, f"this is also the input {given}; write the {what} to another file")


def write_user_file(
    path: str | Path,
    data: bytes,
    *,
    inputs: tuple[str | Path | None, ...] = (),
    what: str = "file",
    limit: int = 1 << 30,
) -> SaveResult:
    """The one way to write a file the user names (exports, imported builds): refuses to replace an input of the
    same command, a special file or a write-protected file; writes a temporary file, fsyncs it and replaces the
    target; keeps the previous version as `<name>.bak`. Errors are one BuildFileError line."""
    refuse_inputs(path, inputs, what)
    return write_atomic(Path(path), data, keep_backup=True, limit=limit, what=what)


def move_aside(path: str | Path) -> Path | None:
    """Rename a data file that cannot be read to `<name>.corrupt-<date>` (never deleted: the user may want it back),
    so start-up carries on with defaults. Returns the new name, or None when it could not be moved."""
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target
