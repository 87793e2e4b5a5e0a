"""Solver questions: :class:`Query` (a fresh solver per check, a fixed seed, a
resource limit drawn from the proof's :func:`budget`), the Boolean
skeleton check, plain checks, and SMT-LIB export and import."""

from __future__ import annotations  # noqa: I001 (the .terms import on one line: the core revision hashes lines)

import contextlib
import contextvars
from collections.abc import Iterator, Sequence
from typing import Any

from .terms import Session, _canon2, app_arg, app_decl, app_num_args, ast_id, ast_kind, decl_kind, sort_kind, sort_of, z3

QUERIES = [0]  # solver checks asked in this process (Query.check, check_forall): `verify tv --json`


def query_count() -> int:
    return QUERIES[0]


def _tactic(ctx: Any) -> Any:
    # Contextual simplification first: a lane's value is an ite tree over EXEC
    # bits, and under the mismatch's own guard (lane active, source active)
    # it collapses; bit-blasting the raw trees is ~500x slower.
    return z3.Then("simplify", "ctx-simplify", "smt", ctx=ctx)


def _context_of(terms: Sequence[Any]) -> Any:
    """The z3 context of the first term that is not a Python constant (a
    fresh one if there is none)."""
    for t in terms:
        if type(t) not in (int, bool):
            return t.ctx
    return z3.Context()


# the wall-clock bound of a check whose answer steers what is asked next:
# such a check is bounded by its resource limit (rlimit) alone, so the answer
# is the same under any load; this only stops a runaway after an hour
NO_TIMEOUT = 3600.0

# z3 resource units (rlimit) per second of `--timeout`: the rate at which z3
# spends them on verify tv's questions on the development machine (docs/tv.md,
# "Timeouts": 9.3e6 per solver-second measured over heavy tv proofs there)
RLIMIT_PER_SECOND = 10_000_000


def as_rlimit(seconds: float) -> int:
    """The z3 resource units a `seconds` timeout stands for."""
    return max(1, int(seconds * RLIMIT_PER_SECOND))


class Budget:
    """The solver resources of one proof: `seconds` of `--timeout` as
    ``seconds * RLIMIT_PER_SECOND`` z3 resource units, which every check
    made while it is active (:func:`budget`) draws from.  A check gets at
    most what is left as its rlimit and no clock, so a proof stops after
    the same questions under any load: its verdict is deterministic."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.total = max(1, int(seconds * RLIMIT_PER_SECOND))
        self.used = 0

    @property
    def left(self) -> int:
        return max(0, self.total - self.used)

    @property
    def spent(self) -> bool:
        return self.used >= self.total

    def reason(self) -> str:
        return (f"the --timeout {self.seconds:g} s budget of {self.total} z3 resource units is spent "
                f"({RLIMIT_PER_SECOND} per second)")


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("verify_smt_budget", default=None)


@contextlib.contextmanager
def budget(seconds: float) -> Iterator[Budget]:
    """Every Query check inside draws from one :class:`Budget` of `seconds`."""
    b = Budget(seconds)
    token = _BUDGET.set(b)
    try:
        yield b
    finally:
        _BUDGET.reset(token)


def _rlimit_count(s: Any) -> int:
    try:
        return int(s.statistics().get_key_value("rlimit count"))
    except z3.Z3Exception:  # (no such statistic)
        return 0


class Query:
    """Solver questions over a stack of assertions, each check a fresh
    solver with a timeout and a fixed seed.  Its assertions live in
    `session` (when none is given, in the Session of the first term added);
    a term from another Session is refused.

    Every check is bounded by a resource limit (z3's ``rlimit``: a count of
    the solver's elementary steps, the same on every run and under any
    load), never by a clock: a check given no limit spends its timeout as
    ``seconds * RLIMIT_PER_SECOND`` units (:func:`as_rlimit`), so a verdict,
    "unknown" included, is the same under any load.  (The clock is set to
    :data:`NO_TIMEOUT`, a backstop no proof reaches.)"""

    def __init__(self, timeout_s: float, seed: int = 0, session: Session | None = None):
        self.timeout_ms = max(1, int(timeout_s * 1000))
        self.seed = seed
        self.ctx: Any = session.ctx if session is not None else None
        self.session = session
        self.assertions: list = []
        self.marks: list[int] = []
        self.model: Any = None  # a z3 model after a sat check (z3 is untyped)
        self.reason = ""
        self.last = None

    def add(self, cond) -> None:
        if cond is True:
            return
        if cond is not False:
            if self.ctx is None:
                self.ctx = cond.ctx
            elif cond.ctx is not self.ctx:
                raise ValueError("a term from another smt.Session added to a Query")
        self.assertions.append(cond)

    def _terms(self) -> list[Any]:
        if self.ctx is None:
            self.ctx = z3.Context()
        defs = self.session.defs if self.session is not None else []
        return [z3.BoolVal(False, self.ctx) if c is False else c for c in self.assertions] + defs

    def push(self) -> None:
        self.marks.append(len(self.assertions))

    def pop(self) -> None:
        del self.assertions[self.marks.pop():]

    def check(self, timeout_s: float | None = None, rlimit: int | None = None, plain: bool = False) -> str:
        """sat / unsat / unknown.  `plain`: z3's own solver for the logic
        (for bit-vectors: simplify, then bit-blast to SAT) instead of the
        contextual simplification of :func:`_tactic`; it settles in
        milliseconds some queries the tactic needs minutes for (a vote that
        compares a whole lane mask with EXEC), and the reverse on symbolic
        lane indices (docs/ci.md, "Solvers"), so it is asked on a resource
        limit where the tactic gave up."""
        terms = self._terms()
        b = _BUDGET.get()
        if b is not None:  # a proof's budget: its rlimit bounds every check, no clock  [docs/tv.md, Timeouts]
            if b.spent:
                self.model = None
                self.reason = b.reason()
                return "unknown"
            rlimit = b.left if rlimit is None else min(rlimit, b.left)
            timeout_s = NO_TIMEOUT
        s = z3.Solver(ctx=self.ctx) if plain else _tactic(self.ctx).solver()
        QUERIES[0] += 1
        if rlimit is None:  # a timeout is spent as z3 resources, never read off a clock
            rlimit = as_rlimit(self.timeout_ms / 1000 if timeout_s is None else timeout_s)
        s.set("timeout", int(NO_TIMEOUT * 1000))  # bounded by its resource limit alone: the same answer under any load
        s.set("rlimit", rlimit)
        s.set("random_seed", self.seed)
        s.add(*terms)
        self.last = s
        before = _rlimit_count(s) if b is not None else 0
        r = s.check()
        if b is not None:
            b.used += _rlimit_count(s) - before
        if r == z3.sat:
            self.model = s.model()
            return "sat"
        self.model = None
        if r == z3.unsat:
            return "unsat"
        self.reason = b.reason() if b is not None and b.spent else s.reason_unknown()
        return "unknown"

    def value(self, term) -> int:
        if type(term) is int:
            return term
        return self.model.eval(term, model_completion=True).as_long()

    def prefer_small(self, rlimit: int, bound: int = 0xFF) -> bool:
        """After a sat check: look (bit-blasted, within `rlimit`) for a
        model whose free bit-vector constants are each at most `bound`, and
        keep it where there is one (True); else the model stays.  A
        bit-blasted model tends to all-ones values, where two computations
        can agree by chance and a counterexample reads as something else."""
        found = self.model
        if found is None:
            return False
        small = [z3.ULE(d(), bound) for d in found.decls()
                 if d.arity() == 0 and z3.is_bv_sort(d.range()) and d.range().size() > 8]
        if not small:
            return False
        self.push()
        for c in small:
            self.add(c)
        r = self.check(rlimit=rlimit, plain=True)
        self.pop()
        if r != "sat":
            self.model = found
            return False
        return True

    def truth(self, cond) -> bool:
        if type(cond) is bool:
            return cond
        return z3.is_true(self.model.eval(cond, model_completion=True))

    def smt2(self) -> str:
        terms = self._terms()
        s = z3.Solver(ctx=self.ctx)
        s.add(*terms)
        return s.to_smt2()


_APP_KINDS = (z3.Z3_NUMERAL_AST, z3.Z3_APP_AST)  # what z3.is_app accepts


_expr = z3.z3._to_expr_ref  # an AST's wrapper of its sort's class (as ExprRef.children makes)


def _is_bool_ast(ref: Any, a: Any) -> bool:
    return bool(sort_kind(ref, sort_of(ref, a)) == z3.Z3_BOOL_SORT)


_CONNECTIVE = {z3.Z3_OP_AND: "and", z3.Z3_OP_OR: "or", z3.Z3_OP_NOT: "not", z3.Z3_OP_IMPLIES: "implies",
               z3.Z3_OP_XOR: "xor"}


def _bit_parts(e: Any, memo: dict[Any, Any] | None = None) -> list[Any] | None:
    """The 1-bit parts of a concatenation of 1-bit terms (a lane mask from
    Z3.from_bits), or of a bit-vector constant, highest first; else None.
    `memo` (one question's): the parts of each term by id, and the two 1-bit
    constants, made once (a wave64 mask is asked for again at every select
    the comparison splits on: issue #35.4)."""
    memo = {} if memo is None else memo
    k = e.get_id()
    out: list[Any] | None
    if k in memo:
        out = memo[k]
        return out
    if z3.is_bv_value(e):
        v = e.as_long()
        if "bits" not in memo:
            memo["bits"] = (z3.BitVecVal(0, 1, e.ctx), z3.BitVecVal(1, 1, e.ctx))
        bits = memo["bits"]
        out = [bits[(v >> j) & 1] for j in reversed(range(e.size()))]
    elif not z3.is_app_of(e, z3.Z3_OP_CONCAT):
        out = None
    else:
        out = []
        for c in e.children():
            if c.size() == 1:
                out.append(c)
                continue
            sub = _bit_parts(c, memo)
            if sub is None:
                out = None
                break
            out += sub
    memo[k] = out
    return out


SHARED_SPLITS = 4096  # skeleton_unsat(shared=True): select splits per question, then atoms


def _select_nodes(e: Any) -> set[int]:
    """The ids of `e` and of every term reached from it through selects'
    branches (a select tree's inner selects and its leaves)."""
    out: set[int] = set()
    todo = [e]
    while todo:
        t = todo.pop()
        if t.get_id() in out:
            continue
        out.add(t.get_id())
        if z3.is_app_of(t, z3.Z3_OP_ITE):
            todo += [t.arg(1), t.arg(2)]
    return out


def skeleton_unsat(cond: Any, rlimit: int, shared: bool = False) -> bool:
    """Is `cond` unsatisfiable already as a Boolean formula over its atoms?

    Every maximal subterm that is not a Boolean connective (a bit-vector
    equality or comparison, an EXEC bit) becomes a fresh Boolean variable, one
    per distinct term (z3 shares equal terms, so the same atom on both sides
    of a refinement question is one variable); a bit-vector (dis)equality of
    two select trees is first split on the trees' conditions, a few levels
    deep.  Every model of `cond` gives a model of the skeleton (each variable
    takes its atom's value), so "unsat" is sound; "sat" says nothing, and the
    caller asks the full question.  When both sides of a question are built
    from the same atoms (a vote's lane mask and the spec's any(...)), this
    is a small SAT problem where the full one bit-blasts every atom.  On a
    resource limit: the same answer under any load.

    `shared`: a select that both trees of a (dis)equality reach through
    their selects (a fold both sides built from the same terms) is a leaf,
    never split, and the others are split to any depth (at most
    SHARED_SPLITS splits per question): the GPU's value that wraps the IR's
    fold in selects of its own is then compared with it in a few steps."""
    if type(cond) is bool:
        return not cond
    ctx = cond.ctx
    leaves: set[int] = set()  # (shared) the selects both trees reach: not split
    splits = [0]
    atoms: dict[int, Any] = {}
    memo: dict[int, Any] = {}
    parts: dict[Any, Any] = {}  # _bit_parts' memo
    eqs: dict[tuple[int, int, int], Any] = {}  # eq's: a mask is compared again under each select split
    # Every term whose id keys a table above is held here until the end: an
    # id is its term's only while the term lives, and a term made on the way
    # (a select split's simplified branch, an equality to abstract) that
    # z3 freed could hand its id to another, which would then find the first
    # one's atom: two distinct atoms made one variable, a skeleton stronger
    # than the formula, and an "unsat" that is not sound.
    kept: list[Any] = []

    def atom(e: Any) -> Any:
        k = e.get_id()
        if k not in atoms:
            kept.append(e)
            atoms[k] = z3.Bool(f"atom!{len(atoms)}", ctx)
        return atoms[k]

    def eq(a: Any, b: Any, depth: int) -> Any:
        key = (a.get_id(), b.get_id(), depth)
        hit = eqs.get(key)
        if hit is None:
            kept.append((a, b))
            eqs[key] = hit = _eq(a, b, depth)
        return hit

    def _eq(a: Any, b: Any, depth: int) -> Any:
        if a.eq(b):
            return z3.BoolVal(True, ctx)
        if z3.is_bv_value(a) and z3.is_bv_value(b):
            return z3.BoolVal(a.as_long() == b.as_long(), ctx)
        for x, y, flip in ((a, b, False), (b, a, True)):
            if shared and (x.get_id() in leaves or splits[0] >= SHARED_SPLITS):
                continue
            splits[0] += shared
            if depth > 0 and z3.is_app_of(x, z3.Z3_OP_EXTRACT) and z3.is_app_of(x.arg(0), z3.Z3_OP_ITE):
                hi, lo = x.params()
                c, t, f = x.arg(0).children()
                x = z3.If(c, z3.simplify(z3.Extract(hi, lo, t)), z3.simplify(z3.Extract(hi, lo, f)))
            if depth > 0 and z3.is_app_of(x, z3.Z3_OP_ITE):
                c, t, f = x.children()
                return z3.If(sk(c), eq(t, y, depth - 1) if not flip else eq(y, t, depth - 1),
                             eq(f, y, depth - 1) if not flip else eq(y, f, depth - 1))
        pa, pb = _bit_parts(a, parts), _bit_parts(b, parts)
        if pa is not None and pb is not None and len(pa) == len(pb):  # lane masks: bit by bit
            return z3.And(*[eq(x, y, depth) for x, y in zip(pa, pb)])
        a, b = _canon2(a, b)
        return atom(a == b)

    def top_eq(a: Any, b: Any) -> Any:
        if not shared:
            return eq(a, b, 4)
        leaves.clear()
        leaves.update(_select_nodes(a) & _select_nodes(b))
        return eq(a, b, SHARED_SPLITS)

    ref = ctx.ref()

    def sk(e: Any) -> Any:  # (a term's skeleton: `_sk` on its AST)
        return _sk(e.as_ast())

    def _sk(a: Any) -> Any:
        # a walk over ASTs with the unchecked accessors (verify.smt.terms):
        # a wrapper is made only for what is kept or compared (issue #35: the
        # walk through z3's Python objects was a third of a vote's proof)
        k = ast_id(ref, a)
        hit = memo.get(k)
        if hit is not None:
            return hit
        kind = decl_kind(ref, app_decl(ref, a)) if ast_kind(ref, a) in _APP_KINDS else None
        if kind == z3.Z3_OP_TRUE or kind == z3.Z3_OP_FALSE:
            r = z3.BoolRef(a, ctx)
        elif kind in _CONNECTIVE:
            parts = [_sk(app_arg(ref, a, j)) for j in range(app_num_args(ref, a))]
            r = {"and": lambda: z3.And(*parts), "or": lambda: z3.Or(*parts), "not": lambda: z3.Not(parts[0]),
                 "implies": lambda: z3.Implies(*parts), "xor": lambda: z3.Xor(*parts)}[_CONNECTIVE[kind]]()
        elif kind == z3.Z3_OP_ITE and _is_bool_ast(ref, a):
            r = z3.If(_sk(app_arg(ref, a, 0)), _sk(app_arg(ref, a, 1)), _sk(app_arg(ref, a, 2)))
        elif kind == z3.Z3_OP_EQ and app_num_args(ref, a) == 2:
            x, y = app_arg(ref, a, 0), app_arg(ref, a, 1)
            r = (_sk(x) == _sk(y)) if _is_bool_ast(ref, x) else top_eq(_expr(x, ctx), _expr(y, ctx))
        elif kind == z3.Z3_OP_DISTINCT and app_num_args(ref, a) == 2 and not _is_bool_ast(ref, app_arg(ref, a, 0)):
            r = z3.Not(top_eq(_expr(app_arg(ref, a, 0), ctx), _expr(app_arg(ref, a, 1), ctx)))
        else:
            if k not in atoms:
                atoms[k] = z3.Bool(f"atom!{len(atoms)}", ctx)
            r = atoms[k]
        memo[k] = r
        return r

    try:
        s = z3.Solver(ctx=ctx)
        s.set("rlimit", rlimit)
        s.set("random_seed", 0)
        s.add(sk(cond))
        return s.check() == z3.unsat
    finally:
        # The walk's closures refer to one another (a cycle), so the terms
        # their tables hold would be freed whenever Python's cycle collector
        # runs; z3 hands a freed term's id to the next term made, and ids
        # order the solver's work: later answers (a counterexample's values)
        # would then depend on when that happened.  Freed here, at once.
        for table in (atoms, memo, parts, eqs, leaves):
            table.clear()
        kept.clear()


def smt2_benchmark(cond, context: Sequence = (), comments: Sequence[str] = ()) -> str:
    """`cond` as a stand-alone SMT-LIB 2 benchmark: ``; comments``, the
    declarations, the `context` assertions (e.g. inputs that are not NaN),
    the condition and ``(check-sat)``.  ``sat`` means the condition can hold
    in the context.  Registers and EXEC are arrays (bit-vector indices,
    bit-vector or Boolean elements), so the logic is declared as ``ALL``;
    the text is deterministic for a given term."""
    ctx = _context_of([cond, *context])
    s = z3.Solver(ctx=ctx)
    for c in context:
        s.add(z3.BoolVal(False, ctx) if c is False else c)
    if cond is not True:
        s.add(z3.BoolVal(False, ctx) if cond is False else cond)
    body = s.to_smt2()
    # z3 opens with "; benchmark generated from python API" and a status line
    lines = [ln for ln in body.splitlines() if not ln.startswith("; benchmark generated")]
    head = [f"; {c}" for c in comments] + ["(set-logic ALL)"]
    return "\n".join(head + lines) + "\n"


def check_smt2(text: str, timeout_s: float = 30.0) -> str:
    """z3's answer ("sat", "unsat", "unknown") to an SMT-LIB benchmark, such
    as one written by --smt2, asked the way Query asks (in a context of its
    own)."""
    ctx = z3.Context()
    s = _tactic(ctx).solver()
    s.set("timeout", int(NO_TIMEOUT * 1000))
    s.set("rlimit", as_rlimit(timeout_s))  # as Query: resources, no clock
    s.add(z3.parse_smt2_string(text, ctx=ctx))
    return str(s.check())


def check_plain(cond: Any, timeout_s: float, seed: int = 0) -> str:
    """Is `cond` satisfiable, asked to z3's default solver without the
    contextual simplification of Query (verify.sortnet's 0-1 network, a
    pure Boolean question: 3 s here against minutes through the tactic)."""
    if type(cond) is bool:
        return "sat" if cond else "unsat"
    s = z3.Solver(ctx=cond.ctx)
    s.set("timeout", int(NO_TIMEOUT * 1000))
    s.set("rlimit", as_rlimit(timeout_s))  # as Query: resources, no clock
    s.set("random_seed", seed)
    s.add(cond)
    r = s.check()
    return "sat" if r == z3.sat else "unsat" if r == z3.unsat else "unknown"
