"""rigplan.files.download against a hostile HTTP server on 127.0.0.1: one overall deadline (a server that drips a
byte at a time, in the body or in the headers, is stopped at the deadline), a size cap, fewer bytes than announced,
a redirect loop, the SHA-256 checked before the file is in place; every failure is one DownloadError line and
nothing is left at the destination or beside it."""

from __future__ import annotations

import hashlib
import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rigplan.files.download import DownloadError, download

BODY = b"hello, rigplan\n" * 100


class Hostile(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        mode = self.path.strip("/").split("/")[0]
        try:
            if mode == "ok":
                self.send(200, BODY)
            elif mode == "drip":  # a byte every 0.5 s of a long body: no read ever times out
                self.send_response(200)
                self.send_header("Content-Length", "100000")
                self.end_headers()
                for _ in range(200):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.5)
            elif mode == "drip-headers":
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                for _ in range(200):
                    self.wfile.write(b"X-A: b\r\n")
                    self.wfile.flush()
                    time.sleep(0.5)
            elif mode == "short":  # announces 10,000 bytes, sends 10, closes
                self.send_response(200)
                self.send_header("Content-Length", "10000")
                self.end_headers()
                self.wfile.write(b"0123456789")
                self.wfile.flush()
                self.close_connection = True
            elif mode == "endless":  # no length, bytes as fast as they go
                self.send_response(200)
                self.send_header("Connection", "close")
                self.end_headers()
                block = b"z" * 65536
                for _ in range(10_000):
                    self.wfile.write(block)
            elif mode == "huge":  # announces more than the cap
                self.send_response(200)
                self.send_header("Content-Length", str(10**12))
                self.end_headers()
            elif mode in ("loop", "loop2"):
                self.send_response(302)
                self.send_header("Location", "/loop2/" if self.path.startswith("/loop/") else "/loop/")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif mode == "hop":  # /hop/N -> /hop/N+1, forever
                n = int(self.path.strip("/").split("/")[1])
                self.send_response(301)
                self.send_header("Location", f"/hop/{n + 1}")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif mode == "file-scheme":
                self.send_response(302)
                self.send_header("Location", "file:///etc/passwd")
                self.send_header("Content-Length", "0")
                self.end_headers()
            else:
                self.send(404, b"no")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send(self, code: int, body: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_good_download_with_the_right_sum_lands_whole(base: str, tmp_path: Path) -> None:
    seen: list[tuple[int, int | None]] = []
    got = download(
        f"{base}/ok/",
        tmp_path / "f.bin",
        sha256=hashlib.sha256(BODY).hexdigest(),
        max_bytes=10_000,
        deadline_s=10,
        progress=lambda n, total: seen.append((n, total)),
    )
    assert got == tmp_path / "f.bin" and got.read_bytes() == BODY
    assert seen[-1] == (len(BODY), len(BODY))
    assert leftovers(tmp_path) == ["f.bin"]


@pytest.mark.parametrize(
    ("mode", "deadline", "cap", "message"),
    [
        ("drip", 2.0, 10**6, "not finished within 2 s"),
        ("drip-headers", 2.0, 10**6, "not finished within 2 s"),
        ("short", 10.0, 10**6, "cut short"),
        ("endless", 30.0, 1_000_000, "larger than the cap of 1,000,000 bytes"),
        ("huge", 10.0, 10**6, "over the cap of 1,000,000"),
        ("loop", 10.0, 10**6, "redirected in a loop or more than 5 times"),
        ("hop/0", 10.0, 10**6, "redirected in a loop or more than 5 times"),
        ("file-scheme", 10.0, 10**6, "which is not an http(s) address"),
        ("missing", 10.0, 10**6, "the server answered 404"),
    ],
)
def test_a_hostile_server_gets_one_line_within_the_deadline(
    base: str, tmp_path: Path, mode: str, deadline: float, cap: int, message: str
) -> None:
    (tmp_path / "f.bin").write_bytes(b"the old copy")
    start = time.monotonic()
    with pytest.raises(DownloadError) as info:
        download(f"{base}/{mode}/", tmp_path / "f.bin", max_bytes=cap, deadline_s=deadline)
    took = time.monotonic() - start
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert took < deadline + 1.5, took  # the whole download, not each read
    assert (tmp_path / "f.bin").read_bytes() == b"the old copy"  # the old file is kept as it was
    assert leftovers(tmp_path) == ["f.bin"]  # no partial file


def test_a_wrong_sum_is_refused_and_nothing_is_put_in_place(base: str, tmp_path: Path) -> None:
    with pytest.raises(DownloadError, match="is not the pinned " + "0" * 64):
        download(f"{base}/ok/", tmp_path / "f.bin", sha256="0" * 64, max_bytes=10_000, deadline_s=10)
    assert leftovers(tmp_path) == []


def test_cancel_stops_the_download_at_once(base: str, tmp_path: Path) -> None:
    calls = {"n": 0}

    def cancelled() -> bool:
        calls["n"] += 1
        return calls["n"] > 3

    start = time.monotonic()
    with pytest.raises(DownloadError, match="cancelled"):
        download(f"{base}/drip/", tmp_path / "f.bin", max_bytes=10**6, deadline_s=60, cancelled=cancelled)
    assert time.monotonic() - start < 2
    assert leftovers(tmp_path) == []


def test_no_connection_and_other_schemes_are_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}/x"
    with pytest.raises(DownloadError, match="cannot connect"):
        download(dead, tmp_path / "f", max_bytes=10, deadline_s=5)
    with pytest.raises(DownloadError, match="is not an http"):
        download("file:///etc/passwd", tmp_path / "f", max_bytes=10, deadline_s=5)
    assert leftovers(tmp_path) == []
