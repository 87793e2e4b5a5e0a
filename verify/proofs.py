"""Proof records: their schema, canonical hashing and staleness.

``proofs/`` mirrors ``lowerings/``: the lowering ``lowerings/xor/xor5.s``
has its records in ``proofs/xor/xor5.proof``, one record per (target, wave)
it declares.  A record is a small JSON object with sorted keys and no
timings: the verdict, every obligation, the assumptions and method, and the
hashes it was made from:

* ``lowering``: the lowering's canonical text (the spec call, the EXEC
  contract, the bindings and the program as the canonical printer writes
  it), so a whitespace or comment edit changes nothing and any changed token
  does.  ``@targets``/``@waves`` are not in it: they decide which records
  must exist;
* ``spec``: the definitions of the spec the lowering names and of every spec
  it calls, whitespace and comments removed;
* ``semantics``: ``verify.SEMANTICS_REVISION`` and a hash of the sources
  that give instructions and specs their meaning (:data:`SEMANTIC_SOURCES`,
  comments and blank lines removed);
* ``solver``: the solver and its version, e.g. ``z3 4.15.4``.

A record is *current* when all four match what they are now; anything else
is *stale*.  This module never calls the solver: the checker (refine.py)
makes the results, the batch runner (gate.py) decides what to re-prove.

>>> canonical_params({"mask": 5, "width": 16, "src": "i ^ 5", "lane": "@lane"})
'lane=@lane mask=5 src="i ^ 5" width=16'
>>> strip_py_comments("x = 1  # one\\n\\n# gone\\ny = '#kept'\\n")
"x = 1\\ny = '#kept'"
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import re
import tokenize
from functools import lru_cache
from pathlib import Path

from . import SEMANTICS_REVISION, catalog
from . import target as T
from .diag import InputError, Span, read_source
from .ir import Lowering
from .lowering_file import print_instr
from .spec import _dotted
from .syntax import operand_text, strip_comment
from .target import ORDER

SCHEMA = 1
SUFFIX = ".proof"

# The modules that give a lowering and a spec their meaning.  Any edit to
# them (other than to comments and blank lines) makes every record stale.
# Not included: the parser and printer (syntax.py, lowering_file.py; the
# lowering hash covers their output), counterexamples (cex.py), hazards
# (warnings only), the CLI.
SEMANTIC_SOURCES = (
    "verify/ops/*.py", "verify/machine.py", "verify/spec.py", "verify/refine.py", "verify/encode.py",
    "verify/target.py", "verify/assume.py", "verify/backend.py", "verify/smt.py", "verify/waits.py",
)

_PKG_ROOT = Path(__file__).resolve().parent.parent


def _h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------
# hashes


def strip_py_comments(src: str) -> str:
    """Python source without comments, trailing blanks and blank lines."""
    drop: dict[int, int] = {}  # line -> column where a comment starts
    try:
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type == tokenize.COMMENT:
                drop[tok.start[0]] = tok.start[1]
    except (tokenize.TokenError, SyntaxError):  # not valid Python: hash it as it is
        drop = {}
    out = []
    for n, line in enumerate(src.replace("\r\n", "\n").split("\n"), 1):
        if n in drop:
            line = line[:drop[n]]
        line = line.rstrip()
        if line:
            out.append(line)
    return "\n".join(out)


@lru_cache(maxsize=None)
def semantics_id() -> str:
    """``r<SEMANTICS_REVISION>-<hash of the semantic sources>``."""
    parts = []
    for pattern in SEMANTIC_SOURCES:
        for p in sorted(_PKG_ROOT.glob(pattern)):
            rel = p.relative_to(_PKG_ROOT).as_posix()
            parts.append(f"== {rel}\n{strip_py_comments(p.read_text())}\n")
    return f"r{SEMANTICS_REVISION}-{_h(''.join(parts))}"


def solver_id() -> str:
    from .smt import SOLVER  # z3 only for the commands that compare or write records (test_imports)

    return SOLVER


def canonical_params(params: dict) -> str:
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
    lines.append("clobbers " + ", ".join(sorted(operand_text(c) for c in low.clobbers)))
    lines += [" ".join(strip_comment(print_instr(ins)).split()) for ins in low.program]
    return "\n".join(lines) + "\n"


def lowering_hash(low: Lowering) -> str:
    return _h(canonical_lowering(low))


def spec_closure(lib, name: str) -> list[str]:
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
                        if callee in lib.specs:
                            todo.append(callee)
    return sorted(seen)


@lru_cache(maxsize=64)
def _lines(path: str) -> tuple[str, ...]:
    return tuple(read_source(path).splitlines())


def spec_source(lib, name: str) -> str:
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
    return {"lowering": lowering_hash(low), "spec": spec_hash(low), "semantics": semantics_id(),
            "solver": solver_id()}


def stale_reasons(recorded: dict, now: dict) -> list[str]:
    """What changed since a record was made ([] when it is current).

    >>> stale_reasons({"lowering": "a", "spec": "b"}, {"lowering": "a", "spec": "c"})
    ['spec changed']
    """
    return [f"{k} changed" for k in ("lowering", "spec", "semantics", "solver") if recorded.get(k) != now.get(k)]


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


def lowering_of(record_path: Path) -> Path:
    """proofs/a/b.proof -> lowerings/a/b.s."""
    p = Path(record_path).resolve()
    for parent in p.parents:
        if parent.name == "proofs":
            return parent.parent / "lowerings" / p.relative_to(parent).with_suffix(".s")
    raise InputError(None, f"{record_path} is not inside a proofs/ directory")


def repo_path(path: Path) -> str:
    """A lowering's path as records name it: from its repository root
    (the directory holding lowerings/), with '/' separators."""
    base, rel = locate(path)
    return "lowerings/" + rel.as_posix()


def instantiations(low: Lowering) -> list[tuple[str, int]]:
    """(target, wave) for every record the lowering must have, in the order
    the checker proves them."""
    targets = T.resolve_all(low.targets, low.spans.get("targets"))
    return [(t.name, w) for w in low.waves for t in targets]


def key_order(key: tuple[str, int]) -> tuple:
    t, w = key
    return (w, ORDER.index(t) if t in ORDER else len(ORDER), t)


# ---------------------------------------------------------------------------
# the record text


def make_record(res, now: dict) -> dict:
    """A record from a refine.Result and the hashes it was proved under."""
    method = res.method.replace(", per-lane", "")  # which query settled it, not a method
    return {
        "target": res.target,
        "wave": res.wave,
        "exec": res.exec_contract,
        "verdict": res.verdict,
        # the detail says why only where an obligation is not proved
        "obligations": [{"name": o.name, "verdict": o.verdict, **({"detail": o.detail} if o.verdict != "proved" else {})}
                        for o in res.obligations],
        "assumptions": dict(sorted(res.assumptions.items())),
        "method": method,
        "shared_with": res.shared_with,
        "hashes": dict(now),
    }


def render(lowering: str, spec: str, records: list[dict]) -> str:
    """The text of a record file: deterministic, sorted keys, one obligation
    per line."""
    recs = sorted(records, key=lambda r: key_order((r["target"], r["wave"])))
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


_RECORD_KEYS = {"target", "wave", "exec", "verdict", "obligations", "assumptions", "method", "shared_with", "hashes"}


_ORDER = ("error", "refuted", "unknown")  # as refine.py decides a verdict


def _inconsistent(r: dict) -> str | None:
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


def parse(text: str, path: str) -> dict:
    """A record file -> {"lowering", "spec", "records": {(target, wave): record}}."""
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(Span(path, e.lineno, e.colno), f"not a proof record: {e.msg}") from None

    def bad(msg: str):
        raise InputError(Span(path, 1, 1), f"not a proof record: {msg}")

    if not isinstance(d, dict) or d.get("schema") != SCHEMA:
        bad(f"expected a JSON object with \"schema\": {SCHEMA}")
    recs = d.get("records")
    if not isinstance(recs, list):
        bad("\"records\" must be a list")
    out: dict[tuple[str, int], dict] = {}
    for r in recs:
        if not isinstance(r, dict) or set(r) != _RECORD_KEYS:
            bad(f"each record has exactly the keys {', '.join(sorted(_RECORD_KEYS))}")
        key = (r["target"], r["wave"])
        if key in out:
            bad(f"two records for {key[0]} wave{key[1]}")
        why = _inconsistent(r)
        if why:
            bad(f"the record for {key[0]} wave{key[1]} contradicts itself: {why} (re-prove it: verify prove --force)")
        out[key] = r
    return {"lowering": d.get("lowering"), "spec": d.get("spec"), "records": out}


def load(path: Path) -> dict | None:
    """The parsed record file, or None when there is none."""
    if not Path(path).exists():
        return None
    return parse(read_source(path), str(path))


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def current_proof(low: Lowering, target: str, wave: int) -> tuple[str, str, dict | None]:
    """(state, record file, record) for one instantiation, where state is
    'proved' (a current record that proves it), 'missing', 'stale: ...' or
    the verdict of a current record that does not prove it."""
    f = record_file(Path(low.path))
    d = load(f)
    rec = None if d is None else d["records"].get((target, wave))
    if rec is None:
        return "missing", str(f), None
    reasons = stale_reasons(rec["hashes"], hashes(low))
    if reasons:
        return "stale (" + ", ".join(reasons) + ")", str(f), rec
    return rec["verdict"], str(f), rec
