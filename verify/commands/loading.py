"""Lowerings by name, path or standard input, and spec parameters from the
command line (verify lowering, show, emit, synth)."""

from __future__ import annotations

from typing import Any

from .. import catalog
from ..diag import STDIN, InputError, Span, read_source
from ..ir import Lowering
from ..lowering_file import load_lowering
from ..syntax import parse_param_value


def load(name: str) -> Lowering:
    """A lowering by catalogue name or path; `-` reads it from standard input."""
    return load_lowering(STDIN, read_source("-")) if name == "-" else catalog.load(name)


def load_checked(name: str) -> Lowering:
    """A lowering whose spec exists and takes its parameters (a command that
    does not run the spec still refuses a file naming a wrong one)."""
    low = load(name)
    lib = catalog.speclib()
    lib.bind(lib.get(low.spec, low.spans.get("spec")), low.params, low.param_spans, low.spans.get("spec"))
    return low



def parse_params(items: list[str]) -> dict[str, Any]:
    """PARAM=VALUE arguments."""
    params: dict[str, Any] = {}
    for it in items:
        if "=" not in it:
            raise InputError(None, f"expected PARAM=VALUE, got '{it}'")
        k, v = it.split("=", 1)
        if k in params:
            raise InputError(None, f"parameter '{k}' is given twice")
        params[k] = parse_param_value(v, Span("<command line>", 1, len(k) + 2))
    return params


