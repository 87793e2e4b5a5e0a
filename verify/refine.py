"""The checker: per-lane refinement of a spec by a lowering, per (target,
wave), under every EXEC mask the contract admits.

Obligations, in order (each one a named solver question):

1. ``contract``: the EXEC contract admits a mask with an active lane;
2. ``defined``: some admitted state has an active lane where the spec is
   defined (otherwise the proof would be vacuous);
3. ``value(NAME)`` per output: in every lane active at entry where the spec
   is defined, the output equals the spec;
4. ``exec``: EXEC at the end equals EXEC at entry.

1 and 2 failing make the verdict ``error`` (vacuous); 3 or 4 refuted make it
``refuted`` with a counterexample; any ``unknown`` (timeout, solver gave
up) makes it ``unknown``, which never passes.  Inactive lanes of outputs
and registers listed in ``@clobbers`` are unconstrained.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from . import catalog, waits
from .assume import variant_space
from .backend import Concrete, Cond, Symbolic, Value
from .diag import InputError, Warning_
from .encode import Encoding, encode, fixed_exec, symbolic_exec, symbolic_initial, vacuity_witness
from .hazards import check as hazards
from .identities import FOLDS
from .ir import Lowering, SReg, VReg
from .machine import Machine
from .ops.base import op_of, reg_names
from .presearch import RANDOM_MASKS, Bounded, Found, Mode, Search, first_cases, more_cases
from .presearch import counterexample as presearch_counterexample
from .spec import SpecDef, spec_monoid
from .target import FeatureLog, Target, resolve, resolve_all
from .wide import HALFWISE, WIDE_TYPES

if TYPE_CHECKING:
    from .cex import Counterexample

DEFAULT_TIMEOUT = 30.0
# z3 resource units (rlimit) for the all-lanes query before going lane by lane:
# a count of solver steps, so the choice (and the counterexample it leads to) is
# the same on every run, however busy the machine.  Measured with z3 5.4.1: every
# joint query of the catalogue and tests/golden that z3 answers within 1.2 million
# (shfl_idx_var, shfl_down_var_wrap: 0.8 to 1.2 million, depending on what the
# process built before) stays joint; the quadrant shuffles (3.3 to 3.7 million
# when asked to the end, 1.5 to 2.5 s) and shfl_down_var (more than 6 million) go
# lane by lane after about 0.5 to 1 s.  Replaces a 0.25 s wall-clock budget.
JOINT_RLIMIT = 2_000_000
# z3 resource units for each check of the solver's counterexample search after a
# refutation by the concrete pre-search (refine.solver_counterexample): the first
# check that gives up ends it and the pre-search's own counterexample is shown.
CEX_RLIMIT = JOINT_RLIMIT
# ... and for a wave32 lowering that multiplies (v_mul*, v_mad*, s_mul*; in wave64
# the search is skipped, the pre-search's counterexample shown): bit-blasted
# multiplication makes each resource unit slow (a wave32 mul scan mutant spent
# 150 s in that search before giving up at CEX_RLIMIT; at this cap, 3 s).
CEX_RLIMIT_MUL = JOINT_RLIMIT // 8
# z3 resource units for each exact-f32 question with fadd abstracted
# (smt.Z3.abstract_fadd; operands as written, then in canonical order), asked
# when the all-lanes question gives up: it proves f32 trees equal up to
# commutation and -0.0 fills, or is passed over.  The catalogue's equivalent
# f32 mutants (a dropped permlanex16 select, `s_or_saveexec_b32 s0, -2` in the
# fadd scan) were unknown after minutes bit-blasted: proved in 10-22 s CPU.
ABSTRACT_RLIMIT = 20 * JOINT_RLIMIT


@dataclass
class Obligation:
    name: str
    verdict: str  # proved / refuted / unknown / error
    detail: str = ""


@dataclass
class Result:
    lowering: str
    path: str
    target: str
    wave: int
    exec_contract: str
    verdict: str
    obligations: list[Obligation] = field(default_factory=list)
    assumptions: dict[str, str] = field(default_factory=dict)
    warnings: list[Warning_] = field(default_factory=list)
    cex: Counterexample | None = None
    method: str = ""
    seconds: float = 0.0
    shared_with: str | None = None  # target whose solver run this result reuses
    variants: list[dict[str, Any]] = field(default_factory=list)  # --robust: every variant tried
    claim: str = ""  # f32: which claim (exact or reassociation)
    robust_over: list[str] | None = None  # --robust: the assumptions varied
    smt2: dict[str, str] = field(default_factory=dict)  # obligation -> SMT-LIB text (when asked)
    # registers (outputs, clobbers) whose lanes inactive at entry the lowering
    # can change (whole-wave mode): information, not an obligation
    writes_inactive: list[str] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)  # the ops the run executed (Machine.ops_run), sorted

    def assumption_text(self) -> str:
        if self.robust_over is not None and self.verdict == "proved":
            return ("every variant of " + ", ".join(self.robust_over)) if self.robust_over else "none consulted"
        return ", ".join(f"{k}={v}" for k, v in sorted(self.assumptions.items())) or "none"

    def scope(self) -> str:
        s = f"{self.target} wave{self.wave} under exec={self.exec_contract}, assumptions: {self.assumption_text()}"
        return s + (f"; claim: {self.claim}" if self.claim else "")

    def detail_lines(self, low: Lowering, robust: bool = False, cex: bool = True, notes: bool = False) -> list[str]:
        """A verdict's details as the CLI prints them: per-variant verdicts
        (`robust`), the claim and the whole-wave note (`notes`), every
        obligation not proved, the counterexample (`cex`)."""
        out = []
        if robust and self.variants and len(self.variants) >= 2:
            for v in self.variants:
                va = ", ".join(f"{k}={x}" for k, x in sorted(v["assumptions"].items())) or "none"
                out.append(f"    {v['verdict']:<8} under {va}{' (the defaults)' if v.get('default') else ''}")
            if self.verdict != "proved" and any(v["verdict"] == "proved" for v in self.variants):
                out.append("    the verdict depends on an unsettled behaviour; the counterexample below is for "
                           + (", ".join(f"{k}={x}" for k, x in sorted(self.assumptions.items())) or "the defaults"))
            elif self.verdict != "proved" and len({v["verdict"] for v in self.variants}) == 1:
                out.append(f"    {self.verdict} under every variant: the verdict does not depend on these assumptions")
        if notes and self.claim:
            out.append(f"    claim: {self.claim}")
        if notes and self.writes_inactive:
            out.append(f"    note: it may change {', '.join(self.writes_inactive)} in lanes inactive at entry "
                       f"(whole-wave mode): correct only where the caller keeps nothing live in those lanes")
        out += [f"    {o.name}: {o.verdict}: {o.detail}" for o in self.obligations if o.verdict != "proved"]
        if cex and self.cex is not None:
            from .cex import render  # (counterexamples' modules load with one: start-up, issue #35)

            out += render(self.cex, low)
        return out

    def to_json(self, times: bool = False) -> dict[str, Any]:
        """This result as `verify lowering --json` reports it (seconds only with `times`)."""
        return {
            "target": self.target,
            "wave": self.wave,
            "exec": self.exec_contract,
            "verdict": self.verdict,
            "scope": self.scope(),
            "assumptions": self.assumptions,
            "obligations": [{"name": o.name, "verdict": o.verdict, "detail": o.detail} for o in self.obligations],
            "counterexample": self.cex.to_json() if self.cex is not None else None,
            "warnings": [str(w) for w in self.warnings],
            "method": self.method,
            "shared_with": self.shared_with,
            "variants": self.variants,
            "writes_inactive": self.writes_inactive,
            **({"seconds": round(self.seconds, 3)} if times else {}),
        }


def static_checks(low: Lowering, target: Target, wave: int) -> list[Warning_]:
    """Legality on the target, wave size, and the clobber contract."""
    if wave not in target.waves:
        raise InputError(low.spans.get("waves"), f"{target.name} runs wave{'/'.join(map(str, target.waves))} only, not wave{wave}")
    warns: list[Warning_] = []
    for ins in low.program:
        warns += op_of(ins.base).check(ins, target, wave)
    warns += hazards(low.program, target, None, low.hazard_entry, wave)
    outs = [] if low.clobbers is None else [b.reg.index for b in low.outputs if isinstance(b.reg, VReg)]
    warns += waits.check(low.program, lambda i: op_of(i.base).uses(i), lambda i: op_of(i.base).defs(i), outs)
    if low.clobbers is None:  # compiler output: no clobber contract
        return warns
    allowed = set()
    for b in low.outputs:
        allowed.update(_names(b.reg))
    for c in low.clobbers:
        allowed.update(_names(c))
    allowed.update({"exec_lo", "exec_hi", "scc"})  # EXEC must be restored: an obligation
    for ins in low.program:
        for r in op_of(ins.base).defs(ins):
            if r not in allowed:
                raise InputError(ins.span, f"{ins.mnemonic} writes {r}, which is neither an @output nor listed in @clobbers")
    for b in low.inputs:
        if isinstance(b.reg, VReg) and b.reg.count not in (1, 2):
            raise InputError(b.span, "an input binds one VGPR or a VGPR pair (a 64-bit value)")
    return warns


def _names(reg: Any) -> list[str]:
    if isinstance(reg, VReg):
        return reg.names()
    if isinstance(reg, SReg):
        return list(reg.names)
    return []


def prove_one(low: Lowering, target: Target, wave: int, timeout: float = DEFAULT_TIMEOUT,
              assume: dict[str, str] | None = None, want_cex: bool = True, encoding: str = "auto",
              smt2: bool = False) -> tuple[Result, FeatureLog]:
    """encoding: "auto" uses the monoid encoding when the spec combines lanes
    with one operator (see smt.Z3Monoid), "naive" plain bit-vectors.
    smt2: also keep every obligation as SMT-LIB text (Result.smt2)."""
    from .smt import Z3, NotMonoid, Session, monoid_backend  # z3 is imported by the commands that prove (test_imports)

    t0 = time.perf_counter()
    assume = dict(assume or {})
    lib = catalog.speclib()
    spec_def = lib.get(low.spec, low.spans.get("spec"))
    if spec_def.sorts:  # a sort: the network argument (verify/sortnet.py, docs/bitonic.md)
        return _prove_sort(low, target, wave, timeout, assume, spec_def, t0)
    monoid = spec_monoid(lib, low.spec, low.params) if encoding != "naive" else None
    if spec_def.value_type in WIDE_TYPES and monoid not in HALFWISE:
        monoid = None  # a 64-bit add or compare couples the halves: not a monoid of 32-bit leaves  [S:wide64]
    if monoid is not None:
        try:
            return _prove_one(low, target, wave, timeout, assume, want_cex, monoid_backend(monoid, Session()), spec_def,
                              f"monoid({monoid})", t0, smt2)
        except NotMonoid as e:
            if monoid == "fadd":
                raise InputError(low.spans.get("spec"), str(e)) from None
    return _prove_one(low, target, wave, timeout, assume, want_cex, Z3(Session()), spec_def, "bit-vector", t0, smt2)


@dataclass(frozen=True)
class ObligationRow:
    """One proof obligation as data: the question, which answer means it
    holds, and what the proof records either way (Alive2's list of checks).
    `question` builds the condition when the row is reached (a list: one
    condition per lane, asked by :meth:`_Proof.ask_lanes`), so a row settled
    without the solver builds no terms."""

    name: str
    question: Callable[[], Any]  # a Cond, or a list of per-lane Conds
    holds_if: str  # "sat" (a witness exists) or "unsat" (no bad state exists)
    holds: str  # the obligation's detail when it holds
    fails: str  # ... when it does not
    fails_as: str  # "error" (the proof would be vacuous) or "refuted"
    witnessed: str = ""  # settled by a concrete witness, with this detail: no question asked
    output: str = ""  # a value row's output (for the f32 abstraction)
    record_holds: bool = True  # False: holding records nothing (the exec row of a region that does not check it)


class _Proof:
    """The state of one proof of (lowering, target, wave) on backend B: the
    encoding, the solver query, the pre-search, and the Result it fills.
    :func:`_prove_one` drives it through its stages: vacuity rows, the
    concrete pre-search, value rows, the exec row, the counterexample."""

    def __init__(self, low: Lowering, target: Target, wave: int, timeout: float, assume: dict[str, str],
                 want_cex: bool, B: Symbolic, spec_def: SpecDef, enc_name: str, smt2: bool, z3: Any) -> None:
        self.low, self.target, self.wave, self.assume, self.want_cex = low, target, wave, assume, want_cex
        self.B, self.enc_name, self.smt2, self.z3 = B, enc_name, smt2, z3
        self.fresh: dict[str, Any] = {}
        initial = symbolic_initial(B, wave, self.fresh)
        enc = self.enc = encode(low, target, wave, B, assume, initial, symbolic_exec(B, wave, low.exec_contract))
        enc.fresh = self.fresh
        f32 = self.f32 = spec_def.value_type == "f32" or low.params.get("op") in ("fadd", "fmin", "fmax")
        res = self.res = Result(low.name, low.path, target.name, wave, low.exec_contract, "proved",
                                assumptions=dict(enc.machine.assumptions_used),
                                method=f"{z3.SOLVER}, {enc_name} encoding, exec={low.exec_contract}",
                                ops=sorted(enc.machine.ops_run))
        if f32:
            res.claim = ("exact: the same f32 value bit for bit (NaN equals NaN) as the spec's fixed combine tree, "
                         "for inputs that are not NaN") if enc_name == "bit-vector" else (
                         "reassociation: the same multiset of f32 summands as the spec, in any order and grouping, "
                         "for inputs that are not NaN")
        self.q = z3.Query(timeout, session=B.session)  # the proof's own z3 context: see smt.Session
        if f32:  # the f32 claims are stated for inputs that are not NaN
            for vals in enc.inputs.values():
                for v in vals:
                    self.q.add(B.not_b(B.fis_nan(v)))
        self.act0, self.W = enc.act0, wave
        self.differ: Callable[[Value, Value], Cond] = (lambda a, b: B.not_b(B.feq(a, b))) if f32 else B.ne
        self.search: Search | None = None
        self.stage2: list[Found | None] = []  # the pre-search's second stage's answer, once it has run
        self.bad_conds: list[tuple[str, Cond]] = []
        self.refuted_early = False  # by the pre-search or the f32 search, before the value rows

    # ---- asking -------------------------------------------------------------
    def export(self, name: str, cond: Cond, proved_if: str) -> None:
        """Every obligation as a stand-alone SMT-LIB question (--smt2)."""
        low, res = self.low, self.res
        res.smt2[name] = self.z3.smt2_benchmark(cond, self.q.assertions, [
            f"verify obligation {name}: {low.name} ({low.spec}) for {self.target.name} wave{self.wave} "
            f"under exec={low.exec_contract}",
            f"assumptions: {', '.join(f'{k}={v}' for k, v in sorted(res.assumptions.items())) or 'none'}",
            f"{proved_if} means the obligation holds; made with {self.z3.SOLVER}"])

    def ask(self, name: str, cond: Cond) -> str:
        """Is `cond` satisfiable?"""
        if cond is False:  # folded away while encoding: no solver call needed
            return "unsat"
        q = self.q
        q.push()
        q.add(cond)
        r: str = q.check()
        q.pop()
        if r == "unknown":
            self.res.obligations.append(Obligation(name, "unknown", f"solver: {q.reason or 'gave up'}"))
        return r

    def ask_lanes(self, name: str, conds: list[Cond], out_name: str = "") -> tuple[str, Cond]:
        """Is some lane's condition satisfiable?  One query for all lanes
        first, on a small resource limit; if that does not settle it, the
        same query bit-blasted whole (z3's own solver, the same limit: only
        its "unsat" is taken, so every refutation takes the path it took), the
        second stage of the concrete pre-search (verify.presearch: answer
        "presearch"), then one query per lane (symbolic lane indices make
        the joint query much harder than its parts).  Returns (answer, the
        satisfiable condition)."""
        B, q, res = self.B, self.q, self.res
        live = [c for c in conds if c is not False]
        if not live:
            return "unsat", None
        joint = B.or_b(*live)
        q.push()
        q.add(joint)
        r = q.check(rlimit=JOINT_RLIMIT)
        q.pop()
        if r != "unknown":
            return r, joint
        if self.z3.skeleton_unsat(joint, JOINT_RLIMIT):  # both sides built from the same atoms
            if ", propositional" not in res.method:
                res.method += ", propositional"
            return "unsat", None
        q.push()
        q.add(joint)
        r = q.check(rlimit=JOINT_RLIMIT, plain=True)  # bit-blasted whole: a lane mask against EXEC
        q.pop()
        if r == "unsat":  # a "sat" goes on as before: the counterexample search asks with the tactic
            if ", bit-blasted" not in res.method:
                res.method += ", bit-blasted"
            return r, None
        if self.search is not None and self.search.mode.op is not None and not self.stage2:
            self.stage2.append(self.search.run(more_cases(self.low.exec_contract, self.W), RANDOM_MASKS))
            if self.stage2[0] is not None:
                return "presearch", None
        if self.f32 and self.enc_name == "bit-vector" and self.abstract_unsat(out_name):
            res.method += ", fadd abstracted"
            return "unsat", None
        res.method += ", per-lane"
        # a question that is another lane's with the two lanes swapped in
        # every register has that lane's answer (Z3.lane_twins): only when
        # the query holds nothing but the question (no f32 not-NaN facts)
        twins = B.lane_twins(conds) if not self.f32 else [None] * len(conds)
        for c, twin in zip(conds, twins):
            if c is False or twin is not None:
                continue
            q.push()
            q.add(c)
            r = q.check()
            q.pop()
            if r == "sat":
                return "sat", c
            if r == "unknown":  # the verdict is unknown at best: the other lanes would only add time
                res.obligations.append(Obligation(name, "unknown", f"solver: {q.reason or 'gave up'} in some lane"))
                return "unknown", None
        return "unsat", None

    def abstract_unsat(self, name: str) -> bool:
        """Does output `name` equal the spec in every active lane with fadd
        abstracted (smt.Z3.abstract_fadd: an unknown commutative function
        with the exact NaN and -0.0 cases)?  Sound to prove with, since the
        exact fadd is one such function; the same unknowns as `enc` (names
        are per Session), on a resource limit."""
        return any(self._abstract_unsat(name, how) for how in ("canonical", "as-is"))

    def _abstract_unsat(self, name: str, how: str) -> bool:
        low, q = self.low, self.q
        A = self.z3.Z3(self.B.session, abstract_fadd=how)
        ab = encode(low, self.target, self.wave, A, self.assume, symbolic_initial(A, self.wave, {}),
                    symbolic_exec(A, self.wave, low.exec_contract))
        sv, sd = ab.spec[name]
        out = ab.outputs[name]
        # lanes with the same (value, spec) terms (a scalar output: every lane) are one question
        guards: dict[tuple[int, int], list[Cond]] = {}
        pairs: dict[tuple[int, int], tuple[Value, Value]] = {}
        for i in range(self.W):
            key = (_term_key(out[i]), _term_key(sv[i]))
            guards.setdefault(key, []).append(A.and_b(ab.act0[i], sd[i]))
            pairs[key] = (out[i], sv[i])
        for key, (o, v) in pairs.items():
            cond = A.and_b(A.or_b(*guards[key]), A.not_b(A.feq(o, v)))
            if cond is False:
                continue
            q.push()
            for ax in A.axioms:
                q.add(ax)
            q.add(cond)
            r = q.check(rlimit=ABSTRACT_RLIMIT)
            q.pop()
            if r != "unsat":
                return False
        return True

    # ---- the rows -----------------------------------------------------------
    def run(self, rows: list[ObligationRow]) -> None:
        """Ask each row in order and record what its answer means; a
        refutation by the pre-search's second stage ends the rows."""
        B, res = self.B, self.res
        for row in rows:
            built = None
            if self.smt2:
                built = row.question()
                self.export(row.name, B.or_b(*built) if isinstance(built, list) else built, row.holds_if)
            if row.witnessed:
                res.obligations.append(Obligation(row.name, "proved", row.witnessed))
                continue
            built = row.question() if built is None else built
            if isinstance(built, list):
                r, bad = self.ask_lanes(row.name, built, row.output)
            else:
                r, bad = self.ask(row.name, built), built
            if r == "presearch":
                self.found_by_presearch(self.stage2[0])
                return
            if r == row.holds_if:
                if row.record_holds:
                    res.obligations.append(Obligation(row.name, "proved", row.holds))
            elif r in ("sat", "unsat"):
                res.obligations.append(Obligation(row.name, row.fails_as, row.fails))
                if row.fails_as == "refuted":
                    self.bad_conds.append((row.name, bad))

    def vacuity_rows(self) -> list[ObligationRow]:
        """1-2. vacuity.  A concrete witness settles each without the
        solver: all lanes on (every contract admits it) and lane-numbered
        inputs."""
        B, act0, enc = self.B, self.act0, self.enc
        witness = vacuity_witness(self.low, self.target, self.wave, self.assume)
        return [
            ObligationRow("contract", lambda: B.or_b(*act0), "sat", "some admitted EXEC mask has an active lane",
                          "the EXEC contract admits no active lane", "error",
                          witnessed="the contract admits an EXEC mask with an active lane" if witness["contract"] else ""),
            ObligationRow("defined", lambda: B.or_b(*[B.and_b(act0[i], d) for o in enc.spec.values()
                                                      for i, d in enumerate(o[1])]),
                          "sat", "the spec is defined in some active lane",
                          "the spec is undefined in every active lane: a proof would be vacuous", "error",
                          witnessed="the spec is defined in an active lane (concrete witness)" if witness["defined"] else ""),
        ]

    def value_rows(self) -> list[ObligationRow]:
        """3. values: per output, in every lane active at entry where the
        spec is defined, the output equals the spec (asked lane-wise)."""
        B, enc, act0, differ = self.B, self.enc, self.act0, self.differ

        def lanes(name: str) -> Callable[[], list[Cond]]:
            def build() -> list[Cond]:
                sv, sd = enc.spec[name]
                out = enc.outputs[name]
                return [B.and_b(act0[i], sd[i], differ(out[i], sv[i])) for i in range(self.W)]
            return build
        return [ObligationRow(f"value({name})", lanes(name), "unsat",
                              f"every active lane where the spec is defined equals {self.low.spec}",
                              "an active lane differs from the spec", "refuted", output=name)
                for name in enc.outputs]

    def exec_row(self) -> ObligationRow:
        """4. EXEC at the end equals EXEC at entry (when the lowering checks it)."""
        B, enc, low = self.B, self.enc, self.low

        def changed() -> Cond:
            lo1, hi1 = enc.machine.exec_pair()
            lo0, hi0 = enc.exec0
            return B.or_b(B.ne(lo1, lo0), B.ne(hi1, hi0) if self.W == 64 else False) if low.check_exec else False
        return ObligationRow("exec", changed, "unsat", "EXEC is restored", "EXEC at the end differs from EXEC at entry",
                             "refuted", record_holds=low.check_exec)

    # ---- the concrete searches ------------------------------------------------
    def search_first(self) -> None:
        """A concrete pre-search (verify.presearch) of the states that break
        reductions and scans: one active lane, -0.0, identities, extremes; a
        state that fails is a refutation that replays.  An exact f32 claim
        then gets a random concrete search: the solver is hopeless at finding
        a rounding difference between two 32-leaf float trees."""
        low, B, enc, act0, differ = self.low, self.B, self.enc, self.act0, self.differ
        folded = all(B.and_b(act0[i], sd, differ(out[i], sv[i])) is False
                     for name, out in enc.outputs.items() for sv, sds in [enc.spec[name]] for i, sd in enumerate(sds))
        fold_op = spec_monoid(catalog.speclib(), low.spec, low.params) or low.params.get("op")
        mode = Mode(fold_op if isinstance(fold_op, str) and fold_op in FOLDS else None, self.f32,
                    exact_sums=self.f32 and self.enc_name != "bit-vector" and fold_op == "fadd",
                    monoid=self.enc_name != "bit-vector")
        self.search = None if folded else Search(low, self.target, self.wave, self.assume, enc, mode)
        hit = self.search.run(first_cases(low.exec_contract, self.wave)) if self.search is not None else None
        if self.f32:
            from .cex import f32_search
        found = (f32_search(low, self.target, self.wave, self.assume, enc)
                 if self.f32 and self.enc_name == "bit-vector" and not folded and hit is None else None)
        if hit is not None:
            self.found_by_presearch(hit)
        elif found is not None:
            self.res.obligations.append(Obligation(f"value({found[0]})", "refuted",
                                                   "an active lane differs from the spec (found by concrete search)"))
            from .cex import concrete_counterexample

            self.res.cex = concrete_counterexample(low, self.target, self.wave, self.assume, found[1], found[2])
            self.res.method += ", concrete search"
        self.refuted_early = hit is not None or found is not None

    def found_by_presearch(self, h: Found | None) -> None:
        """A refutation by the concrete pre-search, its counterexample made as the solver's are."""
        assert self.search is not None and h is not None
        res, low, want_cex = self.res, self.low, self.want_cex
        res.cex, how = None, ""
        if want_cex and (h.mask == 1 or low.exec_contract != "any"):  # EXEC as the solver's: no solver needed
            res.cex = presearch_counterexample(self.search, h, solver_free=True)
        if want_cex and res.cex is None and not (self.f32 and self.enc_name == "bit-vector"):
            res.cex = self.solver_counterexample(h)
        if want_cex and res.cex is None:  # values the solver did not choose: say so, as for f32_search
            res.cex, how = presearch_counterexample(self.search, h), " (found by concrete search)"
        oname = res.cex.obligation if res.cex is not None else f"value({h.output})"
        # reported as the solver's refutations are; `method` names the pre-search
        res.obligations.append(Obligation(oname, "refuted", "an active lane differs from the spec" + how))
        res.method += ", concrete pre-search"

    # ---- the counterexample ---------------------------------------------------
    def solver_counterexample(self, h: Found) -> Counterexample | None:
        """The counterexample the solver path would give for the output the
        pre-search refuted (verify.cex: fewest lanes, then the smallest mask,
        then tags, the monoid witness or small values), asked with at most as
        many active lanes as the state found and every check on a resource
        limit; None if a check gives up (then the pre-search's own)."""
        low, B, enc, q, W = self.low, self.B, self.enc, self.q, self.W
        multiplies = any(re.match(r"^[vs]_(mul|mad)", ins.base) for ins in low.program)
        if multiplies and W == 64:
            # z3 bit-blasts 64 multipliers per step before the resource limit
            # bounds anything (a gfx9 mul scan mutant: 30 s in one check)
            return None
        sv, sd = enc.spec[h.output]
        out = enc.outputs[h.output]
        cond = B.or_b(*[B.and_b(self.act0[i], sd[i], self.differ(out[i], sv[i])) for i in range(W)])
        if enc.exec_bits:
            cond = B.and_b(cond, B.at_most(enc.exec_bits, bin(h.mask).count("1")))
        bq = Bounded(q, CEX_RLIMIT_MUL if multiplies else CEX_RLIMIT)
        depth, size = len(q.marks), len(q.assertions)
        from .cex import find_counterexample

        try:
            cex = find_counterexample(low, self.target, self.wave, enc, B, bq, [(f"value({h.output})", cond)],  # type: ignore[arg-type]
                                      self.assume)
        except AssertionError:  # a check gave up where the search needed an answer
            del q.marks[depth:]
            del q.assertions[size:]
            return None
        return None if bq.gave_up else cex

    def conclude(self) -> None:
        """The verdict from the obligations; what a proved lowering writes
        in inactive lanes; a refutation's counterexample."""
        res, low = self.res, self.low
        verdicts = {o.verdict for o in res.obligations}
        res.verdict = "refuted" if "refuted" in verdicts else "unknown" if "unknown" in verdicts else "proved"
        if res.verdict == "proved" and low.exec_contract != "full" and low.clobbers is not None:
            res.writes_inactive = _writes_inactive(low, self.enc, self.fresh, self.B, self.q)
        if res.verdict == "refuted" and self.want_cex and res.cex is None:
            from .cex import find_counterexample

            res.cex = find_counterexample(low, self.target, self.wave, self.enc, self.B, self.q, self.bad_conds,
                                          self.assume)


def _prove_one(low: Lowering, target: Target, wave: int, timeout: float, assume: dict[str, str], want_cex: bool,
               B: Symbolic, spec_def: SpecDef, enc_name: str, t0: float, smt2: bool = False) -> tuple[Result, FeatureLog]:
    """One proof, stage by stage (module doc): vacuity, the concrete
    searches, the values, EXEC, then the verdict and its counterexample."""
    from . import smt  # z3 is imported by the commands that prove (test_imports)

    p = _Proof(low, target, wave, timeout, assume, want_cex, B, spec_def, enc_name, smt2, smt)
    p.run(p.vacuity_rows())
    if any(o.verdict == "error" for o in p.res.obligations):
        p.res.verdict = "error"
    else:
        p.search_first()
        if not p.refuted_early:
            p.run(p.value_rows())
        p.run([p.exec_row()])
        p.conclude()
    p.res.seconds = time.perf_counter() - t0
    return p.res, _feature_log(p.enc)


def _term_key(v: Any) -> int:
    """A value's identity: a constant itself, a term its id (z3 shares equal terms)."""
    return v if type(v) is int else -1 - v.get_id()


def _prove_sort(low: Lowering, target: Target, wave: int, timeout: float, assume: dict[str, str],
                spec_def: SpecDef, t0: float) -> tuple[Result, FeatureLog]:
    """A lowering of a sorting spec, by the network argument: its verdict's
    claim says it relies on the 0-1 principle."""
    from .sortnet import prove_sort  # (sorting specs only: start-up, issue #35)

    flog = FeatureLog(target)
    p = prove_sort(low, target, wave, timeout, assume, spec_def, flog)
    res = Result(low.name, low.path, target.name, wave, low.exec_contract, p.verdict,
                 [Obligation(n, v, d) for n, v, d in p.obligations], assumptions=dict(p.assumptions),
                 cex=p.cex, method=p.method, ops=sorted(p.ops),
                 claim="sorted by the network argument: each stage is a compare-exchange layer of the bitonic "
                       "sorter, which sorts by the 0-1 principle (docs/bitonic.md)")
    res.seconds = time.perf_counter() - t0
    return res, flog


def _feature_log(enc: Encoding) -> FeatureLog:
    """The target features a run consulted (encode always gives its machine a log)."""
    assert enc.machine.target is not None
    return enc.machine.target


def _writes_inactive(low: Lowering, enc: Encoding, fresh: dict[str, Any], B: Symbolic, q: Any) -> list[str]:
    """Output and clobbered VGPRs the lowering may change in a lane that was
    inactive at entry, under some admitted EXEC: whole-wave code does.  A
    caller that keeps live values in those lanes (the other side of a branch)
    loses them.  One concrete run (EXEC = lane 0 only, every register
    lane-numbered; no solver) shows most; for the rest the solver is asked,
    on a fixed resource limit, whether any EXEC lets some lane inactive at
    entry end with a different value (v_writelane into lane 0 does, which
    the concrete run cannot see).  A register is listed unless the solver
    shows it never changes, so the list holds over every EXEC."""
    names: list[str] = []
    for reg in [b.reg for b in low.outputs] + list(low.clobbers or []):  # None: not called
        if isinstance(reg, VReg):
            names += [n for n in reg_names(reg) if n not in names]
    W = enc.machine.W
    tags = {k: j for j, k in enumerate(sorted(fresh))}

    def initial(kind: str, name: str, lane: int | None) -> Any:
        if kind == "scc":
            return False
        return (((tags.get(name, 99) + 1) << 16) | (lane or 0)) & 0xFFFFFFFF  # an SGPR has no lane

    try:
        conc = encode(low, _feature_log(enc).target, W, Concrete(), dict(enc.machine.assumptions_used), initial,
                      fixed_exec(1))
    except InputError:
        conc = None
    out = []
    for n in names:
        if n not in fresh:
            continue  # never read: never written either (a write reads the old lanes)
        start = [initial("v", n, i) for i in range(W)]
        if conc is not None and conc.machine._v(int(n[1:]))[1:] != start[1:]:
            out.append(n)
            continue
        final = enc.machine._v(int(n[1:]))
        lanes = [B.and_b(B.not_b(enc.act0[i]), B.ne(final[i], fresh[n][i])) for i in range(W)]
        live = [c for c in lanes if c is not False]
        if not live:
            continue
        q.push()
        q.add(B.or_b(*live))
        r = q.check(rlimit=JOINT_RLIMIT)  # a fixed limit: the same answer under any load
        q.pop()
        if r != "unsat":  # "unknown" too: it may change them
            out.append(n)
    return out


def prove_exec(low: Lowering, target: Target, wave: int, mode: str, timeout: float = DEFAULT_TIMEOUT,
               assume: dict[str, str] | None = None) -> Result:
    """EXEC at the end of `low.program` against EXEC at entry: "exec" (the
    same mask) or "first_lane" (only the lowest lane active at entry)."""
    from .smt import SOLVER, Z3, Query, Session  # z3 is imported by the commands that prove (test_imports)

    t0 = time.perf_counter()
    B = Z3(Session())
    fresh: dict[str, Any] = {}
    initial = symbolic_initial(B, wave, fresh)

    m = Machine(B, wave, initial, FeatureLog(target), dict(assume or {}))
    m.hazard_entry = low.hazard_entry
    symbolic_exec(B, wave, low.exec_contract if low.exec_contract.startswith("0x") else "any")(m)
    m.scc = initial("scc", "scc", None)
    act0 = m.actives()
    m.run(low.program)
    act1 = m.actives()
    if mode == "exec":
        want = act0
    else:
        seen = False
        want = []
        for a in act0:  # lane i is the first active lane: active, and no lower lane is
            want.append(B.and_b(a, B.not_b(seen)) if seen is not False else a)
            seen = B.or_b(seen, a)
    lanes = [B.ne(B.bool_value(a), B.bool_value(w)) for a, w in zip(act1, want)]
    res = Result(low.name, low.path, target.name, wave, low.exec_contract, "proved",
                 assumptions=dict(m.assumptions_used), method=f"{SOLVER}, bit-vector encoding, per-lane")
    q = Query(timeout, session=B.session)
    r = "unsat"
    for c in lanes:  # one lane at a time: the joint question is much harder
        if c is False:
            continue
        q.push()
        q.add(c)
        r1 = q.check()
        if r1 == "sat":
            r = "sat"
            break
        q.pop()
        if r1 == "unknown":
            r = "unknown"
    name = "exec" if mode == "exec" else "exec(first_lane)"
    if r == "unsat":
        res.obligations.append(Obligation(name, "proved", "EXEC at the end is as asserted"))
    elif r == "unknown":
        res.obligations.append(Obligation(name, "unknown", f"solver: {q.reason or 'gave up'}"))
        res.verdict = "unknown"
    else:
        some = [a for a in act0 if a is not False and a is not True]
        if some:  # prefer a wave with an active lane: EXEC = 0 at entry shows nothing
            q.push()
            q.add(B.or_b(*some))
            if q.check(rlimit=JOINT_RLIMIT) != "sat":  # steers the counterexample: a fixed limit
                q.pop()
                q.check()
        mask0 = sum(1 << i for i, a in enumerate(act0) if q.truth(a))
        mask1 = sum(1 << i for i, a in enumerate(act1) if q.truth(a))
        want_mask = sum(1 << i for i, a in enumerate(want) if q.truth(a))
        res.obligations.append(Obligation(name, "refuted", f"EXEC at the end is {mask1:#x}, expected {want_mask:#x}"))
        res.verdict = "refuted"
        from .cex import Counterexample

        res.cex = Counterexample(name, wave, mask0, {}, {}, False, [], mask1)
    res.seconds = time.perf_counter() - t0
    return res


R = TypeVar("R")


def variant_runs(first: R, consulted: Callable[[R], dict[str, str]], prove: Callable[[dict[str, str]], R]) -> list[R]:
    """`first` (the run under the given assumptions) and one run per
    distinct set of assumptions consulted, over every variant of every
    assumption `first` consulted (and those the variants consult in turn):
    `prove(v)` runs under variant `v`, `consulted(r)` is what a run relied
    on.  In the order first found (`verify lowering --robust`, `verify tv
    --robust`)."""
    runs: dict[tuple[tuple[str, str], ...], R] = {tuple(sorted(consulted(first).items())): first}
    asked: set[tuple[tuple[str, str], ...]] = set(runs)
    frontier = variant_space(consulted(first))
    while frontier:
        v = frontier.pop()
        key = tuple(sorted(v.items()))
        if key in asked:
            continue
        asked.add(key)
        r = prove(v)
        used = tuple(sorted(consulted(r).items()))
        if used not in runs:
            runs[used] = r
            asked.add(used)
            if set(consulted(r)) - set(v):
                frontier += variant_space(consulted(r))
    return list(runs.values())


def prove(low: Lowering, target: Target, wave: int, timeout: float = DEFAULT_TIMEOUT,
          assume: dict[str, str] | None = None, robust: bool = False, smt2: bool = False) -> tuple[Result, FeatureLog]:
    """One instantiation; with `robust`, under every variant of every
    assumption it consults (and those the variants consult in turn).

    A robust verdict is proved only if every variant is proved; otherwise
    it is the worst variant's verdict, with that variant's counterexample.
    """
    res, flog = prove_one(low, target, wave, timeout, assume, smt2=smt2)
    if not robust or res.verdict == "error":
        return res, flog

    def under(v: dict[str, str]) -> Result:
        r, fl = prove_one(low, target, wave, timeout, {**(assume or {}), **v})
        flog.asked.update(fl.asked)
        return r

    runs = variant_runs(res, lambda r: r.assumptions, under)
    order = {"refuted": 0, "unknown": 1, "error": 2, "proved": 3}
    worst = min(runs, key=lambda r: order[r.verdict])
    out = Result(**{**worst.__dict__})
    names = sorted({k for r in runs for k in r.assumptions})
    out.variants = [{"assumptions": r.assumptions, "verdict": r.verdict, "default": r is res}
                    for r in sorted(runs, key=lambda r: (r is not res, order[r.verdict]))]
    out.robust_over = names
    if worst.verdict == "proved":
        out.assumptions = {k: "*" for k in names}
    out.method = res.method + ", robust over " + (", ".join(names) or "no assumption")
    out.seconds = sum(r.seconds for r in runs)
    return out, flog


def check_lowering(low: Lowering, targets: list[Target], waves: list[int], timeout: float = DEFAULT_TIMEOUT,
                   assume: dict[str, str] | None = None, robust: bool = False, smt2: bool = False) -> list[Result]:
    """Every (target, wave) instantiation.  Targets whose consulted features
    agree with a proved run share its solver run (recorded in shared_with)."""
    results: list[Result] = []
    for wave in waves:
        pending = list(targets)
        done: list[tuple[Result, FeatureLog]] = []
        for t in pending:
            warns = static_checks(low, t, wave)
            reuse = next(((r, fl) for r, fl in done if fl.agrees(t)), None)
            if reuse is not None:
                r0 = reuse[0]
                r = Result(**{**r0.__dict__})
                r.target, r.warnings, r.shared_with, r.seconds = t.name, warns, r0.target, 0.0
                results.append(r)
                continue
            r, fl = prove(low, t, wave, timeout, assume, robust, smt2)
            r.warnings = warns
            done.append((r, fl))
            results.append(r)
    return results


def instantiations(low: Lowering, target_arg: str | None = None,
                   wave_arg: int | None = None) -> tuple[list[Target], list[int], list[str]]:
    """The (targets, waves) to check `low` on, given an optional --target
    (a target or family) and --wave, and notes for the user (a named target
    the lowering does not declare)."""
    declared = resolve_all(low.targets, low.spans.get("targets"))
    notes = []
    if target_arg:
        targets = resolve(target_arg)
        extra = [t.name for t in targets if t not in declared]
        if extra:
            notes.append(f"note: {', '.join(extra)} not among the targets {low.name} declares ({', '.join(low.targets)})")
    else:
        targets = declared
    if wave_arg:
        if wave_arg not in low.waves:
            raise InputError(low.spans.get("waves"), f"{low.name} declares wave{'/'.join(map(str, low.waves))}; "
                                                      f"--wave {wave_arg} is not one of them")
        waves = [wave_arg]
    else:
        waves = list(low.waves)
        if target_arg:  # only the declared waves the named targets run
            waves = [w for w in waves if any(w in t.waves for t in targets)] or waves
    if target_arg and wave_arg:
        bad = [t.name for t in targets if wave_arg not in t.waves]
        if bad and len(bad) == len(targets):
            raise InputError(None, f"{', '.join(bad)} has no wave{wave_arg}")
        targets = [t for t in targets if wave_arg in t.waves]
    return targets, waves, notes


def _group(results: list[Result]) -> list[list[Result]]:
    """Results shown as one line: same wave, verdict, assumptions, solver run and whole-wave note."""
    groups: dict[tuple[object, ...], list[Result]] = {}
    for r in results:
        key = (r.wave, r.verdict, r.assumption_text(), r.shared_with or r.target, tuple(r.writes_inactive))
        groups.setdefault(key, []).append(r)
    return list(groups.values())


def lowering_lines(low: Lowering, results: list[Result], times: bool = False, robust: bool = False) -> list[str]:
    """`verify lowering` as text: the lowering, then one line per group of
    results with the same answer, each with its details."""
    out = [f"{low.name}: {catalog.spec_text(low)}  ({catalog.display_path(low.path)})"]
    for g in _group(results):
        r = g[0]
        names = ", ".join(x.target for x in g)
        ms = f", {sum(x.seconds for x in g) * 1000:.0f} ms" if times else ""
        out.append(f"  {r.verdict} for {names} wave{r.wave} under exec={r.exec_contract}; "
                   f"assumptions: {r.assumption_text()}  ({len(r.obligations)} obligations{ms})")
        out += r.detail_lines(low, robust, notes=True)
    return out


def worst_verdict(results: list[Result]) -> str:
    """The verdict of a set of results: error, else refuted, else unknown, else proved."""
    vs = {r.verdict for r in results}
    return next((v for v in ("error", "refuted", "unknown") if v in vs), "proved")


def lowering_json(low: Lowering, results: list[Result], times: bool = False) -> dict[str, Any]:
    """`verify lowering --json`: the lowering, its spec call, the overall verdict and every result."""
    return {"lowering": low.name, "path": low.path, "spec": {"name": low.spec, "params": low.params},
            "verdict": worst_verdict(results), "results": [r.to_json(times) for r in results]}
