"""`verify list`, `verify targets` and `verify specs`: the tables."""

from __future__ import annotations

import argparse
from typing import TextIO

from .. import catalog
from .. import target as T
from ..target import TARGETS, markdown
from .common import dump, print_lines


def cmd_list(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rows = catalog.listing()
    if args.json:
        return dump(rows, out)
    print_lines(catalog.listing_lines(rows), out)
    return 0


def cmd_targets(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.markdown:
        out.write(markdown())
        return 0
    if args.json:
        return dump([t.to_json() for t in TARGETS.values()], out)
    print_lines(T.table_lines(), out)
    return 0


def cmd_specs(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rows = catalog.spec_rows()
    if args.json:
        return dump(rows, out)
    print_lines(catalog.spec_lines(rows), out)
    return 0

