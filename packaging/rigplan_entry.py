"""Entry script for the frozen app (PyInstaller): the same main() as the `rigplan` command."""

import os
import sys

# With LANG, LC_ALL and LC_CTYPE unset (a bare system, a cron job, some desktop launchers) Qt prints a 4-line warning
# that it switched the "C" locale to "C.UTF-8". The frozen app has no PEP 538 locale coercion, so set it first.
if sys.platform.startswith("linux") and not any(os.environ.get(v) for v in ("LC_ALL", "LC_CTYPE", "LANG")):
    os.environ["LC_CTYPE"] = "C.UTF-8"

from rigplan.__main__ import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
