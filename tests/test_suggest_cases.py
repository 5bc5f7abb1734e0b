"""A buyer's case spelling read as the catalog's case classes (suggest.cases), on the real catalog."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rigplan.catalog.loader import Catalog
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Kind
from rigplan.suggest import Question, suggest
from rigplan.suggest.cases import case_classes
from rigplan.suggest.question import SuggestError


@pytest.fixture(scope="module")
def classes(catalog: Catalog) -> list[str | None]:
    return list(catalog.table(Kind.CASE).column("form_factor"))


@pytest.mark.parametrize("spelling", ["Mini-ITX", "mini-itx", "ITX", "Mini ITX", "SFF", "mini_itx"])
def test_mini_itx_spellings_name_the_mini_itx_tower(classes: list[str | None], spelling: str) -> None:
    got = case_classes(spelling, classes)
    assert got.classes == ("Mini ITX Tower",)  # the test bench is an open frame: only by its own name
    assert spelling in got.how and "Mini ITX Tower" in got.how


def test_exact_class_in_any_case_is_taken_as_is(classes: list[str | None]) -> None:
    assert case_classes("atx mid-tower", classes).classes == ("ATX Mid Tower",)
    assert case_classes("Mini ITX Test Bench", classes).how == ""


def test_sizes_and_kinds_pick_every_class_of_them(classes: list[str | None]) -> None:
    matx = case_classes("mATX", classes).classes
    assert matx and all(c.startswith("Micro ATX ") for c in matx) and "Micro ATX Mini Tower" in matx
    assert set(case_classes("full tower", classes).classes) == {"ATX Full Tower", "EATX Full Tower"}


def test_unknown_spelling_lists_the_accepted_classes(classes: list[str | None]) -> None:
    with pytest.raises(SuggestError) as err:
        case_classes("shoebox", classes)
    text = str(err.value)
    assert "unknown case class 'shoebox'" in text and "Mini ITX Tower" in text and "ATX Mid Tower" in text


def test_mini_itx_answer_is_the_mini_itx_tower_answer_and_says_how(catalog: Catalog) -> None:
    a = Assumptions()
    spelled = suggest(catalog, a, Question(budget=3000, case_form="Mini-ITX"), explain=False)
    named = suggest(catalog, a, Question(budget=3000, case_form="Mini ITX Tower"), explain=False)
    case = spelled.build.first(Kind.CASE)
    assert case is not None and case.form_factor == "Mini ITX Tower"
    assert [i.part.id for i in spelled.build.items] == [i.part.id for i in named.build.items]
    assert any("read as the catalog's Mini ITX Tower" in n for n in spelled.notes)


def test_cli_unknown_case_is_one_line_exit_2() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "rigplan", "suggest", "--budget", "3000", "--case", "shoebox"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "unknown case class 'shoebox'" in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
