"""LDS-routed lane moves: ds_swizzle_b32, ds_bpermute_b32, ds_permute_b32.

None of them touches LDS memory, but their results arrive through the LDS
pipe (``s_waitcnt lgkmcnt``).  Reading an inactive source lane gives 0; only
lanes active in EXEC are written.  [S:swizzle] [S:permute]

Swizzle offsets (the 16-bit pattern) and LLVM's ``swizzle(...)`` macros:

>>> swizzle_macro("SWAP,16"), swizzle_macro("REVERSE,8"), swizzle_macro("BROADCAST,8,3")
(16415, 7199, 120)
>>> hex(swizzle_macro('BITMASK_PERM,"ppipi"')), hex(swizzle_macro("QUAD_PERM,1,0,3,2"))
('0x141f', '0x80b1')
>>> hex(swizzle_macro("FFT,5")), hex(swizzle_macro("ROTATE,1,3"))
('0xe005', '0xc460')
>>> print_swizzle(0x141F), print_swizzle(0x401F), print_swizzle(0xE005)
('swizzle(BITMASK_PERM,"ppipi")', 'swizzle(SWAP,16)', 'swizzle(FFT,5)')
>>> [swizzle_src(0x141F, i, 64, True, "wrap32") for i in (0, 7, 37)]
[5, 2, 32]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..backend import Value
from ..diag import InputError, Span, Warning_
from ..ir import Instr
from ..lanes import Read
from ..syntax import parse_int
from ..target import Target, needs_text
from .base import AnyEmitter, Mod, Modifiers, OpDef, int_modifier, register

if TYPE_CHECKING:  # annotations only: the machine runs the ops, the ops never import it
    from ..machine import Machine

# ---------------------------------------------------------------------------
# ds_swizzle_b32 patterns


def swizzle_mode(o: int, fft_rotate: bool) -> str:
    if fft_rotate and o >= 0xE000:
        return "fft"
    if fft_rotate and o >= 0xC000:
        return "rotate"
    return "quad_perm" if o & 0x8000 else "bitmask"


def _bitrev5(x: int) -> int:
    return int(f"{x & 31:05b}"[::-1], 2)


def swizzle_src(o: int, i: int, W: int, fft_rotate: bool, rotate_rule: str) -> int:
    """Source lane of lane i.  Every mode keeps bit 5 of the lane: no mode
    crosses the 32-lane halves (except the rotate 'carry' variant)."""
    mode = swizzle_mode(o, fft_rotate)
    hi = i & 32
    lo = i & 31
    if mode == "quad_perm":
        return (i & ~3) | ((o >> (2 * (i & 3))) & 3)
    if mode == "bitmask":
        a, orr, x = o & 31, (o >> 5) & 31, (o >> 10) & 31
        return (((lo & a) | orr) ^ x) | hi
    if mode == "fft":
        m = o & 31
        return (_bitrev5(lo) >> bin(m).count("1")) | (lo & m) | hi
    r, right, m = (o >> 5) & 31, (o >> 10) & 1, o & 31
    step = -r if right else r
    if rotate_rule == "wrap32":
        return ((lo & m) | ((lo + step) & ~m)) & 31 | hi
    return ((i & m) | ((i + step) & ~m)) % W


_SWIZZLE_ARGS = {"QUAD_PERM": 4, "BITMASK_PERM": 1, "BROADCAST": 2, "SWAP": 1, "REVERSE": 1, "FFT": 1, "ROTATE": 2}


def _macro_args(text: str) -> list[tuple[str, int]]:
    """Split at commas outside quotes: (argument stripped, its 0-based column)."""
    out: list[tuple[str, int]] = []
    quote = False
    start = 0
    for k, c in enumerate(text + ","):
        if c == '"':
            quote = not quote
        elif c == "," and not quote:
            part = text[start:k]
            out.append((part.strip(), start + len(part) - len(part.lstrip())))
            start = k + 1
    return out


def swizzle_macro(text: str, span: Span | None = None) -> int:
    """Encode LLVM's swizzle(...) macro arguments (without the parens) as
    llvm-mc-22 does, with its rules and messages; `span` is where `text`
    starts, and an error points at the argument at fault.  Mode names are
    upper case and arguments integers (llvm-mc also takes expressions).

    >>> swizzle_macro("BROADCAST,16,0"), swizzle_macro("BROADCAST,2,1")
    (16, 62)
    """
    sp = span or Span("<swizzle>", 1)
    args = _macro_args(text)
    mode, mcol = args[0]

    def err(col: int, msg: str) -> InputError:
        return InputError(sp.shifted(col), f"swizzle({text}): {msg}")

    n = _SWIZZLE_ARGS.get(mode)
    if n is None:
        raise err(mcol, "expected a swizzle mode (QUAD_PERM, BITMASK_PERM, BROADCAST, SWAP, REVERSE, FFT, ROTATE)")
    if len(args) - 1 < n:  # llvm-mc points just past the last argument
        raise err(len(text.rstrip()), f"expected a comma: {mode} takes {n} argument{'s' * (n != 1)}")
    if len(args) - 1 > n:
        raise err(args[n + 1][1] - 1, f"expected a closing parentheses: {mode} takes {n} argument{'s' * (n != 1)}")
    rest = args[1:]
    if mode == "BITMASK_PERM":
        a, col = rest[0]
        if not (len(a) >= 2 and a[0] == a[-1] == '"'):
            raise err(col, "expected a string")
        if len(a) != 7:
            raise err(col, "expected a 5-character mask")
        if not re.fullmatch(r'"[01pi]{5}"', a):
            raise err(col, "invalid mask: each character is 0, 1, p (keep) or i (invert)")
        and_m = or_m = xor_m = 0
        for k, c in enumerate(a[1:-1]):
            bit = 1 << (4 - k)
            if c == "1":
                or_m |= bit
            elif c == "p":
                and_m |= bit
            elif c == "i":
                and_m |= bit
                xor_m |= bit
        return and_m | or_m << 5 | xor_m << 10
    vals = [parse_int(a, sp.shifted(col), "an integer") for a, col in rest]
    cols = [col for _, col in rest]

    def within(k: int, lo: int, hi: int, msg: str) -> int:
        if not lo <= vals[k] <= hi:
            raise err(cols[k], msg)
        return vals[k]

    def group(k: int, lo: int, hi: int) -> int:
        g = within(k, lo, hi, f"group size must be in the interval [{lo},{hi}]")
        if g & (g - 1):
            raise err(cols[k], "group size must be a power of two")
        return g

    if mode == "QUAD_PERM":
        q = [within(k, 0, 3, "expected a 2-bit lane id") for k in range(4)]
        return 0x8000 | q[0] | q[1] << 2 | q[2] << 4 | q[3] << 6
    if mode == "SWAP":
        return 0x1F | group(0, 1, 16) << 10
    if mode == "REVERSE":
        return 0x1F | (group(0, 2, 32) - 1) << 10
    if mode == "BROADCAST":
        g = group(0, 2, 32)
        lane = within(1, 0, g - 1, "lane id must be in the interval [0,group size - 1]")
        return (0x1F & ~(g - 1)) | lane << 5
    if mode == "FFT":
        return 0xE000 | within(0, 0, 31, "FFT swizzle must be in the interval [0,31]")
    d = within(0, 0, 1, "direction must be 0 (left) or 1 (right)")
    r = within(1, 0, 31, "number of threads to rotate must be in the interval [0,31]")
    return 0xC000 | d << 10 | r << 5


def print_swizzle(o: int, fft_rotate: bool = True) -> str:
    """The macro spelling when one says exactly `o`, else the number."""
    mode = swizzle_mode(o, fft_rotate)
    if mode == "quad_perm" and o < 0x8100:
        return "swizzle(QUAD_PERM," + ",".join(str((o >> (2 * q)) & 3) for q in range(4)) + ")"
    if mode == "fft" and o == 0xE000 | (o & 31):
        return f"swizzle(FFT,{o & 31})"
    if mode == "rotate" and o & 0x1F == 0 and o < 0xC800:
        return f"swizzle(ROTATE,{(o >> 10) & 1},{(o >> 5) & 31})"
    if mode == "bitmask":
        a, orr, x = o & 31, (o >> 5) & 31, (o >> 10) & 31
        if a == 0x1F and orr == 0 and x and not x & (x - 1):
            return f"swizzle(SWAP,{x})"
        if a == 0x1F and orr == 0 and x and not (x + 1) & x:
            return f"swizzle(REVERSE,{x + 1})"
        if x == 0 and a and (a | (a - 1)) & 0x1F == 0x1F and (~a & 0x1F) >= orr and a != 0x1F:
            g = (~a & 0x1F) + 1
            if not g & (g - 1):
                return f"swizzle(BROADCAST,{g},{orr})"
        chars = []
        for k in range(4, -1, -1):
            bits = ((a >> k) & 1, (orr >> k) & 1, (x >> k) & 1)
            c = {(0, 0, 0): "0", (0, 1, 0): "1", (1, 0, 0): "p", (1, 0, 1): "i"}.get(bits)
            if c is None:
                return f"{o:#x}"
            chars.append(c)
        return f'swizzle(BITMASK_PERM,"{"".join(chars)}")'
    return f"{o:#x}"


def _swizzle_offset(value: str | None, span: Span) -> int:
    if value is None:
        raise InputError(span, "offset needs a value")
    v = value.strip()
    m = re.fullmatch(r"swizzle\((.*)\)", v, re.S)
    if m:
        return swizzle_macro(m.group(1), span.shifted(len("swizzle(")))
    o = parse_int(v, span, "a 16-bit offset or swizzle(...)")
    if not 0 <= o <= 0xFFFF:
        raise InputError(span, f"expected a 16-bit offset, got {value}")
    return o


def _swizzle_text(o: int, target: Target | None) -> str:
    return print_swizzle(o, target.has("swizzle_fft_rotate") if target is not None else True)


class LdsOp(OpDef):
    """An LDS-routed lane move: its result returns through the LDS pipe."""

    unit = "ds"
    moves_lanes = True
    wait_counter = "ds"
    lds_return = True


class Swizzle(LdsOp):
    base = "ds_swizzle_b32"
    cost_class = "ds_swizzle"
    sig = ("vdst", "vgpr")
    arg_names = ("vdst", "vsrc")
    feature = "ds_swizzle"
    mods = Modifiers(Mod("offset", _swizzle_offset, range(0x10000), 0, _swizzle_text))
    components = ("swizzle",)

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns: list[Warning_] = []
        o = ins.mod("offset")
        spelled = re.search(r"swizzle\(\s*(FFT|ROTATE)\b", ins.text, re.I)
        if spelled and not target.has("swizzle_fft_rotate"):  # as llvm-mc: "FFT mode swizzle not supported"
            sp = ins.mod_span("offset")
            if sp is not None:  # llvm-mc points just past the mode's name
                sp = sp.shifted(len("offset:") + spelled.end() - spelled.start())
            raise InputError(sp, f"swizzle({spelled.group(1).upper()},...) is not available on "
                                 f"{target.name}: {needs_text('swizzle_fft_rotate')}")
        if o >= 0xC000 and not target.has("swizzle_fft_rotate"):
            mode = "FFT" if o >= 0xE000 else "rotate"
            warns.append(Warning_(ins.mod_span("offset"),
                                  f"offset {o:#x} selects {mode} mode on GFX9+, but {target.name} has no {mode} mode "
                                  f"({needs_text('swizzle_fft_rotate')}); it decodes as quad-perm there"))
        return warns

    def execute(self, ins: Instr, m: Machine) -> None:
        W = m.W
        dst, src = ins.operands
        o = ins.mod("offset")
        fft_rotate = m.has("swizzle_fft_rotate")
        if not fft_rotate and o >= 0xC000 and m.assume("swizzle.gfx8_high") == "gfx9_modes":
            fft_rotate = True  # [S:swizzle]
        rule = "wrap32"
        if swizzle_mode(o, fft_rotate) == "rotate":
            rule = m.assume("swizzle.rotate_wrap")
        data = m.v(src.index)
        act = m.actives()
        lanes = [swizzle_src(o, i, W, fft_rotate, rule) for i in range(W)]
        m.gather(dst, src, (Read(j, act[j], act[i]) for i, j in enumerate(lanes)), data)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, src = ins.operands
        E.set(dst, E.call("llvm.amdgcn.ds.swizzle", "__builtin_amdgcn_ds_swizzle",
                          [E.get(src), ins.mod("offset")], imm=(1,)))


register(Swizzle())


# ---------------------------------------------------------------------------
# ds_bpermute_b32 / ds_permute_b32


def lane_of_address(m: Machine, i: int, addr: Any) -> Any:
    """Lane selected by a byte address (bits [1:0] and high bits ignored).

    GCN/CDNA and GFX12 wave64 use bits [7:2]; wave32 uses bits [6:2];
    GFX10/GFX11 wave64 stay inside the lane's own 32-lane half.  [S:permute]
    """
    B, W = m.B, m.W
    half = W == 64 and m.has("bpermute_half_wave64")
    if W == 64 and m.has("bpermute_full_wave64_rdna4") and m.assume("permute.gfx12_wave64") == "half":
        half = True
    if half:
        k = B.and_(B.lshr(addr, B.const(2)), B.const(31))
        # The RDNA3 text says "mod 32" and not which half.  [S:permute-half]
        if m.assume("permute.wave64_half") == "own":
            return B.or_(k, B.const(i & 32))
        return k
    return B.and_(B.lshr(addr, B.const(2)), B.const(W - 1))


def negative_address(m: Machine, addr: Any) -> Any:
    """Under permute.addr_sign=signed (RDNA3/4 pseudocode), an address with
    bit 31 set reads 0; otherwise (and by default) never.  [S:permute]"""
    if not m.has("bpermute_rdna_pseudocode"):
        return False
    neg = m.B.decide(m.B.bit(addr, 31))
    if neg is False:
        return False
    return neg if m.assume("permute.addr_sign") == "signed" else False


class Bpermute(LdsOp):
    base = "ds_bpermute_b32"
    cost_class = "ds_bpermute"
    sig = ("vdst", "vgpr", "vgpr")
    arg_names = ("vdst", "vaddr", "vdata")
    feature = "ds_permute"
    lane_select = (1,)
    mods = Modifiers(int_modifier("offset", 0, 0xFFFF, default=0))

    def addresses(self, ins: Instr, m: Machine) -> list[Value]:
        B = m.B
        off = B.const(ins.mod("offset"))
        addr = m.v(ins.operands[1].index)
        return [B.add(a, off) for a in addr]

    intrinsic = ("llvm.amdgcn.ds.bpermute", "__builtin_amdgcn_ds_bpermute")

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, addr, data = ins.operands
        a = E.add(E.get(addr), ins.mod("offset"))  # the offset is added to the address  [S:permute]
        E.set(dst, E.call(*self.intrinsic, [a, E.get(data)]))

    reads_inactive = False  # ds_bpermute_fi_b32 (GFX12) also reads inactive lanes

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, _, data_reg = ins.operands
        act = m.actives()
        data = m.v(data_reg.index)
        # lane i's address matters only where lane i runs (its result is
        # written under EXEC): there a register a VALU wrote under EXEC is
        # its new value, so a uniform address is one term in every lane
        addrs = [B.under(a, act[i]) for i, a in enumerate(self.addresses(ins, m))]

        def reads() -> Iterator[Read]:
            for i in range(W):
                k = lane_of_address(m, i, addrs[i])
                ok = B.not_b(negative_address(m, addrs[i]))
                if not self.reads_inactive:
                    ok = B.and_b(B.select(act, k), ok)
                yield Read(k, ok, act[i])

        m.gather(dst, data_reg, reads(), data)


class Permute(Bpermute):
    """Scatter: lane i sends data[i] to lane k_i; active lanes nobody
    targets read 0.  When several active lanes send to one lane, the
    assumption ``permute.collision`` says who wins: ``highest`` (the highest
    sender) or ``any`` (one of the senders, picked per destination lane by
    an unknown: the sender it names, else the highest).  [S:permute]"""

    base = "ds_permute_b32"
    intrinsic = ("llvm.amdgcn.ds.permute", "__builtin_amdgcn_ds_permute")

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, _, data_reg = ins.operands
        act = m.actives()
        data = m.v(data_reg.index)
        addrs = [B.under(a, act[i]) for i, a in enumerate(self.addresses(ins, m))]
        ks = [lane_of_address(m, i, addrs[i]) for i in range(W)]
        sends = [B.and_b(act[i], B.not_b(negative_address(m, addrs[i]))) for i in range(W)]
        # hits[j]: (sender, "it sends to j") for every lane that may send to j
        hits: list[list[tuple[int, Any]]] = []
        for j in range(W):
            row = [(i, c) for i in range(W) if (c := B.and_b(sends[i], B.eq(ks[i], B.const(j)))) is not False]
            hits.append(row)
        # the winner of a collision is unsettled: ask only when one can happen  [S:permute]
        collide = any(len(row) > 1 for row in hits)
        rule = m.assume("permute.collision") if collide else "highest"
        pick = m.unknown_lanes(f"{dst.text}@{m.line}(ds_permute collision winner)") if rule == "any" else None
        out: list[Value] = []
        for j in range(W):
            t = B.const(0)
            if pick is None or len(hits[j]) < 2:
                for i, c in hits[j]:  # ascending: a later (higher) sender overrides
                    t = B.ite(c, data[i], t)
            else:
                # descending: the highest sender, unless the unknown names a lower one
                first: Any = True
                for i, c in reversed(hits[j]):
                    t = B.ite(B.and_b(c, B.or_b(first, B.eq(pick[j], B.const(i)))), data[i], t)
                    first = B.and_b(first, B.not_b(c))
            out.append(t)
            if m.step is not None:
                senders = [i for i, c in hits[j] if c]
                if not act[j]:
                    m.note(j, "kept", why=f"lane {j} inactive")
                elif len(senders) > 1 and pick is not None:
                    win = pick[j] if pick[j] in senders else senders[-1]
                    m.note(j, "written", why=f"= {data_reg.text}[{win}]: a collision, lanes "
                                             f"{', '.join(map(str, senders))} send to lane {j} and lane {win} "
                                             f"wins (permute.collision=any: any sender may win)")
                elif senders:
                    m.note(j, "written", (data_reg.text, senders[-1]))
                else:
                    m.note(j, "zero", why="no active lane sends to it: reads 0")
        m.write_v(dst.index, out, act)


register(Bpermute())
register(Permute())
