"""Initial memory's addresses met by proof, for `verify tv` (docs/tv.md, "Memory").

Memory at entry is one unknown function of an address's two halves
(`mem(lo, hi)`).  Both halves are first put in z3's normal form
(`B.canonical`), which makes the IR's `getelementptr` and the GPU's
shift-and-add read the same unknown in most spellings.  It does not reach the
carry into the high half: the IR's `in + sext(tid) * 8` carries when
`lo <u olo` (the scaled index), LLVM's GFX8 `v_add_u32 v0, vcc, s2, v0;
v_addc_u32 v1, vcc, 0, v1, vcc` when `lo <u in.lo` (the base) -- the same bit,
two terms.  Each then reads an unknown of its own, and the solver must first
prove the two applications equal in every lane, which on readlane.ll's gfx803
kernels spent the whole budget (95 % of it in kernel.memory_verdict).

Here a new address whose low half is an earlier one's (the same normal form)
and whose high half is another term is asked once, with nothing assumed: are
the two high halves equal for every value of every input?  Where the solver
says so (unsat of `hi != hi'` within a fixed resource limit) the new address
reads the earlier one's unknown.  This is exact: the two addresses are the
same address under every input, and memory is a function of the address, so
the two reads are one value; nothing is assumed, no contract or path fact is
used.  Any other answer (sat, or the limit spent) keeps the two apart, as
before: slower, never wrong.  [S:tv-address-meet]
"""

from __future__ import annotations

from typing import Any

from .. import smt

# z3 resource units for one "are these high halves equal" question: a 32-bit
# add's carry spelled two ways is settled in a few thousand
MEET_RLIMIT = 2_000_000


class AddressMeet:
    """The addresses of one kernel's (or function's) initial memory, by the
    normal form of their low half: each (lo, hi) pair asked for is mapped to
    the first pair met with that low half and a high half proved equal."""

    def __init__(self, B: Any) -> None:
        self.B = B
        # low half's term key -> [(high half, the representative pair)]; the
        # entries keep their terms (their ids stay theirs)
        self.by_lo: dict[Any, list[tuple[Any, tuple[Any, Any]]]] = {}
        self.asked = 0  # questions asked (tests read it)
        self.met = 0  # of them, those proved equal

    @staticmethod
    def _key(t: Any) -> Any:
        return ("i", t) if type(t) is int else t.get_id()

    def meet(self, lo: Any, hi: Any) -> tuple[Any, Any]:
        """(lo, hi) in normal form, or an earlier address proved equal to it."""
        B = self.B
        clo, chi = B.canonical(lo), B.canonical(hi)
        seen = self.by_lo.setdefault(self._key(clo), [])
        for h, rep in seen:
            if B.same(h, chi):
                return rep
        for h, rep in seen:
            if type(h) is int and type(chi) is int:
                continue  # two different constants
            self.asked += 1
            # (without the session's definitions: fewer facts can only keep
            # two addresses apart, never meet two that differ)
            q = smt.Query(1.0)
            q.add(B.ne(h, chi))
            r = q.check(rlimit=MEET_RLIMIT, plain=True)  # (a proof's budget, where one is set, counts it too)
            if r == "unsat":
                self.met += 1
                seen.append((chi, rep))
                return rep
        seen.append((chi, (clo, chi)))
        return clo, chi
