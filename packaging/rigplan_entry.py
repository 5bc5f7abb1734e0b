"""Entry script for the frozen app (PyInstaller): the same main() as the `rigplan` command."""

import sys

from rigplan.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
