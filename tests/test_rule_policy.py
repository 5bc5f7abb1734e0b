"""Every rule declares its whole policy on its RULES entry, and the suggester's sets are built from it (issue 34).

A new rule whose "not checked" the optimizer must not accept was once silently accepted unless someone remembered
a list in suggest/expert.py. Now the policy fields have no defaults (a Rule without one does not construct), each
entry of engine.RULES states every one by name, and the suggester's sets are read from them; no rule id is written
as a string literal in rigplan.suggest.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import rigplan.suggest
from rigplan.rules import engine
from rigplan.rules.engine import RULES
from rigplan.rules.rule import Power, Rule
from rigplan.suggest import expert, relaxed

POLICY = ("passes", "strict_unknown", "strict_warn", "strict_reads", "power", "gpu_only", "loosest_card")
IDS = [rid for r in RULES for rid in r.ids]


def test_the_policy_fields_have_no_default() -> None:
    fields = {f.name: f for f in dataclasses.fields(Rule)}
    for name in POLICY:
        assert fields[name].default is dataclasses.MISSING and fields[name].default_factory is dataclasses.MISSING
    with pytest.raises(TypeError, match="strict_unknown"):
        Rule(  # type: ignore[call-arg]
            ("x-rule",),
            lambda c: None,
            passes=False,
            strict_warn=False,
            strict_reads=None,
            power=Power.NONE,
            gpu_only=False,
            loosest_card=False,
        )


def _rule_calls(path: Path | None = None) -> list[ast.Call]:
    """The Rule(...) calls of a RULES table; a `*module.RULES` entry (rules/server.py, issue 36) reads that table."""
    source = path or Path(engine.__file__)
    tree = ast.parse(source.read_text(encoding="utf-8"))
    table = next(
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == "RULES"
    )
    assert isinstance(table, ast.Tuple)
    calls: list[ast.Call] = []
    for c in table.elts:
        if isinstance(c, ast.Call):
            calls.append(c)
        elif isinstance(c, ast.Starred) and isinstance(c.value, ast.Attribute) and isinstance(c.value.value, ast.Name):
            calls += _rule_calls(source.parent / f"{c.value.value.id}.py")
    return calls


def test_every_entry_of_rules_states_each_policy_field_by_name() -> None:
    calls = _rule_calls()
    assert len(calls) == len(RULES)  # every entry is a Rule(...) written in the table
    for call in calls:
        named = {k.arg for k in call.keywords}
        rid = ast.literal_eval(call.args[0])[0]
        assert not set(POLICY) - named, f"{rid} leaves {sorted(set(POLICY) - named)} to the reader"


def test_each_finding_id_belongs_to_one_rule() -> None:
    assert len(IDS) == len(set(IDS))


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_the_suggesters_sets_follow_the_policy(rule: Rule) -> None:
    ids = set(rule.ids)
    strict_unknown = rule.strict_unknown is not False  # True, or a predicate on the build (rule.py)
    assert (ids <= expert.UNKNOWN) is strict_unknown and (ids & expert.UNKNOWN == set()) is not strict_unknown
    assert (ids <= expert.WARN) is rule.strict_warn and bool(ids & expert.WARN) is rule.strict_warn
    assert bool(ids & expert.POWER) is (rule.power is not Power.NONE)
    assert bool(ids & expert.RECOMMENDS) is (rule.power is Power.RATING)
    assert (rule in expert.GPU_ONLY) is rule.gpu_only
    assert bool(ids & relaxed.NEEDS_UNKNOWN) is rule.loosest_card
    strict = expert.Strict(expert.WARN, expert.UNKNOWN)
    assert (rule in strict.rules) is (strict_unknown or rule.strict_warn)


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_the_policy_is_coherent(rule: Rule) -> None:
    if rule.strict_unknown or rule.strict_warn:  # the strict verdicts are cached by these facts
        assert rule.strict_facts, f"{rule.id} is strict but declares no facts it reads"
    if rule.strict_reads is not None:  # strict_reads stands in for reads, for rules that write no error
        assert not rule.reads, f"{rule.id}: strict_reads beside reads"
    if rule.passes:  # a rule that can pass writes errors, and the filter runs it
        assert rule.reads, f"{rule.id} can pass but reads nothing"
    if callable(rule.strict_unknown):  # strict where a predicate on the build holds (gpu-slot-spacing: thick cards)
        assert rule.strict_facts, f"{rule.id}: its predicate's verdicts would be cached under no facts"
        assert not rule.loosest_card, f"{rule.id}: the relaxed bound needs a rule whose 'not checked' always fails"
    if rule.loosest_card:  # the relaxed bound is sound only while the rule's "not checked" fails an option
        assert engine.K.GPU in rule.reads, f"{rule.id} bounds the loosest card but reads no GPU fact"
        assert rule.strict_unknown
    if rule.gpu_only:
        assert set(rule.strict_facts) == {engine.K.GPU}
    if rule.power is not Power.NONE:
        assert rule.reads is engine.POWER_FACTS


def test_exactly_one_rule_sets_the_recommended_psu_size() -> None:
    assert [r.id for r in RULES if r.power is Power.RATING] == ["psu-wattage"]


def test_no_rule_id_is_written_in_the_suggester() -> None:
    """The suggester reads the policy from RULES; a rule id in its code would be a second copy of it. Docstrings
    may name rules in prose; no string the code computes with may (an f-string's parts included)."""
    found = []
    for path in sorted(Path(rigplan.suggest.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
                found += [f"{path.name}:{node.lineno}: {rid}" for rid in IDS if rid in node.value]
    assert not found
