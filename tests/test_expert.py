"""The expert corpus (tests/data/expert/cases.yaml): each build is written as a real build file and run through the
real `rigplan check --json`; its exit code and findings must match the verdict an experienced builder gave by hand."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from rigplan.catalog import Catalog
from rigplan.cli.main import run_cli
from rigplan.files import save
from rigplan.model import Assumptions, Build, BuildItem, Kind
from rigplan.model.other import OtherItem
from rigplan.model.parts import PART_ADAPTER
from rigplan.rules.engine import RULES

# Read when the module is collected, by every pytest-xdist worker: libyaml's safe loader, the same objects as
# yaml.safe_load's pure-Python one in a tenth of the time (0.32 s -> 0.04 s of CPU per worker).
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
CASES: list[dict[str, Any]] = yaml.load(  # noqa: S506 - a safe loader
    (Path(__file__).parent / "data" / "expert" / "cases.yaml").read_text(), Loader=_SAFE_LOADER
)
# Every rule id the engine runs: a case's `needs_rule` skips it only while one of these is missing.
ENGINE_RULES = {rule_id for rule in RULES for rule_id in rule.ids}
# Builds where RigPlan disagrees with the expert's verdict (issue 25): the case stays as the expert wrote it and runs
# as a strict xfail, so the day the catalog value or the rule is fixed the xpass fails and the marker must go.
KNOWN_DISAGREEMENTS: dict[str, str] = {c["id"]: c["disagreement"] for c in CASES if c.get("disagreement")}
# Issue 25: at least 120 builds, at least 40 on workstation platforms.
MIN_CASES, MIN_WORKSTATION = 120, 40
# Rules that can never pass or fail from the data: they are always "not checked" (docs/checks.md says why).
ALWAYS_UNKNOWN = {"gpu-radiator"}  # the data gives no radiator sizes or mounts
# Rules that write only "not checked" (none now: psu-eps-count passes when the PSU's EPS count is known and at least
# one, and fails when it is none beside a board with known CPU power sockets).
UNKNOWN_ONLY: set[str] = set()
# Rules that only ever note or warn.
NO_ERROR = {"gpu-lanes", "gpu-spacing", "gpu-intake-gap"}


def _part(catalog: Catalog, kind: str, prefix: str) -> Any:
    table = catalog.table(Kind(kind))
    rows = [i for i, pid in enumerate(table.ids) if pid.startswith(prefix)]
    assert len(rows) == 1, f"{kind} {prefix}: {len(rows)} matches"
    return table.part(rows[0])


def _build(catalog: Catalog, case: dict[str, Any]) -> Build:
    items: list[BuildItem] = []
    for kind, spec in (case.get("parts") or {}).items():
        for prefix, qty in spec if isinstance(spec, list) else [(spec, 1)]:
            items.append(BuildItem(part=_part(catalog, kind, prefix), quantity=qty))
    for record in case.get("custom") or []:
        qty = (case.get("quantities") or {}).get(record["id"], 1)
        items.append(BuildItem(part=PART_ADAPTER.validate_python(record), quantity=qty))
    other = tuple(OtherItem(**o) for o in case.get("other") or [])  # an HBA for storage-sas (issue 36)
    return Build(
        name=case["id"], items=tuple(items), other=other, assumptions=Assumptions(**(case.get("assumptions") or {}))
    )


@pytest.fixture(autouse=True)
def _catalog_loaded_once(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rigplan check` loads the catalog in use only for its notes (the user's corrections, parts not in it); in the
    test's fresh home (conftest.own_home) that is the shipped catalog, already loaded as the session's `catalog`.
    The command gets that one instead of parsing the same file again for each of the 300 cases (~0.15 s each); its
    parsing, check, JSON and exit code are the real command's."""

    def shipped() -> Catalog:
        return catalog

    monkeypatch.setattr("rigplan.catalog.load_catalog", shipped)


def _run(tmp_path: Path, build: Build, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "case.rigplan.yaml"
    save(build, path)
    capsys.readouterr()
    code = run_cli(["check", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def _param(case: dict[str, Any]) -> Any:
    reason = KNOWN_DISAGREEMENTS.get(case["id"])
    marks = [pytest.mark.xfail(strict=True, reason=f"known disagreement: {reason}")] if reason else []
    return pytest.param(case, id=case["id"], marks=marks)


def _missing_rules(case: dict[str, Any]) -> set[str]:
    """The rules a case needs (`needs_rule`) that the engine does not run yet: the case is skipped while any is."""
    return set(case.get("needs_rule", [])) - ENGINE_RULES


def _claimed_rules(case: dict[str, Any]) -> set[str]:
    claims = [r.split(":")[1] for r in case.get("require", [])]
    return {*claims, *case.get("forbid", []), *case.get("passes", []), *case.get("unknown", [])}


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_expert_verdict(
    catalog: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: dict[str, Any]
) -> None:
    missing = _missing_rules(case)
    if missing:
        pytest.skip(f"{case['id']}: rule(s) {sorted(missing)} not in the engine yet")
    code, data = _run(tmp_path, _build(catalog, case), capsys)
    found = {(f["severity"], f["rule"]) for f in data["findings"]}
    fired = {rule for sev, rule in found if sev in ("error", "warning")}
    unchecked = {n["rule"] for n in data["not_checked"]}
    context = f"{case['id']}: {case['why']}\nfindings: {sorted(found)}\nnot checked: {sorted(unchecked)}"
    assert code == case["exit"], context
    for req in case.get("require", []):
        sev, rule = req.split(":")
        assert (sev, rule) in found, context
    for rule in case.get("forbid", []):
        assert rule not in fired, context
    for rule in case.get("passes", []):
        assert rule not in fired and rule not in unchecked, context
    for rule in case.get("unknown", []):
        assert rule in unchecked, context


def test_corpus_covers_every_rule_three_ways() -> None:
    """At least 40 builds; every rule has a pass, a fail and an unknown, except the rules the data cannot decide."""
    assert len(CASES) >= 40
    pattern = re.compile(r'"((?:cpu|cooler|board|case|psu|memory|storage|gpu|wall)-[a-z0-9-]+[a-z0-9])"')
    rules_dir = Path(__file__).resolve().parents[1] / "app" / "rigplan" / "rules"
    rules = {m for path in rules_dir.glob("*.py") for m in pattern.findall(path.read_text())}
    assert len(rules) >= 27
    # Only builds RigPlan gets right count: a known disagreement or a skipped case proves nothing about its rules.
    agreed = [c for c in CASES if c["id"] not in KNOWN_DISAGREEMENTS and not _missing_rules(c)]
    fail = {r.split(":")[1] for c in agreed for r in c.get("require", []) if r.split(":")[0] in ("error", "warning")}
    passes = {r for c in agreed for r in c.get("passes", [])}
    unknown = {r for c in agreed for r in c.get("unknown", [])}
    missing = {
        r: [
            what
            for what, have in (("pass", passes), ("fail", fail), ("unknown", unknown))
            if r not in have and not (r in UNKNOWN_ONLY and what == "fail")
        ]
        for r in sorted(rules - ALWAYS_UNKNOWN)
    }
    assert {r: m for r, m in missing.items() if m} == {}


def test_corpus_size_and_workstation_share() -> None:
    """Issue 25: at least 120 builds, at least 40 of them on workstation platforms; ids unique."""
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    assert len(CASES) >= MIN_CASES
    assert sum(1 for c in CASES if c.get("workstation")) >= MIN_WORKSTATION


def test_cases_name_real_rules() -> None:
    """A typo in a rule id would make a claim vacuous: every rule a case names is one the engine runs, or one the
    case declares with `needs_rule` (a rule still being written); a disagreement says why in words."""
    for case in CASES:
        unknown = _claimed_rules(case) - ENGINE_RULES - set(case.get("needs_rule", []))
        assert not unknown, f"{case['id']}: {sorted(unknown)}"
        if "disagreement" in case:
            assert isinstance(case["disagreement"], str) and case["disagreement"].strip(), case["id"]


def test_needs_rule_skips_only_while_the_rule_is_missing() -> None:
    """The marker the lead relies on at merge: a case naming a rule the engine lacks is held back; once the engine
    has the rule, the same case runs."""
    waiting = {"id": "x", "needs_rule": ["psu-quantity", "board-no-such-rule"]}
    assert _missing_rules(waiting) == {"board-no-such-rule"}
    assert _missing_rules({"id": "y", "needs_rule": ["psu-quantity"]}) == set()
    assert "psu-quantity" in ENGINE_RULES and "board-no-such-rule" not in ENGINE_RULES
