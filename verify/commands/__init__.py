"""The subcommands' bodies, one module each, loaded by verify.cli only for
the command run (`verify --help` loads none of them; `verify list` no solver).

Each module defines ``run(args, out, err) -> int``; :mod:`.common` holds what
several share (output, progress, argument checks).  The exit codes are
here, so that verify.cli reads them without loading any command.
"""

EXIT_PROVED, EXIT_REFUTED, EXIT_ERROR, EXIT_UNKNOWN, EXIT_UNSUPPORTED = 0, 1, 2, 3, 4
# not a verdict: an exception verify did not expect (a bug in verify), so that
# no internal error exits with 1 and reads as a refutation
EXIT_INTERNAL = 5
EXIT = {"proved": EXIT_PROVED, "refuted": EXIT_REFUTED, "error": EXIT_ERROR, "unknown": EXIT_UNKNOWN,
        "unsupported": EXIT_UNSUPPORTED}

# the exit codes of every command, written once: `verify --help` and each
# command's --help print it, docs/ci.md ("Exit codes") quotes it (tests/test_exit_codes.py)
EXIT_HELP = """exit codes (every command):
  0  proved (synth: a lowering found and proved; check: every record current and proved)
  1  refuted (a counterexample; tv: also a compiler error; synth: none within the bounds;
     check/prove: a record refuted, stale or missing)
  2  input error (one line: path:line:col: error: ...)
  3  unknown (the solver gave up within its resource limit)
  4  unsupported (tv: an instance verify does not model; asm: a region it refuses)
  5  internal error (a bug in verify, never a verdict: its traceback is on stderr)
  several results: the first of 1, 2, 3, 4 that any result gives, else 0"""


def worst(codes: "list[int]") -> int:
    """The exit code of several results (EXIT_HELP's last line)."""
    return next((c for c in (EXIT_REFUTED, EXIT_ERROR, EXIT_UNKNOWN, EXIT_UNSUPPORTED) if c in codes), EXIT_PROVED)
