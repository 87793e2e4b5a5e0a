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
