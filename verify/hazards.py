"""Hazards the hardware does not interlock, reported as warnings naming both
instructions.  One table; each rule says which targets it applies to (a
target feature), what the producer and the consumer are, and how many wait
states must separate them.  Producers are named by pipeline and consumers
by a hazard role that each op declares (``OpDef.hazard_roles``), so a new
instruction takes part by declaring its role.  A wait state is one
instruction in between; ``s_nop N`` counts N + 1.  [S:hazards]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .diag import Warning_
from .ir import Instr, SReg
from .ops.base import OpDef, op_of
from .target import Target, needs_text

EXEC = {"exec_lo", "exec_hi"}


def _op(ins: Instr) -> OpDef:
    return op_of(ins.base)


def _defs(ins: Instr) -> set[str]:
    return set(_op(ins).defs(ins))


def _is_valu(ins: Instr) -> bool:
    return _op(ins).unit == "valu"


def _vgprs_written(ins: Instr) -> set[str]:
    return {r for r in _defs(ins) if r.startswith("v")}


def _sgprs_written(ins: Instr) -> set[str]:
    return {r for r in _defs(ins) if not r.startswith("v")}


def _exec_written(ins: Instr) -> set[str]:
    return _defs(ins) & EXEC


def _vgprs_read(ins: Instr) -> set[str]:
    return {r for r in _op(ins).uses(ins) if r.startswith("v")}


def _lane_select(ins: Instr) -> set[str]:
    sel = ins.operands[2]
    return set(sel.names) if isinstance(sel, SReg) else set()


def _scalars_read(ins: Instr) -> set[str]:
    out = set()
    for op in ins.operands[1:]:
        if isinstance(op, SReg):
            out |= set(op.names)
    return out


@dataclass(frozen=True)
class Rule:
    """A producer (an instruction of pipeline `unit`, any when None, and the
    registers it writes that matter), a consumer (an instruction playing
    hazard role `role`, declared on its op, and the registers it reads that
    matter), and the wait states between them."""

    name: str
    feature: str
    unit: str | None  # the producer's pipeline
    writes: Callable[[Instr], set[str]]
    role: str  # the consumer's hazard role (OpDef.hazard_roles)
    reads: Callable[[Instr], set[str]]
    waits: int  # wait states needed; 0 means "an s_wait_alu must come between"
    what: str

    def producer(self, ins: Instr) -> set[str]:
        """Registers `ins` writes that matter, if it can produce this hazard."""
        return self.writes(ins) if self.unit is None or _op(ins).unit == self.unit else set()

    def consumer(self, ins: Instr) -> set[str]:
        """Registers `ins` reads that matter, if it can suffer this hazard."""
        return self.reads(ins) if self.role in _op(ins).roles(ins) else set()


RULES = [
    Rule("dpp-vgpr", "hazard_dpp", None, _vgprs_written, "dpp", _vgprs_read, 2,
         "a DPP read of a VGPR written by the previous instructions"),
    Rule("dpp-exec", "hazard_dpp", "valu", _exec_written, "dpp", lambda c: EXEC, 5,
         "DPP after a VALU write of EXEC"),
    Rule("lane-select", "hazard_lane_select", "valu", _sgprs_written, "lane_select", _lane_select, 4,
         "v_readlane/v_writelane lane select written by a VALU instruction"),
    Rule("readlane-exec", "hazard_gfx94_readlane", "valu", _exec_written, "readlane", lambda c: EXEC, 4,
         "readlane/writelane after a VALU write of EXEC"),
    Rule("readlane-vgpr", "hazard_gfx94_readlane", "valu", _vgprs_written, "readlane_vgpr",
         lambda c: {c.operands[1].text}, 1,
         "v_readlane of a VGPR the previous VALU instruction wrote"),
    Rule("permlane-swap", "hazard_permlane_swap", "valu", _vgprs_written, "permlane_swap", _vgprs_read, 2,
         "a permlane swap of a VGPR written by a VALU instruction"),
    Rule("sgpr-wait-alu", "hazard_sgpr_wait_alu", "valu", lambda p: _sgprs_written(p) - {"scc"},
         "sgpr_select", _scalars_read, 0,
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


def _findings(program: list[Instr], k: int, rules: list[Rule]) -> Iterator[tuple[Rule, int, int]]:
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
