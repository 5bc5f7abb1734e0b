"""The one sanitiser for text that leaves RigPlan for a terminal or a shared file: control characters and the
characters that reorder a line are shown as visible escapes, never passed on raw. No Qt; every front end uses it.

Why: a build, part or Other-item name is data from a file anyone may send. Raw, ESC starts a terminal command
(`ESC ]0;...BEL` sets the window title, `ESC ]52;c;...` writes the clipboard, `ESC [2J` clears the screen; ECMA-48
section 5 and xterm's "Control Sequences"), and C1 characters (U+0080-U+009F) are the same commands in one byte
(CSI is U+009B). The bidirectional embedding, override and isolate characters (U+202A-U+202E, U+2066-U+2069: the
"Trojan Source" set, Boucher and Anderson 2021, CVE-2021-42574) make a name read backwards in a terminal, an editor
or a Markdown viewer.

What is escaped (decided for issue 35):
- every C0 control (U+0000-U+001F) except line feed and tab, which RigPlan's own output is made of; DEL (U+007F);
  every C1 control (U+0080-U+009F). Carriage return is escaped too: alone it rewrites the start of the line.
- the bidi embeddings, overrides and isolates above, and also the invisible marks LRM, RLM and ALM (U+200E, U+200F,
  U+061C): they only steer how neutral characters are ordered, which a name never needs in a terminal or a table
  (a right-to-left name in Hebrew or Arabic letters still reads correctly without them), and kept raw they make
  two different names look the same.
- the line and paragraph separators U+2028 and U+2029, which some viewers treat as line breaks.
Everything else, accents, CJK, emoji (with their zero-width joiners), is printed as it is.

How: `\\xNN` for a character up to U+00FF, `\\uNNNN` above (Python's own notation, what `repr` shows). JSON output
uses `json_escaped`, which writes the same characters as JSON's `\\uNNNN` escapes inside the strings, so the JSON
stays exact and reads back to the very same name.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_SEPARATORS = "\u2028\u2029"
UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}{_SEPARATORS}]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every control, bidi and separator character above as a visible escape (`\\x1b`, `\\u202e`)."""
    return UNSAFE.sub(_visible, text)


def json_escaped(json_text: str) -> str:
    """JSON text (from json.dumps, which already escapes C0 controls) with the C1, bidi and separator characters it
    leaves raw written as `\\uNNNN` escapes. They can only occur inside strings, so the JSON means the same."""
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", json_text)


class PrintableStream:
    """A text stream that passes everything written through `printable`: the one point where the CLI's text
    reaches the terminal (run_cli wraps sys.stdout and sys.stderr in it). Everything else is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
