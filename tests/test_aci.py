"""smt.Z3(aci=True): umin/umax/smin/smax nests in a canonical form (verify
tv's kernels: the atomic optimizer's scan tree against the IR's lane-by-lane
chain).  The canonical term is the same function as the plain one (an ite
of one compare per operation), and nests over the same operands in any
order and association are one term."""

from __future__ import annotations

import random

import pytest

from verify.smt import Z3, Query

KINDS = ("umin", "umax", "smin", "smax")
SPECIAL = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 5]


def build(B: Z3, kind: str, tree: object, leaves: list[object]) -> object:
    if isinstance(tree, int):
        return leaves[tree]
    a, b = tree  # type: ignore[misc]
    return getattr(B, kind)(build(B, kind, a, leaves), build(B, kind, b, leaves))


def random_tree(rnd: random.Random, n: int) -> object:
    if n == 1 or rnd.random() < 0.25:
        return rnd.randrange(6)
    k = rnd.randrange(1, n)
    return (random_tree(rnd, k), random_tree(rnd, n - k))


def leaf_terms(B: Z3) -> list[object]:
    x = [B.fresh(f"x{i}") for i in range(4)]
    return [x[0], x[1], x[2], x[3], B.const(0x80000000), B.const(7)]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.slow
def test_canonical_nests_equal_the_plain_ones(kind):
    """Random nests (unknowns, the identity, the absorbing element, other
    constants, one operand twice): the canonical term is proved equal to
    the plain term built over the same operands in one Session."""
    rnd = random.Random(kind)
    for _ in range(25):
        tree = random_tree(rnd, rnd.randrange(1, 9))
        A = Z3(aci=True)
        P = Z3(A.session)  # the plain backend, same terms
        leaves = leaf_terms(A)
        leaves[5] = rnd.choice(SPECIAL)
        canon, plain = build(A, kind, tree, leaves), build(P, kind, tree, leaves)
        q = Query(30.0, session=A.session)
        q.add(P.ne(canon, plain))
        assert q.check() == "unsat", (kind, tree)


@pytest.mark.parametrize("kind", KINDS)
def test_any_order_and_association_is_one_term(kind):
    A = Z3(aci=True)
    x = [A.fresh(f"x{i}") for i in range(5)]
    f = getattr(A, kind)
    chain = x[0]
    for t in x[1:]:
        chain = f(chain, t)  # the IR: lane by lane
    tree = f(f(x[3], x[4]), f(f(x[1], x[0]), f(x[2], x[2])))  # a scan tree, an operand twice
    assert A.session.same(chain, tree)


def test_identity_drops_and_absorbing_element_decides():
    A = Z3(aci=True)
    x, y = A.fresh("x"), A.fresh("y")
    assert A.session.same(A.smax(A.smax(x, 0x80000000), y), A.smax(y, x))
    assert A.umax(A.umax(x, 0xFFFFFFFF), y) == 0xFFFFFFFF
    assert A.smin(A.smin(x, 0x80000000), y) == 0x80000000
    assert A.session.same(A.umin(x, x), x)
    # a different kind is an operand, not merged
    assert not A.session.same(A.umax(A.smax(x, y), x), A.smax(A.umax(x, y), x))


@pytest.mark.parametrize("kind", KINDS)
def test_a_scan_reuses_chains_and_stays_canonical(kind):
    """A nest grown one operand at a time starts from the longest chain
    prefix an operand already has (smt.Z3._aci); whatever the insertion
    order and side, with or without a constant, every prefix is the term a
    backend without that cache builds from the same operands in reverse."""
    rnd = random.Random("scan" + kind)
    for _ in range(10):
        A = Z3(aci=True)
        x = [A.fresh(f"y{i}") for i in range(9)]
        f = getattr(A, kind)
        order = list(range(9))
        rnd.shuffle(order)
        with_const = rnd.random() < 0.5
        acc: object = f(x[order[0]], 7) if with_const else x[order[0]]
        used = [order[0]]
        for k in order[1:]:
            acc = f(acc, x[k]) if rnd.random() < 0.5 else f(x[k], acc)
            used.append(k)
            other = Z3(A.session, aci=True)  # the same Session, an empty cache
            g = getattr(other, kind)
            expect: object = x[used[-1]]
            for j in reversed(used[:-1]):
                expect = g(expect, x[j])
            if with_const:
                expect = g(7, expect)
            assert A.session.same(acc, expect), (kind, order, used)
