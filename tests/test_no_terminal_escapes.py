"""Issue 35: raw terminal escapes and bidi overrides in build, part and Other-item names never reach a terminal or an
export raw. One sanitiser (rigplan.printable), applied where the CLI's text is written (run_cli's streams) and where
Markdown and CSV are made; JSON stays exact JSON that reads back to the very same name. Real processes, real files."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rigplan.exports.compare_text import compare_markdown
from rigplan.exports.markdown import to_markdown
from rigplan.exports.plan import make_plan
from rigplan.exports.tables import costs_csv, parts_csv
from rigplan.files import load, save
from rigplan.model import Price
from rigplan.model.other import OtherItem
from rigplan.printable import UNSAFE, json_escaped, printable

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "2x-rtx-4090.rigplan"

# Window title (OSC 0 ... BEL), clipboard write (OSC 52), clear screen (CSI 2J), the same CSI as one C1 byte, a
# right-to-left override, an isolate, a carriage return, a form feed.
TITLE = "\x1b]0;owned\x07"
CLIPBOARD = "\x1b]52;c;ZWNobyBvd25lZA==\x1b\\"
BUILD_NAME = f"Rig {TITLE}\u202eevil\u202c \x9b2J"
PART_NAME = f"GPU {CLIPBOARD}\x1b[2J\u2067x\u2069"
OTHER_NAME = '=HYPERLINK("http://x")\rfan \u200fRLM \x0c \x7f'


def evil_build(tmp_path: Path) -> Path:
    b = load(EXAMPLE)
    first = b.items[0]
    items = (first.model_copy(update={"part": first.part.model_copy(update={"name": PART_NAME})}), *b.items[1:])
    other = OtherItem(name=OTHER_NAME, quantity=2, price=Price(amount=12.5, currency="USD"))
    path = tmp_path / "evil.rigplan"
    save(b.model_copy(update={"name": BUILD_NAME, "items": items, "other": (other,)}), path)
    return path


def rigplan(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data), "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "rigplan", *args], capture_output=True, text=True, cwd=ROOT, timeout=120, env=env
    )


def assert_no_raw(text: str) -> None:
    raw = sorted({f"U+{ord(c):04X}" for c in UNSAFE.findall(text)})
    assert raw == [], raw


def test_the_sanitiser_escapes_controls_and_bidi_and_keeps_everything_else() -> None:
    assert printable(TITLE) == "\\x1b]0;owned\\x07"
    assert printable("a\u202eb\u2066c\u200e\u200f\u061c") == "a\\u202eb\\u2066c\\u200e\\u200f\\u061c"
    assert printable("\x9b2J\x85\x00\r\x7f") == "\\x9b2J\\x85\\x00\\x0d\\x7f"
    assert printable("line\u2028sep") == "line\\u2028sep"
    kept = "Ryzen \u2014 caf\u00e9 \u4e2d\u6587 \u05e2\u05d1\u05e8\u05d9\u05ea \U0001f468\u200d\U0001f4bb\ttab\nline"
    assert printable(kept) == kept  # accents, CJK, Hebrew letters, emoji with a zero-width joiner, tab, line feed
    assert printable(printable(BUILD_NAME)) == printable(BUILD_NAME)  # idempotent
    # JSON: the same characters as JSON escapes, so it reads back to the very same string
    for name in (BUILD_NAME, PART_NAME, OTHER_NAME):
        for ascii_only in (True, False):
            text = json_escaped(json.dumps({"n": name}, ensure_ascii=ascii_only))
            assert_no_raw(text)
            assert json.loads(text)["n"] == name


@pytest.mark.parametrize(
    "args",
    [
        ["check", "{b}"],
        ["cost", "{b}", "--instance", "g5.xlarge"],
        ["workload", "{b}", "--model", "llama-3.1-8b", "--task", "lora"],
        ["compare", "{b}", str(EXAMPLE)],
        ["export", "{b}", "--format", "md"],
        ["export", "{b}", "--format", "csv"],
        ["check", "{missing}"],  # an error message quoting a file name that holds escapes
    ],
    ids=["check", "cost", "workload", "compare", "export-md", "export-csv", "error-message"],
)
def test_every_cli_text_output_shows_escapes_never_runs_them(tmp_path: Path, args: list[str]) -> None:
    build = evil_build(tmp_path)
    missing = tmp_path / f"gone{TITLE}\u202e.rigplan"
    run = rigplan(*[a.format(b=build, missing=missing) for a in args], data=tmp_path / "data")
    assert "Traceback" not in run.stderr
    assert_no_raw(run.stdout)
    assert_no_raw(run.stderr)
    shown = (run.stdout + run.stderr).replace("\\]", "]")  # Markdown escapes the bracket
    if args[:3] != ["export", "{b}", "--format"] or args[3] != "csv":  # the CSV has no build name
        assert "\\x1b]0;owned\\x07" in shown  # visible, so the user sees what the name holds
    assert "\\x1b" in shown and ("\\u202e" in shown or "\\u2067" in shown)


@pytest.mark.parametrize(
    "args",
    [
        ["check", "{b}", "--json"],
        ["cost", "{b}", "--instance", "g5.xlarge", "--json"],
        ["compare", "{b}", str(EXAMPLE), "--json"],
        ["workload", "{b}", "--model", "llama-3.1-8b", "--task", "lora", "--json"],
    ],
)
def test_json_output_is_exact_json_with_every_name_intact(tmp_path: Path, args: list[str]) -> None:
    build = evil_build(tmp_path)
    run = rigplan(*[a.format(b=build) for a in args], data=tmp_path / "data")
    assert run.returncode == 0, run.stderr
    assert_no_raw(run.stdout)
    strings: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, str):
            strings.append(node)
        elif isinstance(node, dict):
            [walk(v) for v in node.values()]
        elif isinstance(node, list):
            [walk(v) for v in node]

    walk(json.loads(run.stdout))
    if args[0] == "compare":  # the one that prints names: read back, the very same names, not their escapes
        assert BUILD_NAME in strings and any(PART_NAME in t for t in strings)


def test_markdown_and_csv_exports_hold_no_raw_control_or_bidi_character(tmp_path: Path) -> None:
    build = load(evil_build(tmp_path))
    plan = make_plan(build)
    for text in (to_markdown(plan), parts_csv(plan), costs_csv(plan)):
        assert_no_raw(text)
    md = to_markdown(plan)
    assert "\\u202eevil\\u202c" in md and "\\x1b\\]52;c;" in md
    rows = list(csv.reader(io.StringIO(parts_csv(plan))))
    names = [r[1] for r in rows[1 : rows.index([])]]  # the parts; the build's setting follows the blank row
    assert any(n.startswith("GPU \\x1b]52;c;") for n in names)
    other = [n for n in names if "HYPERLINK" in n]
    assert other[0].startswith("'=HYPERLINK(") and "\\u200fRLM" in other[0] and "\\x7f" in other[0]  # quoted formula


def test_the_compare_markdown_escapes_names_too(tmp_path: Path) -> None:
    from rigplan.exports.compare import compare

    cmp = compare([make_plan(load(evil_build(tmp_path))), make_plan(load(EXAMPLE))])
    md = compare_markdown(cmp)
    assert_no_raw(md)
    assert "\\u202eevil" in md and "<" not in md.replace("&lt;", "")
