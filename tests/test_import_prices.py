"""Price files and the user's own price layer (issue 19), and `rigplan import` as a user runs it."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rigplan.catalog import Catalog, load_catalog
from rigplan.files import load
from rigplan.imports.price_file import PriceFileError, apply_to_build, parse_price_file, resolve_catalog
from rigplan.imports.user_prices import (
    UserPricesError,
    add_user_prices,
    apply_to_catalog,
    load_user_prices,
    prices_path,
    remove_user_prices,
)
from rigplan.model import Build, BuildItem, Price

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
RYZEN_7950X = "63f23f26-d52c-4e3c-be6e-0d25163cff59"
RTX_4090_FE = "7b22a20f-74d2-4855-85d2-b4674da07de1"
SAMSUNG_990_PRO_2TB = "18e3b4f5-7f63-4cf9-a266-141344d2cd82"


def test_price_file_rows_and_problems() -> None:
    pf = parse_price_file((DATA / "prices-quotes.csv").read_text(), default_source="price file q.csv")
    assert [(r.line, r.key, r.price.amount, r.price.currency) for r in pf.rows] == [
        (2, "AMD Ryzen 9 7950X", 499.0, "USD"),
        (3, RTX_4090_FE, 1749.0, "EUR"),
        (4, "Samsung 990 Pro 2TB SSD M.2-2280 PCIe 4.0 x4 NVMe", 139.99, "USD"),
        (5, "Corsair Vengeance", 99.0, "USD"),
    ]
    assert pf.rows[0].price.date == dt.date(2025, 8, 1) and pf.rows[0].price.source == "Micro Center quote"
    assert pf.rows[2].price.source == "price file q.csv"  # no source given: the file is the source
    assert pf.problems == ["line 6: price 'abc' is not a number", "line 7: unknown currency 'XYZ'"]


def test_price_file_resolved_to_catalog_parts(catalog: Catalog) -> None:
    pf = parse_price_file((DATA / "prices-quotes.csv").read_text())
    resolved = resolve_catalog(pf, catalog)
    assert set(resolved.prices) == {RYZEN_7950X, RTX_4090_FE, SAMSUNG_990_PRO_2TB}
    assert resolved.prices[RTX_4090_FE].amount == 1749.0 and resolved.prices[RTX_4090_FE].currency == "EUR"
    assert len(resolved.unmatched) == 1 and resolved.unmatched[0].startswith("line 5: 'Corsair Vengeance'")


def test_price_file_sets_the_builds_own_prices(catalog: Catalog) -> None:
    cpu, gpu = catalog.get(RYZEN_7950X), catalog.get(RTX_4090_FE)
    build = Build(items=(BuildItem(part=cpu), BuildItem(part=gpu, quantity=2)))  # type: ignore[arg-type]
    pf = parse_price_file((DATA / "prices-quotes.csv").read_text())
    new, updated, unused = apply_to_build(pf, build)
    assert updated == ["AMD Ryzen 9 7950X", gpu.name]  # type: ignore[union-attr]
    assert new.items[0].unit_price == Price(
        amount=499.0, currency="USD", date=dt.date(2025, 8, 1), source="Micro Center quote"
    )
    assert new.items[1].price_override is not None and new.items[1].price_override.currency == "EUR"
    assert new.items[1].quantity == 2
    assert len(unused) == 2  # the SSD and "Corsair Vengeance" are not in this build
    assert build.items[0].price_override is None  # the input build is untouched


def test_not_a_price_file() -> None:
    with pytest.raises(PriceFileError, match="no rows"):
        parse_price_file("\n\n")


def test_user_price_layer(tmp_path: Path, catalog: Catalog) -> None:
    assert load_user_prices(tmp_path) == {}
    quote = Price(amount=1749.0, currency="EUR", date=dt.date(2025, 8, 2), source="Alternate.de")
    add_user_prices({RTX_4090_FE: quote}, tmp_path)
    assert load_user_prices(tmp_path) == {RTX_4090_FE: quote}
    fresh = load_catalog(cache_dir=tmp_path / "cache")  # a catalog of its own: the session one stays as shipped
    bundled = fresh.get(RTX_4090_FE).price  # type: ignore[union-attr]
    assert apply_to_catalog(fresh, load_user_prices(tmp_path)) == 1
    shown = fresh.get(RTX_4090_FE).price  # type: ignore[union-attr]
    assert shown is not None and shown.amount == 1749.0 and shown.currency == "EUR"
    assert shown.source == "your price: Alternate.de"
    assert catalog.get(RTX_4090_FE).price == bundled  # type: ignore[union-attr]  # the files are never edited
    assert remove_user_prices([RTX_4090_FE, "no-such-id"], tmp_path) == [RTX_4090_FE]
    assert load_user_prices(tmp_path) == {}


def test_broken_user_price_file_is_reported_not_emptied(tmp_path: Path) -> None:
    prices_path(tmp_path).write_text("{not json", encoding="utf-8")
    with pytest.raises(UserPricesError, match="left as it is"):
        load_user_prices(tmp_path)
    assert prices_path(tmp_path).read_text(encoding="utf-8") == "{not json"


def run(*args: str, data_home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home)}
    return subprocess.run(
        [sys.executable, "-m", "rigplan", *args], capture_output=True, text=True, cwd=ROOT, timeout=120, env=env
    )


@pytest.mark.slow
def test_cli_pcpartpicker_import(tmp_path: Path) -> None:
    out_file = tmp_path / "two.rigplan.yaml"
    res = run(
        "import", "pcpartpicker", str(DATA / "pcpartpicker" / "two-gpu.md"), "-o", str(out_file), "--json",
        data_home=tmp_path,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["list_total"] == 5318.79 and data["list_date"] == "2025-07-23"
    statuses = [line["status"] for line in data["lines"]]
    assert statuses.count("matched") == 8 and statuses.count("uncertain") == 1
    memory = data["lines"][3]
    assert memory["part_id"] is None and len(memory["candidates"]) >= 2
    build = load(out_file)
    assert build.items[0].part.id == RYZEN_7950X
    assert build.items[0].price_override is not None and build.items[0].price_override.amount == 549.0
    # Confirm the uncertain line on the command line.
    pick = memory["candidates"][1]["part_id"]
    res = run(
        "import", "pcpartpicker", str(DATA / "pcpartpicker" / "two-gpu.md"), "-o", str(out_file), "--pick", f"4={pick}",
        data_home=tmp_path,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "Uncertain matches" not in res.stdout
    assert load(out_file).items[3].part.id == pick


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("import", "pcpartpicker", "no-such-file.txt", "-o", "x.yaml"), "no-such-file.txt: no such file"),
        (("import", "pcpartpicker", "README.md", "-o", "x.yaml"), "no parts found"),
        (("import", "pcpartpicker", "tests/data/pcpartpicker/budget.txt", "-o", "x", "--pick", "3"), "LINE=PART_ID"),
        (("import", "prices", "tests/data/prices-quotes.csv"), "--build B -o OUT or --catalog"),
        (("import",), "import what?"),
    ],
)
def test_cli_bad_input_is_one_line(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    res = run(*args, data_home=tmp_path)
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and message in res.stderr and "Traceback" not in res.stderr


@pytest.mark.slow
def test_cli_price_layer(tmp_path: Path) -> None:
    res = run("import", "prices", str(DATA / "prices-quotes.csv"), "--catalog", data_home=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "Added 3 of your prices" in res.stdout and "not matched: line 5" in res.stdout
    assert "line 6: price 'abc' is not a number (row skipped)" in res.stderr
    listed = json.loads(run("import", "prices", "--list", "--json", data_home=tmp_path).stdout)
    assert listed[RYZEN_7950X]["amount"] == 499.0 and listed[RYZEN_7950X]["source"] == "Micro Center quote"
    assert run("import", "prices", "--remove", RYZEN_7950X, data_home=tmp_path).returncode == 0
    listed = json.loads(run("import", "prices", "--list", "--json", data_home=tmp_path).stdout)
    assert set(listed) == {RTX_4090_FE, SAMSUNG_990_PRO_2TB}
