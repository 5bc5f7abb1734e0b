"""The headless CLI. Each subcommand lives in its own module with `register(subparsers)`.

Exit codes: 0 fine, 1 the build has errors (check), 2 bad input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from rigplan import __version__

# Modules under rigplan.cli that add subcommands; each defines register(subparsers).
COMMAND_MODULES = (
    "parts", "schema", "check", "cost", "instances", "export", "compare", "suggest", "prices", "import_cmd",
    "workload", "catalog",
)  # fmt: skip


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse would print usage and exit 2; keep it to one line
        raise UsageError(message)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand, or with only `command`'s when it is one: each module imports what its
    command needs (the rules, the search, pydantic models), and importing all twelve cost every CLI run about 0.3 s
    of CPU before it read its first argument."""
    parser = _Parser(prog="rigplan", description="Plan a deep-learning workstation (GUI without arguments).")
    parser.add_argument("--version", action="version", version=f"RigPlan {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    module = "import_cmd" if command == "import" else command
    for name in (module,) if module in COMMAND_MODULES else COMMAND_MODULES:
        importlib.import_module(f"rigplan.cli.{name}").register(sub)
    return parser


def command_names() -> set[str]:
    # "import" is a Python keyword, so its module is import_cmd (issue 19).
    return {"parts", "schema", "check", "cost", "instances", "help", "import"} | set(COMMAND_MODULES)


def is_cli_invocation(args: Sequence[str]) -> bool:
    """A subcommand or a flag means CLI; nothing, or an existing file, means GUI. Anything else (a typo such as
    `rigplan chek`) is the CLI too, so it ends in a usage error instead of a GUI that hangs a headless shell."""
    if not args:
        return False
    first = args[0]
    return first.startswith("-") or first in command_names() or not os.path.lexists(first)


def _unknown_word(word: str) -> str:
    commands = sorted({c.replace("import_cmd", "import") for c in COMMAND_MODULES})
    close = difflib.get_close_matches(word, commands, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return f"'{word}' is neither a command nor an existing file; {hint}commands: {', '.join(commands)}"


def _safe_streams() -> None:
    """Never stop on a character the console cannot show: Windows writes redirected output in cp1252, where part
    names such as "Vulcan \u03b1" have no code. Such characters degrade to "?" instead of a UnicodeEncodeError;
    UTF-8 streams (Linux, macOS, `python -X utf8`, PYTHONIOENCODING=utf-8) are untouched."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and encoding not in ("utf8", "utf_8"):
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):  # a detached or closed stream: nothing to protect
                pass


def run_cli(args: Sequence[str]) -> int:
    _safe_streams()
    from rigplan.printable import PrintableStream

    # The one point where the CLI's text reaches the terminal: names from files can hold ESC, C1 and bidi
    # characters, written as visible escapes (rigplan.printable); JSON is already escaped, so it passes unchanged.
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = PrintableStream(sys.stdout), PrintableStream(sys.stderr)  # type: ignore[assignment]
    try:
        return _run(args)
    finally:
        sys.stdout, sys.stderr = streams


def _run(args: Sequence[str]) -> int:
    from pydantic import ValidationError

    from rigplan.catalog.search import QueryError
    from rigplan.files.errors import BuildFileError
    from rigplan.model.errors import one_line_validation

    try:
        if args and not args[0].startswith("-") and args[0] not in command_names():
            raise UsageError(_unknown_word(args[0]))
        parser = build_parser(args[0] if args else None)
        ns = parser.parse_args(list(args))
        if ns.command is None or not hasattr(ns, "func"):
            parser.print_help()
            return 2
        return int(ns.func(ns) or 0)
    except (UsageError, QueryError, BuildFileError) as exc:
        print(f"rigplan: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except ValidationError as exc:  # a value beyond the model's bounds: the field and its limit, one line
        print(f"rigplan: {one_line_validation(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback for a user: one line here, the trace in the log
        where = _log_exception(exc)
        print(f"rigplan: internal error: {type(exc).__name__}: {_one_line(str(exc))}{where}", file=sys.stderr)
        return 2


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _log_exception(exc: BaseException) -> str:
    import logging

    try:
        from rigplan.logs import setup_logging
        from rigplan.paths import default_data_dir

        path = setup_logging(default_data_dir() / "logs")
        logging.getLogger("rigplan.cli").exception("internal error", exc_info=exc)
        return f" (details in {path})"
    except OSError:
        return ""
