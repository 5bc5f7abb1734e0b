"""Make Qt's SVG read the same in every viewer.

pyqtgraph draws curves with cosmetic pens (a width in screen pixels whatever the zoom). QSvgGenerator writes such a
curve in data coordinates inside a group whose transform scales them to the plot (for a cost axis, a y scale of
about 0.006), and marks the path `vector-effect="non-scaling-stroke"`. SVG Tiny 1.2 viewers that ignore that
attribute (Qt's own QSvgRenderer, older librsvg, some editors) scale the stroke too: the 3 px "Own this build" line
became a hairline (issue 29). Here those paths are moved into the plot's coordinates (the transform applied to the
points, the group left untransformed), so the stroke width is the written one in every viewer.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "http://www.w3.org/2000/svg"
NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
TOKEN = re.compile(r"[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
PAIRED = set("MLCQSTZ")  # absolute commands whose arguments are all x,y pairs (Qt writes M, L and C)
IDENTITY = "matrix(1,0,0,1,0,0)"


def _matrix(text: str | None) -> tuple[float, ...] | None:
    if not text or not text.startswith("matrix("):
        return None
    values = tuple(float(v) for v in NUMBER.findall(text))
    return values if len(values) == 6 else None


def _moved(text: str, m: tuple[float, ...]) -> str | None:
    """The coordinates of a path's `d` or a polyline's `points`, transformed; None when it holds a command whose
    arguments are not absolute x,y pairs (relative, H, V, arcs): those are left to the viewer."""
    tokens = TOKEN.findall(text)
    if any(t.isalpha() and t not in PAIRED for t in tokens):
        return None
    numbers = [t for t in tokens if not t.isalpha()]
    if len(numbers) % 2:
        return None
    a, b, c, d, e, f = m
    out, pending = [], []
    for t in tokens:
        if t.isalpha():
            out.append(t)
            continue
        pending.append(float(t))
        if len(pending) == 2:
            x, y = pending
            out.append(f"{a * x + c * y + e:.3f},{b * x + d * y + f:.3f}")
            pending = []
    return " ".join(out)


def fix_strokes(path: Path) -> int:
    """Rewrite the file; returns how many curves were moved into the plot's coordinates."""
    ET.register_namespace("", SVG)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    tree = ET.parse(path)
    moved = 0
    for g in tree.getroot().iter(f"{{{SVG}}}g"):
        m = _matrix(g.get("transform"))
        kids = list(g)
        if m is None or g.get("transform") == IDENTITY or not kids:
            continue
        if not all(k.get("vector-effect") == "non-scaling-stroke" for k in kids):
            continue
        new = []
        for k in kids:
            attr = "d" if k.tag == f"{{{SVG}}}path" else "points" if k.tag == f"{{{SVG}}}polyline" else None
            text = k.get(attr) if attr else None
            fixed = _moved(text, m) if text else None
            if fixed is None:
                break
            new.append((k, attr, fixed))
        else:
            for k, attr, fixed in new:
                k.set(attr, fixed)  # type: ignore[arg-type]
            g.set("transform", IDENTITY)
            moved += len(new)
    tree.write(path, encoding="UTF-8", xml_declaration=True)
    return moved
