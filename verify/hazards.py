"""Hazards the hardware does not interlock, reported as warnings naming both
instructions.  One table; each rule says which targets it applies to (a
target feature), what the producer and the consumer are, and how many wait
states must separate them.  A wait state is one instruction in between;
``s_nop N`` counts N + 1.  [S:hazards]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .diag import Warning_
from .ir import Instr, SReg
from .ops.base import op_of
from .target import Target, needs_text

EXEC = {"exec_lo", "exec_hi"}


def _op(ins: Instr):
    return op_of(ins.base)


def _defs(ins: Instr) -> set[str]:
    return set(_op(ins).defs(ins))


def _is_valu(ins: Instr) -> bool:
    return _op(ins).unit == "valu"


def _is_dpp(ins: Instr) -> bool:
    return ins.enc in ("dpp", "e64_dpp")


def _vgprs_read(ins: Instr) -> set[str]:
    return {r for r in _op(ins).uses(ins) if r.startswith("v")}


def _lane_select(ins: Instr) -> set[str]:
    if ins.base in ("v_readlane_b32", "v_writelane_b32") and isinstance(ins.operands[2], SReg):
        return set(ins.operands[2].names)
    return set()


def _scalars_read(ins: Instr) -> set[str]:
    out = set()
    for op in ins.operands[1:]:
        if isinstance(op, SReg):
            out |= set(op.names)
    return out


@dataclass(frozen=True)
class Rule:
    name: str
    feature: str
    producer: Callable[[Instr], set[str]]  # registers it writes that matter
    consumer: Callable[[Instr], set[str]]  # registers it reads that matter
    waits: int  # wait states needed; 0 means "an s_wait_alu must come between"
    what: str


RULES = [
    Rule("dpp-vgpr", "hazard_dpp",
         lambda p: {r for r in _defs(p) if r.startswith("v")},
         lambda c: _vgprs_read(c) if _is_dpp(c) else set(), 2,
         "a DPP read of a VGPR written by the previous instructions"),
    Rule("dpp-exec", "hazard_dpp",
         lambda p: (_defs(p) & EXEC) if _is_valu(p) else set(),
         lambda c: EXEC if _is_dpp(c) else set(), 5,
         "DPP after a VALU write of EXEC"),
    Rule("lane-select", "hazard_lane_select",
         lambda p: {r for r in _defs(p) if not r.startswith("v")} if _is_valu(p) else set(),
         _lane_select, 4,
         "v_readlane/v_writelane lane select written by a VALU instruction"),
    Rule("readlane-exec", "hazard_gfx94_readlane",
         lambda p: (_defs(p) & EXEC) if _is_valu(p) else set(),
         lambda c: EXEC if c.base in ("v_readlane_b32", "v_readfirstlane_b32", "v_writelane_b32") else set(), 4,
         "readlane/writelane after a VALU write of EXEC"),
    Rule("readlane-vgpr", "hazard_gfx94_readlane",
         lambda p: {r for r in _defs(p) if r.startswith("v")} if _is_valu(p) else set(),
         lambda c: {c.operands[1].text} if c.base == "v_readlane_b32" else set(), 1,
         "v_readlane of a VGPR the previous VALU instruction wrote"),
    Rule("permlane-swap", "hazard_permlane_swap",
         lambda p: {r for r in _defs(p) if r.startswith("v")} if _is_valu(p) else set(),
         lambda c: _vgprs_read(c) if c.base.endswith("_swap_b32") else set(), 2,
         "a permlane swap of a VGPR written by a VALU instruction"),
    Rule("sgpr-wait-alu", "hazard_sgpr_wait_alu",
         lambda p: {r for r in _defs(p) if not r.startswith("v") and r != "scc"} if _is_valu(p) else set(),
         lambda c: _scalars_read(c) if c.base in ("v_readlane_b32", "v_writelane_b32", "v_permlane16_b32",
                                                   "v_permlanex16_b32") else set(), 0,
         "a VALU SGPR write read by readlane/writelane/permlane"),
]


def _wait_states(ins: Instr) -> int:
    if ins.base == "s_nop":
        words = ins.text.split()
        try:
            return int(words[1], 0) + 1 if len(words) > 1 else 1
        except ValueError:
            return 1
    return 1


def _findings(program: list[Instr], k: int, rules: list[Rule]):
    """(rule, producer index, wait states already between) for each rule
    whose consumer is program[k] and whose producer is too close (or, for
    an s_wait_alu rule, not separated by one)."""
    cons = program[k]
    for rule in rules:
        reads = rule.consumer(cons)
        if not reads:
            continue
        waited = 0
        for j in range(k - 1, -1, -1):
            prod = program[j]
            if rule.producer(prod) & reads:
                if rule.waits == 0:
                    if not any(program[x].base == "s_wait_alu" for x in range(j + 1, k)):
                        yield rule, j, waited
                elif waited < rule.waits:
                    yield rule, j, waited
                break
            waited += _wait_states(prod)
            if rule.waits and waited >= rule.waits:
                break


def needed(program: list[Instr], k: int, target: Target) -> tuple[int, bool]:
    """What must be inserted before program[k]: (wait states, whether an
    s_wait_alu is needed).  Synthesis uses it to write hazard-free code."""
    rules = [r for r in RULES if target.has(r.feature)]
    waits, alu = 0, False
    for rule, _, waited in _findings(program, k, rules):
        if rule.waits == 0:
            alu = True
        else:
            waits = max(waits, rule.waits - waited)
    return waits, alu


def check(program: list[Instr], target: Target) -> list[Warning_]:
    warns: list[Warning_] = []
    rules = [r for r in RULES if target.has(r.feature)]
    for k, cons in enumerate(program):
        for rule, j, waited in _findings(program, k, rules):
            prod = program[j]
            need = rule.waits
            where = needs_text(rule.feature).removesuffix(" only")
            regs = ", ".join(sorted(rule.producer(prod) & rule.consumer(cons)))
            head = (f"hazard ({where}): line {prod.line} ({prod.mnemonic}) writes {regs} and "
                    f"{cons.mnemonic} reads it")
            if need == 0:
                warns.append(Warning_(cons.span, f"{head} with no s_wait_alu between ({rule.what})"))
            else:
                warns.append(Warning_(cons.span, f"{head} {waited} wait state{'s' * (waited != 1)} later; "
                                                 f"{rule.what} needs {need}: insert s_nop {need - waited - 1}"))
    return warns
