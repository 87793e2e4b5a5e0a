"""python -m verify: the same as the verify command."""

import os
import sys

from .cli import main


def _exit(code: int) -> None:
    """End the process with `code` once the output is flushed, without the
    interpreter's teardown: freeing every solver term of the run one at a
    time (each z3 object releases its AST in __del__) and each proof's z3
    context costs up to a tenth of a small `verify tv` run's CPU, for nothing
    (issue 35).  Where the flush fails (a closed pipe), or a coverage tool
    waits for the interpreter's exit to write its data, the ordinary exit."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        sys.exit(code)
    if "coverage" in sys.modules or sys.gettrace() is not None:
        sys.exit(code)
    os._exit(code)


if __name__ == "__main__":
    _exit(main())
