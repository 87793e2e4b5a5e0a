"""Aggregate values of the IR for `verify tv`: literal structs (`{ i32,
i32 }`, `{ i64, i1 }`) built by `insertvalue` and read by `extractvalue`,
and returned by a function (each member from a register of its own:
verify/tv/types.py `TType.slots`)  [S:ir-aggregate].

A struct value is a `Lanes` whose `parts` are its members, each with its
own poison (LangRef: an aggregate is not poison as a whole; each member
is poison or not).  `insertvalue` replaces one member, leaving the others
(and their poison) as they were.
"""

from __future__ import annotations

import re
from typing import Any

from .. import smt
from .llir import Inst
from .types import Lanes, rtype


def _index(run: Any, ins: Inst) -> int:
    """The index of an insertvalue/extractvalue: its last number (a flat
    struct, as `struct_type` admits, takes exactly one)."""
    m = re.search(r",\s*(\d+)\s*$", ins.text)
    if m is None:
        raise run._unsupported(f"{ins.opcode} '{ins.text}'")
    return int(m.group(1))


def insertvalue(run: Any, ins: Inst) -> Lanes:
    """`insertvalue {T0, ..} %agg, Tk %v, k`: %agg with member k replaced by %v."""
    st = rtype(ins.type)
    if st is None or st.members is None or len(ins.operands) != 2:
        raise run._unsupported(f"insertvalue of type {ins.type}")
    k = _index(run, ins)
    if k >= len(st.members):
        raise run._unsupported(f"insertvalue index {k} of {ins.type}")
    agg = run.operand(ins.operands[0])
    val = run.operand(ins.operands[1])
    assert agg.parts is not None and len(agg.parts) == len(st.members)
    parts = list(agg.parts)
    parts[k] = val
    return Lanes(parts[0].vals, parts[0].poison, 0, False, None, parts, st.text)


def pieces_meet(B: Any, exec_bits: list[Any], got: list[list[Any]], want: list[list[Any]]) -> list[bool]:
    """For each lane i, whether every piece of a wide result (a struct's
    members, each in its registers) has the same lane normal form on the
    GPU (`got`) and in the IR (`want`) where exec[i] holds: equal for every
    input, so lane i needs no question.  One `smt.LaneNormal` for every
    lane and piece (a sorting network's lanes share their stages), made
    `local` (a chain of lane reads normalised afresh at each read's EXEC
    bit) and bit-wise (a lane's bit of a ballot read without the rest of
    the mask); within its node limit, or no lane meets.
    [S:lane-normal-lane-local] [S:lane-normal-bits]"""
    W = len(exec_bits)
    norm = smt.LaneNormal(B.session, exec_bits, lane_local=True)
    out = []
    for i in range(W):
        ok = True
        for g, w in zip(got, want):
            n = norm.normal(g[i], i)
            if n is None:
                return [False] * W
            if n != norm.normal(w[i], i):
                ok = False
                break
        out.append(ok)
    return out
