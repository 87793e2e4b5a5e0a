"""The solver side of verify: the only package that reaches z3, and within
it only :mod:`verify.smt.terms` imports it (the other parts take z3 from
there; tests/test_repo.py holds both).  Callers use ``from verify import
smt`` and ``smt.X``; each part owns one thing:

* :mod:`.terms`: z3 itself, :class:`Session` (a z3 context per proof, so an
  answer depends on its input only), the symbolic backend :class:`Z3` and
  term helpers (``same``, ``under``, ``renamed``);
* :mod:`.query`: solver questions (:class:`Query`, a fresh solver per check
  with a fixed seed and a resource limit drawn from the proof's
  :func:`budget`), the Boolean skeleton check, SMT-LIB export and import;
* :mod:`.evaluate`: :class:`Evaluator`, values of terms under an assignment;
* :mod:`.monoid`: the monoid encoding of reductions and scans
  (:class:`Z3Monoid`, ``[S:monoid-encoding]``);
* :mod:`.lanenormal`: verify tv's lane normal forms (:class:`LaneNormal`,
  ``[S:lane-normal]``);
* :mod:`.nondet`: helpers for the source's non-deterministic values
  (verify/tv/nondet.py).

z3 objects never leave the package except as opaque terms.
"""

from __future__ import annotations

from . import fparith as _fparith  # noqa: F401  (gives the Z3 backend its `fparith`)
from . import wide64 as wide64
from .evaluate import Evaluator
from .lanenormal import LANE_NORMAL_LIMIT, LaneNormal
from .monoid import Bag, NotMonoid, Z3Monoid, monoid_backend
from .nondet import (
                     Mentions,
                     check_forall,
                     mentions,
                     numeral,
                     other_choice,
                     replaced,
                     residue,
                     substituted,
                     under_choice,
)
from .query import (
                     NO_TIMEOUT,
                     QUERIES,
                     RLIMIT_PER_SECOND,
                     Budget,
                     Query,
                     budget,
                     check_plain,
                     check_smt2,
                     query_count,
                     skeleton_unsat,
                     smt2_benchmark,
)
from .sums import Z3Sums, under_conjuncts
from .terms import SOLVER, Z3, Session, _is_bit_select, is_false, ite_parts, renamed, same, under, under_all

__all__ = [
    "LANE_NORMAL_LIMIT", "NO_TIMEOUT", "QUERIES", "RLIMIT_PER_SECOND", "SOLVER", "Bag", "Budget", "Evaluator",
    "LaneNormal", "NotMonoid", "Z3Sums", "under_conjuncts", "Query", "Session", "Z3", "Z3Monoid", "_is_bit_select", "budget", "check_forall",
    "check_plain", "check_smt2", "is_false", "Mentions", "mentions", "monoid_backend", "numeral", "query_count", "renamed", "replaced",
    "ite_parts", "other_choice", "residue", "same", "skeleton_unsat", "smt2_benchmark", "substituted", "under", "under_all", "under_choice",
]
