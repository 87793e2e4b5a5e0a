"""Identity and absorbing elements of the backend's binary operations, in
one table.

Each row is an operation of the backend protocol (verify/backend.py) and
records two different facts:

* as a fold operator (the spec operators ``add`` ... ``fmax``: ``ident(op)``,
  ``fold``, ``combine`` in verify/spec.py; the monoid encoding in
  verify/smt/monoid.py; the counterexample witness in verify/cex.py): its
  ``identity``, its ``absorbing`` element and how the monoid encoding counts
  a leaf (``count``).  For binary32 the identity holds on values that are
  not NaN (``-0.0 + x == x``, ``fmin(+inf, x) == x``), which is what a fold
  over lanes needs: results are compared as results (``feq``).
* as an operation on bit patterns: its exact ``left`` identity (``op(e, y)
  == y`` bit for bit for every 32-bit ``y``) and ``right`` identity
  (``op(y, e) == y``), or None.  DPP emission (verify/ops/dpp.py) moves an
  op's exact left identity into the lanes the instruction does not write.
  ``fadd`` has none (a NaN operand comes back as the quiet NaN); a NaN is a
  left identity of ``fmin``/``fmax`` but not a right one (``fmin(y, e)`` is
  ``e`` when ``y`` is another NaN).

tests/test_identities.py proves every entry with the solver.  This module
imports nothing from verify, so the ops, the spec interpreter and the
solver module all read it.
"""

from __future__ import annotations

from dataclasses import dataclass

M32 = 0xFFFFFFFF
F32_NEG_ZERO = 0x80000000
F32_POS_INF = 0x7F800000
F32_NEG_INF = 0xFF800000
F32_NAN = 0xFFFFFFFF  # a NaN (all ones), the one DPP emission moves in for fmin/fmax

COUNTS = ("count32", "countexact", "parity", "presence")


@dataclass(frozen=True)
class Operation:
    method: str  # the backend method
    identity: int | None  # as a fold operator (None: not one)
    absorbing: int | None  # op(a, x) == a for every x (fold operators only)
    count: str | None  # the monoid encoding's multiplicity: one of COUNTS (fold operators only)
    left: int | None  # exact left identity: op(left, y) == y for every y
    right: int | None  # exact right identity: op(y, right) == y for every y


# The fold operators first, in the order the spec language lists them.
OPERATIONS: dict[str, Operation] = {
    "add": Operation("add", 0, None, "count32", 0, 0),
    "mul": Operation("mul", 1, 0, "countexact", 1, 1),
    "and": Operation("and_", M32, 0, "presence", M32, M32),
    "or": Operation("or_", 0, M32, "presence", 0, 0),
    "xor": Operation("xor", 0, None, "parity", 0, 0),
    "umin": Operation("umin", M32, 0, "presence", M32, M32),
    "umax": Operation("umax", 0, M32, "presence", 0, 0),
    "smin": Operation("smin", 0x7FFFFFFF, 0x80000000, "presence", 0x7FFFFFFF, 0x7FFFFFFF),
    "smax": Operation("smax", 0x80000000, 0x7FFFFFFF, "presence", 0x80000000, 0x80000000),
    "fadd": Operation("fadd", F32_NEG_ZERO, None, "countexact", None, None),  # -0.0 + x == x
    "fmin": Operation("fmin", F32_POS_INF, None, "presence", F32_NAN, None),
    "fmax": Operation("fmax", F32_NEG_INF, None, "presence", F32_NAN, None),
    # not fold operators: one-sided identities only
    "sub": Operation("sub", None, None, None, None, 0),
    "shl": Operation("shl", None, None, None, None, 0),
    "lshr": Operation("lshr", None, None, None, None, 0),
    "ashr": Operation("ashr", None, None, None, None, 0),
}

# name -> operation, for the operators a spec may fold with (and the monoid encoding)
FOLDS: dict[str, Operation] = {name: op for name, op in OPERATIONS.items() if op.identity is not None}


def exact_left(name: str) -> int | None:
    """The exact left identity of operation `name`, or None."""
    return OPERATIONS[name].left


def exact_right(name: str) -> int | None:
    """The exact right identity of operation `name`, or None."""
    return OPERATIONS[name].right
