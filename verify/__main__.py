"""python -m verify: the same as the verify command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
