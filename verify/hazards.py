"""Hazards the hardware does not interlock.  One table; each rule says which
targets it applies to (a target feature), what the producer and the
consumer are, and what must separate them: wait states, an ``s_wait_alu``,
or a VALU instruction.  Producers are named by pipeline and consumers by a
hazard role that each op declares (``OpDef.hazard_roles``), so a new
instruction takes part by declaring its role.  A wait state is one
instruction in between; ``s_nop N`` counts N[2:0] + 1 (never more than the
hardware of any generation gives).  [S:hazards]

The table is semantics: the machine asks :func:`window` before each
instruction, and a register the consumer reads inside a hazard window reads
as an unknown value (the hardware may hand it the stale or any value), so a
lowering whose outputs depend on it is refuted.  The same table gives the
warnings (:func:`check`, for hazards that change no output too) and what the
synthesiser inserts (:func:`needed`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from .diag import Warning_
from .ir import Instr, SReg
from .ops.base import OpDef, op_of
from .ops.salu import nop_wait_states
from .target import Target, needs_text

EXEC = {"exec_lo", "exec_hi"}


class HasFeature(Protocol):
    """A Target, or the FeatureLog view of one the machine runs on."""

    def has(self, feature: str) -> bool: ...


def _op(ins: Instr) -> OpDef:
    return op_of(ins.base)


def _defs(ins: Instr) -> set[str]:
    return set(_op(ins).defs(ins))


def _is_valu(ins: Instr) -> bool:
    return _op(ins).unit == "valu"


def _is_vgpr(r: str) -> bool:
    return r.startswith("v") and r[1:].isdigit()  # v3, not vcc_lo


def _vgprs_written(ins: Instr) -> set[str]:
    return {r for r in _defs(ins) if _is_vgpr(r)}


def _sgprs_written(ins: Instr) -> set[str]:
    return {r for r in _defs(ins) if not _is_vgpr(r)}


def _exec_written(ins: Instr) -> set[str]:
    return _defs(ins) & EXEC


def _vcmp_exec_written(ins: Instr) -> set[str]:
    """EXEC, when a VALU compare writes it (v_cmpx_*, modelled or opaque)."""
    return _exec_written(ins) if ins.base.startswith("v_cmp") else set()


def _vgprs_read(ins: Instr) -> set[str]:
    return {r for r in _op(ins).uses(ins) if _is_vgpr(r)}


def _lane_select(ins: Instr) -> set[str]:
    sel = ins.operands[2]
    return set(sel.names) if isinstance(sel, SReg) else set()


def _scalars_read(ins: Instr) -> set[str]:
    out = set()
    for op in ins.operands[1:]:
        if isinstance(op, SReg):
            out |= set(op.names)
    return out


def _carry_in(ins: Instr) -> set[str]:
    """The lane mask a VALU instruction reads as its carry-in (v_addc_co,
    v_add_co_ci, v_subb_co, v_sub_co_ci and their reversed forms)."""
    names = getattr(_op(ins), "arg_names", ())
    if "carry_in" in names:
        o = ins.operands[names.index("carry_in")]
        if isinstance(o, SReg):
            return set(o.names)
    return set()


def _valu_scalars_read(ins: Instr) -> set[str]:
    """The SGPRs (VCC included) a VALU instruction reads, its carry-in apart."""
    return {r for r in _op(ins).uses(ins) if not _is_vgpr(r)} - {"scc"} - _carry_in(ins)


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
    waits: int  # wait states needed ("nop"); 0 for the other separators
    what: str
    # what ends the window: "nop" (wait states), "alu" (an s_wait_alu between),
    # "valu" (a VALU instruction other than v_nop between; s_nop does not count)
    sep: str = "nop"
    # a named assumption whose variant "unknown" makes the rule semantics (any
    # other variant: a warning only); None: always semantics
    assumption: str | None = None

    def producer(self, ins: Instr) -> set[str]:
        """Registers `ins` writes that matter, if it can produce this hazard."""
        return self.writes(ins) if self.unit is None or _op(ins).unit == self.unit else set()

    def consumer(self, ins: Instr) -> set[str]:
        """Registers `ins` reads that matter, if it can suffer this hazard
        (role "valu": every VALU instruction)."""
        plays = _is_valu(ins) if self.role == "valu" else self.role in _op(ins).roles(ins)
        return self.reads(ins) if plays else set()


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
    Rule("valu-sgpr", "hazard_gfx94_valu_sgpr", "valu", lambda p: _sgprs_written(p) - {"scc"}, "valu",
         _valu_scalars_read, 2, "a VALU read of an SGPR or VCC a VALU instruction wrote"),
    Rule("valu-carry", "hazard_gfx94_valu_sgpr", "valu", lambda p: _sgprs_written(p) - {"scc"}, "valu",
         _carry_in, 2, "a VALU carry-in read of a lane mask a VALU instruction wrote", "nop",
         "hazard.gfx94_carry_in"),
    Rule("permlane-swap", "hazard_permlane_swap", "valu", _vgprs_written, "permlane_swap", _vgprs_read, 2,
         "a permlane swap of a VGPR written by a VALU instruction"),
    Rule("sgpr-wait-alu", "hazard_sgpr_wait_alu", "valu", lambda p: _sgprs_written(p) - {"scc"},
         "sgpr_select", _scalars_read, 0,
         "a VALU SGPR write read by readlane/writelane/permlane", "alu", "hazard.sgpr_wait_alu"),
    Rule("vcmpx-permlane", "hazard_vcmpx_permlane", "valu", _vcmp_exec_written, "permlane", lambda c: EXEC, 0,
         "v_permlane16/x16/64 after a VALU compare writing EXEC (v_cmpx)", "valu"),
]


def _wait_states(ins: Instr) -> int:
    if ins.base == "s_nop":  # its operand was checked when it was parsed
        words = ins.text.split(";")[0].split()
        try:
            return nop_wait_states(int(words[1], 0)) if len(words) > 1 else 1
        except ValueError:
            return 1
    return 1


def _separates(rule: Rule, ins: Instr) -> bool:
    """Whether `ins`, between producer and consumer, ends the window of an
    "alu" or "valu" rule."""
    if rule.sep == "alu":
        return ins.base == "s_wait_alu"
    return _is_valu(ins) and ins.base.startswith("v_") and not ins.base.startswith("v_nop")


def _findings(program: list[Instr], k: int, rules: list[Rule]) -> Iterator[tuple[Rule, int, int, set[str]]]:
    """(rule, producer index, wait states already between, registers) for
    each rule whose consumer is program[k] and whose producer is too close
    (or, for an s_wait_alu or VALU rule, not separated by one).  The search
    goes back per register: one instruction can be inside the windows of
    several producers at once, and the nearest producer of one register
    does not hide an older producer of another (it would, if the search
    stopped at the first producer of any register read)."""
    if k == 0:  # no producer before it (verify tv runs its code one instruction at a time)
        return
    cons = program[k]
    for rule in rules:
        reads = rule.consumer(cons)
        if not reads:
            continue
        left = set(reads)
        waited = 0
        for j in range(k - 1, -1, -1):
            prod = program[j]
            hit = rule.producer(prod) & left
            if hit:
                left -= hit
                if rule.sep != "nop":
                    if not any(_separates(rule, program[x]) for x in range(j + 1, k)):
                        yield rule, j, waited, hit
                elif waited < rule.waits:
                    yield rule, j, waited, hit
                if not left:
                    break
            waited += _wait_states(prod)
            if rule.sep == "nop" and waited >= rule.waits:
                break


def advice(rule: Rule, waited: int) -> str:
    """What to insert to close the window."""
    if rule.sep == "alu":
        return "insert s_wait_alu depctr_va_sdst(0)"
    if rule.sep == "valu":
        return "insert a VALU instruction such as v_mov_b32 v0, v0 (s_nop and v_nop do not count)"
    n = rule.waits - waited  # one s_nop gives at most 8 wait states
    nops = [f"s_nop {min(8, n - 8 * i) - 1}" for i in range((n + 7) // 8)]
    return "insert " + " and ".join(nops)


def need_text(rule: Rule, waited: int) -> str:
    """'<what> needs N: insert ...' or '... with no s_wait_alu between'."""
    if rule.sep == "alu":
        return f"with no s_wait_alu between ({rule.what})"
    if rule.sep == "valu":
        return f"with no VALU instruction between ({rule.what}): {advice(rule, waited)}"
    return (f"{waited} wait state{'s' * (waited != 1)} later; {rule.what} needs {rule.waits}: "
            f"{advice(rule, waited)}")


@dataclass(frozen=True)
class Finding:
    """A register the consumer reads inside a hazard window."""

    rule: Rule
    producer: Instr
    consumer: Instr
    reg: str
    waited: int

    def explain(self) -> str:
        """Names both lines and what is needed, for counterexamples."""
        return (f"reads {self.reg} inside the hazard window of line {self.producer.line} "
                f"({self.producer.mnemonic}), {need_text(self.rule, self.waited)}"
                + (f": {advice(self.rule, self.waited)}" if self.rule.sep == "alu" else "")
                + "; its value there is unknown")


def window(program: list[Instr], k: int, target: HasFeature) -> dict[str, Finding]:
    """The registers program[k] reads inside a hazard window on `target`,
    each with its finding (the machine gives them unknown values).  A rule's
    target feature is consulted only when program[k] plays its consumer
    role and a producer is in reach, so a proof depends on exactly the
    features that mattered (targets differing only in a rule that finds
    nothing still share one solver run)."""
    cons = program[k]
    out: dict[str, Finding] = {}
    for rule, j, waited, regs in _findings(program, k, RULES):
        if not target.has(rule.feature):
            continue
        for reg in sorted(regs):
            out.setdefault(reg, Finding(rule, program[j], cons, reg, waited))
    return out


def needed(program: list[Instr], k: int, target: Target) -> tuple[int, bool]:
    """What must be inserted before program[k]: (wait states, whether an
    s_wait_alu is needed).  Synthesis uses it to write hazard-free code.
    (A "valu" rule's producer, v_cmpx, is no synthesis component.)"""
    rules = [r for r in RULES if target.has(r.feature)]
    waits, alu = 0, False
    for rule, _, waited, _regs in _findings(program, k, rules):
        if rule.sep == "alu":
            alu = True
        elif rule.sep == "nop":
            waits = max(waits, rule.waits - waited)
    return waits, alu


def check(program: list[Instr], target: Target, variant: Callable[[str], str] | None = None) -> list[Warning_]:
    """A warning for each hazard, whether or not it can change an output
    (the proof decides that: a read in the window is unknown).  `variant`
    (an assumption's name -> the value in force) drops the findings of a rule
    whose named assumption is not at its "unknown" variant, as the machine
    does (verify.tv turns any warning into "unknown")."""
    warns: list[Warning_] = []
    rules = [r for r in RULES if target.has(r.feature)]
    for k, cons in enumerate(program):
        for rule, j, waited, hit in _findings(program, k, rules):
            if rule.assumption is not None and variant is not None and variant(rule.assumption) != "unknown":
                continue
            prod = program[j]
            where = needs_text(rule.feature).removesuffix(" only")
            regs = ", ".join(sorted(hit))
            head = (f"hazard ({where}): line {prod.line} ({prod.mnemonic}) writes {regs} and "
                    f"{cons.mnemonic} reads it")
            warns.append(Warning_(cons.span, f"{head} {need_text(rule, waited)}"))
    return warns
