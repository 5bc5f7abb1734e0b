"""One bounded download, for every tool and command that fetches a file: an overall deadline, a size cap, the
SHA-256 checked before the file is in place (so nothing is parsed before its sum is known), and one exception class
with a one-line message. No Qt.

    download(url, dest, *, sha256=None, max_bytes, deadline_s, progress=None, cancelled=None) -> Path

Why a worker thread: urllib's `timeout` is per socket operation, so a server that sends a byte every few seconds
(of the body or of the headers) never times out a read. The transfer runs in a daemon thread and the caller waits
on it against the clock; at the deadline (or when `cancelled()` turns true) the caller gets DownloadError at once,
the socket is shut down so the worker stops, and the partial file is removed. `progress(bytes_so_far, total_or_None)`
and `cancelled()` are called in the caller's thread, never in the worker.

What is refused, each in one line: a body larger than `max_bytes` (announced or counted), fewer bytes than the
server announced, a SHA-256 other than the pinned one, an HTTP error, more than MAX_REDIRECTS redirects or a
redirect loop, a redirect to another scheme than http(s), a connection that fails.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import os
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_REDIRECTS = 5  # GitHub and PyPI answer with at most one or two
CHUNK = 64 * 1024
POLL_S = 0.05
SOCKET_TIMEOUT_S = 10.0  # per operation; the deadline bounds the whole


class DownloadError(Exception):
    """One line for the user: what failed, for which URL. Nothing is left at `dest` or beside it."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class _Redirects(urllib.request.HTTPRedirectHandler):
    max_redirections = MAX_REDIRECTS
    max_repeats = 1  # the same address twice is a loop

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        if not newurl.lower().startswith(("http://", "https://")):
            raise DownloadError(f"{req.full_url}: redirected to {newurl[:120]!r}, which is not an http(s) address")
        return super().redirect_request(req, fp, code, msg, headers, newurl)

    def http_error_302(self, req: Any, fp: Any, code: int, msg: str, headers: Any) -> Any:
        try:
            return super().http_error_302(req, fp, code, msg, headers)
        except urllib.error.HTTPError as exc:
            if "is not allowed" in str(exc.msg):  # urllib's own scheme check (file:, ftp:, data:)
                raise DownloadError(
                    f"{req.full_url}: redirected to an address which is not an http(s) address"
                ) from None
            if "infinite loop" in str(exc.msg):
                raise DownloadError(
                    f"{req.full_url}: redirected in a loop or more than {MAX_REDIRECTS} times; stopped"
                ) from None
            raise

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


def _opener() -> urllib.request.OpenerDirector:
    handlers: list[Any] = [_Redirects()]
    try:
        import ssl

        context = ssl.create_default_context()
        if not context.cert_store_stats().get("x509_ca"):
            with contextlib.suppress(ImportError, OSError):
                import certifi

                context.load_verify_locations(certifi.where())
        handlers.append(urllib.request.HTTPSHandler(context=context))
    except ImportError:  # no OpenSSL: https fails with a one-line message below
        pass
    return urllib.request.build_opener(*handlers)


class _Transfer:
    """The worker's state, read by the caller's thread."""

    def __init__(self) -> None:
        self.got = 0
        self.total: int | None = None
        self.error: DownloadError | None = None
        self.stop = threading.Event()
        self.done = threading.Event()
        self.sock: socket.socket | None = None
        self.lock = threading.Lock()

    def abort(self) -> None:
        self.stop.set()
        with self.lock:
            if self.sock is not None:
                with contextlib.suppress(OSError):
                    self.sock.shutdown(socket.SHUT_RDWR)


def _socket_of(resp: Any) -> socket.socket | None:
    raw = getattr(getattr(resp, "fp", None), "raw", None)
    sock = getattr(raw, "_sock", None)
    return sock if isinstance(sock, socket.socket) else None


def _run(url: str, fh: Any, digest: Any, max_bytes: int, state: _Transfer) -> None:
    try:
        with _opener().open(url, timeout=SOCKET_TIMEOUT_S) as resp:
            with state.lock:
                state.sock = _socket_of(resp)
            if state.stop.is_set():
                return
            size = resp.headers.get("Content-Length")
            state.total = int(size) if size and size.strip().isdigit() else None
            if state.total is not None and state.total > max_bytes:
                raise DownloadError(f"{url}: the server announces {state.total:,} bytes, over the cap of {max_bytes:,}")
            while not state.stop.is_set():
                chunk = resp.read1(CHUNK)  # what has arrived, so the counters move as the bytes come
                if not chunk:
                    break
                if state.got + len(chunk) > max_bytes:
                    raise DownloadError(f"{url}: larger than the cap of {max_bytes:,} bytes; stopped")
                fh.write(chunk)
                digest.update(chunk)
                state.got += len(chunk)
            if state.stop.is_set():
                return
            if state.total is not None and state.got < state.total:
                raise DownloadError(f"{url}: cut short ({state.got:,} of the {state.total:,} bytes announced)")
    except DownloadError as exc:
        state.error = exc
    except urllib.error.HTTPError as exc:
        state.error = DownloadError(f"{url}: the server answered {exc.code} {exc.reason}")
    except urllib.error.URLError as exc:
        state.error = DownloadError(f"{url}: cannot connect ({exc.reason})")
    except http.client.IncompleteRead as exc:
        state.error = DownloadError(f"{url}: cut short ({len(exc.partial):,} bytes, then the connection closed)")
    except (OSError, ValueError, http.client.HTTPException) as exc:  # resets, timeouts, malformed answers
        state.error = DownloadError(f"{url}: download failed ({type(exc).__name__}: {exc})")
    except Exception as exc:  # noqa: BLE001 (a worker must always report; the caller raises the one line)
        state.error = DownloadError(f"{url}: download failed ({type(exc).__name__}: {exc})")
    finally:
        state.done.set()


def download(
    url: str,
    dest: Path | str,
    *,
    sha256: str | None = None,
    max_bytes: int,
    deadline_s: float,
    progress: Callable[[int, int | None], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Path:
    """Fetch `url` into `dest` (written atomically: a temporary file beside it, then os.replace), within
    `deadline_s` seconds overall and `max_bytes` bytes; with `sha256`, the file is put in place only when its sum
    matches. Returns `dest`. Raises DownloadError (one line) and leaves `dest` as it was."""
    dest = Path(dest)
    if max_bytes <= 0 or not deadline_s > 0:
        raise DownloadError(f"{url}: a download needs a positive size cap and deadline")
    if not url.lower().startswith(("http://", "https://")):
        raise DownloadError(f"{url[:120]!r} is not an http(s) address")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    except OSError as exc:
        raise DownloadError(f"cannot write beside {dest}: {exc.strerror or exc}") from exc
    tmp = Path(tmp_name)
    digest = hashlib.sha256()
    state = _Transfer()
    try:
        with os.fdopen(fd, "wb") as fh:
            worker = threading.Thread(target=_run, args=(url, fh, digest, max_bytes, state), daemon=True)
            end = time.monotonic() + deadline_s
            worker.start()
            while not state.done.wait(POLL_S):
                if progress is not None:
                    progress(state.got, state.total)
                if cancelled is not None and cancelled():
                    state.abort()
                    raise DownloadError(f"{url}: cancelled")
                if time.monotonic() > end:
                    state.abort()
                    raise DownloadError(
                        f"{url}: not finished within {deadline_s:g} s ({state.got:,} bytes so far); stopped"
                    )
            worker.join()
            if state.error is not None:
                raise state.error
            if progress is not None:
                progress(state.got, state.total)
            fh.flush()
            os.fsync(fh.fileno())
        got = digest.hexdigest()
        if sha256 is not None and got != sha256.lower():
            raise DownloadError(f"{url}: SHA-256 {got} is not the pinned {sha256}; not used")
        os.replace(tmp, dest)
        return dest
    except OSError as exc:
        raise DownloadError(f"cannot write {dest}: {exc.strerror or exc}") from exc
    finally:
        state.abort()  # a no-op once the worker is done; else it stops reading and writes no more
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
