"""`rigplan ARGS` run in the test's own process, answered like subprocess.run(..., capture_output=True, text=True).

A fresh `python -m rigplan` costs about 0.7 s of CPU before it does anything (the interpreter, pydantic, numpy, the
catalog); the same command through `run_cli`, the entry point `python -m rigplan` calls (rigplan/__main__.py), costs
what the command itself costs. Tests about the command's answer (its output, its files, its exit status) use this;
tests about the process itself (a hang guard's timeout, signals, the console's encoding, what reaches a terminal,
stdin as a pipe) keep a real subprocess.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

from rigplan.cli.main import run_cli


@contextmanager
def _environment(env: Mapping[str, str] | None, cwd: Path | None) -> Iterator[None]:
    """os.environ replaced by `env` (when given) and the working folder by `cwd`, both restored after."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        os.chdir(saved_cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(saved_env)


def rigplan_in_process(
    *args: str, env: Mapping[str, str] | None = None, cwd: Path | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    out, err = io.StringIO(), io.StringIO()
    with _environment(env, cwd), redirect_stdout(out), redirect_stderr(err):
        saved_stdin = sys.stdin
        sys.stdin = io.StringIO(stdin or "")
        try:
            code = run_cli(list(args))
        except SystemExit as exc:  # argparse's --help and --version
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            sys.stdin = saved_stdin
    return subprocess.CompletedProcess(["rigplan", *args], code, out.getvalue(), err.getvalue())
