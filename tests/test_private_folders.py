"""Issue 35: the folders RigPlan keeps a user's data, cache, log and autosaves in. A fallback folder is private and
unguessable (tempfile.mkdtemp), never the predictable `$TMPDIR/rigplan-<uid>` another user could make first; a
folder another user owns or may write in is refused in one line; a log file that is a symbolic link is never
written through.

The non-root cases run as a real non-root user: a throwaway user made here with useradd (as root only; skipped with
the reason otherwise) and removed after, whose home is read-only. The interpreter lives under /root here, which that
user cannot reach, so each case runs in a forked child of this process that drops to the user (setgroups, setgid,
setuid) with every module it needs already imported: a real process of that user, with that user's permissions."""

from __future__ import annotations

import json
import logging
import os
import pwd
import select
import shutil
import stat
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import rigplan.cli.check  # noqa: F401 (imported before the fork: the child cannot read /root's site-packages)
import rigplan.cli.main
import rigplan.imports.user_prices as user_prices
from rigplan.logs import fallback_folder, setup_logging
from rigplan.paths import UnsafeFolderError, folder_problem, own_folder, private_temp_folder

ROOT_ONLY = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("useradd") is None,
    reason="making a throwaway non-root user needs root and useradd",
)
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "2x-rtx-4090.rigplan"


@dataclass
class User:
    name: str
    uid: int
    gid: int
    home: Path


@pytest.fixture
def user() -> Iterator[User]:
    name = f"rp4t{uuid.uuid4().hex[:8]}"
    home = Path(tempfile.mkdtemp(prefix="rp4-home-"))
    subprocess.run(["useradd", "-M", "-d", str(home), "-s", "/usr/sbin/nologin", name], check=True)
    try:
        pw = pwd.getpwnam(name)
        os.chown(home, pw.pw_uid, pw.pw_gid)
        os.chmod(home, 0o555)  # a read-only home: the user cannot create ~/.local or ~/.cache
        yield User(name, pw.pw_uid, pw.pw_gid, home)
    finally:
        subprocess.run(["userdel", name], check=False)
        os.chmod(home, 0o755)
        shutil.rmtree(home, ignore_errors=True)


def as_user(user: User, fn: Callable[..., Any], *args: Any, env: dict[str, str] | None = None) -> Any:
    """fn(*args) in a forked child running as `user` (no root left); its JSON result, or the child's error."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop root for good, then run
        os.close(read)
        out: Any
        try:
            os.setgroups([])
            os.setgid(user.gid)
            os.setuid(user.uid)
            os.environ.update({"HOME": str(user.home), "USER": user.name, **(env or {})})
            for var in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
                if var not in (env or {}):
                    os.environ.pop(var, None)
            out = {"ok": fn(*args)}
        except BaseException as exc:  # noqa: BLE001 (reported to the parent)
            out = {"error": f"{type(exc).__name__}: {exc}"}
        os.write(write, json.dumps(out, default=str).encode())
        os._exit(0)
    os.close(write)
    chunks = []
    while True:
        ready, _, _ = select.select([read], [], [], 60)
        assert ready, "the child hung"
        chunk = os.read(read, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    result = json.loads(b"".join(chunks) or b'{"error": "no answer"}')
    assert "error" not in result, result["error"]
    return result["ok"]


def _reset_logging() -> None:
    root = logging.getLogger("rigplan")
    for h in list(root.handlers):
        root.removeHandler(h)
        h.close()


def _log_in(folder: str) -> str:
    _reset_logging()
    path = setup_logging(Path(folder))
    logging.getLogger("rigplan.test").warning("a line from the user")
    for h in logging.getLogger("rigplan").handlers:
        h.flush()
    return str(path)


def _describe(path: str) -> dict[str, Any]:
    st = os.stat(path)
    return {"uid": st.st_uid, "mode": stat.S_IMODE(st.st_mode)}


@ROOT_ONLY
def test_another_users_predictable_fallback_folder_is_never_used(user: User) -> None:
    """The attack of the issue: another user (root here) makes `$TMPDIR/rigplan-<uid>` first, world-writable, with
    logs/rigplan.log linked to the victim's file. The victim's data folder cannot be used (read-only home): the log
    goes to a private mkdtemp folder of the victim's, the linked file is untouched, and so is the autosave."""
    trap = Path(tempfile.gettempdir()) / f"rigplan-{user.uid}"
    precious = Path(tempfile.mkdtemp(prefix="rp4-precious-")) / "thesis.txt"
    precious.write_text("my thesis\n", encoding="utf-8")
    os.chown(precious.parent, user.uid, user.gid)
    os.chown(precious, user.uid, user.gid)
    try:
        (trap / "logs").mkdir(parents=True)
        (trap / "autosave").mkdir()
        for d in (trap, trap / "logs", trap / "autosave"):
            os.chmod(d, 0o777)
        (trap / "logs" / "rigplan.log").symlink_to(precious)
        log = as_user(user, _log_in, str(user.home / ".local" / "share" / "RigPlan" / "logs"))
        autosave = as_user(user, lambda: str(fallback_folder("autosave")))
        assert precious.read_text("utf-8") == "my thesis\n"
        for path in (Path(log).parent, Path(autosave)):
            assert not path.is_relative_to(trap), path
            assert _describe(str(path)) == {"uid": user.uid, "mode": 0o700}
            assert _describe(str(path.parent)) == {"uid": user.uid, "mode": 0o700}  # made by mkdtemp
        assert "a line from the user" in Path(log).read_text("utf-8")
    finally:
        shutil.rmtree(trap, ignore_errors=True)
        shutil.rmtree(precious.parent, ignore_errors=True)
        for p in Path(tempfile.gettempdir()).glob("rigplan-*"):
            if p.stat().st_uid == user.uid:
                shutil.rmtree(p, ignore_errors=True)


@ROOT_ONLY
def test_a_data_folder_another_user_owns_or_may_write_in_is_refused_in_one_line(user: User) -> None:
    base = Path(tempfile.mkdtemp(prefix="rp4-data-"))
    os.chmod(base, 0o755)
    try:
        foreign = base / "foreign"  # another user's (root's), writable by all, no sticky bit
        foreign.mkdir(mode=0o777)
        os.chmod(foreign, 0o777)
        shared = base / "shared"  # the user's own, but everyone may write in it
        shared.mkdir()
        os.chown(shared, user.uid, user.gid)
        os.chmod(shared, 0o777)

        def save_prices(folder: str) -> str:
            try:
                user_prices.save_user_prices({}, Path(folder))
            except user_prices.UserPricesError as exc:
                return str(exc)
            return "saved"

        for folder, why in ((foreign, "belongs to another user (uid 0)"), (shared, "is writable by every user")):
            message = as_user(user, save_prices, str(folder))
            assert why in message and "RigPlan does not keep your files there" in message, message
            assert "\n" not in message
            assert not (folder / "user-prices.json").exists()
            log = as_user(user, _log_in, str(folder / "logs"))
            assert not Path(log).is_relative_to(folder)  # the log went to the private fallback instead
    finally:
        shutil.rmtree(base, ignore_errors=True)


@ROOT_ONLY
def test_a_log_file_that_is_a_symbolic_link_is_never_written_through(user: User) -> None:
    base = Path(tempfile.mkdtemp(prefix="rp4-own-"))
    os.chmod(base, 0o755)
    try:
        logs = base / "RigPlan" / "logs"
        logs.mkdir(parents=True)
        for d in (base / "RigPlan", logs):
            os.chown(d, user.uid, user.gid)
            os.chmod(d, 0o700)
        precious = base / "notes.txt"
        precious.write_text("keep me\n", encoding="utf-8")
        os.chown(precious, user.uid, user.gid)
        (logs / "rigplan.log").symlink_to(precious)
        log = as_user(user, _log_in, str(logs))
        assert precious.read_text("utf-8") == "keep me\n"
        assert Path(log).parent != logs
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _closed_folder(path: Path) -> Path | None:
    """The first folder above `path` that other users cannot enter (no o+x), or None."""
    for folder in [path, *path.parents]:
        if not folder.stat().st_mode & stat.S_IXOTH:
            return folder
    return None


@ROOT_ONLY
def test_with_a_read_only_home_the_cli_still_answers(user: User, capsys: pytest.CaptureFixture[str]) -> None:
    # The other user reads the shipped catalog from this checkout: a clone inside a private folder (mktemp -d makes
    # one with mode 700) cannot be read by anyone else, installed or not, so there is nothing to test there.
    closed = _closed_folder(Path(rigplan.cli.main.__file__).resolve().parent)
    if closed is not None:
        pytest.skip(f"{closed} is closed to other users (mode {stat.S_IMODE(closed.stat().st_mode):o})")
    example = Path(tempfile.mkdtemp(prefix="rp4-ex-")) / "b.rigplan"
    os.chmod(example.parent, 0o755)
    shutil.copy(EXAMPLE, example)
    os.chmod(example, 0o644)

    def check() -> int:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        return rigplan.cli.main.run_cli(["check", str(example)])

    assert rigplan.cli.main.run_cli(["check", str(example)]) == 0  # first as root: every module it needs imported
    capsys.readouterr()
    try:
        assert as_user(user, check) == 0
    finally:
        shutil.rmtree(example.parent, ignore_errors=True)


def test_folder_rules_owner_mode_sticky_and_group(tmp_path: Path) -> None:
    """The rule on the modes themselves (as whoever runs the tests)."""
    if not hasattr(os, "geteuid"):
        pytest.skip("POSIX folders only")
    d = tmp_path / "d"
    d.mkdir()
    for mode, ok in ((0o700, True), (0o755, True), (0o777, False), (0o1777, True), (0o757, False)):
        os.chmod(d, mode)
        assert (folder_problem(d) is None) is ok, oct(mode)
    os.chmod(d, 0o770)
    assert folder_problem(d) is None  # the user's own group (user private groups, umask 002)
    assert "open to other users" in (folder_problem(d, private=True) or "")
    if os.geteuid() == 0:
        os.chown(d, os.geteuid(), 12345)
        assert "writable by group 12345" in (folder_problem(d) or "")
        os.chown(d, 54321, 0)
        os.chmod(d, 0o700)
        assert "belongs to another user (uid 54321)" in (folder_problem(d) or "")
        with pytest.raises(UnsafeFolderError, match="does not keep your files there"):
            own_folder(d)
    a, b = private_temp_folder("x"), private_temp_folder("y")
    assert a.parent == b.parent and a.parent.name.startswith("rigplan-") and a.parent.name != f"rigplan-{os.getuid()}"
    assert stat.S_IMODE(a.parent.stat().st_mode) == 0o700
