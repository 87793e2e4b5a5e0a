"""Specs: what a shuffle or reduction must compute, in a tiny closed notation.

Specs are the trusted base.  They are text files in ``specs/`` and this
module is their only interpreter; it shares nothing with the instruction
semantics in ``verify/ops`` except the backend protocol, so one bug cannot
cancel itself out.

A spec file holds definitions like::

    # PTX shfl.sync in butterfly mode on a warp of n lanes.  [S:ptx-shfl]
    spec warp.bfly(b, c, n):
        lanes = n
        bval = b & (n - 1)
        cval = c & (n - 1)
        segmask = (c >> 8) & (n - 1)
        maxLane = (i & segmask) | (cval & ~segmask)
        j = i ^ bval
        out = x[j] if j <= maxLane else x[i]

Statements, one per line: ``lanes = E`` (the group size: the wave is cut into
groups of that many lanes, each evaluated on its own; ``wave`` is the whole
wave), ``input a, b`` (input vectors; default ``x``), ``require E, "msg"``
(a check on constant parameters), ``name = E`` (a definition, evaluated per
lane; ``out`` and any name listed by ``output`` are results), ``sorts K, V``
(the two outputs are the group's (K, V) pairs sorted ascending: the checker
may prove a lowering by the network argument, docs/bitonic.md).  A local
function ``f(a) = E`` that reads no lane variable is computed once per group.

Expressions use Python's syntax, but only this subset, with 32-bit
two's-complement integer meaning: integer literals, names, ``+ - * & | ^ ~
<< >>`` (``>>`` is arithmetic), comparisons (signed), ``and or not``,
``a if c else b``, ``v[j]`` (lane j of the group; reading a lane outside the
group or an inactive lane is *undefined*), ``E in (k1, k2, ...)`` in
``require``, and calls: ``active(j)``, ``ult/ule(a, b)`` (unsigned),
``umin umax smin smax``, ``lowest(COND for j in range(a, b))`` (the
smallest such j whose COND holds, b if none), ``count(COND for j in
range(a, b) [if C])`` (how many hold), ``first(E for j in range(a,
b) if COND)`` (E at that smallest j, undefined if none), folds (``fold``, ``fold_tree``,
``fold_hs``: left to right, a butterfly tree, a Hillis-Steele scan tree),
and other specs (``warp.bfly(b=..., c=..., n=32)``,
evaluated at the same lane with the caller's inputs).

The lane variables are ``i`` (lane within the group), ``lane`` (lane in the
wave) and ``wave`` (W).  A parameter bound to ``@name`` varies per lane: it
is read from input vector ``name``.

>>> lib = SpecLib.from_text('''
... spec demo.xor(mask, width=32):
...     lanes = 32
...     require width in (1, 2, 4, 8, 16, 32), "width must be a power of two up to 32"
...     j = i ^ mask
...     out = x[j] if j < width else x[i]
... ''')
>>> from verify.backend import Concrete
>>> r = lib.evaluate("demo.xor", {"mask": 1}, Concrete(), 32, {"x": list(range(100, 132))}, [True] * 32)
>>> r["out"][0][:4], r["out"][1][:4]
([101, 100, 103, 102], [True, True, True, True])
>>> lib.evaluate("demo.xor", {"mask": 1, "width": 3}, Concrete(), 32, {"x": [0] * 32}, [True] * 32)
Traceback (most recent call last):
verify.diag.InputError: error: demo.xor: width must be a power of two up to 32 (width=3)
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import hashlib
import os
import pickle
import re
import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from .diag import InputError, Span, read_source
from .identities import FOLDS
from .ir import Cond, Value
from .wide import WIDE_TYPES, Wide, split

_M32 = 0xFFFFFFFF
WAVE = "<wave>"  # a parameter default meaning "the wave size"


def _with_wave(params: dict[str, Any], W: int) -> dict[str, Any]:
    return {k: (W if isinstance(v, str) and v == WAVE else v) for k, v in params.items()}


def _s32(v: int) -> int:
    v &= _M32
    return v - (1 << 32) if v & 0x80000000 else v


@dataclass
class Stmt:
    kind: str  # "let", "require", "lanes", "input", "output"
    name: str
    expr: Any  # ast node (or list of names)
    span: Span
    message: str = ""


@dataclass
class SpecDef:
    name: str
    params: list[str]
    defaults: dict[str, Any]
    body: list[Stmt]
    span: Span
    doc: str = ""
    inputs: list[str] = field(default_factory=lambda: ["x"])
    outputs: list[str] = field(default_factory=lambda: ["out"])
    value_type: str = "u32"  # "f32": outputs compare as floats (NaN equals NaN); "u64"/"i64": 64-bit lanes
    funcs: dict[str, tuple[list[str], ast.expr]] = field(default_factory=dict)  # name -> (params, expr)
    combines: Any = None  # expression naming the operator the spec folds with
    # `sorts KEY, VALUE`: the outputs are the group's (KEY, VALUE) pairs sorted
    # ascending by the pair (docs/bitonic.md): lets the checker prove a
    # sorting network by the 0-1 principle instead of one solver query
    sorts: list[str] = field(default_factory=list)

    @property
    def signature(self) -> str:
        ps = [p if p not in self.defaults else f"{p}={self.defaults[p]}" for p in self.params]
        return f"{self.name}({', '.join(ps)})"


# ---------------------------------------------------------------------------
# parsing

_HEAD_RE = re.compile(r"^spec\s+([A-Za-z_][\w.]*)\s*\((.*)\)\s*:\s*$")


def _parse_expr(text: str, span: Span) -> ast.expr:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        col = (e.offset or 1) - 1 + (len(text) - len(text.lstrip()))
        raise InputError(span.shifted(col), f"syntax error in spec expression: {e.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise InputError(span, f"spec expression nested more than {MAX_DEPTH} deep") from None
    _check_subset(tree.body, span)
    _no_leading_zero(tree.body, text.strip(), span.shifted(len(text) - len(text.lstrip())))
    return tree.body


def _no_leading_zero(node: ast.AST, text: str, span: Span) -> None:
    """Python reads ``00`` as 0 where llvm-mc reads octal: refused, as everywhere (verify.syntax.int_text)."""
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and type(n.value) is int:
            lit = ast.get_source_segment(text, n) or ""
            if len(lit) > 1 and lit[0] == "0" and lit[1].isdigit():
                raise InputError(span.shifted(n.col_offset), f"integer '{lit}' has a leading zero: write it without the zero")


_ALLOWED = (
    ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Subscript, ast.Call,
    ast.Name, ast.Constant, ast.Tuple, ast.Attribute, ast.keyword, ast.Load,
    ast.GeneratorExp, ast.comprehension, ast.Store,
    ast.Add, ast.Sub, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift,
    ast.Invert, ast.USub, ast.UAdd, ast.Not, ast.And, ast.Or,
    ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq, ast.In, ast.NotIn,
)


MAX_DEPTH = 100  # the evaluator recurses once per level


def _depth(node: ast.AST) -> int:
    deepest, todo = 0, [(node, 1)]
    while todo:
        n, d = todo.pop()
        deepest = max(deepest, d)
        todo += [(c, d + 1) for c in ast.iter_child_nodes(n)]
    return deepest


def _check_subset(node: ast.AST, span: Span) -> None:
    if _depth(node) > MAX_DEPTH:
        raise InputError(span, f"spec expression nested more than {MAX_DEPTH} deep")
    for n in ast.walk(node):
        if not isinstance(n, _ALLOWED):
            col = getattr(n, "col_offset", 0)
            raise InputError(span.shifted(col), f"'{type(n).__name__}' is not part of the spec notation")
        if (isinstance(n, ast.Constant) and not isinstance(n.value, (int, str))) or (isinstance(n, ast.Constant) and isinstance(n.value, bool)):
            raise InputError(span.shifted(n.col_offset), f"constant {n.value!r} is not part of the spec notation")
        if isinstance(n, ast.Constant) and isinstance(n.value, int) and n.value >= 1 << 32:
            raise InputError(span.shifted(n.col_offset), f"constant {_short(n)} does not fit in 32 bits")


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def parse_specs(text: str, path: str) -> dict[str, SpecDef]:
    specs: dict[str, SpecDef] = {}
    cur: SpecDef | None = None
    comments: list[str] = []
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        raw = lines[k]
        lineno = k + 1
        k += 1
        stripped = raw.strip()
        if not stripped:
            comments = []  # a description is the comment paragraph just above its spec
            continue
        if stripped.startswith("#"):
            if cur is None or not raw[:1].isspace():
                comments.append(stripped.lstrip("#").strip())
            continue
        # join continuation lines while brackets are open
        while raw.count("(") + raw.count("[") > raw.count(")") + raw.count("]") and k < len(lines):
            raw = raw + " " + lines[k].strip()
            k += 1
        if not raw[:1].isspace():
            m = _HEAD_RE.match(raw.strip())
            span = Span(path, lineno, 1)
            if not m:
                raise InputError(span, "expected 'spec NAME(PARAMS):'")
            name = m.group(1)
            if name in specs:
                raise InputError(span, f"spec '{name}' defined twice")
            try:
                fn = cast(ast.FunctionDef, ast.parse(f"def _({m.group(2)}): pass").body[0])
            except (SyntaxError, RecursionError, MemoryError, ValueError):
                raise InputError(span.shifted(raw.index("(") + 1), "bad parameter list") from None
            params = [a.arg for a in fn.args.args]
            defaults: dict[str, Any] = {}
            for a, d in zip(fn.args.args[len(fn.args.args) - len(fn.args.defaults):], fn.args.defaults):
                if (isinstance(d, ast.UnaryOp) and isinstance(d.op, ast.USub) and isinstance(d.operand, ast.Constant)
                        and isinstance(d.operand.value, int)):
                    defaults[a.arg] = -d.operand.value
                elif isinstance(d, ast.Constant) and isinstance(d.value, (int, str)):
                    defaults[a.arg] = d.value
                elif isinstance(d, ast.Name) and d.id == "wave":
                    defaults[a.arg] = WAVE  # the wave size, known when evaluated
                elif isinstance(d, ast.Name):
                    defaults[a.arg] = d.id  # a bare word is a string
                else:
                    raise InputError(span, f"default of '{a.arg}' must be a constant")
            cur = SpecDef(name, params, defaults, [], span, " ".join(c for c in comments if c))
            comments = []
            specs[name] = cur
            continue
        if cur is None:
            raise InputError(Span(path, lineno, 1), "statement outside a spec")
        indent = len(raw) - len(raw.lstrip())
        span = Span(path, lineno, indent + 1)
        body = raw.strip()
        body = re.sub(r"\s+#.*$", "", body) if "#" in body and '"' not in body.split("#")[0] else body
        if body.startswith("require "):
            rest = body[len("require "):]
            try:
                tup = ast.parse(f"({rest})", mode="eval").body
            except SyntaxError as e:
                raise InputError(span.shifted(8 + (e.offset or 1) - 2), f"syntax error: {e.msg}") from None
            except (RecursionError, MemoryError, ValueError):
                raise InputError(span.shifted(8), f"spec expression nested more than {MAX_DEPTH} deep") from None
            if not (isinstance(tup, ast.Tuple) and len(tup.elts) == 2 and isinstance(tup.elts[1], ast.Constant)
                    and isinstance(tup.elts[1].value, str)):
                raise InputError(span, 'expected: require CONDITION, "message"')
            expr = tup.elts[0]
            _check_subset(expr, span.shifted(8))
            _no_leading_zero(expr, f"({rest})", span.shifted(7))
            cur.body.append(Stmt("require", "", expr, span, tup.elts[1].value))
            continue
        m = re.match(r"^type\s+(u32|f32|u64|i64)$", body)
        if m:
            cur.value_type = m.group(1)
            continue
        m = re.match(r"^combines\s+(.*)$", body)
        if m:
            cur.combines = _parse_expr(m.group(1), span.shifted(9))
            continue
        m = re.match(r"^([A-Za-z_]\w*)\(([^)]*)\)\s*=\s*(.*)$", body)
        if m:
            fargs = [a.strip() for a in m.group(2).split(",") if a.strip()]
            if not all(re.fullmatch(r"[A-Za-z_]\w*", a) for a in fargs):
                raise InputError(span, f"bad parameter list in local function {m.group(1)}")
            if len(set(fargs)) != len(fargs):
                raise InputError(span, f"local function {m.group(1)} names a parameter twice")
            cur.funcs[m.group(1)] = (fargs, _parse_expr(m.group(3), span.shifted(body.index(m.group(3)))))
            continue
        m = re.match(r"^sorts\s+(.*)$", body)
        if m:
            names = [x.strip() for x in m.group(1).split(",")]
            if len(names) != 2 or not all(re.fullmatch(r"[A-Za-z_]\w*", n) for n in names):
                raise InputError(span, "expected: sorts KEY, VALUE (two input vectors)")
            cur.sorts = names
            continue
        m = re.match(r"^(input|output)\s+(.*)$", body)
        if m:
            names = [x.strip() for x in m.group(2).split(",")]
            for n in names:
                if not re.fullmatch(r"[A-Za-z_]\w*", n):
                    raise InputError(span, f"bad name '{n}' in {m.group(1)}")
                if names.count(n) > 1:
                    raise InputError(span, f"'{n}' is listed twice in {m.group(1)}")
            if m.group(1) == "input":
                cur.inputs = names
            else:
                cur.outputs = names
            continue
        m = re.match(r"^([A-Za-z_]\w*)\s*=(?!=)\s*(.*)$", body)
        if not m:
            raise InputError(span, "expected NAME = EXPRESSION, require, input or output")
        name, etext = m.group(1), m.group(2)
        espan = span.shifted(body.index(etext, len(name)) if etext else len(body))
        if not etext:
            raise InputError(espan, f"'{name} =' needs an expression")
        expr = _parse_expr(etext, espan)
        if name in cur.params or name in ("i", "lane", "wave"):
            raise InputError(span, f"'{name}' is a parameter or lane variable and cannot be redefined")
        if name == "lanes" and any(st.kind == "lanes" for st in cur.body):
            raise InputError(span, f"spec {cur.name} says 'lanes = ...' twice")
        cur.body.append(Stmt("lanes" if name == "lanes" else "let", name, expr, espan))
    _check_recursion(specs)  # before the sorts, which unfold local functions
    _check_sorts(specs)
    for s in specs.values():
        if not any(st.kind == "lanes" for st in s.body):
            raise InputError(s.span, f"spec {s.name} does not say how many lanes it describes ('lanes = ...')")
        defined = {st.name for st in s.body if st.kind == "let"}
        for o in s.outputs:
            if o not in defined:
                raise InputError(s.span, f"spec {s.name} never defines its output '{o}'")
        if s.sorts and (any(n not in s.inputs for n in s.sorts) or len(s.outputs) != 2):
            raise InputError(s.span, f"spec {s.name}: 'sorts' names two of its inputs and the spec has two outputs")
    return specs


# ---------------------------------------------------------------------------
# evaluation


@dataclass
class _Ctx:
    lib: SpecLib
    spec: SpecDef
    B: Any  # the backend (verify/backend.py)
    W: int
    n: int  # group size
    base: int  # first lane of the group
    i: int  # lane within the group
    env: dict[str, Any]
    inputs: dict[str, list[Value]]  # name -> list of W values
    active: list[Cond]  # W conditions
    caller: str
    slices: dict[tuple[str | None, int], list[Any]] = field(default_factory=dict)  # shared: (name, base) -> group's lanes
    # shared: (spec, function, base, args) -> result, for local functions that read no lane variable
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)

    def group(self, name: str | None) -> list[Any]:
        key = (name, self.base)
        g = self.slices.get(key)
        if g is None:
            src = self.active if name is None else self.inputs[name]
            g = self.slices[key] = src[self.base:self.base + self.n]
        return g


def _calls(nodes: list[Any], names: Any) -> list[str]:
    """The names among `names` that the expressions `nodes` call."""
    return sorted({c for e in nodes for n in ast.walk(e) if isinstance(n, ast.Call)
                   and (c := _dotted(n.func)) is not None and c in names})


def _cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """A cycle of `graph` (a path whose last node calls its first), or None."""
    state: dict[str, int] = {}
    for root in sorted(graph):
        if state.get(root):
            continue
        path, todo = [root], [iter(graph[root])]
        state[root] = 1
        while todo:
            nxt = next(todo[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                todo.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt):]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                todo.append(iter(graph[nxt]))
    return None


def _check_recursion(specs: dict[str, SpecDef]) -> None:
    """Specs and local functions are not recursive (the evaluator unfolds every call)."""
    for s in specs.values():
        cyc = _cycle({f: _calls([body], s.funcs) for f, (_, body) in s.funcs.items()})
        if cyc:
            raise InputError(s.span, f"spec {s.name}: local function {cyc[0]} calls itself ({' -> '.join(cyc + cyc[:1])})")
    cyc = _cycle({n: _calls([st.expr for st in s.body if st.kind in ("let", "lanes", "require")]
                            + [b for _, b in s.funcs.values()], specs) for n, s in specs.items()})
    if cyc:
        raise InputError(specs[cyc[0]].span, f"spec {cyc[0]} calls itself ({' -> '.join(cyc + cyc[:1])})")


_INT, _BOOL, _STR, _ANY = "an integer", "a condition", "a string", "any"
_INT_CALLS = {"umin", "umax", "smin", "smax", "ident", "combine", "fold", "fold_tree", "fold_hs", "lanemap", "lowest", "first",
              "count"}
_BOOL_CALLS = {"ult", "ule", "active", "all", "any"}


class _Sorts:
    """The static sorts of a spec's expressions: an integer (a 32-bit lane
    value) or a condition, never mixed (the solver has no implicit
    conversion, and a concrete run must not invent one)."""

    def __init__(self, spec: SpecDef, specs: dict[str, SpecDef]):
        self.spec, self.specs = spec, specs
        # (node, environment) -> sort: `want` and the compare/call rules sort
        # a node more than once, and a local function's body at every call
        # site; each is derived once (a failure raises on the first)
        self._memo: dict[tuple[int, frozenset[tuple[str, str]]], str] = {}

    def want(self, node: ast.AST, want: str, env: dict[str, str], span: Span, what: str) -> None:
        got = self.sort(node, env, span)
        if got != _ANY and got != want:
            raise InputError(span.shifted(getattr(node, "col_offset", 0)),
                             f"spec {self.spec.name}: {what} must be {want}, got {got} ('{_short(node)}')")

    def sort(self, node: ast.AST, env: dict[str, str], span: Span) -> str:
        key = (id(node), frozenset(env.items()))
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._sort(node, env, span)
        return got

    def _sort(self, node: ast.AST, env: dict[str, str], span: Span) -> str:
        if isinstance(node, ast.Constant):
            return _STR if isinstance(node.value, str) else _INT
        if isinstance(node, ast.Name):
            return env.get(node.id, _ANY)
        if isinstance(node, ast.BinOp):
            for x in (node.left, node.right):
                self.want(x, _INT, env, span, "an operand of arithmetic")
            return _INT
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                self.want(node.operand, _BOOL, env, span, "the operand of 'not'")
                return _BOOL
            self.want(node.operand, _INT, env, span, "an operand of arithmetic")
            return _INT
        if isinstance(node, ast.BoolOp):
            for x in node.values:
                self.want(x, _BOOL, env, span, "an operand of 'and'/'or'")
            return _BOOL
        if isinstance(node, ast.Compare):
            if any(not isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops):
                for x in [node.left, *node.comparators]:
                    if self.sort(x, env, span) == _STR:
                        raise InputError(span.shifted(getattr(x, "col_offset", 0)),
                                         f"spec {self.spec.name}: strings compare only with == and != ({_short(node)})")
            for x in [node.left, *node.comparators]:
                if isinstance(x, ast.Tuple):
                    for e in x.elts:
                        if self.sort(e, env, span) == _BOOL:
                            self.want(e, _INT, env, span, "a compared value")
                elif self.sort(x, env, span) == _BOOL:
                    self.want(x, _INT, env, span, "a compared value")
            return _BOOL
        if isinstance(node, ast.IfExp):
            self.want(node.test, _BOOL, env, span, "the condition of 'if'")
            a, b = self.sort(node.body, env, span), self.sort(node.orelse, env, span)
            if _ANY not in (a, b) and a != b:
                self.want(node.orelse, a, env, span, "the 'else' value")
            return a if a != _ANY else b
        if isinstance(node, ast.Subscript):
            self.want(node.slice, _INT, env, span, "a lane index")
            return _INT
        if isinstance(node, ast.Call):
            return self.call(node, env, span)
        return _ANY

    def call(self, node: ast.Call, env: dict[str, str], span: Span) -> str:
        name = _dotted(node.func)
        if name in ("fold", "fold_tree", "fold_hs", "all", "any", "lowest", "first", "count"):
            gen = node.args[-1] if node.args else None
            if isinstance(gen, ast.GeneratorExp) and len(gen.generators) == 1:
                comp = gen.generators[0]
                local = dict(env)
                if isinstance(comp.target, ast.Name):
                    local[comp.target.id] = _INT
                for f in comp.ifs:
                    self.want(f, _BOOL, local, span, "a fold's condition")
                self.want(gen.elt, _BOOL if name in ("all", "any", "lowest", "count") else _INT, local, span,
                          f"what {name} combines")
            return _BOOL if name in ("all", "any") else _INT
        for a in node.args:
            if not isinstance(a, ast.GeneratorExp):
                self.sort(a, env, span)
        if name in _BOOL_CALLS:
            for a in node.args:
                self.want(a, _INT, env, span, f"an argument of {name}")
            return _BOOL
        if name in _INT_CALLS:
            for a in node.args[1:] if name in ("combine", "ident") else node.args:
                if name != "lanemap":
                    self.want(a, _INT, env, span, f"an argument of {name}")
            return _INT
        if name in self.spec.funcs:
            fargs, body = self.spec.funcs[name]
            return self.sort(body, {**env, **dict.fromkeys(fargs, _ANY)}, span)
        for kw in node.keywords:
            if kw.value is not None and self.sort(kw.value, env, span) == _BOOL:
                self.want(kw.value, _INT, env, span, f"an argument of {name}")
        return _INT  # another spec: its first output

    def check(self) -> None:
        env: dict[str, str] = {"i": _INT, "lane": _INT, "wave": _INT, "undefined": _INT}
        env.update(dict.fromkeys(self.spec.params, _ANY))
        for st in self.spec.body:
            if st.kind == "require":
                self.want(st.expr, _BOOL, env, st.span.shifted(7), "a requirement")
            elif st.kind in ("let", "lanes"):
                got = self.sort(st.expr, env, st.span)
                if st.kind == "lanes" or st.name in self.spec.outputs:
                    self.want(st.expr, _INT, env, st.span, f"'{st.name}'")
                env[st.name] = got


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_sorts(specs: dict[str, SpecDef]) -> None:
    for s in specs.values():
        _Sorts(s, specs).check()


@lru_cache(maxsize=64)
def _parse_file(text: str, path: str) -> dict[str, SpecDef]:
    """A spec file's definitions, parsed once per text (commands run in one
    process, as the tests do, read the same library many times); nothing
    changes a SpecDef after parsing."""
    return parse_specs(text, path)


# The parsed library is cached between runs (issue #35: parsing and checking
# every spec file took most of a cold `verify lowering`'s own time).  The key
# hashes each file's path and text, this module's and diag's source and the
# Python version, so an edit to a spec or to the parser misses the cache; a
# cache that cannot be read or written is ignored (the library is parsed).
# VERIFY_CACHE_DIR names the directory ("" or "off": no cache); default
# $XDG_CACHE_HOME/verify, else ~/.cache/verify.  One file per set of spec
# directories, the most recently written _CACHE_FILES kept.  Which file is
# dropped never changes a result: a miss parses.
_CACHE_FILES = 16


def _cache_dir() -> Path | None:
    env = os.environ.get("VERIFY_CACHE_DIR")
    if env is not None:
        return None if env in ("", "off") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "verify"


def _cache_key(files: list[tuple[Path, str]]) -> str:
    h = hashlib.sha256(sys.version.encode())
    for src in (Path(__file__), Path(__file__).with_name("diag.py")):
        h.update(src.read_bytes())
    for p, text in files:
        h.update(f"\0{p}\0{len(text)}\0".encode())
        h.update(text.encode())
    return h.hexdigest()


def _cache_file(d: Path, dirs: list[Path]) -> Path:
    """One file per set of spec directories (a new key replaces the old)."""
    return d / f"specs-{hashlib.sha256(repr([str(x) for x in dirs]).encode()).hexdigest()[:24]}.pickle"


def _cache_read(dirs: list[Path], key: str) -> dict[str, SpecDef] | None:
    d = _cache_dir()
    if d is None:
        return None
    try:
        stored, specs = pickle.loads(_cache_file(d, dirs).read_bytes())
    except Exception:  # missing, unreadable or not ours: parse instead
        return None
    if stored != key or not (isinstance(specs, dict) and all(isinstance(s, SpecDef) for s in specs.values())):
        return None
    return specs


def _cache_write(dirs: list[Path], key: str, specs: dict[str, SpecDef]) -> None:
    d = _cache_dir()
    if d is None:
        return
    tmp = d / f".specs-{key}.{os.getpid()}.tmp"
    try:
        d.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(pickle.dumps((key, specs), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, _cache_file(d, dirs))  # whole or not at all
        files = sorted(d.glob("specs-*.pickle"), key=lambda f: f.stat().st_mtime_ns)
        for old in files[:-_CACHE_FILES]:  # bounded: tests make many catalogues of their own
            old.unlink(missing_ok=True)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


class SpecLib:
    def __init__(self, specs: dict[str, SpecDef]):
        _check_recursion(specs)  # again: a cycle may run through several files
        self.specs = specs

    @classmethod
    def from_text(cls, text: str, path: str = "<spec>") -> SpecLib:
        return cls(parse_specs(text, path))

    @classmethod
    def from_dirs(cls, dirs: list[Path]) -> SpecLib:
        files = [(p, read_source(p)) for d in dirs for p in sorted(Path(d).glob("*.spec"))]
        key = _cache_key(files)
        cached = _cache_read(dirs, key)
        if cached is not None:  # parsed and checked when it was written, from these very texts
            lib = cls.__new__(cls)
            lib.specs = cached
            return lib
        specs: dict[str, SpecDef] = {}
        for p, text in files:
            for name, s in _parse_file(text, str(p)).items():
                if name in specs:
                    raise InputError(s.span, f"spec '{name}' also defined at {specs[name].span}")
                specs[name] = s
        lib = cls(specs)
        _cache_write(dirs, key, specs)
        return lib

    def get(self, name: str, span: Span | None = None) -> SpecDef:
        s = self.specs.get(name)
        if s is None:
            close = difflib.get_close_matches(name, list(self.specs), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise InputError(span, f"unknown spec '{name}'{hint}")
        return s

    # -- parameters -----------------------------------------------------
    def bind(self, spec: SpecDef, params: dict[str, Any], spans: dict[str, Span] | None = None,
             span: Span | None = None) -> dict[str, Any]:
        spans = spans or {}
        out: dict[str, Any] = {}
        for k in params:
            if k not in spec.params:
                raise InputError(spans.get(k, span), f"spec {spec.name} has no parameter '{k}' (parameters: {', '.join(spec.params) or 'none'})")
        for p in spec.params:
            if p in params:
                out[p] = params[p]
            elif p in spec.defaults:
                out[p] = spec.defaults[p]
            else:
                raise InputError(span, f"spec {spec.name} needs parameter '{p}' ({spec.signature})")
        return out

    def group_size(self, spec: SpecDef, params: dict[str, Any], W: int, span: Span | None = None) -> int:
        env = {k: v for k, v in _with_wave(params, W).items() if isinstance(v, (int, str))}
        env["wave"] = W
        for st in spec.body:
            if st.kind == "lanes":
                try:
                    n: int = _const_eval(st.expr, env)
                except KeyError as e:
                    raise InputError(st.span, f"'lanes' must depend only on constant parameters, not {e.args[0]}") from None
                except InputError as e:
                    raise InputError(e.span or st.span, e.message) from None
                if n not in (1, 2, 4, 8, 16, 32, 64):
                    raise InputError(span, f"spec {spec.name} describes groups of {n} lanes; that must be a power of two up to 64")
                if n > W:
                    raise InputError(span, f"spec {spec.name} describes {n} lanes but a wave{W} has only {W}")
                return n
        raise AssertionError("checked at parse time")

    def check_requires(self, spec: SpecDef, params: dict[str, Any], W: int, span: Span | None = None) -> None:
        params = _with_wave(params, W)
        env = {k: v for k, v in params.items() if isinstance(v, (int, str)) and not str(v).startswith("@")}
        env["wave"] = W
        for st in spec.body:
            if st.kind != "require":
                continue
            try:
                ok = _const_eval(st.expr, env)
            except KeyError as e:
                raise InputError(st.span, f"require must use constant parameters only, not '{e.args[0]}'") from None
            except InputError as e:
                raise InputError(e.span or st.span, e.message) from None
            if not ok:
                used = sorted({n.id for n in ast.walk(st.expr) if isinstance(n, ast.Name) and n.id in params})
                vals = ", ".join(f"{u}={params[u]}" for u in used)
                raise InputError(span, f"{spec.name}: {st.message}" + (f" ({vals})" if vals else ""))

    # -- evaluation -------------------------------------------------------
    def evaluate(self, name: str, params: dict[str, Any], B: Any, W: int, inputs: dict[str, list[Value]],
                 active: list[Cond], spans: dict[str, Span] | None = None,
                 span: Span | None = None, lanes: Collection[int] | None = None) -> dict[str, tuple[list[Value], list[Cond]]]:
        """Evaluate spec `name` on a wave: {output: (values[W], defined[W])}.
        `lanes`: evaluate only these lanes (the others read as undefined, 0):
        a concrete search that compares a few lanes need not pay for all.

        `inputs` maps input names to W values; a parameter given as
        ``"@name"`` reads input `name` per lane.  Values are 32-bit
        (unsigned ints concretely); ``defined`` is a condition per lane.
        """
        spec = self.get(name, span)
        bound = _with_wave(self.bind(spec, params, spans, span), W)
        for k, v in bound.items():
            if isinstance(v, str) and v.startswith("@") and v[1:] not in inputs:
                raise InputError((spans or {}).get(k, span), f"parameter {k}={v} names no input (inputs: {', '.join(inputs) or 'none'})")
        for nm in spec.inputs:
            if nm not in inputs:
                raise InputError(span, f"spec {spec.name} reads input '{nm}', which is not provided")
        self.check_requires(spec, {k: v for k, v in bound.items() if not (isinstance(v, str) and v.startswith("@"))},
                            W, span)
        comb = spec.combines
        if isinstance(comb, ast.Name) and comb.id in bound and bound[comb.id] not in OPS:
            # the operator it combines with, checked before any lane runs: a
            # run that never reaches a combine must not accept it either
            raise InputError((spans or {}).get(comb.id, span),
                             f"spec {spec.name}: unknown operator {bound[comb.id]!r} (operators: {', '.join(OPS)})")
        n = self.group_size(spec, bound, W, span)
        _check_widths(spec, inputs, span)
        wide = None
        if spec.value_type in WIDE_TYPES:  # 64-bit lanes: (lo, hi) pairs on the pair backend  [S:wide64]
            B = wide = Wide(B)
            inputs = {k: ([split(v) if isinstance(v, int) else v for v in vs] if k in spec.inputs else vs)
                      for k, vs in inputs.items()}
        outs: dict[str, tuple[list[Value], list[Cond]]] = {o: ([], []) for o in spec.outputs}
        slices: dict[tuple[str | None, int], list[Any]] = {}
        memo: dict[tuple[Any, ...], Any] = {}
        for lane in range(W):
            if lanes is not None and lane not in lanes:
                for o in spec.outputs:
                    outs[o][0].append(B.const(0))
                    outs[o][1].append(False)
                continue
            base = lane - lane % n
            env: dict[str, Any] = {}
            for k, v in bound.items():
                if isinstance(v, str) and v.startswith("@"):
                    env[k] = inputs[v[1:]][lane]
                else:
                    env[k] = v
            ctx = _Ctx(self, spec, B, W, n, base, lane - base, env, inputs, active, spec.name, slices, memo)
            try:
                res = _run_body(ctx)
            except InputError as e:
                if e.span is None and "unknown operator" in e.message:
                    bad = next((k for k, v in bound.items() if isinstance(v, str) and not v.startswith("@")
                                and v not in _OP_NAMES), None)
                    raise InputError((spans or {}).get(bad, span) if bad is not None else span, e.message) from None
                raise
            except (TypeError, AttributeError) as e:
                # a parameter given as text where the spec computes with a number
                texts = [k for k, v in bound.items() if isinstance(v, str) and not v.startswith("@")]
                if not texts:
                    if isinstance(e, _TextValue):  # text from a literal, passed to another spec
                        raise InputError(span, str(e)) from None
                    raise
                k = texts[0]
                raise InputError((spans or {}).get(k, span), f"spec {spec.name}: parameter {k}={bound[k]} must be "
                                                             f"an integer (or @input for a per-lane value)") from None
            for o in spec.outputs:
                v, d = res[o]
                if isinstance(v, str):
                    raise InputError(span, f"spec {spec.name}: output {o} is a string")
                outs[o][0].append(B.const(v) if isinstance(v, int) else v)
                outs[o][1].append(d)
        if wide is not None:
            return {o: ([wide.value(v) for v in vs], ds) for o, (vs, ds) in outs.items()}
        return outs


def _check_widths(spec: SpecDef, inputs: dict[str, list[Value]], span: Span | None) -> None:
    """A concrete input must fit the spec's lanes: a 64-bit int given to a
    32-bit spec is an error, not its low half read silently (a 64-bit
    __match_any_sync is cuda.match_any_b64 with the halves x and xhi, or a
    `type u64` spec).  Signed or unsigned patterns are both accepted."""
    bits = 64 if spec.value_type in WIDE_TYPES else 32
    for k, vs in inputs.items():
        for lane, v in enumerate(vs):
            if isinstance(v, int) and not -(1 << (bits - 1)) <= v < (1 << bits):
                hint = " (a 64-bit value: pass its halves as x and xhi to a _b64 spec, or use a `type u64` spec)" \
                    if bits == 32 and -(1 << 63) <= v < (1 << 64) else ""
                raise InputError(span, f"spec {spec.name}: input {k} lane {lane} is {v:#x}, which does not fit "
                                       f"its {bits}-bit lanes{hint}")


def _const_eval(node: ast.AST, env: dict[str, Any]) -> Any:
    """Evaluate a parameter-only expression with Python ints."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env and node.id == "wave" and "wave" in env:
            return env["wave"]
        return env[node.id]
    if isinstance(node, ast.Tuple):
        return tuple(_const_eval(e, env) for e in node.elts)
    if isinstance(node, ast.BinOp):
        a, b = _const_eval(node.left, env), _const_eval(node.right, env)
        _const_ints(node, a, b)
        return _s32(_PYBIN[type(node.op)](a, b))
    if isinstance(node, ast.UnaryOp):
        v = _const_eval(node.operand, env)
        if not isinstance(node.op, ast.Not):
            _const_ints(node, v)
        return (not v) if isinstance(node.op, ast.Not) else _s32(-v if isinstance(node.op, ast.USub) else ~v if isinstance(node.op, ast.Invert) else v)
    if isinstance(node, ast.BoolOp):
        vals = [_const_eval(v, env) for v in node.values]
        return all(vals) if isinstance(node.op, ast.And) else any(vals)
    if isinstance(node, ast.Compare):
        left = _const_eval(node.left, env)
        for op, rnode in zip(node.ops, node.comparators):
            right = _const_eval(rnode, env)
            if not isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                _const_ints(node, left, right)
            elif isinstance(op, (ast.In, ast.NotIn)) and not isinstance(right, tuple):
                raise InputError(None, f"'in' needs a tuple: '{_short(node)}'")
            if not _PYCMP[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return _const_eval(node.body, env) if _const_eval(node.test, env) else _const_eval(node.orelse, env)
    raise KeyError(ast.unparse(node))


def _const_ints(node: ast.AST, *vals: Any) -> None:
    """Arithmetic and ordering take integers: a parameter given as text (or
    a tuple) there is an input error, not a Python TypeError."""
    for v in vals:
        if type(v) is not int:
            what = "a string" if isinstance(v, str) else "a condition" if isinstance(v, bool) else "a tuple"
            raise InputError(None, f"'{_short(node)}' computes with {what} ({v!r:.40}) where it needs an integer")


_PYBIN: dict[type[ast.operator], Callable[[int, int], int]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b,
    ast.LShift: lambda a, b: a << (b & 31) if 0 <= b < 32 else 0, ast.RShift: lambda a, b: a >> min(b, 31) if b >= 0 else 0,
}
_PYCMP: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b, ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}


# what evaluating an expression gives: (value, defined), where value is an
# int, a bool or a str (a constant parameter) or a backend term, and defined
# is True, False or a backend condition
_Res = tuple[Any, Cond]


def _run_body(ctx: _Ctx) -> dict[str, _Res]:
    values: dict[str, _Res] = {}
    for st in ctx.spec.body:
        if st.kind == "let":
            try:
                values[st.name] = _ev(st.expr, ctx, values)
            except _WideConst as e:
                raise InputError(st.span, str(e)) from None
    return values


class _WideConst(Exception):
    """A constant outside the signed 32-bit range on 64-bit lanes (its statement adds the position)."""


def _c32(ctx: _Ctx, raw: int) -> int:
    """A constant as the notation's 32-bit two's complement.  On 64-bit lanes
    (type u64/i64) a constant that does not fit a signed 32-bit value (a
    literal such as 0x80000000, or 1 << 31 folded) is an error: the notation
    defines 32-bit constants, and whether one that wrapped widens by sign
    (0xffffffff80000000) or by zero (0x80000000) is not defined; a constant
    in range widens by sign (-1 is all ones).  docs/language.md"""
    v = _s32(raw)
    if v != raw and isinstance(ctx.B, Wide):
        raise _WideConst(f"spec {ctx.spec.name}: the constant {raw:#x} does not fit a signed 32-bit value, and on "
                         f"64-bit lanes (type u64/i64) it is ambiguous whether it widens by sign "
                         f"({v & 0xFFFFFFFFFFFFFFFF:#x}) or by zero ({raw & _M32:#x}): write a constant from "
                         f"-2^31 to 2^31 - 1 (a negative one widens by sign)")
    return v


def _is_c(v: object) -> bool:
    return type(v) is int


def _is_cb(v: object) -> bool:
    return type(v) is bool


def _sym(ctx: _Ctx, v: Any) -> Value:
    return ctx.B.const(v) if _is_c(v) else v


def _and_def(B: Any, *ds: Cond) -> Cond:
    rest = [d for d in ds if d is not True]
    if not rest:
        return True
    if any(d is False for d in rest):
        return False
    return rest[0] if len(rest) == 1 else B.and_b(*rest)


def _ev(node: ast.AST, ctx: _Ctx, values: dict[str, _Res]) -> _Res:
    """-> (value, defined).  value: int | bool | backend term."""
    B = ctx.B
    if isinstance(node, ast.Constant):
        return (node.value if isinstance(node.value, str) else _c32(ctx, cast(int, node.value))), True  # ints: _check_subset
    if isinstance(node, ast.Name):
        nm = node.id
        if nm in values:
            return values[nm]
        if nm in ctx.env:
            v = ctx.env[nm]
            return (_s32(v) if _is_c(v) else v), True
        if nm == "i":
            return ctx.i, True
        if nm == "lane":
            return ctx.base + ctx.i, True
        if nm == "wave":
            return ctx.W, True
        if nm == "undefined":
            return 0, False
        raise InputError(None, f"spec {ctx.spec.name}: unknown name '{nm}'")
    if isinstance(node, ast.BinOp):
        a, da = _ev(node.left, ctx, values)
        b, db = _ev(node.right, ctx, values)
        return _binop(ctx, type(node.op), a, b), _and_def(B, da, db)
    if isinstance(node, ast.UnaryOp):
        a, da = _ev(node.operand, ctx, values)
        op = type(node.op)
        _no_text(ctx, "an operand", a)
        if op is ast.Not:
            return ((not a) if _is_cb(a) else B.not_b(a)), da
        if _is_c(a):
            return _c32(ctx, -a if op is ast.USub else ~a if op is ast.Invert else a), da
        if op is ast.USub:
            return B.sub(B.const(0), a), da
        if op is ast.Invert:
            return B.not_(a), da
        return a, da
    if isinstance(node, ast.BoolOp):
        is_and = isinstance(node.op, ast.And)
        acc, dacc = is_and, True
        for sub in node.values:
            v, d = _ev(sub, ctx, values)
            dacc = _and_def(B, dacc, d)
            if _is_cb(v) and _is_cb(acc):
                acc = (acc and v) if is_and else (acc or v)
                if acc is (not is_and):  # short-circuit
                    return acc, dacc
            else:
                acc = B.and_b(acc, v) if is_and else B.or_b(acc, v)
        return acc, dacc
    if isinstance(node, ast.Compare):
        left, dl = _ev(node.left, ctx, values)
        res, dres = True, dl
        for cop, rnode in zip(node.ops, node.comparators):
            if isinstance(cop, (ast.In, ast.NotIn)):
                if not isinstance(rnode, ast.Tuple):
                    raise InputError(None, f"spec {ctx.spec.name}: 'in' needs a tuple")
                opts = [_ev(e, ctx, values)[0] for e in rnode.elts]
                if isinstance(left, str) or (_is_c(left) and all(_is_c(o) for o in opts)):
                    c = left in opts
                else:
                    c = B.or_b(*[B.eq(_sym(ctx, left), _sym(ctx, o)) for o in opts])
                if isinstance(cop, ast.NotIn):
                    c = (not c) if _is_cb(c) else B.not_b(c)
                right, dr = left, True
            else:
                right, dr = _ev(rnode, ctx, values)
                if isinstance(left, str) or isinstance(right, str):
                    if type(cop) not in (ast.Eq, ast.NotEq):
                        raise InputError(None, f"spec {ctx.spec.name}: strings compare only with == and !=")
                    c = (left == right) == (type(cop) is ast.Eq)
                else:
                    c = _cmp(ctx, type(cop), left, right)
            res = (res and c) if _is_cb(res) and _is_cb(c) else B.and_b(res, c)
            dres = _and_def(B, dres, dr)
            left = right
        return res, dres
    if isinstance(node, ast.IfExp):
        c, dc = _ev(node.test, ctx, values)
        _no_text(ctx, "the condition of 'if'", c)
        if _is_cb(c):
            v, d = _ev(node.body if c else node.orelse, ctx, values)
            return v, _and_def(B, dc, d)
        a, da = _ev(node.body, ctx, values)
        b, db = _ev(node.orelse, ctx, values)
        v = B.ite(c, _sym(ctx, a), _sym(ctx, b))
        d = _and_def(B, dc, B.ite(c, da, db) if not (da is True and db is True) else True)
        return v, d
    if isinstance(node, ast.Subscript):
        vec = _dotted(node.value)
        if vec not in ctx.spec.inputs:
            raise InputError(None, f"spec {ctx.spec.name}: '{vec}' is not an input vector")
        j, dj = _ev(node.slice, ctx, values)
        return _read(ctx, vec, j, dj)
    if isinstance(node, ast.Call):
        fname = _dotted(node.func)
        return _call(ctx, fname, node, values)
    raise InputError(None, f"spec {ctx.spec.name}: unsupported expression {ast.unparse(node)}")


def _read(ctx: _Ctx, name: str, j: Any, dj: Cond) -> _Res:
    B, n = ctx.B, ctx.n
    _no_text(ctx, "a lane index", j)
    vec, act = ctx.group(name), ctx.group(None)
    if _is_c(j):
        if not 0 <= j < n:
            return B.const(0), False
        return vec[j], _and_def(B, dj, act[j])
    # index the whole wave (one array per register, shared with the
    # lowering's reads) rather than the group's slice
    jj = B.or_(B.and_(j, B.const(n - 1)), B.const(ctx.base))
    in_range = B.ult(j, B.const(n))
    full = ctx.inputs[name]
    return B.select(full, jj), _and_def(B, dj, in_range, B.select(ctx.active, jj))


class _TextValue(TypeError):
    """Text where a number is needed (SpecLib.evaluate names the parameter)."""


def _no_text(ctx: _Ctx, what: str, *vals: Any) -> None:
    """A value computed with must not be text (a parameter given as a name,
    passed on to a spec that computes with it): an input error."""
    for v in vals:
        if isinstance(v, str):
            raise _TextValue(f"spec {ctx.spec.name}: {what} must be an integer, got the text '{v:.40}'")


def _binop(ctx: _Ctx, op: type[ast.operator], a: Any, b: Any) -> Any:
    B = ctx.B
    _no_text(ctx, "an operand of arithmetic", a, b)
    if _is_c(a) and _is_c(b):
        return _c32(ctx, _PYBIN[op](a, b))
    a, b = _sym(ctx, a), _sym(ctx, b)
    if op is ast.Add:
        return B.add(a, b)
    if op is ast.Sub:
        return B.sub(a, b)
    if op is ast.Mult:
        return B.mul(a, b)
    if op is ast.BitAnd:
        return B.and_(a, b)
    if op is ast.BitOr:
        return B.or_(a, b)
    if op is ast.BitXor:
        return B.xor(a, b)
    if op is ast.LShift:
        return B.shl(a, b)
    if op is ast.RShift:
        return B.ashr(a, b)
    raise AssertionError(op)


def _cmp(ctx: _Ctx, op: type[ast.cmpop], a: Any, b: Any) -> Cond:
    B = ctx.B
    if _is_c(a) and _is_c(b):  # an input lane reads as its unsigned pattern: compare as i32, as the solver does
        return _PYCMP[op](_s32(a), _s32(b))
    a, b = _sym(ctx, a), _sym(ctx, b)
    if op is ast.Lt:
        return B.slt(a, b)
    if op is ast.LtE:
        return B.sle(a, b)
    if op is ast.Gt:
        return B.slt(b, a)
    if op is ast.GtE:
        return B.sle(b, a)
    if op is ast.Eq:
        return B.eq(a, b)
    if op is ast.NotEq:
        return B.ne(a, b)
    raise AssertionError(op)


_BUILTIN_2 = {"ult", "ule", "umin", "umax", "smin", "smax"}


def _call(ctx: _Ctx, fname: str | None, node: ast.Call, values: dict[str, _Res]) -> _Res:
    B = ctx.B
    if fname == "active":
        if len(node.args) != 1 or node.keywords:
            raise InputError(None, f"spec {ctx.spec.name}: active(j) takes one lane")
        j, dj = _ev(node.args[0], ctx, values)
        _no_text(ctx, "the lane of active()", j)
        if _is_c(j):
            if not 0 <= j < ctx.n:
                return False, dj
            return ctx.active[ctx.base + j], dj
        jj = B.or_(B.and_(j, B.const(ctx.n - 1)), B.const(ctx.base))
        return B.and_b(B.ult(j, B.const(ctx.n)), B.select(ctx.active, jj)), dj
    if fname == "lanemap":
        return _lanemap(ctx, node, values)
    if fname in ctx.spec.funcs:
        fargs, body = ctx.spec.funcs[fname]
        if len(node.args) != len(fargs) or node.keywords:
            raise InputError(None, f"spec {ctx.spec.name}: {fname} takes {len(fargs)} argument(s)")
        local = dict(values)
        for a, e in zip(fargs, node.args):
            local[a] = _ev(e, ctx, values)
        # a function of its arguments, the constant parameters and the inputs
        # alone gives every lane of the group the same result: computed once
        # (a sort's rank(j) is asked by every lane)
        key = None
        if (all(_is_c(local[a][0]) and local[a][1] is True for a in fargs)
                and all(_is_c(v) or isinstance(v, str) for v in ctx.env.values()) and _lane_free(ctx, fname)):
            key = (ctx.spec.name, fname, ctx.base, tuple(local[a][0] for a in fargs), tuple(sorted(ctx.env.items())))
            if key in ctx.memo:
                return cast(_Res, ctx.memo[key])
        r = _ev(body, ctx, local)
        if key is not None:
            ctx.memo[key] = r
        return r
    if fname in _OPS_BUILTINS:
        # a fold of the group that reads no lane variable (a reduction's
        # `fold(op, (x[j] ... for j in range(wave)))`) is the same in every
        # lane of the group: computed once per group, as a lane-free local
        # function is (issue #35: the f32 search ran it in each of 64 lanes)
        gkey = None
        if all(_is_c(v) or isinstance(v, str) for v in ctx.env.values()) and _call_lane_free(ctx, node, values):
            gkey = ("group-call", ctx.spec.name, id(node), ctx.base, tuple(sorted(ctx.env.items())))
            if gkey in ctx.memo:
                return cast(_Res, ctx.memo[gkey])
        r = _ops_builtin(ctx, fname, node, values)
        if gkey is not None:
            ctx.memo[gkey] = r
        return r
    if fname in _BUILTIN_2:
        if len(node.args) != 2 or node.keywords:
            raise InputError(None, f"spec {ctx.spec.name}: {fname}(a, b) takes two arguments")
        (a, da), (b, db) = (_ev(x, ctx, values) for x in node.args)
        _no_text(ctx, f"an argument of {fname}", a, b)
        d = _and_def(B, da, db)
        if _is_c(a) and _is_c(b):
            ua, ub = a & _M32, b & _M32
            r = {"ult": ua < ub, "ule": ua <= ub, "umin": _s32(min(ua, ub)), "umax": _s32(max(ua, ub)),
                 "smin": min(a, b), "smax": max(a, b)}[fname]
            return r, d
        a, b = _sym(ctx, a), _sym(ctx, b)
        return getattr(B, fname)(a, b), d
    if fname is None or fname not in ctx.lib.specs:
        raise InputError(None, f"spec {ctx.spec.name}: unknown function '{fname}'")
    callee = ctx.lib.specs[fname]
    args: dict[str, Any] = {}
    dargs = True
    if node.args:
        raise InputError(None, f"spec {ctx.spec.name}: call {fname} with keyword arguments (name=value)")
    for kw in node.keywords:
        if kw.arg is None:  # f(**x)
            raise InputError(None, f"spec {ctx.spec.name}: call {fname} with keyword arguments (name=value)")
        v, d = _ev(kw.value, ctx, values)
        args[kw.arg] = v
        dargs = _and_def(B, dargs, d)
    bound = _with_wave(ctx.lib.bind(callee, args), ctx.W)
    consts = {k: v for k, v in bound.items() if _is_c(v) or isinstance(v, str)}
    ctx.lib.check_requires(callee, consts, ctx.W)
    n = ctx.lib.group_size(callee, consts, ctx.W)
    if n != ctx.n:
        raise InputError(None, f"spec {ctx.spec.name} ({ctx.n} lanes) calls {fname}, which describes {n} lanes")
    sub = _Ctx(ctx.lib, callee, B, ctx.W, n, ctx.base, ctx.i, bound, ctx.inputs, ctx.active, ctx.spec.name, ctx.slices, ctx.memo)
    res = _run_body(sub)
    v, d = res[callee.outputs[0]]
    return v, _and_def(B, dargs, d)


_GROUP_CALLS = frozenset({"range", "active", "ult", "ule", "umin", "umax", "smin", "smax", "ident",
                                                "combine", "fold", "fold_tree", "fold_hs", "all", "any", "lowest",
                                                "first", "count"})  # builtins that read no lane variable themselves


def _call_lane_free(ctx: _Ctx, node: ast.Call, values: dict[str, _Res]) -> bool:
    """The call reads no lane variable (i, lane), no definition and no name
    of the scope it is in: its names are the parameters, wave, inputs, its
    own comprehension variables, lane-free builtins (not lanemap, not another
    spec, which runs at this lane) and lane-free local functions."""
    key = ("lane-free-call", ctx.spec.name, id(node))
    names = ctx.memo.get(key)
    if names is None:
        spec = ctx.spec
        bound = {"wave", "undefined"} | set(spec.inputs) | set(ctx.env)
        for n in ast.walk(node):
            if isinstance(n, ast.comprehension) and isinstance(n.target, ast.Name):
                bound.add(n.target.id)
        called = {c for n in ast.walk(node) if isinstance(n, ast.Call) and (c := _dotted(n.func)) is not None}
        used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                and n.id not in called}
        ok = (all(c in _GROUP_CALLS or (c in spec.funcs and _lane_free(ctx, c)) for c in called)
              and used <= bound and all(isinstance(n.func, ast.Name) for n in ast.walk(node) if isinstance(n, ast.Call)))
        ctx.memo[key] = names = (ok, frozenset(used))
    ok, free = names
    return bool(ok) and not (free & values.keys())


def _lane_free(ctx: _Ctx, fname: str, seen: frozenset[str] = frozenset()) -> bool:
    """Local function `fname` reads no lane variable (i, lane) and no
    definition: its names are its arguments, the parameters, wave, inputs,
    comprehension variables and lane-free functions.  (The memo key holds
    the parameters' values, so a per-lane parameter shares nothing.)"""
    spec = ctx.spec
    known = ctx.memo.get(("lane-free", spec.name, fname))
    if known is not None:
        return cast(bool, known)
    ctx.memo[("lane-free", spec.name, fname)] = free = _lane_free_uncached(ctx, fname, seen)
    return free


def _lane_free_uncached(ctx: _Ctx, fname: str, seen: frozenset[str]) -> bool:
    spec = ctx.spec
    fargs, body = spec.funcs[fname]
    bound = set(fargs) | {"wave"} | set(spec.inputs) | set(ctx.env)
    for n in ast.walk(body):
        if isinstance(n, ast.comprehension) and isinstance(n.target, ast.Name):
            bound.add(n.target.id)
    called = {c for n in ast.walk(body) if isinstance(n, ast.Call) and (c := _dotted(n.func)) is not None}
    for n in ast.walk(body):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in bound and n.id not in called:
            return False
    return all(_lane_free(ctx, c, seen | {fname}) for c in called if c in spec.funcs and c not in seen | {fname})


_LANEMAP_CACHE: dict[str, Any] = {}


def _lanemap(ctx: _Ctx, node: ast.Call, values: dict[str, _Res]) -> _Res:
    """lanemap(src): evaluate the string parameter `src` as a lane expression
    in i (also lane, wave); it must name a lane inside the group."""
    if len(node.args) != 1 or node.keywords:
        raise InputError(None, f"spec {ctx.spec.name}: lanemap(src) takes one argument")
    text, _ = _ev(node.args[0], ctx, values)
    if not isinstance(text, str):
        raise InputError(None, f"spec {ctx.spec.name}: lanemap needs a quoted expression, e.g. src=\"i ^ 5\"")
    expr = _LANEMAP_CACHE.get(text)
    if expr is None:
        expr = _parse_expr(text, Span("<lanemap>", 1, 1))
        for n in ast.walk(expr):
            if isinstance(n, ast.Name) and n.id not in ("i", "lane", "wave"):
                raise InputError(None, f"lanemap expression '{text}' may use only i, lane and wave, not '{n.id}'")
            if isinstance(n, (ast.Subscript, ast.Call)):
                raise InputError(None, f"lanemap expression '{text}' may not read inputs or call functions")
        _LANEMAP_CACHE[text] = expr
    j, d = _ev(expr, ctx, {})
    if not 0 <= j < ctx.n:
        raise InputError(None, f"lane map '{text}' sends lane {ctx.base + ctx.i} to {j}, outside its group of {ctx.n} lanes")
    return j, d


# ---------------------------------------------------------------------------
# named operators and folds

# name -> (backend method, identity (32-bit pattern), absorbing element or None),
# from the one table of identities (verify/identities.py)
OPS: dict[str, tuple[str, int, int | None]] = {
    name: (op.method, op.identity, op.absorbing) for name, op in FOLDS.items() if op.identity is not None
}

_OPS_BUILTINS = {"ident", "combine", "fold", "fold_tree", "fold_hs", "all", "any", "lowest", "first", "count"}
_OP_NAMES = OPS


def _opname(ctx: _Ctx, node: ast.AST, values: dict[str, _Res]) -> str:
    v, _ = _ev(node, ctx, values)
    if not isinstance(v, str) or v not in OPS:
        raise InputError(None, f"spec {ctx.spec.name}: unknown operator {v!r} (operators: {', '.join(OPS)})")
    return v


def apply_op(B: Any, op: str, a: Value, b: Value) -> Value:
    return getattr(B, OPS[op][0])(a, b)


def _as_val(ctx: _Ctx, v: Any) -> Value:
    if _is_c(v):
        return ctx.B.const(v)
    return v


MAX_RANGE = 128  # the longest range a fold may run over: two 64-lane waves' worth (range(-1, wave) is 65)


def _gen_items(ctx: _Ctx, gen: ast.AST, values: dict[str, _Res]) -> list[tuple[Any, Cond, Cond, Cond]]:
    """(element, element defined, condition, condition defined) per j."""
    if not isinstance(gen, ast.GeneratorExp) or len(gen.generators) != 1:
        raise InputError(None, f"spec {ctx.spec.name}: expected `EXPR for j in range(a, b) [if COND]`")
    comp = gen.generators[0]
    it = comp.iter
    if not (isinstance(comp.target, ast.Name) and isinstance(it, ast.Call) and _dotted(it.func) == "range"
            and 1 <= len(it.args) <= 2):
        raise InputError(None, f"spec {ctx.spec.name}: a fold ranges over `j in range(a, b)`")
    bounds = [_ev(a, ctx, values)[0] for a in it.args]
    if not all(_is_c(b) for b in bounds):
        raise InputError(None, f"spec {ctx.spec.name}: range bounds must be constant per lane")
    lo, hi = (0, bounds[0]) if len(bounds) == 1 else bounds
    if hi - lo > MAX_RANGE:  # a fold runs over lanes (at most 64) or bits: a longer range is a mistake, not a loop to run
        raise InputError(None, f"spec {ctx.spec.name}: range({lo}, {hi}) has {hi - lo} values; "
                               f"a fold ranges over at most {MAX_RANGE}")
    out = []
    for j in range(lo, hi):
        local = dict(values)
        local[comp.target.id] = (j, True)
        cond, dc = True, True
        for f in comp.ifs:
            c, d = _ev(f, ctx, local)
            cond = (cond and c) if _is_cb(cond) and _is_cb(c) else ctx.B.and_b(cond, c)
            dc = _and_def(ctx.B, dc, d)
        if cond is False:
            out.append((None, True, False, dc))
            continue
        e, de = _ev(gen.elt, ctx, local)
        out.append((e, de, cond, dc))
    return out


def _ops_builtin(ctx: _Ctx, fname: str, node: ast.Call, values: dict[str, _Res]) -> _Res:
    B = ctx.B
    if fname == "ident":
        op = _opname(ctx, node.args[0], values)
        return (B.ident(op) if isinstance(B, Wide) else OPS[op][1]), True
    if fname == "combine":
        op = _opname(ctx, node.args[0], values)
        (a, da), (b, db) = (_ev(x, ctx, values) for x in node.args[1:3])
        return apply_op(B, op, _as_val(ctx, a), _as_val(ctx, b)), _and_def(B, da, db)
    if fname in ("all", "any", "count"):
        items = _gen_items(ctx, node.args[0], values)
        conds, d = [], True
        for e, de, c, dc in items:
            if c is False:  # left out, but its condition must have been defined
                d = _and_def(B, d, dc)
                continue
            d = _and_def(B, d, dc, de if c is True else B.or_b(B.not_b(c), de))
            conds.append(e if c is True else (B.or_b(B.not_b(c), e) if fname == "all" else B.and_b(c, e)))
        if fname == "count":  # the number of conditions that hold (the backend's popcount, as v_mbcnt counts)
            return B.popcount(conds), d
        return (B.and_b(*conds) if fname == "all" else B.or_b(*conds)), d
    if fname == "lowest":
        return _lowest(ctx, node, values)
    if fname == "first":
        return _first(ctx, node, values)
    op = _opname(ctx, node.args[0], values)
    ident = B.ident(op) if isinstance(B, Wide) else B.const(OPS[op][1])
    elems, d = [], True
    for e, de, c, dc in _gen_items(ctx, node.args[1], values):
        if c is False:  # left out, but its condition must have been defined
            elems.append(ident)
            d = _and_def(B, d, dc)
            continue
        ev = _as_val(ctx, e)
        elems.append(ev if c is True else B.ite(c, ev, ident))
        d = _and_def(B, d, dc, de if c is True else B.or_b(B.not_b(c), de))
    if not elems:
        return ident, d
    if fname == "fold":  # left to right in ascending j
        acc = elems[0]
        for e in elems[1:]:
            acc = apply_op(B, op, acc, e)
        return acc, d
    if fname == "fold_hs":
        return _fold_hs(B, op, elems), d
    # fold_tree: a balanced pairwise tree over the elements (adjacent pairs first)
    while len(elems) > 1:
        nxt = [apply_op(B, op, elems[k], elems[k + 1]) for k in range(0, len(elems) - 1, 2)]
        if len(elems) % 2:
            nxt.append(elems[-1])
        elems = nxt
    return elems[0], d


def _lowest(ctx: _Ctx, node: ast.Call, values: dict[str, _Res]) -> _Res:
    """lowest(COND for j in range(a, b)): the smallest j whose condition
    holds, b when none does (readfirstlane's "first active lane")."""
    B = ctx.B
    if len(node.args) != 1 or node.keywords:
        raise InputError(None, f"spec {ctx.spec.name}: lowest takes one generator `COND for j in range(a, b)`")
    gen = node.args[0]
    items = _gen_items(ctx, gen, values)
    assert isinstance(gen, ast.GeneratorExp)
    it = cast(ast.Call, gen.generators[0].iter)
    hi = _ev(it.args[-1], ctx, values)[0]
    lo = hi - len(items)
    res: Any = hi
    d: Cond = True
    for k in reversed(range(len(items))):
        e, de, c, dc = items[k]
        if c is False:  # not the lowest, but its condition must have been defined
            d = _and_def(B, d, dc)
            continue
        hit = e if c is True else (c and e) if _is_cb(c) and _is_cb(e) else B.and_b(c, e)
        d = _and_def(B, d, dc, de)
        if hit is True:
            res = lo + k
        elif hit is not False:
            res = B.ite(hit, B.const(lo + k), _sym(ctx, res))
    return res, d


def _first(ctx: _Ctx, node: ast.Call, values: dict[str, _Res]) -> _Res:
    """first(E for j in range(a, b) if COND): E at the smallest j whose COND
    holds; undefined when none does.  Built as the chain of selects
    ``ite(c_a, e_a, ite(c_a+1, e_a+1, ...))`` that v_readfirstlane_b32 builds,
    so the solver meets the same terms on both sides."""
    B = ctx.B
    if len(node.args) != 1 or node.keywords:
        raise InputError(None, f"spec {ctx.spec.name}: first takes one generator `E for j in range(a, b) if COND`")
    gen = node.args[0]
    every = _gen_items(ctx, gen, values)
    # an element whose condition is false is not the first, but its condition
    # must have been defined (as where the condition is not constant)
    left_out = _and_def(B, *[dc for _, _, c, dc in every if c is False])
    items = [it for it in every if it[2] is not False]
    if not items:
        return 0, False
    # The value where no lane qualifies is undefined, so any will do: for
    # `x[j]` it is wave lane 0's, as v_readfirstlane_b32 reads with EXEC
    # empty, so a group's chain is the very term the instruction builds
    # even where the group is not the wave's first (a wave64 half).
    assert isinstance(gen, ast.GeneratorExp)  # _gen_items checked it
    elt, var = gen.elt, gen.generators[0].target
    vec = _dotted(elt.value) if isinstance(elt, ast.Subscript) else None
    if (isinstance(elt, ast.Subscript) and isinstance(elt.slice, ast.Name) and isinstance(var, ast.Name)
            and elt.slice.id == var.id and vec is not None and vec in ctx.inputs):
        res: Any = _as_val(ctx, ctx.inputs[vec][0])
    else:
        res = _as_val(ctx, items[0][0])
    d: Cond = False
    for e, de, c, dc in reversed(items):
        if c is True:
            res, d = _as_val(ctx, e), de
        else:
            res = B.ite(c, _as_val(ctx, e), res)
            d = d if de is d else B.or_b(B.and_b(c, de), B.and_b(B.not_b(c), d))
        d = _and_def(B, d, dc)
    return res, _and_def(B, d, left_out)


def _fold_hs(B: Any, op: str, elems: list[Value]) -> Value:
    """The combine tree a Hillis-Steele inclusive scan builds in the last
    element's lane: step k (distance h = 2**k) combines the value h lanes
    below with the lane's own, ``t(i, k) = t(i - h, k - 1) op t(i, k - 1)``
    for i >= h, else ``t(i, k - 1)``; ``t(i, 0)`` is element i."""
    memo: dict[tuple[int, int], Value] = {}

    def t(i: int, k: int) -> Value:
        if k == 0:
            return elems[i]
        key = (i, k)
        if key not in memo:
            h = 1 << (k - 1)
            memo[key] = apply_op(B, op, t(i - h, k - 1), t(i, k - 1)) if i >= h else t(i, k - 1)
        return memo[key]

    last = len(elems) - 1
    return t(last, last.bit_length())


def spec_monoid(lib: SpecLib, name: str, params: dict[str, Any]) -> str | None:
    """The operator a spec combines lanes with (its `combines` line), if any."""
    spec = lib.get(name)
    if spec.combines is None:
        return None
    env = dict(lib.bind(spec, params))
    try:
        op = _const_eval(spec.combines, env)
    except KeyError:
        return None
    return op if op in OPS else None
