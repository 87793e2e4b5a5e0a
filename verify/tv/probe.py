"""Concrete probes for `verify tv` (issue #37): before a wide result's
questions (a struct's members, several registers) go to the solver lane by
lane, the joint question (some running lane differs) is asked with every
input fixed to one deterministic value: lane 0 alone running, lanes 0-1,
lanes 0-3, then every lane, each input register a value drawn from its
name.  With the inputs fixed, the solver's simplifier folds the
question to a constant, however large the code (a 64-lane sorting network
whose terms no lane question settles in tv's budget); a sat answer is a
model of the question as asked, so a counterexample, shown and replayed as
any other.  An unsat answer means nothing and is dropped: the questions
are asked as before.

Not used where the IR has non-deterministic values (a model is a
counterexample only for every choice of the source's: verify/tv/nondet.py)."""

from __future__ import annotations

import zlib
from typing import Any

from .. import smt

# each probe's resource limit: with every input fixed the answer is
# propagation alone (a 64-lane bitonic network: about 1/10 of it)
PROBE_RLIMIT = 20_000_000


def _value(seed: int, name: str) -> int:
    """A 32-bit value for the input called `name`: distinct inputs, distinct
    values (as far as a CRC goes), the same under any run."""
    return zlib.crc32(f"{seed}:{name}".encode()) & 0xFFFFFFFF


def refute(q: smt.Query, B: Any, exec_bits: list[Any], inputs: list[Any], flags: list[Any]) -> bool:
    """Ask q's question (its last assertion the joint one) with EXEC and
    every 32-bit input in `inputs` (each a fresh constant) fixed, and each
    Boolean input in `flags` false: lane 0 alone running, then every lane.
    True: q holds a model (the fixing equalities popped again: the
    narrowing to fewer lanes that follows asks without them, on its own
    resource limit, the probe's model kept where it finds none); False: q
    holds no model."""
    W = len(exec_bits)
    for seed, active in ((1, 1), (2, 2), (3, 4), (4, W)):
        q.push()
        for i, e in enumerate(exec_bits):
            q.add(e if i < active else B.not_b(e))
        for x in inputs:
            q.add(B.eq(x, B.const(_value(seed, str(x)))))
        for f in flags:
            q.add(B.not_b(f))
        found = q.check(rlimit=PROBE_RLIMIT, plain=True) == "sat"
        q.pop()
        if found:
            return True
    return False
