"""Synthesis: the cheapest proven lowering of a spec on a target.

``components`` lists the target's data-movement primitives (from the target
table, as text); ``concrete`` derives their lane maps by running the
ordinary machine on lane-tagged registers and evaluates the spec the same
way; ``search`` enumerates sequences cheapest first under ``cost``'s model
and hands every program that meets the spec on the tests to the checker
(``verify.refine``), through a lowering file written and re-read as text
(``emit``); ``reach`` says, with sympy, when the spec's lane map cannot be
reached at all; ``baseline`` is the ds_bpermute lowering a compiler emits by
default; ``table`` builds the table of them all.

This package owns no notion of correctness: a result is what the checker
proved, about the text this package wrote.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .. import catalog
from ..diag import InputError, Warning_
from ..lowering_file import print_instr
from ..refine import Result
from ..target import Target
from ..wide import WIDE_TYPES
from . import baseline as _baseline
from .bound import BoundResult, prove_bound
from .components import CLASSES, build, parse_components
from .concrete import apply, default_masks
from .cost import CostModel, folded_cost, model_for, program_cost
from .emit import relies_on, render, reverify
from .emit import save as _save_file
from .reach import Reach, analyse
from .search import (
    Candidate,
    Context,
    Restart,
    Searcher,
    Stats,
    Step,
    _instr,
    check_on_tests,
    with_hazard_waits,
    wrapper,
)

DEFAULT_MAX_OPS = 2
# states kept before the search stops with 'best found' (each is a few KiB:
# this bounds memory, deterministically); --max-states changes it
MAX_STATES = 300_000


@dataclass
class Outcome:
    spec: str
    params: dict[str, Any]
    targets: list[Target]
    target_names: list[str]  # as the user wrote them (for @targets)
    wave: int
    exec_contract: str
    max_ops: int
    classes: list[str]
    model: CostModel
    best: Candidate | None = None
    best_is_baseline: bool = False
    text: str | None = None  # the lowering file
    results: list[Result] = field(default_factory=list)  # the checker's results for `text`
    exhaustive: bool = True
    baseline: Candidate | None = None
    baseline_text: str | None = None
    baseline_note: str = ""
    reach: Reach | None = None  # set by synthesize
    stats: Stats | None = None  # set by synthesize
    single_ops: list[tuple[str, str, int]] = field(default_factory=list)  # (class, text, cost) of proved single-op lowerings
    single_tried: dict[str, int] = field(default_factory=dict)  # class -> single-op candidates compared
    unknown: list[Candidate] = field(default_factory=list)  # candidates the checker could not decide
    n_components: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    # --robust: every candidate had to prove under every variant of every
    # named assumption it consults (verify/assume.py); otherwise under the defaults
    robust: bool = False
    # without --robust: `assumption=default` for each assumption whose other
    # variant refutes (or leaves undecided) the result; empty: it holds under all
    relies_on: list[str] = field(default_factory=list)
    max_states_used: int = 0  # the state limit the search ran under
    exhaustive_ops: int = 0  # the longest programs the search tried exhaustively (the claim's scope)
    bound: BoundResult | None = None  # the bound over every control and mask (--max-ops above 2)
    bound_note: str = ""  # why no bound was tried

    @property
    def cost(self) -> int | None:
        return None if self.best is None else self.best.cost

    @property
    def verdict(self) -> str:
        if self.best is not None:
            return "proved"
        return "unknown" if self.unknown else "none"

    def claim(self) -> str:
        def within(ops: int) -> str:
            return (f"within these components and {ops} op{'s' * (ops != 1)}"
                    + (" under every variant of the named assumptions" if self.robust else ""))

        scope = within(self.max_ops)
        if self.bound is not None and self.bound.holds:
            scope += f", {self.bound.scope()}"
        if self.best is not None:
            if self.exhaustive:
                return f"optimal: no lowering cheaper than {self.best.cost} exists {scope}"
            if self.exhaustive_ops:
                return (f"optimal {within(self.exhaustive_ops)}: no lowering cheaper than {self.best.cost} exists "
                        f"there; with {self.max_ops} ops the search stopped ({self.stopped()}) before it had tried "
                        "every cheaper program")
            return (f"best found: cost {self.best.cost}; the search stopped ({self.stopped()}) before it had tried "
                    f"every cheaper program {scope}")
        if self.reach is not None and not self.reach.flow_ok:
            return "unreachable: no sequence of these components, of any length, does it"
        if self.exhaustive:
            return f"no lowering exists {scope}"
        return f"none found: the search stopped ({self.stopped()}) {scope}"

    def stopped(self) -> str:
        """Why a search that was not exhaustive stopped."""
        if self.stats is not None and self.stats.state_limit:
            return f"state limit: {self.max_states_used:,} states"
        return "time limit"

    def body(self) -> list[str]:
        """The best program's instructions, printed."""
        return [print_instr(i, self.targets[0]) for i in self.best.program(self.wave)] if self.best else []

    def to_json(self, wrote: str | None = None, times: bool = False) -> dict[str, Any]:
        """This outcome as `verify synth --json` reports it (`wrote`: the
        lowering file written; seconds only with `times`)."""
        assert self.reach is not None and self.stats is not None
        reach, st = self.reach, self.stats
        return {
            "spec": {"name": self.spec, "params": self.params},
            "targets": [t.name for t in self.targets],
            "wave": self.wave,
            "exec": self.exec_contract,
            "verdict": self.verdict,
            "cost": self.cost,
            "folded_cost": folded_cost(self.best.program(self.wave), self.model, self.wave) if self.best else None,
            "cost_model": self.model.name,
            "lowering": self.body(),
            "is_baseline": self.best_is_baseline,
            "claim": self.claim(),
            "optimal": self.best is not None and self.exhaustive,
            "robust": self.robust,
            "relies_on": self.relies_on,
            "exhaustive": self.exhaustive,
            "exhaustive_ops": self.exhaustive_ops,
            "bound": None if self.bound is None else self.bound.to_json(),
            "max_ops": self.max_ops,
            "components": self.classes,
            "component_counts": self.n_components,
            "baseline": None if self.baseline is None else {
                "cost": self.baseline.cost,
                "lowering": [l for l in (self.baseline_text or "").splitlines() if not l.startswith(";")]},
            "baseline_note": self.baseline_note,
            "reach": {"flow": reach.flow_ok, "permutation": reach.is_perm, "in_group": reach.in_group,
                      "group_order": reach.group_order, "messages": reach.lines("the lane map")},
            "single_ops": [{"class": c, "lowering": t, "cost": k} for c, t, k in self.single_ops],
            "single_tried": self.single_tried,
            "results": [{"target": r.target, "wave": r.wave, "verdict": r.verdict, "scope": r.scope()}
                        for r in self.results],
            "stats": {"candidates": st.candidates, "states": st.states, "tests": st.masks,
                      "restarts": st.restarts, "proofs": st.verified,
                      **({"seconds": round(self.seconds, 3)} if times else {})},
            "file": wrote,
            "text": self.text,
        }

    def lines(self, wrote: str | None = None, times: bool = False) -> list[str]:
        """This outcome as `verify synth` prints it."""
        assert self.reach is not None and self.stats is not None
        spec = f"{self.spec} {' '.join(f'{k}={v}' for k, v in self.params.items())}".strip()
        out = [f"synth {spec} for {', '.join(t.name for t in self.targets)} wave{self.wave} "
               f"under exec={self.exec_contract}"]
        out += [f"  {line}" for line in self.reach.lines(f"the lane map of {spec}")]
        if self.best is not None:
            f = folded_cost(self.best.program(self.wave), self.model, self.wave)
            what = " (the ds_bpermute baseline)" if self.best_is_baseline else ""
            out.append(f"  cost {self.best.cost}{what}; cost model {self.model.name}, estimated cycles"
                       + (f"; {f} with the last DPP move folded into its consumer" if f is not None else ""))
            out += [f"    {line}" for line in self.body()]
            groups: dict[str, list[str]] = {}
            for r in self.results:
                groups.setdefault(r.assumption_text(), []).append(r.target)
            for a, ts in groups.items():
                out.append(f"  proved for {', '.join(ts)} wave{self.wave} under exec={self.exec_contract}; "
                           f"assumptions: {a} (re-read from the lowering text)")
        out.append(f"  {self.claim()}")
        if self.bound is not None and not self.bound.holds:
            out.append(f"  {self.bound.failure()}")
        elif self.bound_note:
            out.append(f"  {self.bound_note}")
        if self.relies_on:
            out.append(f"  relies on the default variant of {', '.join(self.relies_on)}: under another it is refuted "
                       f"or undecided, so it is optimal only under the defaults (--robust: under every variant)")
        if self.baseline is not None and not self.best_is_baseline:
            out.append(f"  ds_bpermute baseline: cost {self.baseline.cost}")
        elif self.baseline is None and self.baseline_note:
            out.append(f"  ds_bpermute baseline: none ({self.baseline_note})")
        proved: dict[str, list[tuple[str, int]]] = {}
        for c, t, k in self.single_ops:
            proved.setdefault(c, []).append((t, k))
        for cls, n in self.single_tried.items():
            if cls in proved:
                t, k = min(proved[cls], key=lambda x: x[1])
                out.append(f"  single {cls} ops: {len(proved[cls])} of {n} do it, cheapest cost {k}: {t}")
            else:
                out.append(f"  single {cls} ops: none of {n} does it")
        st = self.stats
        out.append(f"  searched {st.candidates} candidate programs ({st.states} states) on {st.masks} EXEC tests"
                   f"{f', {st.restarts} added from counterexamples' if st.restarts else ''}; {st.verified} proofs"
                   + (f"; {self.seconds:.1f} s" if times else ""))
        if wrote:
            out.append(f"  wrote {wrote} (re-read and proved)")
        return out


def _wwm_cost(model: CostModel, wave: int, leave_wait: str = "") -> int:
    e, l = wrapper(wave, leave_wait)
    return sum(model.of(_instr(t).base, 0, wave) for t in e + l)


def synthesize(spec: str, params: dict[str, Any], targets: list[Target], wave: int, exec_contract: str = "any",
               max_ops: int = DEFAULT_MAX_OPS, classes: list[str] | None = None, name: str = "synth",
               target_names: list[str] | None = None, command: str = "", timeout: float = 30.0,
               time_limit: float | None = None, survey: bool = False, masks: list[int] | None = None,
               shared: dict[Any, Any] | None = None, robust: bool = False,
               max_states: int = MAX_STATES) -> Outcome:
    """The cheapest lowering of `spec` the checker proves, within the
    components and `max_ops`.  `robust`: a program counts only if it is
    proved under every variant of every named assumption it consults, and
    the search merges no programs for their default-variant effect; without
    it the outcome lists the defaults it relies on (`relies_on`)."""
    t_start = time.perf_counter()
    classes = parse_components(None) if classes is None else classes
    if not targets:
        raise InputError(None, "synthesis needs a target")
    for t in targets:
        if wave not in t.waves:
            raise InputError(None, f"{t.name} runs wave{'/'.join(map(str, t.waves))} only, not wave{wave}")
    models = {model_for(t).name for t in targets}
    if len(models) > 1:
        raise InputError(None, f"the targets use different cost models ({', '.join(sorted(models))}): "
                               "synthesise GCN/CDNA and RDNA targets separately")
    model = model_for(targets[0])
    lib = catalog.speclib()
    sdef = lib.get(spec)
    bound = lib.bind(sdef, params)
    lib.check_requires(sdef, {k: v for k, v in bound.items() if isinstance(v, int)}, wave)
    out = Outcome(spec, params, targets, target_names or [t.name for t in targets], wave, exec_contract,
                  max_ops, classes, model, robust=robust)
    # 64-bit lanes: the search finds the move of the low halves, the lowering does it per half  [S:wide64]
    wide = sdef.value_type in WIDE_TYPES
    comps = build(targets, wave, [c for c in classes if c in CLASSES])
    masks = masks or default_masks(wave)

    def header(kind: str, cand_cost: int, extra: list[str]) -> list[str]:
        return [f"{name}: {kind} lowering of {spec} {' '.join(f'{k}={v}' for k, v in params.items())}".rstrip()
                + f" on {', '.join(out.target_names)} wave{wave}.",
                f"generated by: {command}" if command else "generated by: verify synth",
                f"cost: {cand_cost} (cost model {model.name}: estimated cycles; docs/synthesis.md)"] + extra

    # the ds_bpermute baseline: an upper bound and the table's reference
    if "bpermute" in classes:
        lines = _baseline.body(spec, params, wave)
        if lines is None:
            out.baseline_note = "no ds_bpermute template for this spec"
        else:
            prog = with_hazard_waits([_instr(t) for t in lines], targets, wave)
            cost = program_cost(prog, model, wave)
            text = render(name, spec, params, out.target_names, wave, exec_contract, prog, targets[0],
                          header("ds_bpermute baseline", cost, []), wide)
            res: list[Result]
            warns: list[Warning_] | list[str]
            try:
                _, res, warns = reverify(f"{name}.s", text, targets, wave, timeout, robust)
            except InputError as e:
                res, warns = [], [str(e)]
            if res and all(r.verdict == "proved" for r in res) and not warns:
                out.baseline = Candidate(False, [], prog, cost)
                out.baseline_text = text
            else:
                bad = next((r for r in res if r.verdict != "proved"), None)
                out.baseline_note = (f"the ds_bpermute baseline is {bad.verdict} for {bad.target} wave{wave}"
                                     if bad else f"the ds_bpermute baseline is illegal: {warns[0]}")

    def verify_cb(searcher: Searcher, cand: Candidate) -> bool:
        if not check_on_tests(cand, searcher):
            return False
        prog = cand.program(wave)
        text = render(name, spec, params, out.target_names, wave, exec_contract, prog, targets[0],
                      header("cheapest proven", cand.cost, []), wide)
        try:
            _, res, warns = reverify(f"{name}.s", text, targets, wave, timeout, robust)
        except InputError:
            return False
        searcher.stats.verified += 1
        if warns:
            return False
        refuted = next((r for r in res if r.verdict == "refuted"), None)
        if refuted is not None:
            # a refutation under a non-default variant only (--robust) is no
            # new EXEC test: the tests run the defaults, which it passes
            default_ok = any(v.get("default") and v["verdict"] == "proved" for v in refuted.variants)
            if refuted.cex is not None and not cand.wwm and not default_ok:
                raise _restart(refuted.cex.exec_mask)
            return False
        if any(r.verdict != "proved" for r in res):
            out.unknown.append(cand)
            return False
        return True

    deadline = None if time_limit is None else time.perf_counter() + time_limit
    searcher = Searcher(comps, targets, wave, exec_contract, model, masks, max_ops, "wwm" in classes,
                        spec, params, verify_cb, deadline, shared, robust, max_states)
    out.max_states_used = max_states
    out.n_components = {}
    for c in searcher.ctx[False].comps:
        out.n_components[c.cls] = out.n_components.get(c.cls, 0) + 1

    # reachability, before the search (lane maps under EXEC = all lanes)
    ctx = searcher.ctx.get(True) or searcher.ctx[False]
    goal = searcher.goal.get(True) or searcher.goal[False]
    sp = ctx.space
    W = wave
    maps: list[list[int | None]] = []
    perms: list[bool] = []
    for c, mp in zip(ctx.comps, ctx.maps):
        lanes: list[int | None] = []
        regs: set[int] = set()
        for i in range(W):
            p = mp[i]
            if p == 0:
                lanes.append(None)
                continue
            reg, lane = divmod(p - 1, sp.K * W)[0], (p - 1) % W
            regs.add(reg)
            lanes.append(lane)
        maps.append(lanes)
        perms.append(regs == {c.src})
    target_map = goal.full_map
    gcache = (shared if shared is not None else {}).setdefault("groups", {})
    out.reach = analyse(maps, perms, target_map, gcache, group=False)
    if out.baseline is not None:
        out.reach.flow_ok = True  # ds_bpermute reaches every lane it is proved to

    incumbent = out.baseline.cost if out.baseline is not None else float("inf")
    best: Candidate | None = None
    exhaustive = True
    if out.reach.flow_ok:
        # deepening: the cheapest program of at most DEFAULT_MAX_OPS ops
        # first (that search is small), then the longer programs, cheaper
        # than it: first by the bound over every control and mask (which,
        # when it holds, covers the listed components and more), else by
        # the search, and if that stops at its limit, the claim keeps what
        # the shallower one showed
        for ops in sorted({min(max_ops, DEFAULT_MAX_OPS), max_ops}):
            below = best.cost if best is not None else incumbent
            if ops > DEFAULT_MAX_OPS and (robust or wide):
                out.bound_note = ("bound over every DPP16 control and mask: not tried "
                                  + ("under --robust (it is proved under the default variants only)" if robust else
                                     "for a 64-bit spec (it bounds one 32-bit move)"))
            if ops > DEFAULT_MAX_OPS and not robust and not wide and below < float("inf"):
                out.bound = prove_bound(spec, params, targets, wave, exec_contract, model, classes, ops, below,
                                        max_states=max_states, comps=comps)
                if out.bound.holds:
                    out.exhaustive_ops = ops
                    continue
            searcher.max_ops = ops
            found, exhaustive = searcher.run(below)
            best = found or best
            if exhaustive:
                out.exhaustive_ops = ops
            else:
                break
    if best is None:
        # nothing cheaper than the baseline: say whether any sequence of
        # permutations could do it (sympy's Schreier-Sims)
        out.reach = analyse(maps, perms, target_map, gcache)
        if out.baseline is not None:
            out.reach.flow_ok = True
    out.stats = searcher.stats
    out.exhaustive = exhaustive
    if best is not None:
        out.best = best
        prog = best.program(wave)
        claim_kind = "cheapest proven"
        out.text = render(name, spec, params, out.target_names, wave, exec_contract, prog, targets[0],
                          header(claim_kind, best.cost, []), wide)
    elif out.baseline is not None:
        out.best = out.baseline
        out.best_is_baseline = True
        out.text = out.baseline_text
    if out.text is not None:
        # the header records the claim; then the file is re-read and re-proved
        out.text = _with_claim(out.text, out)
        low, res, warns = reverify(f"{name}.s", out.text, targets, wave, timeout, robust)
        out.results = res
        if warns or any(r.verdict != "proved" for r in res):
            raise AssertionError("a synthesised lowering failed re-verification from its text")
        if not robust:
            out.relies_on = relies_on(res, low, targets, wave, timeout)
            if out.relies_on:
                lines = out.text.split("\n")
                k = next(i for i, l in enumerate(lines) if l.startswith("; cost:")) + 1
                out.text = "\n".join(lines[:k + 1] + [f"; relies on the default variant of {', '.join(out.relies_on)}"]
                                     + lines[k + 1:])
    if survey:
        _survey(out, searcher, name, timeout)
    out.seconds = time.perf_counter() - t_start
    return out


def _with_claim(text: str, out: Outcome) -> str:
    lines = text.split("\n")
    k = next(i for i, l in enumerate(lines) if l.startswith("; cost:"))
    extra = [f"; {out.claim()}",
             f"; components: {', '.join(f'{k} ({v})' for k, v in out.n_components.items())}"
             + (", ds_bpermute baseline" if "bpermute" in out.classes else "")
             + f"; programs of at most {out.max_ops} components"
             + (", optionally in whole-wave mode" if "wwm" in out.classes else "")
             + f"; exec={out.exec_contract}"]
    if out.best_is_baseline:
        extra.append("; (this is the ds_bpermute baseline: no cheaper program was found)")
    f = folded_cost(out.best.program(out.wave), out.model, out.wave) if out.best else None
    if f is not None:
        extra.append(f"; folded: {f} when the last DPP move is folded into the VALU op that consumes the result")
    return "\n".join(lines[:k + 1] + extra + lines[k + 1:])


def _restart(mask: int) -> Restart:
    return Restart(mask)


def _survey(out: Outcome, searcher: Searcher, name: str, timeout: float) -> None:
    """Every single-component program (in and out of whole-wave mode):
    which classes were tried, and the ones the checker proves.  Every
    component counts, also one the search dropped for having the effect of
    a cheaper one (a swizzle doing what a DPP move does): a survey that
    said "none of N swizzles does it" of a swizzle that does would be false."""
    seen: set[tuple[str, str, int]] = set()
    every = {False: Context(searcher.comps_all, searcher.targets, searcher.wave, searcher.masks, False, keep_all=True)}
    if True in searcher.ctx:
        every[True] = Context(searcher.comps_all, searcher.targets, searcher.wave, [(1 << searcher.wave) - 1], True,
                              every[False], keep_all=True)
    for wwm in every:
        ctx, goal = every[wwm], searcher.goal[wwm]
        for ci, comp in enumerate(ctx.comps):
            if comp.dst != 1:
                continue
            out.single_tried[comp.cls] = out.single_tried.get(comp.cls, 0) + (0 if wwm else 1)
            st = ctx.getters[ci](ctx.init)
            st = apply(ctx.init, comp.dst, ctx.getters[ci], ctx.space)
            if not goal.met(st) or (comp.cls, comp.label, comp.src) in seen:
                continue
            body, add = searcher.extend((), comp)
            cost = add + (_wwm_cost(out.model, out.wave, searcher.leave_wait) if wwm else 0)
            cand = Candidate(wwm, [Step(comp)], list(body), cost, searcher.leave_wait)
            if not check_on_tests(cand, searcher):
                continue
            prog = cand.program(out.wave)
            text = render(name, out.spec, out.params, out.target_names, out.wave, out.exec_contract, prog,
                          out.targets[0], [name], catalog.speclib().get(out.spec).value_type in WIDE_TYPES)
            _, res, warns = reverify(f"{name}.s", text, out.targets, out.wave, timeout, out.robust)
            if not warns and all(r.verdict == "proved" for r in res):
                seen.add((comp.cls, comp.label, comp.src))
                out.single_ops.append((comp.cls, "; ".join(
                    print_instr(i, out.targets[0]) for i in prog),
                    cost))


def save(o: Outcome | Any, path: str, timeout: float = 30.0) -> None:
    """Write the lowering file of a synthesis outcome (a shuffle's Outcome
    or a reduction's RedOutcome) through the one save path, emit.save."""
    assert o.text is not None
    _save_file(path, o.text, o.targets, o.wave, timeout, o.robust)


def command_text(spec: str, params: dict[str, Any], target: str, wave: int, exec_contract: str, max_ops: int,
                 components: str | None, robust: bool = False) -> str:
    """The `verify synth` command a result file records (it reproduces the search)."""
    return " ".join(["verify synth", spec] + [f"{k}={v}" for k, v in params.items()] +
                    ["--target", target, "--wave", str(wave), "--exec", exec_contract, "--max-ops", str(max_ops)] +
                    (["--components", components] if components else []) + (["--robust"] if robust else []))
