"""The subcommands' bodies, one module each, loaded by verify.cli only for
the command run (`verify --help` loads none of them; `verify list` no solver).

Each module defines ``run(args, out, err) -> int``; :mod:`.common` holds what
several share (output, progress, argument checks).  The exit codes are
here, so that verify.cli reads them without loading any command.
"""

EXIT_PROVED, EXIT_REFUTED, EXIT_ERROR, EXIT_UNKNOWN = 0, 1, 2, 3
EXIT = {"proved": EXIT_PROVED, "refuted": EXIT_REFUTED, "error": EXIT_ERROR, "unknown": EXIT_UNKNOWN}
