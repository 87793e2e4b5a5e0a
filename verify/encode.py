"""Run a lowering and its spec on a backend.

One run of the machine over ``low.program`` and one evaluation of the spec
on the same backend give an :class:`Encoding`: the outputs of both, per
lane, and the state they started from.  On the solver backend the values
are terms (the checker asks questions about them, :mod:`verify.refine`); on
the concrete backend they are numbers (counterexample replay and search,
:mod:`verify.cex`, and the vacuity witness); on the partial backend they are
numbers or unknown (``verify show``, :func:`simulate`).

This module decides nothing about correctness and never calls the solver.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from . import catalog
from .backend import Concrete, Partial
from .diag import InputError
from .ir import Imm, Lowering, SReg, VReg, reg_key
from .machine import Initial, LaneEvent, Machine, Step
from .target import FeatureLog, Target, resolve, resolve_all
from .wide import WIDE_TYPES, join

M32 = 0xFFFFFFFF

# exec_init(m) sets EXEC on a fresh machine; returns its symbolic lane bits ([] when fixed)
ExecInit = Callable[[Machine], list[Any]]


@dataclass
class Encoding:
    """A lowering and its spec, run once on a backend."""

    machine: Machine
    act0: list[Any]
    exec0: tuple[Any, Any]
    inputs: dict[str, list[Any]]
    outputs: dict[str, list[Any]]  # name -> W values
    spec: dict[str, tuple[list[Any], list[Any]]]  # name -> (values, defined)
    fresh: dict[str, Any]  # register name -> term or list of terms (symbolic initial state)
    exec_bits: list[Any]
    # a 64-bit value (spec type u64/i64) is two 32-bit outputs and inputs:
    # `name` (the low half) and `name.hi`; this maps each `name.hi` to `name`
    halves: dict[str, str] = field(default_factory=dict)


def binding_values(m: Machine, reg: VReg | SReg | Imm) -> list[Any]:
    """A binding's W lane values (an SGPR is the same in every lane)."""
    if isinstance(reg, VReg):
        return list(m.v(reg.index))
    if isinstance(reg, SReg):
        return [m.s(reg.names[0])] * m.W
    raise TypeError(reg)


HI = ".hi"  # the high half of a 64-bit binding, as a 32-bit output/input name  [S:wide64]


def pair_values(m: Machine, name: str, reg: VReg | SReg | Imm, span: Any) -> tuple[list[Any], list[Any]]:
    """A 64-bit binding's (low, high) halves, W lane values each: a VGPR pair
    v[k:k+1] (low half in vk) or an SGPR pair."""
    if isinstance(reg, VReg) and reg.count == 2:
        return list(m.v(reg.index)), list(m.v(reg.index + 1))
    if isinstance(reg, SReg) and reg.count == 2:
        return [m.s(reg.names[0])] * m.W, [m.s(reg.names[1])] * m.W
    raise InputError(span, f"'{name}' is a 64-bit value: bind it to a register pair (v[2k:2k+1] or s[2k:2k+1])")


def _bind(m: Machine, low: Lowering, bindings: list[Any], wide: Collection[str], flat: dict[str, list[Any]],
          halves: dict[str, str]) -> dict[str, list[Any]]:
    """Read `bindings` into `flat` (32-bit values, a 64-bit one as two
    halves); returns the values the spec sees (a 64-bit one as pairs)."""
    whole: dict[str, list[Any]] = {}
    for b in bindings:
        if b.name in wide:
            lo, hi = pair_values(m, b.name, b.reg, b.span)
            flat[b.name], flat[b.name + HI] = lo, hi
            halves[b.name + HI] = b.name
            whole[b.name] = list(zip(lo, hi))
        else:
            flat[b.name] = whole[b.name] = binding_values(m, b.reg)
    return whole


def binding_labels(bindings: list[Any]) -> dict[str, str]:
    """Register name -> the binding it holds (the high half of a pair binding
    ``x = v[0:1]`` is ``x.hi``)."""
    out: dict[str, str] = {}
    for b in bindings:
        if isinstance(b.reg, VReg) and b.reg.count == 2:
            out[f"v{b.reg.index}"], out[f"v{b.reg.index + 1}"] = b.name, b.name + HI
        elif isinstance(b.reg, SReg) and b.reg.count == 2:
            out[b.reg.names[0]], out[b.reg.names[1]] = b.name, b.name + HI
        else:
            out[reg_key(b.reg)] = b.name
    return out


def _note_outstanding(m: Machine, low: Lowering) -> None:
    """For counterexamples: an output whose DS result is still in flight at
    the end reads as unknown; say so as a last trace step."""
    assert m.waits is not None and m.trace is not None
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


def encode(low: Lowering, target: Target, wave: int, B: Any, assume: dict[str, str], initial: Initial, exec_init: ExecInit,
           trace: bool = False, spec_lanes: Collection[int] | None = None) -> Encoding:
    """Run `low` and its spec on backend B.  `exec_init(m)` sets EXEC.
    `spec_lanes`: evaluate the spec in these lanes only (undefined elsewhere)."""
    m = Machine(B, wave, initial, FeatureLog(target), assume, trace=trace)
    m.hazard_entry = low.hazard_entry
    exec_bits = exec_init(m)
    m.scc = initial("scc", "scc", None)
    act0 = m.actives()
    exec0 = m.exec_pair()
    lib = catalog.speclib()
    spec_def = lib.get(low.spec, low.spans.get("spec"))
    is_wide = spec_def.value_type in WIDE_TYPES
    halves: dict[str, str] = {}
    inputs: dict[str, list[Any]] = {}
    spec_inputs = _bind(m, low, low.inputs, spec_def.inputs if is_wide else (), inputs, halves)
    m.run(low.program)
    if low.clobbers is None:  # a region of compiler output: the code after it waits
        m.land_all()
    elif m.waits is not None and m.trace is not None and low.program:
        _note_outstanding(m, low)
    outputs: dict[str, list[Any]] = {}
    _bind(m, low, low.outputs, spec_def.outputs if is_wide else (), outputs, halves)
    for o in outputs:
        if halves.get(o, o) not in spec_def.outputs:
            bspan = next(b.span for b in low.outputs if b.name == o)
            raise InputError(bspan, f"spec {low.spec} has no output '{o}' (outputs: {', '.join(spec_def.outputs)})")
    missing = [i for i in spec_def.inputs if i not in inputs]
    if missing:
        raise InputError(low.spans.get("spec"), f"spec {low.spec} reads input '{missing[0]}': bind it with '; @input {missing[0]} = vN'")
    spec = lib.evaluate(low.spec, low.params, B, wave, spec_inputs, act0, low.param_spans, low.spans.get("spec"),
                        lanes=spec_lanes)
    if is_wide:  # each 64-bit output compares as its two halves
        for o in list(spec):
            vals, defined = spec[o]
            spec[o] = ([v[0] for v in vals], defined)
            spec[o + HI] = ([v[1] for v in vals], defined)
    return Encoding(m, act0, exec0, inputs, outputs, spec, {}, exec_bits, halves)


# ---------------------------------------------------------------------------
# initial states and EXEC


def symbolic_initial(B: Any, wave: int, fresh: dict[str, Any]) -> Initial:
    """Registers read before written become unknowns (recorded in `fresh`):
    a VGPR's lanes are reads of one unknown array, an SGPR one value."""

    def initial(kind: str, name: str, lane: int | None) -> Any:
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


def symbolic_exec(B: Any, wave: int, contract: str) -> ExecInit:
    """EXEC under a contract: all lanes ("full"), a fixed mask ("0x..."), or
    W unknown lane bits ("any"; returned by the init for the solver)."""

    def exec_init(m: Machine) -> list[Any]:
        if contract == "full":
            m.set_exec_mask((1 << wave) - 1)
            return []
        if contract.startswith("0x"):
            m.set_exec_mask(int(contract, 16))
            return []
        bits: list[Any] = B.fresh_lanes("exec", wave, cond=True)
        lo, hi = m.from_lane_bits(bits)
        m.set_s("exec_lo", lo)
        m.set_s("exec_hi", hi if wave == 64 else 0)
        return bits

    return exec_init


def fixed_exec(mask: int) -> ExecInit:
    """EXEC = `mask`."""

    def exec_init(m: Machine) -> list[Any]:
        m.set_exec_mask(mask)
        return []

    return exec_init


# ---------------------------------------------------------------------------
# concrete runs


def replay(low: Lowering, target: Target, wave: int, assume: dict[str, str], mask: int, vals: dict[str, Any]) -> Encoding:
    """A traced concrete run from EXEC = `mask` and register values `vals`
    (register -> list of lane values, or one value for an SGPR; absent: 0)."""

    def initial(kind: str, name: str, lane: int | None) -> Any:
        if kind == "scc":
            return False
        v = vals.get(name, 0)
        if isinstance(v, list):
            assert lane is not None
            return v[lane] & M32
        return v & M32

    return encode(low, target, wave, Concrete(), assume, initial, fixed_exec(mask), trace=True)


def mismatches(enc: Encoding, feq: bool = False) -> list[tuple[str, int]]:
    """(output, lane) of every lane active at entry where the spec is
    defined and the output differs from it, in a concrete encoding.  `feq`:
    compare as f32 (NaN equals NaN)."""
    B = enc.machine.B
    out = []
    for name, vals in enc.outputs.items():
        sv, sd = enc.spec[name]
        for i in range(enc.machine.W):
            same = B.feq(vals[i], sv[i]) if feq else vals[i] == sv[i]
            if enc.act0[i] and sd[i] and not same:
                out.append((name, i))
    return out


def vacuity_witness(low: Lowering, target: Target, wave: int, assume: dict[str, str]) -> dict[str, bool]:
    """Concrete run with every lane active and lane-numbered inputs: does
    the contract admit an active lane, and is the spec defined in one?"""

    def initial(kind: str, name: str, lane: int | None) -> Any:
        return False if kind == "scc" else (lane if lane is not None else 0)

    mask = int(low.exec_contract, 16) if low.exec_contract.startswith("0x") else (1 << wave) - 1
    enc = encode(low, target, wave, Concrete(), assume, initial, fixed_exec(mask))
    return {"contract": mask != 0, "defined": any(a and d for o in enc.spec.values() for a, d in zip(enc.act0, o[1]))}


def simulate(low: Lowering, target: Target, wave: int, mask: int, by_reg: dict[str, list[int]],
             assume: dict[str, str]) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Run `low` alone (no spec) on the partial backend from EXEC = `mask`:
    registers named in `by_reg` hold those lane values (an SGPR its first),
    every other register is unknown (None).  Returns the inputs and outputs
    by binding name, W values each (None where unknown)."""

    def initial(kind: str, name: str, lane: int | None) -> Any:
        if kind == "scc":
            return None
        v = by_reg.get(name)
        if v is None:
            return None
        return v[lane] if kind == "v" and lane is not None else v[0]

    m = Machine(Partial(), wave, initial, FeatureLog(target), assume)
    m.hazard_entry = low.hazard_entry
    m.set_exec_mask(mask)
    inputs = {b.name: _shown(m, b) for b in low.inputs}
    m.run(low.program)
    outputs = {b.name: _shown(m, b) for b in low.outputs}
    return inputs, outputs


def _shown(m: Machine, b: Any) -> list[Any]:
    """A binding's lane values as `verify show` prints them: a VGPR pair as
    whole 64-bit values (None where a half is unknown).  [S:wide64]"""
    if isinstance(b.reg, VReg) and b.reg.count == 2:
        return [join(p) for p in zip(m.v(b.reg.index), m.v(b.reg.index + 1))]
    return binding_values(m, b.reg)


def show_instance(low: Lowering, target_arg: str | None, wave: int | None) -> tuple[Target, int]:
    """The one (target, wave) `verify show` runs a lowering on: the named
    target (default: the first declared) and wave (default: the first
    declared wave that target runs)."""
    tgt = resolve(target_arg)[0] if target_arg else resolve_all(low.targets)[0]
    W = wave or (low.waves[0] if not target_arg else next((w for w in low.waves if w in tgt.waves), tgt.waves[0]))
    return tgt, W


def binding_widths(low: Lowering) -> dict[str, int]:
    """The bits of each input's lane (by name and register): 64 for a VGPR
    pair, else 32.  [S:wide64]"""
    out = {}
    for b in low.inputs:
        bits = 64 if isinstance(b.reg, VReg) and b.reg.count == 2 else 32
        out[b.name] = out[reg_key(b.reg)] = bits
    return out


def spec_widths(name: str) -> dict[str, int]:
    """The bits of each input's lane of spec `name`: 64 for a u64/i64 spec
    (its per-lane parameters stay 32-bit), else 32.  [S:wide64]"""
    spec = catalog.speclib().get(name)
    return dict.fromkeys(spec.inputs, 64 if spec.value_type in WIDE_TYPES else 32)


def _check_widths(given: dict[str, list[int]], widths: dict[str, int], what: str) -> None:
    """Every given lane value fits its input's lane (no silent truncation)."""
    for name, vals in given.items():
        bits = widths.get(name, 32)
        bad = next((v for v in vals if not (type(v) is int and 0 <= v < (1 << bits))), None)
        if bad is not None:
            raise InputError(None, f"input {name} of {what}: {bad!r:.40} is not a {bits}-bit lane value "
                                   f"(0 to {(1 << bits) - 1})")


def simulate_inputs(low: Lowering, target: Target, wave: int, mask: int, given: dict[str, list[int]],
                    assume: dict[str, str]) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """:func:`simulate` with inputs named by binding (or register); an input
    not given holds its lane number."""
    _check_widths(given, binding_widths(low), low.name)
    by_reg = {}
    for name, vals in given.items():
        b = next((b for b in low.inputs if b.name == name), None)
        by_reg[reg_key(b.reg) if b is not None else name] = vals
    for b in low.inputs:
        if isinstance(b.reg, VReg) and b.reg.count == 2:  # a 64-bit input: the lane number, high half 0
            full = by_reg.pop(reg_key(b.reg), list(range(wave)))
            by_reg.setdefault(f"v{b.reg.index}", [v & M32 for v in full])
            by_reg.setdefault(f"v{b.reg.index + 1}", [(v >> 32) & M32 for v in full])
        by_reg.setdefault(reg_key(b.reg), list(range(wave)))
    return simulate(low, target, wave, mask, by_reg, assume)


def spec_wave(name: str, params: dict[str, Any], wave: int | None) -> int:
    """The wave size to show spec `name` in: `wave`, else the smallest that
    holds its lane group."""
    lib = catalog.speclib()
    spec = lib.get(name)
    bound = lib.bind(spec, params)
    if wave is not None:
        return wave
    return 32 if lib.group_size(spec, bound, 64) <= 32 else 64


def simulate_spec(name: str, params: dict[str, Any], wave: int, mask: int,
                  given: dict[str, list[int]]) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Evaluate spec `name` on the partial backend from EXEC = `mask`: inputs
    (and per-lane parameters) from `given`, else their lane number.  Returns
    the inputs and outputs, W values each (None: undefined or inactive)."""
    lib = catalog.speclib()
    spec = lib.get(name)
    bound = lib.bind(spec, params)
    _check_widths(given, spec_widths(name), spec.name)
    given = dict(given)
    inputs = {}
    for n in spec.inputs + [v[1:] for v in bound.values() if isinstance(v, str) and v.startswith("@")]:
        inputs[n] = given.pop(n, list(range(wave)))
    if given:
        raise InputError(None, f"spec {spec.name} has no input '{next(iter(given))}' (inputs: {', '.join(inputs)})")
    active = [bool((mask >> i) & 1) for i in range(wave)]
    res = lib.evaluate(spec.name, params, Partial(), wave, inputs, active)
    outputs = {o: [join(v) if (d and active[i]) else None for i, (v, d) in enumerate(zip(*res[o]))] for o in spec.outputs}
    return inputs, outputs
