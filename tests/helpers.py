"""Small helpers shared by the tests."""

from __future__ import annotations

import io
import json

from verify.backend import Concrete
from verify.cli import main
from verify.diag import Span
from verify.lowering_file import parse_instr
from verify.machine import Machine
from verify.target import FeatureLog, get


def simulate(lines: list[str], target: str, wave: int, exec_mask: int, regs: dict, assume=None) -> Machine:
    """Run assembly lines concretely.  regs: 'v0' -> list of lane values or a
    scalar for every lane; 's0' -> value.  Unlisted registers read 0."""

    def initial(kind, name, lane):
        if kind == "scc":
            return False
        v = regs.get(name, 0)
        return (v[lane] if isinstance(v, list) else v) & 0xFFFFFFFF

    # instruction semantics without timing: hazards are tests/test_hazards.py's
    m = Machine(Concrete(), wave, initial, FeatureLog(get(target)), assume or {}, hazards=False)
    m.set_exec_mask(exec_mask)
    m.run([parse_instr(t, Span("t", k + 1)) for k, t in enumerate(lines)])
    m.land_all()  # the results as the instructions compute them (waits: tests/test_waits.py)
    return m


def signed(vals: list[int]) -> list[int]:
    return [v - (1 << 32) if v >= 1 << 31 else v for v in vals]


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def cli_json(*argv: str):
    code, out, err = cli(*argv, "--json")
    return code, json.loads(out) if out.strip() else None, err
