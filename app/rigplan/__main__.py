"""`python -m rigplan` and the `rigplan` entry point."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    # With a subcommand (or a flag) RigPlan is a headless CLI; bare or with a file it opens the GUI.
    from rigplan.cli.main import is_cli_invocation

    if is_cli_invocation(args):
        from rigplan.cli.main import run_cli

        return run_cli(args)
    from rigplan.gui.app import run_gui

    return run_gui(args)


if __name__ == "__main__":
    sys.exit(main())
