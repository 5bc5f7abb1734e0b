"""Write the "Five answers from the panel" section of docs/suggest.md from the real CLI on the bundled catalog, so the
documented answers are the current ones (re-run after a catalog or rule change).

    python tools/suggest_answers.py            # rewrites the section in place
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))
from rigplan.wording import money  # noqa: E402 - the app's one money format

DOC = ROOT / "docs" / "suggest.md"
QUESTIONS = [
    ["--budget", "1500"],
    ["--budget", "5000", "--gpus", "2", "--min-vram", "24"],
    ["--budget", "15000", "--gpus", "4"],
    ["--budget", "8000", "--beat", "lambda:gpu_1x_a100:us-east-1"],
    ["--budget", "12000", "--fit-model", "llama-3.1-70b", "--fit-task", "qlora"],
]
KINDS = {"cpu": "CPU", "cooler": "CPU cooler", "motherboard": "Motherboard", "memory": "Memory", "storage": "Storage",
         "gpu": "GPU", "psu": "Power supply", "case": "Case"}  # fmt: skip


def answer(args: list[str]) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "rigplan", "suggest", *args, "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    d = json.loads(out.stdout)
    items = d["build"]["items"]
    gpus = sum(i["quantity"] for i in items if i["part"]["kind"] == "gpu")
    head = (
        f"**`{' '.join(args)}`**: {money(d['currency'], d['total'], 0)}, {gpus}x GPU, {d['throughput']:.2f} "
        f"{d['throughput_unit']}, {d['vram_gb']:g} GB GPU memory"
    )
    if d.get("beat"):
        days = d["beat"]["breakeven_days"]
        head += f"; breaks even against {d['beat']['offer']} after {days:.0f} days ({days / 30.44:.1f} months)"
    rows = ["| Qty | Kind | Part | Price |", "|---|---|---|---|"]
    for i in items:
        p = i["part"]
        price = p.get("price") or {}
        each = money(price.get("currency", "USD"), price.get("amount"))
        rows.append(f"| {i['quantity']} | {KINDS.get(p['kind'], p['kind'])} | {p['name']} | {each} |")
    tail = f"Checks: {d['check']}. Held to: {'; '.join(d['minimums'])}."
    if d.get("spending"):
        tail += f" Spending: {'; '.join(d['spending'])}."
    if d.get("list_priced"):
        tail += " List prices: " + "; ".join(f"{x['part']} ({x['source']})" for x in d["list_priced"]) + "."
    if d.get("older_platform"):
        tail += f" Older platform: {d['older_platform']['text']}."
    if d.get("fits_workload"):
        fw = d["fits_workload"]
        tail += f" Workload: {fw if isinstance(fw, str) else fw.get('text', json.dumps(fw))}"
    return "\n".join([head, "", *rows, "", tail])


def main() -> int:
    text = DOC.read_text("utf-8")
    start = text.index("\n**`--budget 1500`**")
    end = text.index("\nNote what they show")
    body = "\n\n".join(answer(q) for q in QUESTIONS)
    DOC.write_text(text[:start] + "\n" + body + "\n" + text[end:], "utf-8")
    print(f"wrote {len(QUESTIONS)} answers into {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
