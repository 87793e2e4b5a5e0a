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

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .diag import Warning_
from .ir import Instr, SReg, VHalf, VReg
from .ops.base import HAZARD_ROLES, OpDef, op_of
from .target import Target, needs_text
from .waits import waits_of

EXEC = {"exec_lo", "exec_hi"}
VCC = {"vcc_lo", "vcc_hi"}


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


def _kept_half(ins: Instr) -> set[str]:
    """The VGPR of a true16 destination half (`v0.l`), which the instruction
    keeps the other half of, where no source operand names it."""
    d = ins.operands[0] if ins.operands else None
    if not isinstance(d, VHalf) or any(isinstance(o, VReg) and f"v{d.index}" in o.names() for o in ins.operands[1:]):
        return set()
    return {f"v{d.index}"}


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


def _none(ins: Instr) -> set[str]:
    return set()


def _bits(v: Any) -> tuple[int, ...]:
    """A modifier's bits, as verify parses them (a tuple) or as text ("[0,1]")."""
    if isinstance(v, tuple):
        return tuple(int(x) for x in v)
    return tuple(int(x) for x in str(v).strip("[]").split(",") if x.strip().isdigit())


_VOP3P = ("v_pk_", "v_fma_mix", "v_mad_mix")


def _dst_sel_written(ins: Instr) -> set[str]:
    """The VGPR a VALU instruction writes, when LLVM's dst-sel forwarding
    rule counts it: SDWA with dst_sel not DWORD; a VOP3P instruction whose
    op_sel_hi[0] is 1 (the default: LLVM tests src0_modifiers' DST_OP_SEL
    bit, which is op_sel_hi[0] in VOP3P; llc-22 waits after `v_pk_add_u16`);
    another with op_sel's destination bit set.  [S:trust-hazards]"""
    sel = ins.mod("dst_sel", "DWORD")
    if str(sel).upper() not in ("DWORD", "6"):
        return _vgprs_written(ins)
    if ins.base.startswith(_VOP3P):
        hi = _bits(ins.mod("op_sel_hi", (1,)))
        return _vgprs_written(ins) if not hi or hi[0] == 1 else set()
    opsel = _bits(ins.mod("op_sel", ()))
    return _vgprs_written(ins) if len(opsel) > 2 and opsel[-1] == 1 else set()


def _is_vmem(ins: Instr) -> bool:
    """Vector memory (global, flat, scratch, buffer, image): the unit
    `verify asm` gives such an instruction from its mnemonic."""
    return _op(ins).unit == "memory"


def _is_smrd(ins: Instr) -> bool:
    """A scalar memory read (SMRD on SI: s_load_*, s_buffer_load_*)."""
    return ins.base.startswith(("s_load_", "s_buffer_load_"))


def _smrd_sgprs_read(ins: Instr) -> set[str]:
    """The SGPRs an SMRD instruction reads (its base, an SGPR offset)."""
    return {r for r in _op(ins).uses(ins) if not _is_vgpr(r)} - {"scc", "exec_lo", "exec_hi"}


def _vmem_scalars_read(ins: Instr) -> set[str]:
    """The SGPRs a vector memory instruction reads (its saddr, resource,
    soffset) and EXEC, which every one reads (LLVM counts its implicit use).
    [S:trust-hazards]"""
    return {r for r in _op(ins).uses(ins) if not _is_vgpr(r)} - {"scc"} | EXEC


@dataclass(frozen=True, eq=False)  # (a rule is itself: compared and hashed by identity)
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
    # the s_wait_alu field that ends the hazard: a GFX12 SGPR rule, found by
    # the forward scan of AMDGPUWaitSGPRHazards (_scan), not by a window
    field: str = ""
    wave64: bool = False  # wave64 only
    spelled: str = "s_wait_alu"  # the wait's mnemonic (GFX11: s_waitcnt_depctr)
    field_wait: str = ""  # a "partial" rule's wait: s_waitcnt_depctr with this field 0

    def producer(self, ins: Instr) -> set[str]:
        """Registers `ins` writes that matter, if it can produce this hazard."""
        return self.writes(ins) if self.unit is None or _op(ins).unit == self.unit else set()

    def consumer(self, ins: Instr) -> set[str]:
        """Registers `ins` reads that matter, if it can suffer this hazard
        (role "valu": every VALU instruction)."""
        plays = _is_valu(ins) if self.role == "valu" else _is_vmem(ins) if self.role == "vmem" else \
            _is_smrd(ins) if self.role == "smrd" else \
            self.role in _op(ins).roles(ins)
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
         "v_readlane/v_readfirstlane of a VGPR the previous VALU instruction wrote"),
    Rule("valu-sgpr", "hazard_gfx94_valu_sgpr", "valu", lambda p: _sgprs_written(p) - {"scc"}, "valu",
         _valu_scalars_read, 2, "a VALU read of an SGPR or VCC a VALU instruction wrote"),
    Rule("valu-carry", "hazard_gfx94_valu_sgpr", "valu", lambda p: _sgprs_written(p) - {"scc"}, "valu",
         _carry_in, 2, "a VALU carry-in read of a lane mask a VALU instruction wrote", "nop",
         "hazard.gfx94_carry_in"),
    # GFX8/9: GCNHazardRecognizer::checkVMEMHazards (llc-22 -run-pass=post-RA-hazard-rec)  [S:trust-hazards]
    Rule("valu-sgpr-vmem", "hazard_vmem_sgpr", "valu", lambda p: _sgprs_written(p) - {"scc"}, "vmem",
         _vmem_scalars_read, 5, "a vector memory read of an SGPR or EXEC a VALU instruction wrote"),
    # SI: GCNHazardRecognizer::checkSMRDHazards (hasSMRDReadVALUDefHazard)  [S:sici]
    Rule("valu-sgpr-smrd", "hazard_smrd_sgpr", "valu", lambda p: _sgprs_written(p) - {"scc"}, "smrd",
         _smrd_sgprs_read, 4, "a scalar memory read (SMRD) of an SGPR a VALU instruction wrote"),
    # gfx94x, gfx950: GCNHazardRecognizer::checkVALUHazards (hasDstSelForwardingHazard)  [S:trust-hazards]
    Rule("sdwa-dst-sel", "hazard_dst_sel", "valu", _dst_sel_written, "valu", _vgprs_read, 1,
         "a VALU read of a VGPR an SDWA instruction wrote part of (dst_sel not DWORD), or a VOP3P "
         "instruction wrote (op_sel_hi[0] 1)"),
    # GFX11, GFX11.5 wave64: GCNHazardRecognizer::fixVALUPartialForwardingHazard (a pattern, _partial)
    Rule("partial-forwarding", "hazard_partial_forwarding", "valu", _none, "valu", _vgprs_read, 0,
         "a VALU read of two VGPRs written by VALU instructions on either side of an SALU write of EXEC "
         "(wave64)", "partial", spelled="s_waitcnt_depctr", field_wait="va_vdst"),
    Rule("permlane-swap", "hazard_permlane_swap", "valu", _vgprs_written, "permlane_swap", _vgprs_read, 2,
         "a permlane swap of a VGPR written by a VALU instruction"),
    Rule("vcmpx-permlane-swap", "hazard_permlane_swap", "valu", _vcmp_exec_written, "permlane_swap",
         lambda c: EXEC, 4, "a permlane swap after a VALU compare writing EXEC (v_cmpx)"),
    # GFX12 SGPR hazards: a forward scan (_scan), not a window; what
    # ends one is an s_wait_alu whose field `field` is 0 (or what clears it)
    Rule("sa-sdst", "hazard_gfx12_sgpr", "salu", _none, "sgpr_read", _none, 0,
         "an SALU or VALU read of an SGPR an SALU instruction wrote", "alu", field="sa_sdst"),
    Rule("va-sdst", "hazard_gfx12_sgpr", "valu", _none, "valu", _none, 0,
         "a VALU read of an SGPR a VALU instruction wrote", "alu", field="va_sdst"),
    Rule("va-vcc", "hazard_gfx12_sgpr", "valu", _none, "valu", _none, 0,
         "a VALU read of VCC a VALU instruction wrote", "alu", field="va_vcc"),
    # GFX11 wave64: a VALU reads an SGPR as a lane mask, an SALU or VALU
    # writes it, an instruction reads it: GCNHazardRecognizer::fixVALUMaskWriteHazard
    Rule("mask-write-salu", "hazard_valu_mask_write", "salu", _none, "valu", _none, 0,
         "a read of an SGPR an SALU instruction wrote after a VALU read it as a lane mask (wave64)", "alu",
         field="sa_sdst", wave64=True, spelled="s_waitcnt_depctr"),
    Rule("mask-write-valu", "hazard_valu_mask_write", "valu", _none, "valu", _none, 0,
         "a read of an SGPR a VALU instruction wrote after a VALU read it as a lane mask (wave64)", "alu",
         field="va_sdst", wave64=True, spelled="s_waitcnt_depctr"),
    Rule("mask-write-vcc", "hazard_valu_mask_write", "valu", _none, "valu", _none, 0,
         "a read of VCC a VALU instruction wrote after a VALU read it as a lane mask (wave64)", "alu",
         field="va_vcc", wave64=True, spelled="s_waitcnt_depctr"),
    Rule("vcmpx-permlane", "hazard_vcmpx_permlane", "valu", _vcmp_exec_written, "permlane", lambda c: EXEC, 0,
         "v_permlane16/x16/64 after a VALU compare writing EXEC (v_cmpx)", "valu"),
]

# a rule's consumer role: one an op declares (ops.base.HAZARD_ROLES), or
# "valu" (every VALU instruction), "vmem" (every vector memory instruction) and "sgpr_read" (the GFX12 forward scan's
# reads, found by _scan, not by a role)
_RULE_ROLES = HAZARD_ROLES | {"valu", "sgpr_read", "vmem", "smrd"}
for _r in RULES:
    if _r.role not in _RULE_ROLES:
        raise ValueError(f"hazard rule {_r.name}: unknown consumer role {_r.role!r}")


SGPR_RULES = {r.field: r for r in RULES if r.field and r.feature == "hazard_gfx12_sgpr"}
MASK_WRITE = {r.field: r for r in RULES if r.feature == "hazard_valu_mask_write"}
SGPR_ASSUMPTION = "hazard.gfx12_sgpr"

# what clears every GFX12 SGPR hazard (AMDGPUWaitSGPRHazards: SMEM, and VMEM
# that is not FLAT: global_* and scratch_* are FLAT and clear nothing)
_SMEM = ("s_load", "s_buffer_load", "s_scratch_", "s_dcache", "s_prefetch", "s_atc", "s_atomic", "s_buffer_atomic",
         "s_store", "s_buffer_store", "s_memtime", "s_memrealtime")
_VMEM = ("buffer_", "tbuffer_", "image_")


@functools.cache
def _sgpr_number(r: str) -> int | None:
    """The hardware number of an SGPR the GFX12 rules track (s0-s105, VCC
    106-107); None for EXEC, M0, SCC, null and the rest."""
    if r[0] == "s" and r[1:].isdigit():
        n = int(r[1:])
        return n if n < 106 else None
    return 106 if r == "vcc_lo" else 107 if r == "vcc_hi" else None


@dataclass
class SgprState:
    """The state AMDGPUWaitSGPRHazards carries from instruction to
    instruction: the SGPR pairs some VALU instruction has read (`tracked`,
    None: every pair), and the SGPRs with values an SALU or a VALU
    instruction wrote that no wait has yet committed, each with its writer
    (VCC apart, as LLVM keeps it).  [S:hazards]"""

    tracked: set[int] | None
    salu: dict[str, Instr]
    valu: dict[str, Instr]
    vcc: dict[str, Instr]  # "salu" / "valu" -> the last writer of VCC, while pending
    # instructions already stepped (a `verify asm` region's SGPR setup, run
    # again at its start): the scan does not step them twice
    seen: frozenset[int] = frozenset()

    @staticmethod
    def entry(kind: str) -> SgprState:
        """At a kernel's entry no pair is tracked; code whose predecessors
        are not seen (a catalogue lowering, a region, a called function)
        starts with every pair tracked, as LLVM starts a callee."""
        return SgprState(set() if kind == "kernel" else None, {}, {}, {})

    def copy(self) -> SgprState:
        return SgprState(None if self.tracked is None else set(self.tracked), dict(self.salu), dict(self.valu),
                         dict(self.vcc), self.seen)

    @staticmethod
    def after(prefix: list[Instr], kind: str) -> SgprState:
        """The state after `prefix`, the straight-line code before a region
        (`verify asm`), from a kernel's entry or a function's."""
        st = SgprState.entry(kind)
        for ins in prefix:
            _sgpr_step(st, ins, False)
        st.seen = frozenset(map(id, prefix))
        return st

    def merge(self, o: SgprState) -> bool:
        """Union with another predecessor's state; whether it changed."""
        before = (None if self.tracked is None else len(self.tracked), len(self.salu), len(self.valu), len(self.vcc))
        if o.tracked is None or self.tracked is None:
            self.tracked = None
        else:
            self.tracked |= o.tracked
        for mine, theirs in ((self.salu, o.salu), (self.valu, o.valu), (self.vcc, o.vcc)):
            for r, w in theirs.items():
                mine.setdefault(r, w)
        return before != (None if self.tracked is None else len(self.tracked), len(self.salu), len(self.valu),
                          len(self.vcc))


SgprHit = tuple[str, Instr, frozenset[str]]  # (s_wait_alu field, producer, registers read)


Info = tuple[OpDef, list[str], list[str], "int | None"]  # an instruction's op, uses, defs and depctr mask


def _info(ins: Instr) -> Info:
    """(cached per instruction: an Instr is immutable; the lists are only read)"""
    hit = _INFOS.get(id(ins))
    if hit is not None and hit[0] is ins:
        return hit[1]
    op = _op(ins)
    info = op, op.uses(ins), op.defs(ins), op.depctr(ins)
    if len(_INFOS) >= 65536:
        _INFOS.clear()
    _INFOS[id(ins)] = (ins, info)
    return info


_INFOS: dict[int, tuple[Instr, Info]] = {}  # id -> (the instruction, kept so the id stays its own; its _info)


def _sgpr_step(st: SgprState, ins: Instr, strict: bool, commit: bool = False, info: Info | None = None) -> list[SgprHit]:
    """One instruction of AMDGPUWaitSGPRHazards::runOnMachineBasicBlock:
    the hazards it reads (before its own writes), and the state after it.
    A read in a hazard with no wait commits nothing: the hazard stays for
    the reads after it too.  `strict`: every pair is tracked and only an
    s_wait_alu clears a hazard (hazard.gfx12_sgpr=strict).  [S:hazards]"""
    op, uses, defs, mask = info if info is not None else _info(ins)
    if ins.base.startswith(_SMEM + _VMEM):  # neither SALU nor VALU: it produces and reads no such hazard
        if not strict:
            st.salu.clear()
            st.valu.clear()
            st.vcc.clear()
        return []
    if mask is not None:  # an s_wait_alu: each field at 0 commits its writes
        if (mask >> 1) & 1 == 0:  # va_vcc
            st.vcc.pop("valu", None)
        if mask & 1 == 0:  # sa_sdst
            st.salu.clear()
            st.vcc.pop("salu", None)
        if (mask >> 9) & 7 == 0:  # va_sdst
            st.valu.clear()
        return []
    if op.unit not in ("valu", "salu") or op.schedule_only:
        return []
    valu = op.unit == "valu"
    tracked = st.tracked
    found: dict[tuple[str, int], tuple[Instr, set[str]]] = {}

    def hit(field: str, w: Instr, r: str) -> None:
        found.setdefault((field, id(w)), (w, set()))[1].add(r)

    for r in dict.fromkeys(uses):
        n = _sgpr_number(r)
        if n is None:
            continue
        if tracked is not None and n >> 1 not in tracked:
            if valu and not strict:  # a VALU read starts tracking the pair
                tracked.add(n >> 1)
            continue
        vcc = n >= 106
        if not valu and not strict:  # an SALU read waits for the VALU writes (VCC's alone, of VCC)
            if not vcc:
                st.valu.clear()
            elif "valu" in st.vcc:
                st.vcc.clear()
        if r in st.salu:
            hit("sa_sdst", st.salu[r], r)
        if valu and r in st.valu:
            hit("va_sdst", st.valu[r], r)
        if vcc and "salu" in st.vcc:
            hit("sa_sdst", st.vcc["salu"], r)
        if valu and vcc and "valu" in st.vcc:  # (an SALU read of VCC committed it above)
            hit("va_vcc", st.vcc["valu"], r)
    if commit:  # the s_wait_alu LLVM inserts before it commits what it waits for
        fields = {f for f, _ in found}
        if "va_vcc" in fields:
            st.vcc.pop("valu", None)
        if "sa_sdst" in fields:
            st.salu.clear()
            st.vcc.pop("salu", None)
        if "va_sdst" in fields:
            st.valu.clear()
    for r in dict.fromkeys(defs):
        n = _sgpr_number(r)
        if n is None or (tracked is not None and n >> 1 not in tracked):
            continue
        if n >= 106:
            st.vcc = {"valu" if valu else "salu": ins}
        else:
            (st.valu if valu else st.salu)[r] = ins
    return [(f, w, frozenset(rs)) for (f, _), (w, rs) in found.items()]


MaskHit = tuple[str, Instr, frozenset[str]]  # (the wait's field, the SALU/VALU writer, registers read)


@dataclass
class _Scan:
    """The forward scans of one program: per instruction, the GFX12 SGPR
    hazards it reads (LLVM's model and the strict one) and the GFX11
    mask-write hazards.  `keep` holds the program list, a copy of its
    instructions and the entry state, so the ids in the cache keys stay
    theirs."""

    keep: list[Any]
    llvm: list[list[SgprHit]]
    strict: list[list[SgprHit]]
    mask: list[list[MaskHit]]


_SCANS: dict[tuple[int, int, int, int, str], _Scan] = {}
_LAST: list[tuple[list[Instr], Any, int, _Scan, int] | None] = [None]


def _scan(program: list[Instr], entry: str | SgprState) -> _Scan:
    """The scans of `program` from `entry` ("kernel", "fragment" or a block's
    state), cached for the last few programs: the machine asks once per
    instruction, and every target of a lowering asks of the same list.  (The
    key is the list and its ends: the synthesiser appends to and pops from
    its lists.)  A program that is another one asked before with one
    instruction more (verify tv's control flow asks of each path's
    instructions so far, one more at each step) is scanned from that one's
    final states: one step instead of the whole path again."""
    last = _LAST[0]
    if last is not None and last[0] is program and last[1] is entry and last[2] == len(program) \
            and id(program[-1]) == last[4]:
        return last[3]  # the machine's and check's common case: the same list, instruction after instruction
    key = (id(program), len(program), id(program[0]) if program else 0, id(program[-1]) if program else 0,
           entry if isinstance(entry, str) else str(id(entry)))
    got = _SCANS.get(key)
    if got is None:
        ekey = entry if isinstance(entry, str) else id(entry)
        ids = tuple(map(id, program))
        same = _GROWN.get((ids, ekey))
        prev = _GROWN.get((ids[:-1], ekey)) if program and same is None else None
        if same is not None:  # the very instructions scanned before, in another list (a loop's next
            # iteration asks of each path again): that scan, kept with this list (its id is in the key)
            got, grown = _Scan([program, list(program), entry], same[0].llvm, same[0].strict, same[0].mask), same
        elif prev is not None:  # one instruction more than a program scanned before
            pscan, pl, ps, pm = prev
            ins = program[-1]
            i = _info(ins)
            states = []
            hits = []
            for st0, strict in ((pl, False), (ps, True)):
                st = st0.copy()
                hits.append([] if id(ins) in st.seen else _sgpr_step(st, ins, strict, info=i))
                states.append(st)
            masked, pending = set(pm[0]), dict(pm[1])
            mhits = _mask_step(ins, i, masked, pending)
            got = _Scan([program, list(program), entry], pscan.llvm + [hits[0]], pscan.strict + [hits[1]],
                        pscan.mask + [mhits])
            grown = (got, states[0], states[1], (masked, pending))
        else:
            infos = [_info(ins) for ins in program]

            def run(strict: bool) -> tuple[list[list[SgprHit]], SgprState]:
                st = entry.copy() if isinstance(entry, SgprState) else SgprState.entry(entry)
                if strict:
                    st.tracked = None
                return [[] if id(ins) in st.seen else _sgpr_step(st, ins, strict, info=i)
                        for ins, i in zip(program, infos)], st
            (llvm, stl), (strict_hits, sts) = run(False), run(True)
            masked, pending = set(), {}
            mask = [_mask_step(ins, i, masked, pending) for ins, i in zip(program, infos)]
            got = _Scan([program, list(program), entry], llvm, strict_hits, mask)
            grown = (got, stl, sts, (masked, pending))
        if len(_GROWN) >= 64:
            _GROWN.pop(next(iter(_GROWN)))
        _GROWN[(ids, ekey)] = grown
        if len(_SCANS) >= 32:
            _SCANS.pop(next(iter(_SCANS)))
        _SCANS[key] = got
    if program:
        _LAST[0] = (program, entry, len(program), got, id(program[-1]))
    return got


# (instruction ids, entry) -> the scan and the states after it: the scans
# _scan extends by one instruction (the _Scan's `keep` holds the
# instructions and the entry, so the ids in the key stay theirs)
_GROWN: dict[tuple[tuple[int, ...], Any], tuple[_Scan, SgprState, SgprState, tuple[set[str], dict[str, Any]]]] = {}


_MASK_READERS = ("v_cndmask", "v_addc", "v_subb", "v_add_co_ci", "v_sub_co_ci", "v_subrev_co_ci", "v_div_fmas")


def _mask_read(ins: Instr) -> set[str]:
    """The SGPRs (VCC included) a VALU instruction reads as a lane mask: the
    mask of v_cndmask, the carry-in of v_add_co_ci/v_sub_co_ci/v_subrev_co_ci
    (v_addc/v_subb before GFX10), VCC of v_div_fmas."""
    if not ins.base.startswith(_MASK_READERS):
        return set()
    if ins.base.startswith("v_div_fmas"):
        return {"vcc_lo", "vcc_hi"}
    last = ins.operands[-1] if ins.operands else None
    return set(last.names) if isinstance(last, SReg) else set()


def _mask_scan(program: list[Instr], infos: list[Info]) -> list[list[MaskHit]]:
    """GFX11 wave64 (GCNHazardRecognizer::fixVALUMaskWriteHazard, as LLVM 22
    runs it), for each instruction: the SGPRs it reads (an SALU or VALU
    instruction) that an SALU (VALU) instruction wrote with no
    s_waitcnt_depctr sa_sdst(0) (va_sdst(0); va_vcc(0) for VCC) since, when
    before that write a VALU instruction read the SGPR as a lane mask (LLVM
    assumes the hazard whatever the distance, and puts the wait right after
    the write).  The mask read's reach ends once a write of the
    SGPR has been waited for (llc-22 puts no wait after a second write then;
    whether a wait alone, with no write, ends it is not settled by its output,
    and verify takes it as not).  [S:hazards]"""
    masked: set[str] = set()  # SGPRs a VALU read as a lane mask, not yet written and waited for since
    pending: dict[str, tuple[Instr, str]] = {}  # SGPR -> its writer and the field its wait needs
    return [_mask_step(ins, info, masked, pending) for ins, info in zip(program, infos)]


def _mask_step(ins: Instr, info: Info, masked: set[str], pending: dict[str, tuple[Instr, str]]) -> list[MaskHit]:
    """One instruction of _mask_scan: its hits, `masked` and `pending` updated."""
    op, uses, defs, mask = info
    hits: dict[tuple[str, int], tuple[Instr, set[str]]] = {}
    if mask is not None:
        for field, zero in (("sa_sdst", mask & 1 == 0), ("va_sdst", (mask >> 9) & 7 == 0),
                            ("va_vcc", (mask >> 1) & 1 == 0)):
            if zero:  # the write it waits for is committed: the mask read's hazard is over
                for r in [r for r, (_, f) in pending.items() if f == field]:
                    del pending[r]
                    masked.discard(r)
        return []
    alu = op.unit in ("salu", "valu") and not op.schedule_only and not ins_is_memory(ins)
    if alu:
        for r in uses:
            got = pending.get(r)
            if got is not None:
                hits.setdefault((got[1], id(got[0])), (got[0], set()))[1].add(r)
    sdst = {r for r in defs if _sgpr_number(r) is not None}
    for r in sdst:
        pending.pop(r, None)
    if alu and sdst:
        field = "sa_sdst" if op.unit == "salu" else "va_vcc" if sdst <= VCC else "va_sdst"
        if sdst & masked:
            for r in sdst:
                pending[r] = (ins, field)
    if op.unit == "valu":
        masked |= _mask_read(ins)
    return [(f, w, frozenset(rs)) for (f, _), (w, rs) in hits.items()]


def ins_is_memory(ins: Instr) -> bool:
    """Scalar or buffer memory (a load's SGPR write is no SALU write)."""
    return ins.base.startswith(_SMEM + _VMEM)


def alu_waits(program: list[Instr], entry: str = "fragment") -> dict[int, str]:
    """Where AMDGPUWaitSGPRHazards puts an s_wait_alu in straight-line GFX12
    code: index -> its fields (`depctr_sa_sdst(0) depctr_va_sdst(0)`), each
    wait committing what it waits for.  (The generators of the catalogue
    write these.)  [S:hazards]"""
    st = SgprState.entry(entry)
    out: dict[int, str] = {}
    for k, ins in enumerate(program):
        hits = _sgpr_step(st, ins, False, commit=True)
        if hits:
            out[k] = " ".join(f"depctr_{f}(0)" for f in sorted({f for f, _, _ in hits}))
    return out


def pending_at_return(program: list[Instr], target: HasFeature, entry: str | SgprState = "fragment") -> list[Warning_]:
    """GFX12: an SGPR write still pending when a function returns.  LLVM's
    AMDGPUWaitSGPRHazards waits before a function's return for every write
    not yet committed (`s_wait_alu depctr_va_sdst(0)` after a VALU write,
    `depctr_sa_sdst(0)` after an SALU one; llc-22 on MIR), so that its
    callers need not track the callee's writes: a return without it breaks
    that contract.  `program` ends just before the return; `entry` as for
    `window`.  [S:trust-hazards]"""
    if not program or not target.has("hazard_gfx12_sgpr"):
        return []
    st = entry.copy() if isinstance(entry, SgprState) else SgprState.entry(entry)
    for ins in program:
        if id(ins) not in st.seen:
            _sgpr_step(st, ins, False, commit=True)  # (a read in a hazard is a finding of its own)
    pending: dict[tuple[str, int], tuple[Instr, set[str]]] = {}
    for field, writes in (("sa_sdst", st.salu), ("va_sdst", st.valu)):
        for r, w in writes.items():
            pending.setdefault((field, id(w)), (w, set()))[1].add(r)
    for kind, w in st.vcc.items():
        pending.setdefault(("sa_sdst" if kind == "salu" else "va_vcc", id(w)), (w, set()))[1].add("vcc")
    out = []
    for (field, _), (w, names) in pending.items():
        out.append(Warning_(program[-1].span, f"hazard ({_where('hazard_gfx12_sgpr')}): line {w.line} ({w.mnemonic}) "
                            f"writes {', '.join(sorted(names))} and the function returns with no s_wait_alu "
                            f"depctr_{field}(0) after it (LLVM waits before a return, so that callers need not): "
                            f"insert s_wait_alu depctr_{field}(0)"))
    return out


def sgpr_block_states(blocks: list[list[Instr]], succs: list[list[int]], entry: str) -> list[SgprState]:
    """The state at each basic block's start (LLVM's fixed point over the
    control flow: a block with several predecessors takes their union).
    The same blocks and entry give the same state objects (cached: the scans
    key on an entry state's id, so a kernel's proof per EXEC meets the scans
    of the proofs before it; the states are only copied, never changed)."""
    key = (tuple(tuple(map(id, b)) for b in blocks), tuple(map(tuple, succs)), entry)
    hit = _BLOCK_STATES.get(key)
    if hit is None:
        if len(_BLOCK_STATES) >= 256:
            _BLOCK_STATES.pop(next(iter(_BLOCK_STATES)))
        hit = _BLOCK_STATES[key] = ([list(b) for b in blocks], _block_states(blocks, succs, entry))
    return hit[1]


# (the blocks' instruction ids, the successors, the entry) -> (the instructions, kept
# so the ids stay theirs; the states): sgpr_block_states
_BLOCK_STATES: dict[tuple[Any, ...], tuple[list[list[Instr]], list[SgprState]]] = {}


def _block_states(blocks: list[list[Instr]], succs: list[list[int]], entry: str) -> list[SgprState]:
    ins: list[SgprState | None] = [None] * len(blocks)
    ins[0] = SgprState.entry(entry)
    work = [0]
    while work:
        b = work.pop()
        st = ins[b]
        assert st is not None
        st = st.copy()
        for i in blocks[b]:
            _sgpr_step(st, i, False)
        for s in succs[b]:
            cur = ins[s]
            if cur is None:
                ins[s] = st.copy()
                work.append(s)
            elif cur.merge(st):
                work.append(s)
    return [x if x is not None else SgprState.entry("fragment") for x in ins]


def _wait_states(ins: Instr) -> int:
    # the op's own count (s_nop N: N[2:0] + 1; every other op: one)
    return _op(ins).wait_states(ins)


def _separates(rule: Rule, ins: Instr) -> bool:
    """Whether `ins`, between producer and consumer, ends the window of an
    "alu" or "valu" rule."""
    if rule.sep == "alu":
        return ins.base == "s_wait_alu"
    return _is_valu(ins) and ins.base.startswith("v_") and not ins.base.startswith("v_nop")


def _partial(program: list[Instr], k: int) -> tuple[int, set[str]] | None:
    """GFX11 wave64 partial forwarding (LLVM's fixVALUPartialForwardingHazard,
    the search back from program[k]): a VALU instruction writes Va, an SALU
    instruction writes EXEC, a VALU instruction writes Vb, and program[k], a
    VALU instruction, reads Va and Vb; at most 2 VALU instructions between the
    first write and the EXEC write and the EXEC write and the second write
    together, at most 4 between the second write and program[k] (the nearest
    write of each register counts).  A vector memory, LDS or export
    instruction, or a wait for va_vdst, ends the search.  (the first write's
    index, the two registers), or None.  The registers read are the source
    operands' (LLVM's explicit uses): the half a true16 destination keeps is
    no operand there.  [S:trust-hazards] [S:mad-u16]"""
    srcs = _vgprs_read(program[k]) - _kept_half(program[k])
    if len(srcs) <= 1:
        return None
    defpos: dict[str, tuple[int, int]] = {}  # register -> (VALU instructions between it and program[k], index)
    execpos: int | None = None
    valus = 0
    for j in range(k - 1, -1, -1):
        ins = program[j]
        op = _op(ins)
        if valus > 8 or op.unit in ("memory", "ds") or _depctr_zero(ins, 12, 4):
            return None
        changed = False
        if op.unit == "valu":
            for r in sorted(srcs & _vgprs_written(ins) - set(defpos)):
                defpos[r] = (valus, j)
                changed = True
        elif op.unit == "salu" and not _is_smem(ins) and execpos is None and defpos and _exec_written(ins):
            execpos, changed = valus, True
        if valus > 4 and not defpos:
            return None
        if changed and execpos is not None:
            post = [(p, r) for r, (p, _) in defpos.items() if p < execpos]
            pre = [(p, r, i) for r, (p, i) in defpos.items() if p >= execpos]
            if post:
                p2, r2 = min(post)
                if p2 > 4 or execpos - p2 - 1 > 2:
                    return None
                if pre:
                    p1, r1, i1 = min(pre)
                    if p1 - execpos > 2 or (p1 - execpos) + (execpos - p2 - 1) > 2:
                        return None
                    return i1, {r1, r2}
        if op.unit == "valu":
            valus += 1
    return None


def _findings(program: list[Instr], k: int, rules: list[Rule],
              wave: int | None = None) -> Iterator[tuple[Rule, int, int, set[str]]]:
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
    op = _op(cons)
    roles, valu = op.roles(cons), op.unit == "valu"
    for rule in rules:
        if rule.field:
            continue  # a scan rule (GFX12 SGPR, GFX11 mask write): _scan
        if not (valu if rule.role == "valu" else op.unit == "memory" if rule.role == "vmem" else
                _is_smrd(cons) if rule.role == "smrd" else rule.role in roles):  # (Rule.consumer, its op looked up once)
            continue
        if rule.sep == "partial":
            got = _partial(program, k) if wave != 32 else None  # (None: the wave is not known, it may apply)
            if got is not None:
                yield rule, got[0], 0, got[1]
            continue
        reads = rule.reads(cons)
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
        return f"insert {rule.spelled} depctr_{rule.field}(0)"
    if rule.sep == "valu":
        return "insert a VALU instruction such as v_mov_b32 v0, v0 (s_nop and v_nop do not count)"
    if rule.sep == "partial":
        return f"insert {rule.spelled} depctr_{rule.field_wait}(0)"
    if rule.sep == "war":
        return rule.spelled
    n = rule.waits - waited  # one s_nop gives at most 8 wait states
    nops = [f"s_nop {min(8, n - 8 * i) - 1}" for i in range((n + 7) // 8)]
    return "insert " + " and ".join(nops)


def need_text(rule: Rule, waited: int) -> str:
    """'<what> needs N: insert ...' or '... with no s_wait_alu between'."""
    if rule.sep == "alu":
        return f"with no {rule.spelled} depctr_{rule.field}(0) between ({rule.what})"
    if rule.sep == "valu":
        return f"with no VALU instruction between ({rule.what}): {advice(rule, waited)}"
    if rule.sep == "partial":
        return f"with no {rule.spelled} depctr_{rule.field_wait}(0) after ({rule.what}): {advice(rule, waited)}"
    if rule.sep == "war":
        return f"which writes it before the read may have taken its value ({rule.what}): {rule.spelled}"
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


Hit = tuple[Rule, Instr, int, set[str] | frozenset[str]]  # (rule, producer, wait states between, registers)


def _same(a: list[SgprHit], b: list[SgprHit]) -> bool:
    return len(a) == len(b) and all(x[0] == y[0] and x[1] is y[1] and x[2] == y[2] for x, y in zip(a, b))


def _hits(program: list[Instr], k: int, target: HasFeature, entry: str | SgprState,
          variant: Callable[[str], str] | None, wave: int | None = None,
          rules: list[Rule] | None = None, sc: _Scan | None = None) -> Iterator[Hit]:
    """Every hazard program[k] reads on `target`: the windows, then the scans
    (`rules`: the target's, from check and needed, with `sc` the program's
    scan when a scan rule is among them, else None).  A rule's target feature is consulted only when program[k]
    plays its consumer role and a producer is in reach, so a proof depends
    on exactly the features that mattered (targets differing only in a rule
    that finds nothing still share one solver run); hazard.gfx12_sgpr only
    where LLVM's model and the strict one differ."""
    if k == 0:  # no producer before it (verify tv runs its code one instruction at a time)
        return
    for rule, j, waited, regs in _findings(program, k, RULES if rules is None else rules, wave):
        if target.has(rule.feature):
            yield rule, program[j], waited, regs
    if rules is None:
        mask_on = sgpr_on = True
        sc = _scan(program, entry)
    elif sc is None:
        return
    else:
        mask_on = any(r is MASK_WRITE["sa_sdst"] for r in rules)
        sgpr_on = any(r is SGPR_RULES["va_sdst"] for r in rules)
    if wave != 32 and mask_on:  # (None: the wave is not known, the rule may apply)
        for field, prod, mregs in sc.mask[k]:
            if target.has(MASK_WRITE[field].feature):
                yield MASK_WRITE[field], prod, 0, mregs
    llvm, strict = sc.llvm[k], sc.strict[k]
    if not sgpr_on or not (llvm or strict) or not target.has(SGPR_RULES["va_sdst"].feature):
        return
    if not _same(llvm, strict) and variant is not None and variant(SGPR_ASSUMPTION) == "strict":
        llvm = strict
    for field, w, sregs in llvm:
        yield SGPR_RULES[field], w, 0, sregs


def window(program: list[Instr], k: int, target: HasFeature, entry: str | SgprState = "fragment",
           variant: Callable[[str], str] | None = None, wave: int | None = None) -> dict[str, Finding]:
    """The registers program[k] reads inside a hazard window on `target`,
    each with its finding (the machine gives them unknown values).  `entry`:
    "kernel" when program[0] is a kernel's first instruction (the GFX12 SGPR
    rules track no pair there), else "fragment"; `variant`: an assumption's
    name -> the value in force."""
    out: dict[str, Finding] = {}
    if k + 1 < len(program):  # a later write of what program[k] reads (GFX10.1 write after read)
        for wrule, writer, wregs in _war_ahead(program, k, target):
            for reg in sorted(wregs):
                out.setdefault(reg, Finding(_WAR_AS_RULE[wrule.name], writer, program[k], reg, 0))
    if k == 0:
        return out
    cons = program[k]
    sc = _scan(program, entry)
    if not (sc.llvm[k] or sc.strict[k] or sc.mask[k]):  # the common case: the windows alone, no generator
        for rule, j, waited, regs in _findings(program, k, RULES, wave):
            if target.has(rule.feature):
                for reg in sorted(regs):
                    out.setdefault(reg, Finding(rule, program[j], cons, reg, waited))
        return out
    for rule, prod, waited, hregs in _hits(program, k, target, entry, variant, wave):
        for reg in sorted(hregs):
            out.setdefault(reg, Finding(rule, prod, cons, reg, waited))
    return out


def alu_wait_mnemonic(targets: Sequence[Target]) -> str:
    """The spelling of the wait `needed` asks for on all of `targets`:
    s_wait_alu (GFX12), else s_waitcnt_depctr (GFX10/GFX11 too; llvm-mc-22
    encodes it as s_wait_alu on GFX12).  [S:hazards]"""
    return "s_wait_alu" if all(t.has("wait_gfx12") for t in targets) else "s_waitcnt_depctr"


def needed(program: list[Instr], k: int, target: Target, wave: int | None = None) -> tuple[int, str]:
    """What must be inserted before program[k]: (wait states, the fields of
    the s_wait_alu needed, "" for none: `depctr_va_sdst(0)` ...).  Synthesis
    uses it to write hazard-free code.  (A "valu" rule's producer, v_cmpx,
    is no synthesis component.)"""
    waits, fields = 0, set()
    rules = [r for r in RULES if target.has(r.feature)]
    sc = _scan(program, "fragment") if any(r.field for r in rules) else None
    for rule, _, waited, _regs in _hits(program, k, target, "fragment", None, wave, rules, sc):
        if rule.sep == "alu":
            fields.add(rule.field)
        elif rule.sep == "partial":
            fields.add(rule.field_wait)
        elif rule.sep == "nop":
            waits = max(waits, rule.waits - waited)
    return waits, " ".join(f"depctr_{f}(0)" for f in sorted(fields))


# ---- GFX10.1 write-after-read hazards  [S:trust-hazards]
# An earlier instruction reads a register; a later one writes it before the
# reader has taken its value (GCNHazardRecognizer's fixSMEMtoVectorWriteHazards,
# fixVcmpxExecWARHazard, fixVMEMtoScalarWriteHazards; LLVM inserts
# `s_mov_b32 null, 0` or `s_waitcnt_depctr` before the writer).  The value the
# reader takes is the old or the new one; verify does not model which, so such
# a hazard is a warning (verify tv: the verdict is unknown), never semantics.

_SOPP = ("s_nop", "s_endpgm", "s_branch", "s_cbranch", "s_waitcnt", "s_barrier", "s_sendmsg", "s_setprio",
         "s_sleep", "s_trap", "s_icache", "s_incperflevel", "s_decperflevel", "s_ttracedata", "s_setkill",
         "s_wakeup", "s_set_gpr_idx_off", "s_set_gpr_idx_mode", "s_code_end", "s_inst_prefetch", "s_clause",
         "s_round_mode", "s_denorm_mode", "s_setvskip", "s_version", "s_wait_", "s_delay_alu", "s_endpgm_saved")


def _is_smem(ins: Instr) -> bool:
    return ins.base.startswith(_SMEM)


def _smem_reads(ins: Instr) -> set[str]:
    return {r for r in _op(ins).uses(ins) if not _is_vgpr(r)} if _is_smem(ins) else set()


def _valu_sgpr_defs(ins: Instr) -> set[str]:
    return _sgprs_written(ins) - {"scc"} if _is_valu(ins) else set()


def _smem_war_ends(ins: Instr) -> bool:
    """An SALU instruction other than a SOPP one (and s_waitcnt_vscnt/vmcnt/
    expcnt) ends it, as does a wait for lgkmcnt 0."""
    if any(c == "lgkm" and n == 0 for c, n in waits_of(ins)):
        return True
    return _op(ins).unit == "salu" and not _is_smem(ins) and not ins.base.startswith(_SOPP)


def _non_valu_exec_reads(ins: Instr) -> set[str]:
    """EXEC, when a non-VALU instruction reads it: an SALU read, or any
    vector memory or LDS instruction (each reads EXEC)."""
    op = _op(ins)
    if op.unit in ("memory", "ds"):
        return set(EXEC)
    return set(op.uses(ins)) & EXEC if op.unit == "salu" else set()


def _valu_exec_defs(ins: Instr) -> set[str]:
    return _exec_written(ins) if _is_valu(ins) else set()


def _depctr_zero(ins: Instr, lo: int, width: int) -> bool:
    mask = _op(ins).depctr(ins)
    return mask is not None and (mask >> lo) & ((1 << width) - 1) == 0


def _never(ins: Instr) -> bool:
    return False


def _valu_vgpr_defs(ins: Instr) -> set[str]:
    return _vgprs_written(ins) if _is_valu(ins) else set()


def _vcmpx_war_ends(ins: Instr) -> bool:
    """A VALU instruction with a scalar destination operand (v_readlane and
    v_readfirstlane name theirs vdst: they do not), or a wait for sa_sdst."""
    if _is_valu(ins) and not ins.base.startswith(("v_readlane", "v_readfirstlane")) \
            and _sgprs_written(ins) - {"scc"} - EXEC:
        return True
    return _depctr_zero(ins, 0, 1)


def _vmem_sgpr_reads(ins: Instr) -> set[str]:
    """The SGPRs a vector memory or LDS instruction reads, and EXEC (each reads it)."""
    op = _op(ins)
    return {r for r in op.uses(ins) if not _is_vgpr(r)} - {"scc"} | EXEC if op.unit in ("memory", "ds") else set()


def _scalar_defs(ins: Instr) -> set[str]:
    op = _op(ins)
    return _sgprs_written(ins) - {"scc"} if op.unit == "salu" else set()


def _vmem_war_ends(ins: Instr) -> bool:
    if _is_valu(ins) or _depctr_zero(ins, 2, 3):
        return True
    if ins.base != "s_waitcnt":  # s_waitcnt 0: every counter, expcnt too
        return False
    rest = ins.text.split(";")[0].strip()[len(ins.mnemonic):].strip()
    return rest in ("0", "0x0") or all(f"{c}(0)" in rest for c in ("vmcnt", "expcnt", "lgkmcnt"))


def _wide_store_data(ins: Instr) -> set[str]:
    """The data VGPRs of a vector memory store or atomic of more than 64
    bits (LLVM's createsVALUHazard: a buffer one only with no SGPR soffset;
    no image one)."""
    m = ins.mnemonic
    if _op(ins).unit != "memory" or not ("store" in m or "atomic" in m) or m.startswith("image_"):
        return set()
    if m.startswith(("buffer_", "tbuffer_")) and len(ins.operands) > 3 and isinstance(ins.operands[3], SReg):
        return set()  # (vdata, vaddr, srsrc, soffset: an SGPR soffset)
    dests = _defs(ins)
    return {n for o in ins.operands if isinstance(o, VReg) and o.count > 2 for n in o.names() if n not in dests}


@dataclass(frozen=True, eq=False)
class WarRule:
    """An earlier instruction reads registers (`reads`), a later one writes
    one of them (`writes`) with nothing between that `ends` the hazard."""

    name: str
    feature: str
    reads: Callable[[Instr], set[str]]
    writes: Callable[[Instr], set[str]]
    ends: Callable[[Instr], bool]
    what: str
    fix: str
    waits: int = 0  # wait states that end it (0: only `ends`)


WAR_RULES = [
    WarRule("smem-valu-war", "hazard_gfx101_war", _smem_reads, _valu_sgpr_defs, _smem_war_ends,
            "a VALU write of an SGPR a scalar memory instruction still reads", "insert s_mov_b32 null, 0"),
    WarRule("vcmpx-exec-war", "hazard_gfx101_war", _non_valu_exec_reads, _valu_exec_defs, _vcmpx_war_ends,
            "a VALU write of EXEC that a non-VALU instruction still reads",
            "insert s_waitcnt_depctr depctr_sa_sdst(0)"),
    WarRule("vmem-salu-war", "hazard_gfx101_war", _vmem_sgpr_reads, _scalar_defs, _vmem_war_ends,
            "a scalar write of an SGPR a vector memory or LDS instruction still reads",
            "insert s_waitcnt_depctr depctr_vm_vsrc(0)"),
    # GFX8/9: checkVALUHazards (has12DWordStoreHazard, checkVALUHazardsHelper): 1 wait state, gfx94x 2
    WarRule("store-data", "hazard_store_data", _wide_store_data, _valu_vgpr_defs, _never,
            "a VALU write of a VGPR a vector memory store of more than 64 bits still reads",
            "it needs 1 wait state after the store: insert s_nop 0", 1),
    WarRule("store-data-94", "hazard_store_data_94", _wide_store_data, _valu_vgpr_defs, _never,
            "a VALU write of a VGPR a vector memory store of more than 64 bits still reads",
            "it needs 2 wait states after the store: insert s_nop 1, less the wait states between", 2),
]


def _war_ahead(program: list[Instr], k: int, target: HasFeature) -> Iterator[tuple[WarRule, Instr, set[str]]]:
    """(rule, the later writer, the registers) for each write-after-read
    hazard whose reader is program[k]: the machine reads them as unknown
    there, since the reader may take the value written after it (code whose
    later instructions are known: a lowering, a `verify asm` region).
    [S:trust-hazards]"""
    for rule in WAR_RULES:
        regs = rule.reads(program[k])
        if not regs:
            continue
        waited = 0
        for m in range(k + 1, len(program)):
            hit = rule.writes(program[m]) & regs
            if hit:
                if target.has(rule.feature):
                    yield rule, program[m], hit
                break
            waited += _wait_states(program[m])
            if rule.ends(program[m]) or (rule.waits and waited >= rule.waits):
                break


# each write-after-read rule as a Rule, for its Finding (the writer stands as the producer)
_WAR_AS_RULE = {w.name: Rule(w.name, w.feature, None, _none, "valu", _none, 0, w.what, "war", spelled=w.fix)
                for w in WAR_RULES}


def war_findings(program: list[Instr], k: int, target: HasFeature) -> Iterator[tuple[WarRule, Instr, set[str]]]:
    """(rule, the earlier reader, the registers) for each write-after-read
    hazard program[k] completes on `target`.  [S:trust-hazards]"""
    cons = program[k]
    for rule in WAR_RULES:
        regs = rule.writes(cons)
        if not regs:
            continue
        waited = 0
        for j in range(k - 1, -1, -1):
            hit = rule.reads(program[j]) & regs
            if hit:
                if target.has(rule.feature):
                    yield rule, program[j], hit
                break
            waited += _wait_states(program[j])
            if rule.ends(program[j]) or (rule.waits and waited >= rule.waits):
                break


@functools.cache
def _where(feature: str) -> str:
    return needs_text(feature).removesuffix(" only")


def check(program: list[Instr], target: Target, variant: Callable[[str], str] | None = None,
          entry: str | SgprState = "fragment", wave: int | None = None) -> list[Warning_]:
    """A warning for each hazard, whether or not it can change an output
    (the proof decides that: a read in the window is unknown).  `variant`
    (an assumption's name -> the value in force) drops the findings of a rule
    whose named assumption is not at its "unknown" variant, as the machine
    does (verify.tv turns any warning into "unknown"), and picks the GFX12
    model (hazard.gfx12_sgpr).  `entry`: as for `window`, or the state at
    program[0] (a basic block's, from sgpr_block_states)."""
    warns: list[Warning_] = []
    rules = [r for r in RULES if target.has(r.feature)]
    sc = _scan(program, entry) if any(r.field for r in rules) else None
    plain = [r for r in rules if not r.field]
    for k, cons in enumerate(program):
        if k == 0:
            continue
        if sc is None or not (sc.llvm[k] or sc.strict[k] or sc.mask[k]):  # the windows alone
            found: Iterator[Hit] = ((r, program[j], w, g) for r, j, w, g in _findings(program, k, plain, wave))
        else:
            found = _hits(program, k, target, entry, variant, wave, rules, sc)
        for rule, prod, waited, hit in found:
            if rule.assumption is not None and variant is not None and variant(rule.assumption) != "unknown":
                continue
            where = _where(rule.feature)
            regs = ", ".join(sorted(hit))
            head = (f"hazard ({where}): line {prod.line} ({prod.mnemonic}) writes {regs} and "
                    f"{cons.mnemonic} reads it")
            warns.append(Warning_(cons.span, f"{head} {need_text(rule, waited)}"))
        for wrule, reader, wregs in war_findings(program, k, target):
            regs = ", ".join(sorted(wregs))
            warns.append(Warning_(cons.span, f"hazard ({_where(wrule.feature)}): line {reader.line} "
                                  f"({reader.mnemonic}) reads {regs} and {cons.mnemonic} writes it "
                                  + ("too soon" if wrule.waits else "with nothing between to end the hazard")
                                  + f" ({wrule.what}): {wrule.fix}"))
    return warns
