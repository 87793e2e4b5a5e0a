"""GFX8's spellings of the carry ops: ``v_add_u32 vD, vcc, s0, s1`` (a
carry-out, GFX9's v_add_co_u32), ``v_sub_u32``/``v_subrev_u32`` with a
borrow-out, ``v_addc_u32``, ``v_subb_u32``, ``v_subbrev_u32`` with a carry-
or borrow-in.  GFX9 renamed them (``_co_``) and gave ``v_add_u32 vD, s0,
s1`` (three operands, no carry) the old name: the two are told apart by
their operand count.  SI/CI spell the first three ``v_add_i32``,
``v_sub_i32``, ``v_subrev_i32``.  The semantics are the GFX9 ops' (verify/ops/addr.py
AddCarry, verify/ops/valu.py SubCarry).  [S:carry-gfx8] [S:addr] [S:sub-carry]
"""

from __future__ import annotations

from typing import Any

from ..ir import Instr
from ..syntax import Line
from .addr import AddCarry
from .base import MNEMONICS, OPS, OpDef, register
from .valu import SubCarry

ENCS = ("", "_e32", "_e64", "_dpp")


class Named(OpDef):
    """A carry op whose GFX8 mnemonic is also a three-operand op's: its
    mnemonics are the plain op's, its registry key ``<name>@gfx8``."""

    def __init__(self, op: Any, name: str) -> None:
        self.__dict__.update(op.__dict__)
        self.__class__ = type(f"Gfx8{type(op).__name__}", (type(op),), {"mnemonics": Named.mnemonics})
        self.name8 = name

    def mnemonics(self) -> dict[str, str]:
        return {self.name8 + suf: enc for suf, enc in self.encs.items()}


class Spelled(OpDef):
    """Parses a mnemonic two ops share, by operand count (4: the carry op)."""

    def __init__(self, plain: OpDef, carry: OpDef) -> None:
        self.plain, self.carry = plain, carry
        self.base = plain.base

    def parse(self, line: Line, enc: str) -> Instr:
        return (self.carry if len(line.operands) == 4 else self.plain).parse(line, enc)


for _name, _op in (
    ("v_add_u32", AddCarry("v_add_u32@gfx8", False, "carry_gfx8", "carry_gfx8", ENCS)),
    ("v_sub_u32", SubCarry("v_sub_u32@gfx8", False, False, "carry_gfx8", ENCS)),
    ("v_subrev_u32", SubCarry("v_subrev_u32@gfx8", True, False, "carry_gfx8", ENCS)),
):
    _op.feature = "carry_gfx8"
    _named = Named(_op, _name)
    OPS[_op.base] = _named
    _plain = OPS[_name]
    for _mn, _enc in _named.mnemonics().items():
        MNEMONICS[_mn] = (Spelled(_plain, _named), _enc)

for _op in (
    AddCarry("v_addc_u32", True, "carry_vop2", "carry_vop2", ENCS),
    SubCarry("v_subb_u32", False, True, "carry_vop2", ENCS),
    SubCarry("v_subbrev_u32", True, True, "carry_vop2", ENCS),
):
    _op.feature = "carry_vop2"
    register(_op)

# SI/CI spell the carry-out add and subtracts v_add_i32 / v_sub_i32 /
# v_subrev_i32 (the same VOP2/VOP3b ops GFX8 calls v_add_u32 ...); their
# carry-in forms keep GFX8's names  [S:sici]
ENCS6 = ("", "_e32", "_e64")
for _op in (
    AddCarry("v_add_i32", False, "carry_gfx6", "carry_gfx6", ENCS6),
    SubCarry("v_sub_i32", False, False, "carry_gfx6", ENCS6),
    SubCarry("v_subrev_i32", True, False, "carry_gfx6", ENCS6),
):
    _op.feature = "carry_gfx6"
    register(_op)
