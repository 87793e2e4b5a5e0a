"""The subcommands' bodies, one module each, loaded by verify.cli only for
the command run (`verify --help` loads none of them; `verify list` no solver).

Each module defines ``run(args, out, err) -> int``; :mod:`.common` holds what
several share (exit codes, output, progress, argument checks).
"""
