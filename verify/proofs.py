"""Proof records: their schema, canonical hashing and staleness.

``proofs/`` mirrors ``lowerings/``: the lowering ``lowerings/xor/xor5.s``
has its records in ``proofs/xor/xor5.proof``.  A record is a small JSON
object with sorted keys and no timings, for the (target, wave)
instantiations that one solver run proved: ``targets`` (the targets whose
consulted features agreed, see refine.check_lowering) and ``wave``, the
verdict, every obligation, the assumptions and method, the ``ops`` the run
executed (registry names, sorted) and the hashes it was made from:

* ``lowering``: the lowering's canonical text (the spec call, the EXEC
  contract, the bindings and the program as the canonical printer writes
  it), so a whitespace or comment edit changes nothing and any changed token
  does.  ``@targets``/``@waves`` are not in it: they decide which records
  must exist;
* ``spec``: the definitions of the spec the lowering names and of every spec
  it calls, whitespace and comments removed;
* ``solver``: the solver and its version, e.g. ``z3 4.15.4``.

The source revisions a record was proved under are not in it: they are one
line each in ``proofs.lock`` beside ``proofs/`` (verify/revisions.py), the
checker's (``core``) and each op's.  A record is *current* when its three
hashes match what they are now and the lock's ``core`` line and the line of
every op it lists are the current revisions; anything else is *stale*.  So a
refactor changes the lock, never a record; a record changes only when what
is proved does.  This module never calls the solver: the checker
(refine.py) makes the results, the batch runner (gate.py) decides what to
re-prove and writes the lock.

>>> canonical_params({"mask": 5, "width": 16, "src": "i ^ 5", "lane": "@lane"})
'lane=@lane mask=5 src="i ^ 5" width=16'
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import catalog, revisions
from . import target as T
from .assume import ASSUMPTIONS
from .diag import InputError, Span, read_source
from .ir import Lowering
from .lowering_file import print_instr
from .ops.base import op_of
from .spec import SpecLib, _dotted
from .syntax import operand_text, strip_comment
from .target import ORDER

SCHEMA = 2
SUFFIX = ".proof"


def _h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------
# hashes


def solver_id() -> str:
    from .smt import SOLVER  # z3 only for the commands that compare or write records (test_imports)

    return SOLVER


def canonical_params(params: dict[str, Any]) -> str:
    out = []
    for k in sorted(params):
        v = params[k]
        if isinstance(v, str) and not v.startswith("@"):
            v = json.dumps(v)
        out.append(f"{k}={v}")
    return " ".join(out)


def spec_call(low: Lowering) -> str:
    return f"{low.spec} {canonical_params(low.params)}".strip()


def canonical_lowering(low: Lowering) -> str:
    """Everything that can change the verdict of one of the lowering's
    instantiations, in canonical form."""
    lines = [f"spec {spec_call(low)}", f"exec {low.exec_contract}"]
    lines += [f"input {b.name} = {operand_text(b.reg)}" for b in sorted(low.inputs, key=lambda b: b.name)]
    lines += [f"output {b.name} = {operand_text(b.reg)}" for b in sorted(low.outputs, key=lambda b: b.name)]
    assert low.clobbers is not None  # a lowering file's (compiler output has no records)
    lines.append("clobbers " + ", ".join(sorted(operand_text(c) for c in low.clobbers)))
    lines += [" ".join(strip_comment(print_instr(ins)).split()) for ins in low.program]
    return "\n".join(lines) + "\n"


def lowering_hash(low: Lowering) -> str:
    return _h(canonical_lowering(low))


def spec_closure(lib: SpecLib, name: str) -> list[str]:
    """`name` and every spec it calls, directly or not, sorted."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        n = todo.pop()
        if n in seen or n not in lib.specs:
            continue
        seen.add(n)
        for st in lib.specs[n].body:
            if st.kind in ("let", "lanes", "require"):
                for node in ast.walk(st.expr):
                    if isinstance(node, ast.Call):
                        callee = _dotted(node.func)
                        if callee is not None and callee in lib.specs:
                            todo.append(callee)
    return sorted(seen)


@lru_cache(maxsize=64)
def _lines(path: str) -> tuple[str, ...]:
    return tuple(read_source(path).splitlines())


def spec_source(lib: SpecLib, name: str) -> str:
    """A spec's definition as written, without comments, blank lines or
    whitespace differences."""
    s = lib.specs[name]
    lines = _lines(s.span.path)
    out = []
    for k in range(s.span.line - 1, len(lines)):
        raw = lines[k]
        body = raw.strip()
        if not body or body.startswith("#"):
            continue
        if k > s.span.line - 1 and not raw[:1].isspace():
            break  # the next definition
        if "#" in body and '"' not in body.split("#")[0]:
            body = re.sub(r"\s+#.*$", "", body)
        out.append(("  " if raw[:1].isspace() else "") + " ".join(body.split()))
    return "\n".join(out) + "\n"


def spec_hash(low: Lowering) -> str:
    lib = catalog.speclib()
    lib.get(low.spec, low.spans.get("spec"))
    return _h("".join(f"== {n}\n{spec_source(lib, n)}" for n in spec_closure(lib, low.spec)))


def hashes(low: Lowering) -> dict[str, str]:
    return {"lowering": lowering_hash(low), "spec": spec_hash(low), "solver": solver_id()}


def dependencies(low: Lowering) -> list[str]:
    """The ops a lowering's program runs (registry names, sorted): what its
    records depend on, read from the lowering itself, never from a record
    (the machine runs every instruction of a lowering once, Machine.run)."""
    return sorted({op_of(ins.base).base for ins in low.program})


def _obligations_wanted(low: Lowering) -> list[str]:
    """Obligations every record of `low` asks (refine._prove_one): the
    vacuity checks and one value obligation per output."""
    return ["contract", "defined"] + [f"value({b.name})" for b in sorted(low.outputs, key=lambda b: b.name)]


def mismatch_reasons(rec: dict[str, Any], low: Lowering, names: tuple[Any, Any] | None = None,
                     path: Path | None = None) -> list[str]:
    """Why a record (of the file whose "lowering" and "spec" are `names`) was
    not made from `low` (at `path`, by default low.path), [] when it could
    have been: what it says it ran is compared with what the lowering runs.

    >>> from verify import catalog
    >>> low = catalog.load("xor5")
    >>> mismatch_reasons({"ops": [], "exec": low.exec_contract, "obligations": [
    ...     {"name": "contract"}, {"name": "defined"}, {"name": "value(out)"}]}, low)
    ['ops do not match the lowering (listed: none; it runs: s_mov_b64, s_nop, s_or_saveexec_b64, v_mov_b32)',
     'no obligation exec']
    """
    out = []
    if names is not None:
        want = repo_path(Path(low.path) if path is None else path)
        if names[0] != want:
            out.append(f"the record file is for {names[0]}, not {want}")
        if names[1] != spec_call(low):
            out.append(f"the record file names spec {names[1]}, the lowering calls {spec_call(low)}")
    deps = dependencies(low)
    if rec.get("ops") != deps:
        listed = ", ".join(rec.get("ops") or []) or "none"
        out.append(f"ops do not match the lowering (listed: {listed}; it runs: {', '.join(deps) or 'none'})")
    if rec.get("exec") != low.exec_contract:
        out.append(f"exec {rec.get('exec')} is not the lowering's contract ({low.exec_contract})")
    for k, v in sorted((rec.get("assumptions") or {}).items()):  # verify prove proves under the defaults
        if k not in ASSUMPTIONS:
            out.append(f"no assumption {k}")
        elif v != ASSUMPTIONS[k].default:
            out.append(f"assumption {k}={v} is not the default ({ASSUMPTIONS[k].default}) that verify prove uses")
    have = {o.get("name") for o in rec.get("obligations", []) if isinstance(o, dict)}
    lost = [n for n in _obligations_wanted(low) if n not in have]
    if not any(isinstance(n, str) and n.startswith("exec") for n in have):
        lost.append("exec")
    if lost:
        out.append(f"no obligation {', '.join(lost)}")
    return out


def stale_reasons(rec: dict[str, Any], now: dict[str, str], lock: dict[str, str] | None,
                  revs: dict[str, str] | None = None, low: Lowering | None = None,
                  names: tuple[Any, Any] | None = None) -> list[str]:
    """What changed since a record was made ([] when it is current): its
    hashes against `now` (:func:`hashes`), and the revisions `lock` names for
    the core and for every op the record depends on against `revs` (by
    default :func:`revisions.current`).  With the lowering `low` (always, in
    verify prove/check), the ops it depends on are those the lowering runs,
    whatever the record lists, and a record that lists other ops, another
    EXEC contract or too few obligations (:func:`mismatch_reasons`) is stale.

    >>> rec = {"hashes": {"lowering": "a", "spec": "b", "solver": "z3"}, "ops": ["v_mov_b32", "v_or_b32"]}
    >>> now = {"lowering": "a", "spec": "c", "solver": "z3"}
    >>> stale_reasons(rec, now, {"core": "r1-0", "v_mov_b32": "1", "v_or_b32": "2"},
    ...               {"core": "r1-0", "v_mov_b32": "1", "v_or_b32": "3", "v_not_b32": "4"})
    ['spec changed', 'op v_or_b32 changed']
    """
    h = rec["hashes"]
    out = [f"{k} changed" for k in ("lowering", "spec") if h.get(k) != now.get(k)]
    ops = set(rec["ops"])
    if low is not None:
        out += mismatch_reasons(rec, low, names)
        ops |= set(dependencies(low))
    if lock is None:
        out.append("no proofs.lock")
    else:
        revs = revisions.current() if revs is None else revs
        if lock.get("core") != revs["core"]:
            out.append("checker changed")
        out += [f"op {o} changed" for o in sorted(ops) if lock.get(o) is None or lock.get(o) != revs.get(o)]
    if h.get("solver") != now.get("solver"):
        out.append("solver changed")
    return out


# ---------------------------------------------------------------------------
# where records live


def locate(path: Path) -> tuple[Path, Path]:
    """(the `lowerings` directory above `path`, path relative to it)."""
    p = Path(path).resolve()
    for parent in p.parents:
        if parent.name == "lowerings":
            return parent, p.relative_to(parent)
    raise InputError(None, f"{path} is not inside a lowerings/ directory: proof records mirror lowerings/ in proofs/")


def record_file(lowering_path: Path) -> Path:
    """lowerings/a/b.s -> proofs/a/b.proof (next to lowerings/)."""
    base, rel = locate(lowering_path)
    return base.parent / "proofs" / rel.with_suffix(SUFFIX)


def lock_path(lowering_path: Path) -> Path:
    """lowerings/a/b.s -> proofs.lock (next to lowerings/ and proofs/)."""
    return catalog.lock_file(locate(lowering_path)[0].parent)


def lowering_of(record_path: Path) -> Path:
    """proofs/a/b.proof -> lowerings/a/b.s (the record file itself is not
    followed: it may be a link to nowhere)."""
    p = Path(record_path).parent.resolve() / Path(record_path).name
    for parent in p.parents:
        if parent.name == "proofs":
            return parent.parent / "lowerings" / p.relative_to(parent).with_suffix(".s")
    raise InputError(None, f"{record_path} is not inside a proofs/ directory")


def repo_path(path: Path) -> str:
    """A lowering's path as records name it: from its repository root
    (the directory holding lowerings/), with '/' separators."""
    _, rel = locate(path)
    return "lowerings/" + rel.as_posix()


def instantiations(low: Lowering) -> list[tuple[str, int]]:
    """(target, wave) for every record the lowering must have, in the order
    the checker proves them."""
    targets = T.resolve_all(low.targets, low.spans.get("targets"))
    return [(t.name, w) for w in low.waves for t in targets]


def key_order(key: tuple[str, int]) -> tuple[int, int, str]:
    t, w = key
    return (w, ORDER.index(t) if t in ORDER else len(ORDER), t)


# ---------------------------------------------------------------------------
# the record text


def make_records(results: list[Any], now: dict[str, str]) -> list[dict[str, Any]]:
    """The records of one lowering from its refine.Results and the hashes it
    was proved under: targets that share a solver run share one record."""
    groups: dict[tuple[int, str], list[Any]] = {}
    for r in results:
        groups.setdefault((r.wave, r.shared_with or r.target), []).append(r)
    return [make_record(rs, now) for rs in groups.values()]


def make_record(rs: list[Any], now: dict[str, str]) -> dict[str, Any]:
    """A record from the refine.Results of one solver run (the same result,
    one per target)."""
    res = rs[0]
    # which route settled a query (the joint question bit-blasted whole, one
    # question per lane) is a solver-path artefact, not a method
    method = res.method.replace(", per-lane", "").replace(", bit-blasted", "")
    return {
        "targets": sorted({r.target for r in rs}, key=lambda t: key_order((t, res.wave))),
        "wave": res.wave,
        "exec": res.exec_contract,
        "verdict": res.verdict,
        # the detail says why only where an obligation is not proved
        "obligations": [{"name": o.name, "verdict": o.verdict, **({"detail": o.detail} if o.verdict != "proved" else {})}
                        for o in res.obligations],
        "assumptions": dict(sorted(res.assumptions.items())),
        "method": method,
        "ops": sorted(res.ops),
        "hashes": dict(now),
    }


def record_order(r: dict[str, Any]) -> tuple[Any, ...]:
    return key_order((r["targets"][0], r["wave"]))


def render(lowering: str, spec: str, records: list[dict[str, Any]]) -> str:
    """The text of a record file: deterministic, sorted keys, one obligation
    per line."""
    recs = sorted(records, key=record_order)
    out = ["{", f'  "lowering": {json.dumps(lowering)},', '  "records": [']
    for k, r in enumerate(recs):
        out.append("    {")
        keys = sorted(r)
        for j, key in enumerate(keys):
            comma = "," if j < len(keys) - 1 else ""
            v = r[key]
            if key == "obligations":
                out.append('      "obligations": [')
                for n, o in enumerate(v):
                    out.append("        " + json.dumps(o, sort_keys=True) + ("," if n < len(v) - 1 else ""))
                out.append("      ]" + comma)
            else:
                out.append(f"      {json.dumps(key)}: {json.dumps(v, sort_keys=True)}{comma}")
        out.append("    }" + ("," if k < len(recs) - 1 else ""))
    out += ["  ],", f'  "schema": {SCHEMA},', f'  "spec": {json.dumps(spec)}', "}"]
    return "\n".join(out) + "\n"


_RECORD_KEYS = {"targets", "wave", "exec", "verdict", "obligations", "assumptions", "method", "ops", "hashes"}
_HASH_KEYS = {"lowering", "spec", "solver"}
_OBLIGATION_KEYS = {"name", "verdict", "detail"}


_ORDER = ("error", "refuted", "unknown")  # as refine.py decides a verdict


def _inconsistent(r: dict[str, Any]) -> str | None:
    """Why a record cannot be what the prover wrote (a hand edit), or None.
    The verdict is the obligations' (error before refuted before unknown,
    else proved) and only an obligation that is not proved carries a detail."""
    obs = r.get("obligations")
    if not isinstance(obs, list) or not obs or not all(isinstance(o, dict) and "verdict" in o for o in obs):
        return "no obligations"
    vs = [o["verdict"] for o in obs]
    if any(v not in ("proved",) + _ORDER for v in vs) or r.get("verdict") not in ("proved",) + _ORDER:
        return "an unknown verdict"
    want = next((v for v in _ORDER if v in vs), "proved")
    if r["verdict"] != want:
        return f"verdict {r['verdict']} but its obligations make it {want}"
    if any(o["verdict"] == "proved" and o.get("detail") for o in obs):
        return "a proved obligation carries a refutation's detail"
    return None


class OldSchema(InputError):
    """A record file in an older format (verify prove rewrites it)."""


def parse(text: str, path: str) -> dict[str, Any]:
    """A record file -> {"lowering", "spec", "records": {(target, wave):
    record}, "list": [record, ...]} (a record shared by several targets is
    one object under each of their keys)."""
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(Span(path, e.lineno, e.colno), f"not a proof record: {e.msg}") from None
    except RecursionError:
        raise InputError(Span(path, 1, 1), "not a proof record: nested too deeply") from None

    def bad(msg: str) -> None:
        raise InputError(Span(path, 1, 1), f"not a proof record: {msg}")

    if isinstance(d, dict) and type(d.get("schema")) is int and 0 < d["schema"] < SCHEMA:
        raise OldSchema(Span(path, 1, 1), f"not a proof record: schema {d['schema']} is an older format "
                                          f"(this verify reads {SCHEMA}); run: verify prove")
    if not isinstance(d, dict) or type(d.get("schema")) is not int or d.get("schema") != SCHEMA:
        bad(f"expected a JSON object with \"schema\": {SCHEMA}")
    if set(d) != {"lowering", "records", "schema", "spec"} or not (isinstance(d["lowering"], str) and isinstance(d["spec"], str)):
        bad("expected the keys lowering, records, schema and spec (\"lowering\" and \"spec\" strings)")
    recs = d.get("records")
    if not isinstance(recs, list):
        bad("\"records\" must be a list")
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for r in recs:
        if not isinstance(r, dict) or set(r) != _RECORD_KEYS:
            bad(f"each record has exactly the keys {', '.join(sorted(_RECORD_KEYS))}")
        ts, w = r["targets"], r["wave"]
        if not (isinstance(ts, list) and ts and all(isinstance(t, str) for t in ts) and len(set(ts)) == len(ts)
                and type(w) is int):
            bad("each record names its targets (a list of distinct names) and its wave (a number)")
        where = f"{', '.join(ts)} wave{w}"
        ops = r["ops"]
        if not (isinstance(ops, list) and all(isinstance(o, str) for o in ops) and ops == sorted(set(ops))):
            bad(f"the record for {where} must list its ops sorted, each once")
        h = r["hashes"]
        if not (isinstance(h, dict) and set(h) == _HASH_KEYS and all(isinstance(v, str) for v in h.values())):
            bad(f"the hashes of the record for {where} are exactly {', '.join(sorted(_HASH_KEYS))}")
        if not all(isinstance(r[k], str) for k in ("exec", "verdict", "method")):
            bad(f"the exec, verdict and method of the record for {where} must be strings")
        a = r["assumptions"]
        if not (isinstance(a, dict) and all(isinstance(v, str) for v in a.values())):
            bad(f"the assumptions of the record for {where} must map names to variants (strings)")
        obs = r["obligations"]
        if not (isinstance(obs, list) and all(isinstance(o, dict) and {"name", "verdict"} <= set(o) <= _OBLIGATION_KEYS
                                              and all(isinstance(v, str) for v in o.values()) for o in obs)):
            bad(f"each obligation of the record for {where} has a name, a verdict and perhaps a detail (strings)")
        for t in ts:
            if (t, w) in out:
                bad(f"two records for {t} wave{w}")
        why = _inconsistent(r)
        if why:
            bad(f"the record for {where} contradicts itself: {why} (re-prove it: verify prove --force)")
        for t in ts:
            out[(t, w)] = r
    return {"lowering": d.get("lowering"), "spec": d.get("spec"), "records": out, "list": list(recs)}


def load(path: Path, old_ok: bool = False) -> dict[str, Any] | None:
    """The parsed record file, or None when there is none (or, with
    `old_ok`, when it is in an older format: verify prove replaces it)."""
    if not os.path.lexists(path):
        return None
    p = Path(path)
    try:  # a directory, a link loop or a dangling link is an error, not a missing record
        p.open("rb").close()
    except OSError as e:  # (the file itself is not resolved: a loop cannot be)
        shown = Path(catalog.display_path(p.parent)) / p.name
        raise InputError(None, f"cannot read the proof record {shown}: {e.strerror}") from None
    try:
        return parse(read_source(path), str(path))
    except OldSchema:
        if old_ok:
            return None
        raise


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(("." + path.name)[:240] + ".tmp")  # a name of 255 bytes has room for no suffix
    tmp.write_text(text)
    tmp.replace(path)


def current_proof(low: Lowering, target: str, wave: int) -> tuple[str, str, dict[str, Any] | None]:
    """(state, record file, record) for one instantiation, where state is
    'proved' (a current record that proves it), 'missing', 'stale: ...' or
    the verdict of a current record that does not prove it."""
    f = record_file(Path(low.path))
    d = load(f)
    rec = None if d is None else d["records"].get((target, wave))
    if d is None or rec is None:
        return "missing", str(f), None
    reasons = stale_reasons(rec, hashes(low), revisions.load_lock(lock_path(Path(low.path))), low=low,
                            names=(d["lowering"], d["spec"]))
    if reasons:
        return "stale (" + ", ".join(reasons) + ")", str(f), rec
    return rec["verdict"], str(f), rec
