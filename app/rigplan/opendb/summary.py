"""The catalog update's change summary in words: the CLI prints it, the GUI's dialog shows it."""

from __future__ import annotations

from typing import Any

from rigplan.catalog.overlay import shown

SHOW = 8  # parts named per list in the plain summary (the JSON carries them all)


def _names(items: list[Any], more: int) -> str:
    text = ", ".join(n for _, n in items[:SHOW])
    return text + (f" and {more:,} more" if more > 0 else "")


def summary_lines(s: Any) -> list[str]:
    """The change summary shown before switching (the GUI shows the same lines)."""
    lines = []
    for kind, n_after in s.after.items():
        new, gone = s.new.get(kind, []), s.gone.get(kind, [])
        line = f"  {kind:12} {s.before[kind]:6,} -> {n_after:6,} parts"
        if new:
            line += f"; new: {_names(new, len(new) - SHOW)}"
        if gone:
            line += f"; gone: {_names(gone, len(gone) - SHOW)}"
        lines.append(line)
    if s.rule_fields:
        # By field, the rarest first: a field changed on one part is a finding; one changed on a thousand is OpenDB
        # re-stating a whole kind (a schema change), said in one line.
        by: dict[tuple[str, str], list[tuple[dict[str, Any], Any, Any]]] = {}
        for r in s.rule_fields:
            for f, (a, b) in r["fields"].items():
                by.setdefault((r["kind"], f), []).append((r, a, b))
        lines.append(f"Values the checks read changed on {len(s.rule_fields):,} parts:")
        for (kind, f), items in sorted(by.items(), key=lambda kv: (len(kv[1]), kv[0])):
            r, a, b = items[0]
            n = f"{len(items):,} {kind} parts, e.g." if len(items) > 1 else f"1 {kind},"
            was, now = shown(a)[:60], shown(b)[:60]
            lines.append(f"  {f} on {n} {r['name'][:50]}: {was} -> {now} [{', '.join(r['rules'][:3])}]")
    else:
        lines.append("No value the checks read changed.")
    for c in s.stale_yours:
        now = "the part is gone" if c["gone"] else f"now {shown(c['now'])}"
        lines.append(f"Your correction of {c['field']} on {c['name'] or c['id']}: was {shown(c['was'])}, {now} (kept)")
    if s.stale_ours:
        lines.append(f"RigPlan's own corrections whose source value changed (not applied): {len(s.stale_ours)}")
    skipped = sum(s.skipped.values())
    if skipped or s.rejected:
        lines.append(f"Records left out: {skipped:,} not readable JSON, {len(s.rejected):,} refused by the model")
    lines += [f"STOP: {t}" for t in s.too_many_gone]
    return lines
