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

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from . import catalog
from .assume import ASSUMPTIONS
from .diag import InputError, Warning_
from .ir import Lowering, SReg, VReg
from .machine import Machine
from .target import FeatureLog, Target

DEFAULT_TIMEOUT = 30.0
JOINT_BUDGET = 0.25  # seconds for the all-lanes query before going lane by lane


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
    cex: Any = None  # cex.Counterexample
    method: str = ""
    seconds: float = 0.0
    shared_with: str | None = None  # target whose solver run this result reuses
    variants: list[dict] = field(default_factory=list)  # --robust: every variant tried
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


@dataclass
class Encoding:
    """A lowering and its spec, run once on a backend."""

    machine: Machine
    act0: list
    exec0: tuple
    inputs: dict
    outputs: dict  # name -> W values
    spec: dict  # name -> (values, defined)
    fresh: dict  # register name -> term or list of terms (symbolic initial state)
    exec_bits: list


def binding_values(m: Machine, reg) -> list:
    if isinstance(reg, VReg):
        return list(m.v(reg.index))
    if isinstance(reg, SReg):
        return [m.s(reg.names[0])] * m.W
    raise TypeError(reg)


def _note_outstanding(m: Machine, low: Lowering) -> None:
    """For counterexamples: an output whose DS result is still in flight at
    the end reads as unknown; say so as a last trace step."""
    from .machine import LaneEvent, Step

    step = None
    for b in low.outputs:
        if isinstance(b.reg, VReg) and m.waits.pending(b.reg.index) is not None:
            line = m.waits.pending(b.reg.index)
            step = step or Step(len(m.trace), low.program[-1])
            for i in range(m.W):
                step.events[(f"v{b.reg.index}", i)] = LaneEvent(
                    "written", why=f"unknown at the end: the DS result of line {line} is still in flight (no wait)")
    if step is not None:
        m.trace.append(step)


def encode(low: Lowering, target: Target, wave: int, B, assume: dict, initial, exec_init, trace: bool = False) -> Encoding:
    """Run `low` and its spec on backend B.  `exec_init(m)` sets EXEC."""
    m = Machine(B, wave, initial, FeatureLog(target), assume, trace=trace)
    exec_bits = exec_init(m)
    m.scc = initial("scc", "scc", None)
    act0 = m.actives()
    exec0 = m.exec_pair()
    inputs = {b.name: binding_values(m, b.reg) for b in low.inputs}
    m.run(low.program)
    if low.clobbers is None:  # a region of compiler output: the code after it waits
        m.land_all()
    elif m.waits is not None and m.trace is not None and low.program:
        _note_outstanding(m, low)
    outputs = {b.name: binding_values(m, b.reg) for b in low.outputs}
    lib = catalog.speclib()
    spec_def = lib.get(low.spec, low.spans.get("spec"))
    for o in outputs:
        if o not in spec_def.outputs:
            bspan = next(b.span for b in low.outputs if b.name == o)
            raise InputError(bspan, f"spec {low.spec} has no output '{o}' (outputs: {', '.join(spec_def.outputs)})")
    missing = [i for i in spec_def.inputs if i not in inputs]
    if missing:
        raise InputError(low.spans.get("spec"), f"spec {low.spec} reads input '{missing[0]}': bind it with '; @input {missing[0]} = vN'")
    spec = lib.evaluate(low.spec, low.params, B, wave, inputs, act0, low.param_spans, low.spans.get("spec"))
    return Encoding(m, act0, exec0, inputs, outputs, spec, {}, exec_bits)


def static_checks(low: Lowering, target: Target, wave: int) -> list[Warning_]:
    """Legality on the target, wave size, and the clobber contract."""
    from .ops.base import op_of

    if wave not in target.waves:
        raise InputError(low.spans.get("waves"), f"{target.name} runs wave{'/'.join(map(str, target.waves))} only, not wave{wave}")
    from .hazards import check as hazards

    warns: list[Warning_] = []
    for ins in low.program:
        warns += op_of(ins.base).check(ins, target, wave)
    warns += hazards(low.program, target)
    from . import waits

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
        if isinstance(b.reg, VReg) and b.reg.count != 1:
            raise InputError(b.span, "an input binds one VGPR")
    return warns


def _names(reg) -> list[str]:
    if isinstance(reg, VReg):
        return reg.names()
    if isinstance(reg, SReg):
        return list(reg.names)
    return []


def prove_one(low: Lowering, target: Target, wave: int, timeout: float = DEFAULT_TIMEOUT,
              assume: dict | None = None, want_cex: bool = True, encoding: str = "auto",
              smt2: bool = False) -> tuple[Result, FeatureLog]:
    """encoding: "auto" uses the monoid encoding when the spec combines lanes
    with one operator (see smt.Z3Monoid), "naive" plain bit-vectors.
    smt2: also keep every obligation as SMT-LIB text (Result.smt2)."""
    from .smt import Z3, NotMonoid, Session, monoid_backend
    from .spec import spec_monoid

    t0 = time.perf_counter()
    assume = dict(assume or {})
    lib = catalog.speclib()
    spec_def = lib.get(low.spec, low.spans.get("spec"))
    monoid = spec_monoid(lib, low.spec, low.params) if encoding != "naive" else None
    if monoid is not None:
        try:
            return _prove_one(low, target, wave, timeout, assume, want_cex, monoid_backend(monoid, Session()), spec_def,
                              f"monoid({monoid})", t0, smt2)
        except NotMonoid as e:
            if monoid == "fadd":
                raise InputError(low.spans.get("spec"), str(e)) from None
    return _prove_one(low, target, wave, timeout, assume, want_cex, Z3(Session()), spec_def, "bit-vector", t0, smt2)


def symbolic_initial(B, wave: int, fresh: dict):
    """Registers read before written become unknowns (recorded in `fresh`):
    a VGPR's lanes are reads of one unknown array, an SGPR one value."""

    def initial(kind, name, lane):
        if kind == "scc":
            return B.fresh_bool("scc")
        if kind == "v":
            if name not in fresh:
                fresh[name] = B.fresh_lanes(name, wave)
            return fresh[name][lane]
        t = B.fresh(name)
        fresh[name] = t
        return t

    return initial


def _prove_one(low, target, wave, timeout, assume, want_cex, B, spec_def, enc_name, t0, smt2=False):
    from .smt import SOLVER, Query, smt2_benchmark

    fresh: dict = {}
    initial = symbolic_initial(B, wave, fresh)

    def exec_init(m):
        if low.exec_contract == "full":
            m.set_exec_mask((1 << wave) - 1)
            return []
        if low.exec_contract.startswith("0x"):
            m.set_exec_mask(int(low.exec_contract, 16))
            return []
        bits = B.fresh_lanes("exec", wave, cond=True)
        lo, hi = m.from_lane_bits(bits)
        m.set_s("exec_lo", lo)
        m.set_s("exec_hi", hi if wave == 64 else 0)
        return bits

    enc = encode(low, target, wave, B, assume, initial, exec_init)
    enc.fresh = fresh
    f32 = spec_def.value_type == "f32" or low.params.get("op") in ("fadd", "fmin", "fmax")
    res = Result(low.name, low.path, target.name, wave, low.exec_contract, "proved",
                 assumptions=dict(enc.machine.assumptions_used),
                 method=f"{SOLVER}, {enc_name} encoding, exec={low.exec_contract}",
                 ops=sorted(enc.machine.ops_run))
    if f32:
        res.claim = ("exact: the same f32 value bit for bit (NaN equals NaN) as the spec's fixed combine tree, "
                     "for inputs that are not NaN") if enc_name == "bit-vector" else (
                     "reassociation: the same multiset of f32 summands as the spec, in any order and grouping, "
                     "for inputs that are not NaN")
    q = Query(timeout, session=B.session)  # the proof's own z3 context: see smt.Session
    if f32:  # the f32 claims are stated for inputs that are not NaN
        for vals in enc.inputs.values():
            for v in vals:
                q.add(B.not_b(B.fis_nan(v)))

    def export(name: str, cond, proved_if: str) -> None:
        """Every obligation as a stand-alone SMT-LIB question (--smt2)."""
        res.smt2[name] = smt2_benchmark(cond, q.assertions, [
            f"verify obligation {name}: {low.name} ({low.spec}) for {target.name} wave{wave} under exec={low.exec_contract}",
            f"assumptions: {', '.join(f'{k}={v}' for k, v in sorted(res.assumptions.items())) or 'none'}",
            f"{proved_if} means the obligation holds; made with {SOLVER}"])

    def ask(name: str, cond, bad: str = "") -> str:
        """Is `cond` satisfiable?"""
        if cond is False:  # folded away while encoding: no solver call needed
            return "unsat"
        q.push()
        q.add(cond)
        r = q.check()
        q.pop()
        if r == "unknown":
            res.obligations.append(Obligation(name, "unknown", f"solver: {q.reason or 'gave up'}"))
        return r

    def ask_lanes(name: str, conds: list) -> tuple[str, Any]:
        """Is some lane's condition satisfiable?  One query for all lanes
        first, on a short budget; if that does not settle it, one query per
        lane (symbolic lane indices make the joint query much harder than
        its parts).  Returns (answer, the satisfiable condition)."""
        live = [c for c in conds if c is not False]
        if not live:
            return "unsat", None
        joint = B.or_b(*live)
        q.push()
        q.add(joint)
        r = q.check(min(timeout, JOINT_BUDGET))
        q.pop()
        if r != "unknown":
            return r, joint
        res.method += ", per-lane"
        unknown = False
        for c in live:
            q.push()
            q.add(c)
            r = q.check()
            q.pop()
            if r == "sat":
                return "sat", c
            unknown = unknown or r == "unknown"
        if unknown:
            res.obligations.append(Obligation(name, "unknown", f"solver: {q.reason or 'gave up'} in some lane"))
            return "unknown", None
        return "unsat", None

    # 1-2. vacuity.  A concrete witness settles each without the solver: all
    # lanes on (every contract admits it) and lane-numbered inputs.
    act0, W = enc.act0, wave
    witness = _vacuity_witness(low, target, wave, assume)
    if smt2:
        export("contract", B.or_b(*act0), "sat")
        export("defined", B.or_b(*[B.and_b(act0[i], d) for o in enc.spec.values() for i, d in enumerate(o[1])]), "sat")
    if witness["contract"]:
        res.obligations.append(Obligation("contract", "proved", "the contract admits an EXEC mask with an active lane"))
    else:
        r = ask("contract", B.or_b(*act0))
        if r in ("sat", "unsat"):
            res.obligations.append(Obligation("contract", "proved" if r == "sat" else "error",
                                              "some admitted EXEC mask has an active lane" if r == "sat"
                                              else "the EXEC contract admits no active lane"))
    if witness["defined"]:
        res.obligations.append(Obligation("defined", "proved", "the spec is defined in an active lane (concrete witness)"))
    else:
        any_def = B.or_b(*[B.and_b(act0[i], d) for o in enc.spec.values() for i, d in enumerate(o[1])])
        r = ask("defined", any_def)
        if r in ("sat", "unsat"):
            res.obligations.append(Obligation("defined", "proved" if r == "sat" else "error",
                                              "the spec is defined in some active lane" if r == "sat"
                                              else "the spec is undefined in every active lane: a proof would be vacuous"))
    if any(o.verdict == "error" for o in res.obligations):
        res.verdict = "error"
        res.seconds = time.perf_counter() - t0
        return res, enc.machine.target
    # 3. values.  An exact f32 claim first gets a concrete search: the solver
    # is hopeless at finding a rounding difference between two 32-leaf float
    # trees, and any concrete mismatch is a refutation that replays.
    bad_conds = []
    differ = (lambda a, b: B.not_b(B.feq(a, b))) if f32 else B.ne
    folded = all(B.and_b(act0[i], sd, differ(out[i], sv[i])) is False
                 for name, out in enc.outputs.items() for sv, sds in [enc.spec[name]] for i, sd in enumerate(sds))
    found = _f32_search(low, target, wave, assume, enc) if f32 and enc_name == "bit-vector" and not folded else None
    if found is not None:
        from .cex import concrete_counterexample

        res.obligations.append(Obligation(f"value({found[0]})", "refuted",
                                          "an active lane differs from the spec (found by concrete search)"))
        res.cex = concrete_counterexample(low, target, wave, assume, found[1], found[2])
        res.method += ", concrete search"
    for name, out in enc.outputs.items():
        if found is not None:
            break
        sv, sd = enc.spec[name]
        lanes = [B.and_b(act0[i], sd[i], differ(out[i], sv[i])) for i in range(W)]
        oname = f"value({name})"
        if smt2:
            export(oname, B.or_b(*lanes), "unsat")
        r, mism = ask_lanes(oname, lanes)
        if r == "sat":
            res.obligations.append(Obligation(oname, "refuted", "an active lane differs from the spec"))
            bad_conds.append((oname, mism))
        elif r == "unsat":
            res.obligations.append(Obligation(oname, "proved", f"every active lane where the spec is defined equals {low.spec}"))
    # 4. exec restored
    lo1, hi1 = enc.machine.exec_pair()
    lo0, hi0 = enc.exec0
    changed = B.or_b(B.ne(lo1, lo0), B.ne(hi1, hi0) if W == 64 else False) if low.check_exec else False
    if smt2:
        export("exec", changed, "unsat")
    r = ask("exec", changed, "refuted")
    if r == "sat":
        res.obligations.append(Obligation("exec", "refuted", "EXEC at the end differs from EXEC at entry"))
        bad_conds.append(("exec", changed))
    elif r == "unsat" and low.check_exec:
        res.obligations.append(Obligation("exec", "proved", "EXEC is restored"))
    verdicts = {o.verdict for o in res.obligations}
    res.verdict = "refuted" if "refuted" in verdicts else "unknown" if "unknown" in verdicts else "proved"
    if res.verdict == "proved" and low.exec_contract != "full" and low.clobbers is not None:
        res.writes_inactive = _writes_inactive(low, enc, fresh)
    if res.verdict == "refuted" and want_cex and res.cex is None:
        from .cex import find_counterexample

        res.cex = find_counterexample(low, target, wave, enc, B, q, bad_conds, assume)
    res.seconds = time.perf_counter() - t0
    return res, enc.machine.target


def _writes_inactive(low: Lowering, enc, fresh: dict) -> list[str]:
    """Output and clobbered VGPRs the lowering changes in a lane that was
    inactive at entry, shown by one concrete run (EXEC = lane 0 only, every
    register lane-numbered; no solver): whole-wave code does.  A caller that
    keeps live values in those lanes (the other side of a branch) loses them.
    An empty list is no proof that no lane is ever changed."""
    from .backend import Concrete
    from .ops.base import reg_names

    names: list[str] = []
    for reg in [b.reg for b in low.outputs] + list(low.clobbers):
        if isinstance(reg, VReg):
            names += [n for n in reg_names(reg) if n not in names]
    W = enc.machine.W
    tags = {k: j for j, k in enumerate(sorted(fresh))}

    def initial(kind, name, lane):
        if kind == "scc":
            return False
        return (((tags.get(name, 99) + 1) << 16) | lane) & 0xFFFFFFFF

    def exec_init(m):
        m.set_exec_mask(1)
        return []

    try:
        conc = encode(low, enc.machine.target.target, W, Concrete(), dict(enc.machine.assumptions_used), initial,
                      exec_init)
    except InputError:
        return []
    out = []
    for n in names:
        if n not in fresh:
            continue  # never read: never written either (a write reads the old lanes)
        start = [initial("v", n, i) for i in range(W)]
        if conc.machine._v(int(n[1:]))[1:] != start[1:]:
            out.append(n)
    return out


def _f32_search(low: Lowering, target: Target, wave: int, assume: dict, enc, trials: int = 300):
    """Random non-NaN f32 inputs under random EXEC masks: (output, mask,
    register values) of the first state where an active lane differs."""
    import random

    from .backend import f32_bits
    from .cex import _mismatches, replay

    rnd = random.Random(0)
    full = (1 << wave) - 1

    def value():
        k = rnd.random()
        if k < 0.05:
            return rnd.choice([0, 0x80000000, 0x3F800000, 0x7F800000, 0xFF800000])
        return f32_bits(rnd.uniform(-1, 1) * 10.0 ** rnd.randint(-8, 8))

    regs = {n: t for n, t in enc.fresh.items()}
    for k in range(trials):
        mask = full if low.exec_contract == "full" or k % 3 == 0 else rnd.getrandbits(wave) | 1
        vals = {n: ([value() for _ in range(wave)] if isinstance(t, list) else rnd.getrandbits(32))
                for n, t in regs.items()}
        e = replay(low, target, wave, assume, mask, vals)
        bad = [(o, i) for o, i in _mismatches(e, feq=True)]
        if bad:
            return bad[0][0], mask, vals
    return None


def _vacuity_witness(low: Lowering, target: Target, wave: int, assume: dict) -> dict:
    """Concrete run with every lane active and lane-numbered inputs: does
    the contract admit an active lane, and is the spec defined in one?"""
    from .backend import Concrete

    def initial(kind, name, lane):
        return False if kind == "scc" else (lane if lane is not None else 0)

    mask = int(low.exec_contract, 16) if low.exec_contract.startswith("0x") else (1 << wave) - 1

    def exec_init(m):
        m.set_exec_mask(mask)
        return []

    enc = encode(low, target, wave, Concrete(), assume, initial, exec_init)
    return {"contract": mask != 0, "defined": any(a and d for o in enc.spec.values() for a, d in zip(enc.act0, o[1]))}


def prove_exec(low: Lowering, target: Target, wave: int, mode: str, timeout: float = DEFAULT_TIMEOUT,
               assume: dict | None = None) -> Result:
    """EXEC at the end of `low.program` against EXEC at entry: "exec" (the
    same mask) or "first_lane" (only the lowest lane active at entry)."""
    from .smt import SOLVER, Z3, Query, Session

    t0 = time.perf_counter()
    B = Z3(Session())
    fresh: dict = {}
    initial = symbolic_initial(B, wave, fresh)

    m = Machine(B, wave, initial, FeatureLog(target), dict(assume or {}))
    if low.exec_contract.startswith("0x"):
        m.set_exec_mask(int(low.exec_contract, 16))
    else:
        bits = B.fresh_lanes("exec", wave, cond=True)
        lo, hi = m.from_lane_bits(bits)
        m.set_s("exec_lo", lo)
        m.set_s("exec_hi", hi if wave == 64 else 0)
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
        from .cex import Counterexample

        some = [a for a in act0 if a is not False and a is not True]
        if some:  # prefer a wave with an active lane: EXEC = 0 at entry shows nothing
            q.push()
            q.add(B.or_b(*some))
            if q.check() != "sat":
                q.pop()
                q.check()
        mask0 = sum(1 << i for i, a in enumerate(act0) if q.truth(a))
        mask1 = sum(1 << i for i, a in enumerate(act1) if q.truth(a))
        want_mask = sum(1 << i for i, a in enumerate(want) if q.truth(a))
        res.obligations.append(Obligation(name, "refuted", f"EXEC at the end is {mask1:#x}, expected {want_mask:#x}"))
        res.verdict = "refuted"
        res.cex = Counterexample(name, wave, mask0, {}, {}, False, [], mask1)
    res.seconds = time.perf_counter() - t0
    return res


def _variant_space(used: dict[str, str]) -> list[dict[str, str]]:
    names = sorted(used)
    return [dict(zip(names, combo)) for combo in itertools.product(*(list(ASSUMPTIONS[n].variants) for n in names))]


def prove(low: Lowering, target: Target, wave: int, timeout: float = DEFAULT_TIMEOUT,
          assume: dict | None = None, robust: bool = False, smt2: bool = False) -> tuple[Result, FeatureLog]:
    """One instantiation; with `robust`, under every variant of every
    assumption it consults (and those the variants consult in turn).

    A robust verdict is proved only if every variant is proved; otherwise
    it is the worst variant's verdict, with that variant's counterexample.
    """
    res, flog = prove_one(low, target, wave, timeout, assume, smt2=smt2)
    if not robust or res.verdict == "error":
        return res, flog
    runs: dict[tuple, Result] = {tuple(sorted(res.assumptions.items())): res}
    asked: set[tuple] = set(runs)
    frontier = _variant_space(res.assumptions)
    while frontier:
        v = frontier.pop()
        key = tuple(sorted(v.items()))
        if key in asked:
            continue
        asked.add(key)
        r, fl = prove_one(low, target, wave, timeout, {**(assume or {}), **v})
        flog.asked.update(fl.asked)
        used = tuple(sorted(r.assumptions.items()))
        if used not in runs:
            runs[used] = r
            asked.add(used)
            if set(r.assumptions) - set(v):
                frontier += _variant_space(r.assumptions)
    order = {"refuted": 0, "unknown": 1, "error": 2, "proved": 3}
    worst = min(runs.values(), key=lambda r: order[r.verdict])
    out = Result(**{**worst.__dict__})
    names = sorted({k for r in runs.values() for k in r.assumptions})
    out.variants = [{"assumptions": r.assumptions, "verdict": r.verdict, "default": r is res}
                    for r in sorted(runs.values(), key=lambda r: (r is not res, order[r.verdict]))]
    out.robust_over = names
    if worst.verdict == "proved":
        out.assumptions = {k: "*" for k in names}
    out.method = res.method + ", robust over " + (", ".join(names) or "no assumption")
    out.seconds = sum(r.seconds for r in runs.values())
    return out, flog


def check_lowering(low: Lowering, targets: list[Target], waves: list[int], timeout: float = DEFAULT_TIMEOUT,
                   assume: dict | None = None, robust: bool = False, smt2: bool = False) -> list[Result]:
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
