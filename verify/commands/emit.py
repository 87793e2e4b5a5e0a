"""`verify emit`: GPU code from a lowering with a current proof."""

from __future__ import annotations

import argparse
from typing import TextIO

from .. import emit
from .. import target as T
from ..diag import InputError
from . import EXIT_PROVED, EXIT_REFUTED
from .common import writable, write
from .loading import load_checked


def cmd_emit(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    writable(args.output, "-o")
    low = load_checked(args.name)
    ts = T.resolve(args.target)
    if len(ts) != 1:
        raise InputError(None, f"--target {args.target} names {len(ts)} targets; emit needs one (e.g. --target {ts[0].name})")
    done = emit.emit_checked(low, ts[0], args.wave, args.format, args.timeout)
    if isinstance(done, emit.Refusal):
        print(f"error: {done}", file=err)
        return EXIT_REFUTED
    if done.note:
        print(f"note: {done.note}", file=err)
    if args.output:
        write(args.output, done.text)
    else:
        out.write(done.text)
    return EXIT_PROVED

