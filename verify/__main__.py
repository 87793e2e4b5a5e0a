"""python -m verify: the same as the verify command."""

import os
import sys

from .cli import main


def _exit(code: int) -> None:
    """End the process with `code` once the output is flushed, without the
    interpreter's teardown: freeing every solver term of the run one at a
    time (each z3 object releases its AST in __del__) and each proof's z3
    context costs up to a tenth of a small `verify tv` run's CPU, for nothing
    (issue 35).  The ordinary exit where the flush fails (a closed pipe), or
    where something waits for the interpreter's exit (a coverage tool writing
    its data, a tracer, a profiler printing its table)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        sys.exit(code)
    if "coverage" in sys.modules or sys.gettrace() is not None or sys.getprofile() is not None:
        sys.exit(code)
    os._exit(code)


if __name__ == "__main__":
    _exit(main())
