"""Components: the target's data-movement primitives, as instruction text.

Every component is one or a few instructions that move a whole register
(src) into another (dst): a DPP16 move with one control, a DPP8 move, a
ds_swizzle pattern, a permlane with one select, permlane64, an in-place
gfx950 swap, a readlane broadcast, a plain copy.  They are built as text,
parsed by the ordinary parser and checked by the ordinary legality rules
(``OpDef.check``) on every requested target, so a component exists exactly
when the target table says so; their meaning comes from ``verify.ops`` by
concrete execution (``concrete.py``), never from this module.

Registers: the input x is v0 (never written), the output v1, one scratch
VGPR v2; SGPRs s2/s3 hold permlane selects and readlane values.

>>> from verify import target as T
>>> cs = build([T.get("gfx900")], 64, ["dpp16"])
>>> sum(1 for c in cs if c.cls == "dpp16" and c.dst == 1 and c.src == 0)
309
>>> sorted({c.cls for c in build([T.get("gfx1100")], 32)})
['copy', 'dpp16', 'dpp8', 'permlane16', 'permlanex16', 'readlane', 'swizzle']
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from ..diag import InputError, Span
from ..ir import Instr
from ..lowering_file import parse_instr
from ..ops import OPS
from ..ops.base import OpDef
from ..ops.dpp import CONTROL_MODS, CONTROLS, MODIFIERS
from ..ops.ds import swizzle_macro
from ..ops.permlane import PermlaneSwap
from ..target import Target

X, OUT, TMP = 0, 1, 2
VREGS = (X, OUT, TMP)

# component classes, in search order (ties in cost go to the earlier class)
CLASSES = {
    "copy": "v_mov_b32 vD, vS (a plain copy, e.g. to give a later move an old value to keep)",
    "dpp16": "v_mov_b32_dpp with every DPP16 control the target has (full masks; the last move may take any row/bank mask)",
    "dpp8": "v_mov_b32_dpp dpp8:[...] with the selects xor m, rotate k, broadcast l, shift up/down d (GFX10+)",
    "swizzle": "ds_swizzle_b32 bitmask (every and/or/xor), FFT and rotate (mask 0) patterns, reading v0 or v2",
    "permlane16": "v_permlane16_b32 with the row selects xor m, rotate k, broadcast l, shift up/down d",
    "permlanex16": "v_permlanex16_b32 with the row selects xor m, rotate k, broadcast l",
    "permlane64": "v_permlane64_b32 (GFX11+, wave64)",
    "swap": "v_permlane16_swap_b32 / v_permlane32_swap_b32 in place (gfx950)",
    "readlane": "v_readlane_b32 s2, vS, L + v_mov_b32 vD, s2 (broadcast lane L to the wave)",
}
# the wrapper and the baseline are named too, for --components
EXTRA = {
    "wwm": "whole-wave wrapper: s_or_saveexec -1 ... s_mov exec (the body runs with every lane on)",
    "bpermute": "the ds_bpermute baseline: lane id (v_mbcnt), address arithmetic, ds_bpermute_b32",
}
DEFAULT = list(CLASSES) + list(EXTRA)


@dataclass
class Component:
    cls: str
    label: str  # the distinguishing parameter, as written
    dst: int
    src: int
    lines: tuple[str, ...]
    instrs: tuple[Instr, ...]
    sregs: tuple[str, ...] = ()  # scalar registers it writes (clobbers)
    maskable: bool = False  # a DPP16 move: may take a row/bank mask as the last step

    def text(self) -> str:
        return "; ".join(self.lines)


def parse_components(text: str | None) -> list[str]:
    if text is None:
        return list(DEFAULT)
    names = [w.strip() for w in text.split(",") if w.strip()]
    known = list(CLASSES) + list(EXTRA)
    for n in names:
        if n not in known:
            raise InputError(None, f"--components: unknown component '{n}' (known: {', '.join(known)})")
    return names


def _v(n: int) -> str:
    return f"v{n}"


def _dpp16_controls() -> Iterator[tuple[str, str]]:
    """(feature, text) of every DPP16 control with every value it takes, as
    the control modifiers declare them (ops/dpp.py)."""
    for name, (feat, _) in CONTROLS.items():
        mod = CONTROL_MODS[name]
        for value in mod.values:
            yield feat, mod.text(value)


def _families(n: int, keep_own: bool = True, x: bool = False) -> list[tuple[str, list[int]]]:
    """Lane-select families inside a group of n lanes: (label, sel)."""
    out: list[tuple[str, list[int]]] = []
    for m in range(0 if x else 1, n):
        out.append((f"xor {m}", [p ^ m for p in range(n)]))
    for k in range(1, n):
        out.append((f"rotate {k}", [(p + k) % n for p in range(n)]))
    for l in range(n):
        out.append((f"broadcast {l}", [l] * n))
    if keep_own and not x:
        for d in range(1, n):
            out.append((f"down {d}", [p + d if p + d < n else p for p in range(n)]))
            out.append((f"up {d}", [p - d if p >= d else p for p in range(n)]))
    seen: set[tuple[int, ...]] = set()
    uniq: list[tuple[str, list[int]]] = []
    for label, sel in out:
        if tuple(sel) not in seen:
            seen.add(tuple(sel))
            uniq.append((label, sel))
    return uniq


def _swizzle_offsets(fft_rotate: bool) -> Iterator[tuple[str, int]]:
    """Every swizzle pattern as (LLVM macro arguments, offset), encoded by the
    one macro encoder (ops/ds.py)."""
    for bits in product("01pi", repeat=5):
        if bits == tuple("ppppp"):
            continue  # the identity
        args = f'BITMASK_PERM,"{"".join(bits)}"'
        yield args, swizzle_macro(args)
    if fft_rotate:
        for n in range(32):
            yield f"FFT,{n}", swizzle_macro(f"FFT,{n}")
        for d in (0, 1):
            for r in range(1, 32):
                yield f"ROTATE,{d},{r}", swizzle_macro(f"ROTATE,{d},{r}")


def _sel_words(sel: list[int]) -> tuple[int, int]:
    s0 = sum(sel[p] << (4 * p) for p in range(8))
    s1 = sum(sel[8 + p] << (4 * p) for p in range(8))
    return s0, s1


def providers(cls: str) -> list[OpDef]:
    """The registered ops that declare component class `cls` (OpDef.components)."""
    return [op for op in OPS.values() if cls in op.components]


Raw = tuple[str, str, int, int, tuple[str, ...], tuple[str, ...], bool]


def _raw(targets: list[Target], wave: int, classes: list[str]) -> list[Raw]:
    """(cls, label, dst, src, lines, sregs, maskable) before legality.  Each
    class is spelled with the ops that declare it, where the targets have
    their feature."""
    def has(f: str | None) -> bool:
        return f is None or all(t.has(f) for t in targets)

    def ops(cls: str) -> list[OpDef]:
        return [op for op in providers(cls) if has(op.feature)] if cls in classes else []

    out: list[Raw] = []
    for op in ops("copy"):
        for d, s in product((OUT, TMP), VREGS):
            if d != s:
                out.append(("copy", "copy", d, s, (f"{op.base}_e32 {_v(d)}, {_v(s)}",), (), False))
    for op in ops("dpp16"):
        for feat, ctrl in _dpp16_controls():
            if not has(feat):
                continue
            for d, s in product((OUT, TMP), VREGS):
                out.append(("dpp16", ctrl, d, s,
                            (f"{op.base}_dpp {_v(d)}, {_v(s)} {ctrl} row_mask:0xf bank_mask:0xf",), (), True))
    for op in ops("dpp8") if has("dpp8") else []:
        for label, sel in _families(8):
            for d, s in product((OUT, TMP), VREGS):
                out.append(("dpp8", label, d, s,
                            (f"{op.base}_dpp {_v(d)}, {_v(s)} {MODIFIERS.mods['dpp8'].text(tuple(sel))}",), (), False))
    for op in ops("swizzle"):
        for label, off in _swizzle_offsets(has("swizzle_fft_rotate")):
            for d, s in product((OUT, TMP), (X, TMP)):
                if d != s:
                    out.append(("swizzle", label, d, s,
                                (f"{op.base} {_v(d)}, {_v(s)} offset:{off:#x}", "s_waitcnt lgkmcnt(0)"), (), False))
    for cls in ("permlane16", "permlanex16"):
        for op in ops(cls):
            for label, sel in _families(16, x=cls == "permlanex16"):
                s0, s1 = _sel_words(sel)
                for d, s in product((OUT, TMP), (X, TMP)):
                    if d == s:
                        continue
                    mn = op.base
                    out.append((cls, label, d, s, (f"{mn} {_v(d)}, {_v(s)}, {s0:#x}, {s1:#x}",), (), False))
                    out.append((cls, label, d, s, (f"s_mov_b32 s2, {s0:#x}", f"{mn} {_v(d)}, {_v(s)}, s2, {s1:#x}"),
                                ("s2",), False))
                    out.append((cls, label, d, s, (f"s_mov_b32 s2, {s0:#x}", f"s_mov_b32 s3, {s1:#x}",
                                                   f"{mn} {_v(d)}, {_v(s)}, s2, s3"), ("s2", "s3"), False))
    for op in ops("permlane64") if wave == 64 else []:
        for d, s in product((OUT, TMP), (X, TMP)):
            if d != s:
                out.append(("permlane64", "permlane64", d, s, (f"{op.base} {_v(d)}, {_v(s)}",), (), False))
    for op in sorted(ops("swap"), key=lambda o: o.base):
        assert isinstance(op, PermlaneSwap)
        if not op.pairs(wave):  # v_permlane32_swap in wave32: nothing to exchange
            continue
        for d in (OUT, TMP):
            out.append(("swap", op.base.removeprefix("v_").removesuffix("_b32"), d, d,
                        (f"{op.base}_e32 {_v(d)}, {_v(d)}",), (), False))
    for op in ops("readlane"):
        for lane in range(wave):
            for d, s in product((OUT, TMP), (X, TMP)):
                if d != s:
                    out.append(("readlane", f"lane {lane}", d, s,
                                (f"{op.base} s2, {_v(s)}, {lane}", f"v_mov_b32_e32 {_v(d)}, s2"), ("s2",), False))
    return out


def distinct(targets: list[Target]) -> list[Target]:
    """One target per distinct set of features and wave sizes:
    the legality rules read nothing else of a target (its name only in
    messages), so checking these checks every target."""
    kinds: dict[tuple[frozenset[str], tuple[int, ...]], Target] = {}
    for t in targets:
        kinds.setdefault((frozenset(t.features), tuple(t.waves)), t)
    return list(kinds.values())


def build(targets: list[Target], wave: int, classes: list[str] | None = None) -> list[Component]:
    """Every component legal (and warning-free) on every target, for one
    wave size.  Where several spellings of one component are legal (permlane
    selects as literals or SGPRs) only the first, cheapest one is kept."""
    classes = list(CLASSES) if classes is None else classes
    comps: list[Component] = []
    seen: set[tuple[str, str, int, int]] = set()
    checked = distinct(targets)
    for cls, label, d, s, lines, sregs, maskable in _raw(targets, wave, classes):
        key = (cls, label, d, s)
        if key in seen:
            continue
        try:
            instrs = tuple(parse_instr(t, Span("<synth>", k + 1)) for k, t in enumerate(lines))
            ok = True
            for t in checked:
                for ins in instrs:
                    if OPS[ins.base].check(ins, t, wave):
                        ok = False
        except InputError:
            ok = False
        if not ok:
            continue
        seen.add(key)
        comps.append(Component(cls, label, d, s, lines, instrs, sregs, maskable))
    return comps


def last_dpp_foldable(program: list[Instr]) -> bool:
    """Is the last value-changing instruction a full-mask DPP16/DPP8 move
    (which LLVM's GCNDPPCombine can fold into the VALU op consuming it)?"""
    body = [i for i in program if not OPS[i.base].schedule_only and OPS[i.base].unit != "salu"]
    if not body:
        return False
    last = body[-1]
    if "dpp16" not in OPS[last.base].components or last.enc != "dpp":
        return False
    d = dict(last.mods)
    return "dpp8" in d or (d.get("row_mask") == 0xF and d.get("bank_mask") == 0xF)
