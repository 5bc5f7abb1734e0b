"""The CLI never stops on a character its output encoding lacks (issue 29: Windows writes redirected output in
cp1252, and part names such as the G.Skill/TeamGroup "Vulcan α" kits have characters outside it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from rigplan.catalog.loader import load_catalog


def _non_cp1252_part() -> tuple[str, str]:
    for kind, table in load_catalog().tables.items():
        for name in table.column("name"):
            try:
                name.encode("cp1252")
            except UnicodeEncodeError:
                return kind.value, name
    raise AssertionError("the catalog has no part name outside cp1252; pick another probe")


def _run(*args: str, encoding: str) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONIOENCODING=encoding, PYTHONUTF8="0")
    return subprocess.run([sys.executable, "-m", "rigplan", *args], capture_output=True, env=env, timeout=120)


def test_parts_list_degrades_to_question_marks_in_cp1252() -> None:
    kind, name = _non_cp1252_part()
    word = " ".join(w for w in name.split() if w.isascii())
    done = _run("parts", "list", "--kind", kind, "--search", word, encoding="cp1252")
    assert done.returncode == 0, done.stderr.decode("cp1252", "replace")
    assert b"Traceback" not in done.stderr and b"UnicodeEncodeError" not in done.stderr
    shown = done.stdout.decode("cp1252")
    expected = name.encode("cp1252", "replace").decode("cp1252")
    assert expected in shown  # the row is there, the missing character shown as "?"


def test_json_output_keeps_every_character_in_cp1252() -> None:
    kind, name = _non_cp1252_part()
    word = " ".join(w for w in name.split() if w.isascii())
    done = _run("parts", "list", "--kind", kind, "--search", word, "--json", encoding="cp1252")
    assert done.returncode == 0, done.stderr.decode("cp1252", "replace")
    rows = json.loads(done.stdout.decode("cp1252"))
    names = [r["name"] for r in (rows if isinstance(rows, list) else rows.get("parts", []))]
    assert name in names  # JSON escapes non-ASCII (\\uXXXX), so nothing is lost


def test_utf8_output_is_untouched() -> None:
    kind, name = _non_cp1252_part()
    word = " ".join(w for w in name.split() if w.isascii())
    done = _run("parts", "list", "--kind", kind, "--search", word, encoding="utf-8")
    assert done.returncode == 0
    assert name in done.stdout.decode("utf-8")
