"""Reduction and scan synthesis (`verify synth red.reduce_all op=add ...`).

The search runs in whole-wave mode (``s_or_saveexec -1`` ... ``s_mov exec``,
inactive lanes given the operator's identity by a ``v_cndmask``) over steps
that each combine v1 with a moved copy of itself:

- a DPP-fused ALU op ``v_OP_dpp v1, v1, v1 CTRL row_mask bank_mask`` for every
  DPP16 control the target has (row_shr, row_bcast, wave_shr, row_share,
  row_xmask, quad_perm, mirrors, ...);
- a cross-row move into v2 (``v_permlanex16_b32``, ``v_permlane64_b32``, a
  ``v_readlane_b32`` broadcast, a copy swapped in place by gfx950's
  ``v_permlane16_swap_b32``/``v_permlane32_swap_b32``) followed by a masked
  combine of v2 into v1;
- for the reductions, a finisher: ``v_readlane_b32`` of one lane per group,
  the partial results combined by SALU ops (VALU ops for f32) and broadcast.

Structure keeps it fast (the monoid view, as verify/presearch.py reasons):
every lane's value is the SET of lanes it has combined (a bitmask), each
step's lane map comes from running its move through the ordinary machine on
lane tags (``concrete.run``), and a step that would combine a lane twice
(add, xor, fadd: not idempotent) or, for a scan, a lane beyond the prefix, is
masked off or pruned before any solver call.  The search is A* on cost
(cost.py's classes; hazard waits from hazards.py inserted and paid for) with
an admissible bound (a set at most doubles per step; the finisher's cheapest
form), states merged on their tag state.  Masks: per step the maximal
row/bank masks that exclude every lane the step would spoil.

The engine owns no notion of correctness: the winner is written as a
lowering file, re-read and proved by the ordinary checker (emit.reverify);
a refuted or undecided candidate is dropped and the search goes on.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..diag import InputError
from ..hazards import alu_wait_mnemonic, needed
from ..ir import Instr
from ..refine import Result
from ..target import Target
from .components import _dpp16_controls
from .concrete import TAG_BASE, run
from .cost import CostModel, model_for
from .emit import relies_on, render, reverify
from .search import _instr

# op: (GCN VALU, RDNA VALU, identity (assembly operand), SALU op or None, idempotent)
OPS: dict[str, tuple[str, str, str, str | None, bool]] = {
    "add": ("v_add_u32", "v_add_nc_u32", "0", "s_add_u32", False),
    "umax": ("v_max_u32", "v_max_u32", "0", "s_max_u32", True),
    "umin": ("v_min_u32", "v_min_u32", "-1", "s_min_u32", True),
    "smax": ("v_max_i32", "v_max_i32", "0x80000000", "s_max_i32", True),
    "smin": ("v_min_i32", "v_min_i32", "0x7fffffff", "s_min_i32", True),
    "and": ("v_and_b32", "v_and_b32", "-1", "s_and_b32", True),
    "or": ("v_or_b32", "v_or_b32", "0", "s_or_b32", True),
    "xor": ("v_xor_b32", "v_xor_b32", "0", "s_xor_b32", False),
    "fadd": ("v_add_f32", "v_add_f32", "0x80000000", None, False),  # -0.0; reassociation claim
}
# the DPP16 controls searched: the butterfly and tree shapes (quad xor, half
# mirror, mirror, row_xmask), Hillis-Steele shifts (row_shr 1..3, 4, 8, and
# wave_shr), row broadcasts/shares of a row's last or first lane, and the
# row-joining row_bcast; each a DPP-fused combine with maximal masks
CONTROLS = frozenset(
    ["quad_perm:[1,0,3,2]", "quad_perm:[2,3,0,1]", "quad_perm:[0,0,1,2]", "quad_perm:[0,0,0,0]",
     "row_half_mirror", "row_mirror", "wave_shr:1", "wave_ror:1", "row_bcast:15", "row_bcast:31",
     "row_share:15", "row_share:0", "row_share:3", "row_share:7",
     "row_newbcast:15", "row_newbcast:0"]
    + [f"row_shr:{k}" for k in (1, 2, 3, 4, 8)] + [f"row_ror:{k}" for k in (4, 8)]
    + [f"row_xmask:{m}" for m in (1, 2, 3, 4, 7, 8, 15)])
SPECS = ("red.reduce_all", "red.reduce", "red.scan_incl", "red.scan_excl")
_FULL = "row_mask:0xf bank_mask:0xf"


def is_reduction_spec(spec: str) -> bool:
    return spec in SPECS


@dataclass(frozen=True)
class Move:
    """A way to bring lane values of v1 to other lanes: `pre` instructions
    (into v2) and the DPP control of the combine (reading v1 or v2)."""
    label: str
    pre: tuple[str, ...]
    src: str  # "v1" (fused DPP) or "v2"
    ctrl: str
    gather: tuple[int | None, ...]  # lane -> source lane, None: the lane is left alone


@dataclass
class RedStats:
    states: int = 0
    expanded: int = 0
    pruned: int = 0  # steps dropped by the tag check (a lane combined twice / beyond the prefix)
    proofs: int = 0
    refuted: int = 0


@dataclass
class RedOutcome:
    spec: str
    params: dict[str, Any]
    targets: list[Target]
    wave: int
    model: CostModel
    cost: int | None = None
    lines: list[str] = field(default_factory=list)
    text: str | None = None
    results: list[Result] = field(default_factory=list)
    exhaustive: bool = True
    max_steps: int = 0
    stats: RedStats = field(default_factory=RedStats)
    relies_on: list[str] = field(default_factory=list)
    robust: bool = False
    seconds: float = 0.0
    # LLVM's own sequence for the spec (llvmref.compare_lines), filled by the CLI
    llvm_lines: list[str] = field(default_factory=list)
    llvm: list[dict[str, Any]] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        return "proved" if self.text is not None else "none"

    def claim(self) -> str:
        swaps = all(t.has("permlane_swap") for t in self.targets)
        scope = (f"within whole-wave programs of at most {self.max_steps} combine steps over the listed DPP16 "
                 "controls (reduce.CONTROLS, maximal row/bank masks and, for add/xor/fadd once every lane holds a row "
                 "(a scan: its row's prefix), their row subsets), permlanex16/permlane64/readlane moves"
                 + (", the gfx950 permlane16/permlane32 swaps of a copy," if swaps else "")
                 + " and a readlane finisher, each step obeying the progress rule (reduce._Problem.progress)")
        if self.spec == "red.scan_excl":
            scope += (", after the inputs are moved up one lane (wave_shr:1, or on targets without wave shifts "
                      "row_shr:1 and v_readlane/v_writelane across rows: reduce._Problem.shift_up)")
        if self.robust:
            scope += (", the winner proved under every variant of the named assumptions (the tag pruning runs "
                      "the default variants)")
        if self.cost is None:
            return f"no lowering found {scope}"
        if self.exhaustive:
            return f"optimal: no lowering cheaper than {self.cost} exists {scope}"
        return f"best found: cost {self.cost} (the search stopped before it had tried every cheaper program)"

    def out_lines(self, wrote: str | None = None, times: bool = False) -> list[str]:
        spec = f"{self.spec} {' '.join(f'{k}={v}' for k, v in self.params.items())}".strip()
        out = [f"synth {spec} for {', '.join(t.name for t in self.targets)} wave{self.wave} under exec=any"]
        if self.cost is not None:
            out.append(f"  cost {self.cost}; cost model {self.model.name}, estimated cycles")
            out += [f"    {line}" for line in self.lines]
            for r in self.results:
                out.append(f"  proved for {r.target} wave{self.wave}; assumptions: {r.assumption_text()} "
                           "(re-read from the lowering text)")
        out.append(f"  {self.claim()}")
        if self.relies_on:
            out.append(f"  relies on the default variant of {', '.join(self.relies_on)}")
        out += self.llvm_lines
        st = self.stats
        out.append(f"  searched {st.states} tag states ({st.expanded} expanded, {st.pruned} steps pruned by tags); "
                   f"{st.proofs} proofs, {st.refuted} refuted" + (f"; {self.seconds:.1f} s" if times else ""))
        if wrote:
            out.append(f"  wrote {wrote} (re-read and proved)")
        return out

    def to_json(self, wrote: str | None = None, times: bool = False) -> dict[str, Any]:
        st = self.stats
        return {"spec": {"name": self.spec, "params": self.params}, "targets": [t.name for t in self.targets],
                "wave": self.wave, "exec": "any", "verdict": self.verdict, "cost": self.cost,
                "cost_model": self.model.name, "lowering": self.lines, "claim": self.claim(),
                "optimal": self.cost is not None and self.exhaustive, "robust": self.robust,
                "relies_on": self.relies_on, "max_steps": self.max_steps,
                "results": [{"target": r.target, "wave": r.wave, "verdict": r.verdict} for r in self.results],
                "stats": {"states": st.states, "expanded": st.expanded, "pruned": st.pruned, "proofs": st.proofs,
                          "refuted": st.refuted, **({"seconds": round(self.seconds, 3)} if times else {})},
                "file": wrote, "text": self.text, **({"llvm": self.llvm} if self.llvm else {})}


def instr_cost(ins: Instr, model: CostModel, wave: int) -> int:
    b = ins.base
    if b == "s_nop":
        words = ins.text.split()
        return model.cycles["wait_state"] * ((int(words[1], 0) if len(words) > 1 else 0) + 1)
    if b.startswith("s_"):
        return model.cycles["salu"]
    cls = ("readlane" if b.startswith("v_readlane") else "permlane_swap" if b.endswith("_swap_b32")
           else "permlane" if b.startswith("v_permlane")
           else "dpp" if ins.enc == "dpp" else "valu")
    return model.cycles[cls] * (model.wave64_valu_passes if wave == 64 else 1)


def _gather(instrs: list[str], target: Target, wave: int) -> tuple[int | None, ...] | None:
    """Run `instrs` (moves into v2 reading v1) on lane tags: each lane of v2
    names the lane of v1 it holds, None where v2 kept its old value (the lane
    is not combined); None overall if anything else (or illegal here)."""
    try:
        m = run([_instr(t) for t in instrs], target, wave, (1 << wave) - 1, TAG_BASE, wwm=True)
    except Exception:  # an illegal or unsupported move on this target
        return None
    out: list[int | None] = []
    for i, v in enumerate(m.v(2)):
        if v == TAG_BASE * 3 + i:
            out.append(None)
        elif TAG_BASE * 2 <= v < TAG_BASE * 2 + wave:
            out.append(v - TAG_BASE * 2)
        else:
            return None
    return tuple(out)


def moves(targets: list[Target], wave: int) -> list[Move]:
    """The moves every target has, each with its lane map (from the first
    target; a move whose map differs between the targets is dropped)."""
    found: list[Move] = []
    seen: set[tuple[int | None, ...]] = set()
    cands: list[tuple[str, tuple[str, ...], str, str]] = []
    for feat, ctrl in _dpp16_controls():
        if ctrl not in CONTROLS:
            continue
        if all(t.has(feat) for t in targets):
            cands.append((ctrl, (), "v1", ctrl))
    if all(t.has("permlane16") for t in targets):
        for sel, lab in (("-1, -1", "lane 15 of the other row"), ("0x76543210, 0xfedcba98", "the other row")):
            cands.append((f"permlanex16 {lab}", (f"v_permlanex16_b32 v2, v1, {sel}",), "v2", "quad_perm:[0,1,2,3]"))
    if wave == 64 and all(t.has("permlane64") for t in targets):
        cands.append(("permlane64", ("v_permlane64_b32 v2, v1",), "v2", "quad_perm:[0,1,2,3]"))
    if all(t.has("permlane_swap") for t in targets):
        # gfx950: a copy swapped in place exchanges rows 0<->1, 2<->3 (16) or the wave's halves (32)
        cands.append(("permlane16_swap the other row", ("v_mov_b32_e32 v2, v1", "v_permlane16_swap_b32_e32 v2, v2"),
                      "v2", "quad_perm:[0,1,2,3]"))
        if wave == 64:
            cands.append(("permlane32_swap the other half", ("v_mov_b32_e32 v2, v1",
                                                              "v_permlane32_swap_b32_e32 v2, v2"),
                          "v2", "quad_perm:[0,1,2,3]"))
    if True:
        for lane in range(15, wave, 16):
            cands.append((f"broadcast lane {lane}", (f"v_readlane_b32 s2, v1, {lane}", "v_mov_b32_e32 v2, s2"), "v2",
                          "quad_perm:[0,1,2,3]"))
    for label, pre, src, ctrl in cands:
        maps = []
        for t in targets:
            g = _gather(list(pre) if pre else [f"v_mov_b32_dpp v2, v1 {ctrl} {_FULL}"], t, wave)
            maps.append(g)
        g0 = maps[0]
        if g0 is None or any(g != g0 for g in maps):
            continue
        if all(s is None or s == i for i, s in enumerate(g0)):
            continue  # moves nothing
        key = (*g0, len(pre))
        if key in seen:
            continue
        seen.add(key)
        found.append(Move(label, pre, src, ctrl, g0))
    return found


@cache
def _instr_c(text: str) -> Instr:
    return _instr(text)


def _masks(wave: int) -> list[tuple[int, int]]:
    rows = (1 << (wave // 16)) - 1
    return [(r, b) for r in range(1, rows + 1) for b in range(1, 16)]


class _Problem:
    def __init__(self, spec: str, op: str, targets: list[Target], wave: int):
        self.spec, self.op, self.targets, self.wave = spec, op, targets, wave
        self.rdna = targets[0].has("wave32")
        valu_gcn, valu_rdna, self.ident, self.salu, self.idem = OPS[op]
        self.valu = valu_rdna if self.rdna else valu_gcn
        self.model = model_for(targets[0])
        W = wave
        self.full = (1 << W) - 1
        self.prefix = [(1 << (i + 1)) - 1 for i in range(W)]
        self.excl = spec == "red.scan_excl"
        if spec == "red.scan_incl":
            self.goal: tuple[int, ...] | None = tuple(self.prefix)
        elif self.excl:  # lanes 0..i-1; lane 0 the identity (no lane)
            self.goal = tuple((1 << i) - 1 for i in range(W))
        else:
            self.goal = None
        # a scan lane's part of its goal within its own row
        self.rowpre = [g & ~((1 << (i & ~15)) - 1) for i, g in enumerate(self.goal or self.prefix)]
        self.moves = moves(targets, wave)
        self.mask_cells: list[tuple[tuple[int, int], int]] = []
        for r, b in _masks(W):
            cells = 0
            for row in range(W // 16):
                for bank in range(4):
                    if r >> row & 1 and b >> bank & 1:
                        cells |= 1 << (row * 4 + bank)
            self.mask_cells.append(((r, b), cells))
        # full masks first: the text reads plainer and ties go to them
        self.mask_cells.sort(key=lambda mc: -bin(mc[1]).count("1"))
        self._mask_cache: dict[tuple[int, int, bool], list[tuple[tuple[int, int], int]]] = {}
        self.b = "b32" if W == 32 else "b64"
        self.save = "s0" if W == 32 else "s[0:1]"
        self.exec = "exec_lo" if W == 32 else "exec"

    # the program's text pieces
    def prologue(self) -> list[str]:
        out = [f"s_or_saveexec_{self.b} {self.save}, -1"]
        if self.excl:  # the inputs into v3, then moved up one lane into v1 (the identity in lane 0)
            if self.ident in ("0", "-1"):
                out += [f"v_cndmask_b32_e64 v3, {self.ident}, v0, {self.save}", f"v_mov_b32_e32 v1, {self.ident}"]
            else:
                out += [f"v_mov_b32_e32 v1, {self.ident}", f"v_cndmask_b32_e64 v3, v1, v0, {self.save}"]
            return out + self.shift_up()
        if self.ident in ("0", "-1"):
            out.append(f"v_cndmask_b32_e64 v1, {self.ident}, v0, {self.save}")
        else:  # a literal: GFX9 VOP3 takes none, so go through a VGPR
            out += [f"v_mov_b32_e32 v3, {self.ident}", f"v_cndmask_b32_e64 v1, v3, v0, {self.save}"]
        return out

    def shift_up(self) -> list[str]:
        """v1 = v3 one lane up (lane 0 keeps v1): a DPP wave_shr:1 where the
        targets have wave shifts (GFX9, CDNA), else row_shr:1 and each row's
        first lane from the previous row's last through v_readlane/
        v_writelane, as LLVM's atomic optimizer builds it (RDNA)."""
        if all(t.has("dpp_wave_shift") for t in self.targets):
            return [f"v_mov_b32_dpp v1, v3 wave_shr:1 {_FULL}"]
        out = [f"v_mov_b32_dpp v1, v3 row_shr:1 {_FULL}"]
        for r in range(1, self.wave // 16):
            out += [f"v_readlane_b32 s6, v3, {16 * r - 1}", f"v_writelane_b32 v1, s6, {16 * r}"]
        return out

    def initial_state(self) -> tuple[int, ...]:
        """Each lane's set after the prologue, from running it on lane tags
        (the exclusive scan's shift: lane i holds lane i-1, lane 0 nothing)."""
        W = self.wave
        if not self.excl:
            return tuple(1 << i for i in range(W))
        m = run([_instr(t) for t in self.prologue()], self.targets[0], W, (1 << W) - 1, TAG_BASE, wwm=True)
        ident = int(self.ident, 0) & 0xFFFFFFFF
        out = []
        for i, v in enumerate(m.v(1)):
            if TAG_BASE <= v < TAG_BASE + W:
                out.append(1 << (v - TAG_BASE))
            elif v == ident:
                out.append(0)
            else:
                raise AssertionError(f"the exclusive scan's shift leaves lane {i} with {v:#x}")
        return tuple(out)

    def epilogue(self) -> list[str]:
        return [f"s_mov_{self.b} {self.exec}, {self.save}"]

    def step_text(self, mv: Move, mask: tuple[int, int]) -> list[str]:
        r = 15 if mask[0] == (1 << (self.wave // 16)) - 1 else mask[0]
        return list(mv.pre) + [f"{self.valu}_dpp v1, {mv.src}, v1 {mv.ctrl} row_mask:{r:#x} "
                               f"bank_mask:{mask[1]:#x}"]

    def finisher(self, lanes: list[int]) -> list[str]:
        out = []
        for k, lane in enumerate(lanes):
            out.append(f"v_readlane_b32 s{4 + min(k, 1)}, v1, {lane}")
            if k and self.salu is not None:
                out.append(f"{self.salu} s4, s4, s5")
            elif k:
                out.append(f"{self.valu}_e32 v1, s5, v1")
            if k == 0 and self.salu is None:
                out.append("v_mov_b32_e32 v1, s4")
        if self.salu is not None:
            out.append("v_mov_b32_e32 v1, s4")
        return out

    def with_waits(self, lines: list[str]) -> tuple[list[Instr], int]:
        prog: list[Instr] = []
        cost = 0
        for text in lines:
            ins = _instr_c(text)
            prog.append(ins)
            waits, alu = 0, ""
            for t in self.targets:
                w, a = needed(prog, len(prog) - 1, t, self.wave)
                waits, alu = max(waits, w), alu or a
            prog.pop()
            if alu:
                w_ins = _instr_c(f"{alu_wait_mnemonic(self.targets)} {alu}")
                prog.append(w_ins)
                cost += instr_cost(w_ins, self.model, self.wave)
            if waits:
                n_ins = _instr_c(f"s_nop {waits - 1}")
                prog.append(n_ins)
                cost += instr_cost(n_ins, self.model, self.wave)
            prog.append(ins)
            cost += instr_cost(ins, self.model, self.wave)
        return prog, cost

    # the tag semantics
    def apply(self, st: tuple[int, ...], mv: Move) -> list[tuple[tuple[int, int], tuple[int, ...]]]:
        """The states each maximal mask gives (empty when no mask helps)."""
        W = self.wave
        new = list(st)
        bad_cells = 0
        good_cells = 0
        for i in range(W):
            s = mv.gather[i]
            if s is None:
                continue
            a, b = st[i], st[s]
            cell = 1 << ((i // 16) * 4 + (i % 16) // 4)
            ok = (self.idem or not (a & b)) and (self.goal is None or not ((a | b) & ~self.goal[i]))
            if not ok:
                bad_cells |= cell
                continue
            if a | b != a:
                good_cells |= cell
            new[i] = a | b
        if not good_cells:
            return []
        out: list[tuple[tuple[int, int], tuple[int, ...]]] = []
        # the cross-row phase: every lane (a scan: every incomplete lane) holds a row
        if self.goal is None:
            cross = all(bin(a).count("1") >= 16 for a in st)
        else:  # a scan: every lane holds its row's prefix
            cross = all(a & self.rowpre[i] == self.rowpre[i] for i, a in enumerate(st))
        key = (bad_cells, good_cells, cross)
        maximal = self._mask_cache.get(key)
        if maximal is None:
            cands = [(m, c) for m, c in self.mask_cells if not c & bad_cells and c & good_cells]
            maximal = [(m, c) for m, c in cands if not any(c2 != c and c2 & c == c for _, c2 in cands)]
            if not self.idem and cross:
                # not idempotent: combining a row now can spoil a later step
                # (LLVM's scan joins rows with row_mask 0xa, then 0xc), so the
                # maximal masks' row subsets too
                extra = [(m, c) for m, c in cands if m[1] in {mm[1] for mm, _ in maximal}
                         and any(c2 & c == c and m[0] & mm[0] == m[0] for mm, c2 in maximal)]
                maximal += [mc for mc in extra if mc not in maximal]
            self._mask_cache[key] = maximal
        for m, cells in maximal:
            res = tuple(new[i] if cells >> ((i // 16) * 4 + (i % 16) // 4) & 1 else st[i] for i in range(W))
            if res != st:
                out.append((m, res))
        return out

    def finish_options(self, st: tuple[int, ...]) -> list[list[int]]:
        """Readlane lanes whose sets partition (or, idempotent, cover) the
        wave: one lane per group of W/n lanes, the largest set in it."""
        if self.goal is not None:
            return []
        opts: list[list[int]] = []
        W = self.wave
        n = 1
        while n <= W // 4:
            g = W // n
            lanes = [max(range(k * g, (k + 1) * g), key=lambda i: (bin(st[i]).count("1"), -i)) for k in range(n)]
            union, ok = 0, True
            for lane in lanes:
                if union & st[lane] and not self.idem:
                    ok = False
                union |= st[lane]
            if ok and union == self.full:
                opts.append(lanes)
                break
            if self.salu is None:
                break  # f32: one lane read and broadcast, no scalar adds
            n *= 2
        return opts

    def progress(self, st: tuple[int, ...], nst: tuple[int, ...]) -> bool:
        """The progress rule (a restriction of the search, stated in the
        claim): a reduction step grows the smallest set of any lane (once
        every lane holds a row, for add/xor/fadd: or the largest); a scan
        step completes a lane or grows the smallest incomplete set."""
        if self.goal is None:
            m0 = min(bin(s).count("1") for s in st)
            if min(bin(s).count("1") for s in nst) > m0:
                return True
            # the cross-row phase (every lane holds at least a row), not
            # idempotent (few programs survive the tags): growing the largest set counts
            return (not self.idem and m0 >= 16
                    and max(bin(s).count("1") for s in nst) > max(bin(s).count("1") for s in st))
        goal = self.goal
        done0 = sum(a == b for a, b in zip(st, goal))
        done1 = sum(a == b for a, b in zip(nst, goal))
        if done1 > done0:
            return True
        m0 = min((bin(a).count("1") for a, b in zip(st, goal) if a != b), default=0)
        m1 = min((bin(a).count("1") for a, b in zip(nst, goal) if a != b), default=0)
        return m1 > m0

    def done(self, st: tuple[int, ...]) -> bool:
        if self.goal is not None:
            return st == self.goal
        if self.spec == "red.reduce":
            return st[0] == self.full
        return all(s == self.full for s in st)


def synthesize_red(spec: str, params: dict[str, Any], targets: list[Target], wave: int, name: str = "synth",
                   command: str = "", timeout: float = 60.0, max_steps: int = 8, robust: bool = False,
                   target_names: list[str] | None = None, time_limit: float | None = None) -> RedOutcome:
    """The cheapest reduction/scan lowering the checker proves (see the module doc)."""
    t_start = time.perf_counter()
    if spec not in SPECS:
        raise InputError(None, f"reduction synthesis handles {', '.join(SPECS)}, not {spec}")
    op = str(params.get("op", ""))
    if op not in OPS:
        raise InputError(None, f"reduction synthesis: op must be one of {', '.join(OPS)}, not {op!r}")
    if params.get("over", "active") != "active" or "width" in params:
        raise InputError(None, "reduction synthesis handles the whole wave with over=active only")
    if op == "fadd" and spec in ("red.scan_incl", "red.scan_excl"):
        raise InputError(None, "reduction synthesis: an f32 scan has no reassociation claim; use reduce_all/reduce")
    if not targets:
        raise InputError(None, "synthesis needs a target")
    for t in targets:
        if wave not in t.waves:
            raise InputError(None, f"{t.name} runs wave{'/'.join(map(str, t.waves))} only, not wave{wave}")
    if len({model_for(t).name for t in targets}) > 1:
        raise InputError(None, "the targets use different cost models: synthesise GCN/CDNA and RDNA targets separately")
    P = _Problem(spec, op, targets, wave)
    out = RedOutcome(spec, dict(params), targets, wave, P.model, max_steps=max_steps, robust=robust)
    names = target_names or [t.name for t in targets]
    pro, _ = P.with_waits(P.prologue())
    dpp_min = min(instr_cost(_instr(P.step_text(m, (15, 15))[-1]), P.model, wave) for m in P.moves)

    rl = instr_cost(_instr("v_readlane_b32 s4, v1, 0"), P.model, wave)
    comb = (P.model.cycles["salu"] if P.salu is not None
            else instr_cost(_instr(f"{P.valu}_e32 v1, s5, v1"), P.model, wave))
    mov = instr_cost(_instr("v_mov_b32_e32 v1, s4"), P.model, wave)

    def steps_to(size: int, low: int) -> int:
        k = 0
        while low << k < size:
            k += 1
        return k

    def h(st: tuple[int, ...]) -> int:
        """A lower bound on the cost still to pay: every step at most
        doubles the largest set; a finisher over n lanes needs sets of W/n."""
        if P.done(st):
            return 0
        low = max(bin(s).count("1") for s in st)
        best = steps_to(wave, low) * dpp_min
        if P.goal is None:
            n = 1
            while n <= wave // 4:
                best = min(best, steps_to(wave // n, low) * dpp_min + n * rl + (n - 1) * comb + mov)
                n *= 2
        return best

    base_c = P.with_waits(P.prologue())[1]
    delta: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
    init = P.initial_state()
    # a node: (f, g, seq, state, lines, steps, finished)
    counter = 0
    # ties go to finished programs, then to the deepest (the cheapest first
    # stays exact: f is a lower bound)
    heap: list[tuple[int, int, int, int, tuple[int, ...], tuple[str, ...], int, bool]] = [
        (h(init) + base_c, 1, -base_c, 0, init, (), 0, False)]
    best_g: dict[tuple[int, ...], int] = {init: base_c}
    deadline = None if time_limit is None else t_start + time_limit

    def cost_of(lines: tuple[str, ...], prev: tuple[str, ...], prev_c: int) -> int:
        """The cost of prologue + lines, from that of prologue + prev (a
        prefix): hazards look back a few instructions only, so the added
        instructions are costed after the last 8 of the prefix."""
        ctx = tuple((P.prologue() + list(prev))[-8:])
        new = tuple(lines[len(prev):])
        hit = delta.get((ctx, new))
        if hit is None:
            hit = delta[(ctx, new)] = P.with_waits(list(ctx + new))[1] - P.with_waits(list(ctx))[1]
        return prev_c + hit

    while heap:
        _f, _, ng, _, st, lines, nsteps, finished = heapq.heappop(heap)
        g = -ng
        if deadline is not None and time.perf_counter() > deadline:
            out.exhaustive = False
            break
        if finished or P.done(st):
            text_lines = P.prologue() + list(lines) + P.epilogue()
            prog, c = P.with_waits(text_lines)
            header = [f"{name}: cheapest proven lowering of {spec} {' '.join(f'{k}={v}' for k, v in params.items())} "
                      f"on {', '.join(names)} wave{wave}.",
                      f"generated by: {command}" if command else "generated by: verify synth",
                      f"cost: {c} (cost model {P.model.name}: estimated cycles; docs/synthesis.md)"]
            ptxt = render(name, spec, {k: v for k, v in params.items()}, names, wave, "any", prog, targets[0], header)
            out.stats.proofs += 1
            try:
                _, res, warns = reverify(f"{name}.s", ptxt, targets, wave, timeout, robust)
            except InputError:
                out.stats.refuted += 1
                continue
            if warns or any(r.verdict != "proved" for r in res):
                out.stats.refuted += 1
                continue
            out.cost, out.results = c, res
            out.lines = [ins.text for ins in prog]
            lines_all = ptxt.split("\n")
            k = next(i for i, l in enumerate(lines_all) if l.startswith("; cost:")) + 1
            out.text = "\n".join(lines_all[:k] + [f"; {out.claim()}"] + lines_all[k:])
            low, res2, warns2 = reverify(f"{name}.s", out.text, targets, wave, timeout, robust)
            if warns2 or any(r.verdict != "proved" for r in res2):
                raise AssertionError("a synthesised lowering failed re-verification from its text")
            if not robust:
                try:
                    out.relies_on = relies_on(res2, low, targets, wave, timeout)
                except InputError as e:  # a variant takes the program outside the spec's claim
                    out.relies_on = [f"the assumptions it consults (another variant: {e})"]
            break
        if best_g.get(st, 1 << 60) < g:
            continue
        out.stats.expanded += 1
        if P.goal is None:
            for lanes in P.finish_options(st):
                fl = lines + tuple(P.finisher(lanes))
                c = cost_of(fl, lines, g)
                counter += 1
                heapq.heappush(heap, (c, 0, -c, counter, st, fl, nsteps, True))
        if nsteps >= max_steps:
            continue
        for mv in P.moves:
            res_states = P.apply(st, mv)
            if not res_states:
                out.stats.pruned += 1
            for mask, nst in res_states:
                if not P.progress(st, nst):
                    out.stats.pruned += 1
                    continue
                nl = lines + tuple(P.step_text(mv, mask))
                c = cost_of(nl, lines, g)
                if c >= best_g.get(nst, 1 << 60):
                    continue
                best_g[nst] = c
                out.stats.states += 1
                counter += 1
                heapq.heappush(heap, (c + h(nst), 1 - P.done(nst), -c, counter, nst, nl, nsteps + 1, False))
    del pro
    out.seconds = time.perf_counter() - t_start
    return out


