"""What a check reports: findings with severity, rule id, both numbers and a fix, and what could not be checked."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from rigplan.model.parts import Kind
from rigplan.rules.power import PowerEstimate
from rigplan.wording import checks_summary


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}


@dataclass(frozen=True)
class Finding:
    severity: Severity
    rule: str
    message: str
    hint: str = ""
    parts: tuple[str, ...] = ()  # part ids involved
    kinds: tuple[Kind, ...] = ()  # the build slots it concerns (the GUI selects the first)

    def to_json(self) -> dict[str, object]:
        return {
            "severity": self.severity.value,
            "rule": self.rule,
            "message": self.message,
            "parts": list(self.parts),
            "hint": self.hint,
        }


@dataclass(frozen=True)
class NotChecked:
    rule: str
    reason: str
    kinds: tuple[Kind, ...] = ()

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "reason": self.reason}


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    not_checked: list[NotChecked] = field(default_factory=list)
    power: PowerEstimate | None = None

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def counts(self) -> dict[Severity, int]:
        out = dict.fromkeys(Severity, 0)
        for f in self.findings:
            out[f.severity] += 1
        return out

    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]

    def rules(self, severity: Severity | None = None) -> set[str]:
        return {f.rule for f in self.findings if severity is None or f.severity is severity}

    def summary(self) -> str:
        """ "1 error, 2 warnings; 3 not checked" (rigplan.wording: the window, the CLI and the exports say it so)."""
        c = self.counts()
        return checks_summary(c[Severity.ERROR], c[Severity.WARNING], c[Severity.NOTE], len(self.not_checked))

    def sort(self) -> None:
        self.findings.sort(key=lambda f: (SEVERITY_ORDER[f.severity], f.rule))
