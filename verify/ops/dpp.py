"""DPP16 and DPP8: controls, legality, and the per-lane gather rule.

DPP is a modifier of VALU instructions that permutes src0 only; the VALU
op itself lives in valu.py and calls :func:`gather` here.  Sources:
[S:dpp-ctrl] (control table), [S:dpp-lane-rule] (masks, bound_ctrl, fi,
inactive sources), [S:dpp8], [S:bound-ctrl] (assembler spelling).

Source-lane functions (gather: lane i reads lane s(i); None = out of range):

>>> [src_lane(("row_shr", 1), i, 64) for i in range(4)]
[None, 0, 1, 2]
>>> [src_lane(("row_shl", 1), i, 64) for i in (0, 14, 15)]
[1, 15, None]
>>> [src_lane(("quad_perm", (2, 3, 0, 1)), i, 64) for i in range(8)]
[2, 3, 0, 1, 6, 7, 4, 5]
>>> [src_lane(("row_half_mirror", None), i, 64) for i in range(8)]
[7, 6, 5, 4, 3, 2, 1, 0]
>>> src_lane(("row_bcast", 15), 16, 64), src_lane(("row_bcast", 31), 40, 64), src_lane(("row_bcast", 31), 20, 64)
(15, 31, None)
>>> src_lane(("wave_shr", 1), 0, 64), src_lane(("wave_ror", 1), 0, 64), src_lane(("wave_rol", 1), 63, 64)
(None, 63, 0)
>>> [src_lane(("row_xmask", 5), i, 32) for i in (0, 7, 16)]
[5, 2, 21]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..backend import Value
from ..diag import InputError, Span, Warning_
from ..ir import Instr, SReg, VReg
from ..lanes import OUT_OF_RANGE, Read
from ..syntax import parse_int
from ..target import Target, needs_text
from .base import (
    AnyEmitter,
    LaneFn,
    Mod,
    Modifiers,
    ModParser,
    Tuples,
    flag_mod,
    hex_text,
    int_mod,
    int_modifier,
    lane_list_text,
    plain_text,
)

if TYPE_CHECKING:  # annotations only: the machine runs the ops, the ops never import it
    from ..machine import Machine

# control name -> (target feature, value kind)
CONTROLS: dict[str, tuple[str, str]] = {
    "quad_perm": ("dpp16", "quad"),
    "row_shl": ("dpp16", "1..15"),
    "row_shr": ("dpp16", "1..15"),
    "row_ror": ("dpp16", "1..15"),
    "wave_shl": ("dpp_wave_shift", "1"),
    "wave_rol": ("dpp_wave_shift", "1"),
    "wave_shr": ("dpp_wave_shift", "1"),
    "wave_ror": ("dpp_wave_shift", "1"),
    "row_mirror": ("dpp16", "flag"),
    "row_half_mirror": ("dpp16", "flag"),
    "row_bcast": ("dpp_row_bcast", "15|31"),
    "row_share": ("dpp_row_share", "0..15"),
    "row_newbcast": ("dpp_row_newbcast", "0..15"),
    "row_xmask": ("dpp_row_xmask", "0..15"),
}


def src_lane(ctrl: tuple[str, Any], i: int, W: int) -> int | None:
    kind: str
    n: int  # the control's value: an int, or None (a flag), or for quad_perm the lane tuple `sel`
    kind, n = ctrl
    r, p = i >> 4, i & 15
    if kind == "quad_perm":
        sel: tuple[int, ...] = ctrl[1]
        return (i & ~3) | sel[i & 3]
    if kind == "row_shl":
        return 16 * r + p + n if p + n <= 15 else None
    if kind == "row_shr":
        return 16 * r + p - n if p >= n else None
    if kind == "row_ror":
        return 16 * r + ((p - n) & 15)
    if kind == "wave_shl":
        return i + 1 if i + 1 < W else None
    if kind == "wave_rol":
        return (i + 1) % W
    if kind == "wave_shr":
        return i - 1 if i > 0 else None
    if kind == "wave_ror":
        return (i - 1) % W
    if kind == "row_mirror":
        return 16 * r + 15 - p
    if kind == "row_half_mirror":
        return (i & ~7) | (7 - (i & 7))
    if kind == "row_bcast":
        if n == 15:
            return 16 * r - 1 if r > 0 else None
        return 31 if r >= 2 else None
    if kind in ("row_share", "row_newbcast"):
        return 16 * r + n
    if kind == "row_xmask":
        return 16 * r + (p ^ n)
    raise AssertionError(kind)


def masks_enable(row_mask: int, bank_mask: int, i: int) -> bool:
    """Whether row_mask and bank_mask enable lane i: its row (16 lanes) and
    its bank (lane bits [3:2]) both set.  [S:dpp-mask-scope]

    >>> [masks_enable(0b0010, 0b0001, i) for i in (0, 16, 19, 20)]
    [False, True, True, False]
    """
    return bool((row_mask >> (i >> 4)) & 1 and (bank_mask >> ((i >> 2) & 3)) & 1)


def dpp8_src_lane(sel: Sequence[int], i: int) -> int:
    """DPP8: lane i reads lane (i & ~7) | sel[i & 7]; never out of range.

    >>> [dpp8_src_lane((5, 4, 7, 6, 1, 0, 3, 2), i) for i in range(9)]
    [5, 4, 7, 6, 1, 0, 3, 2, 13]
    """
    return (i & ~7) | sel[i & 7]


# ---------------------------------------------------------------------------
# parsing and printing


def _lane_list(n: int, hi: int, what: str) -> ModParser:
    def parse(value: str | None, span: Span) -> tuple[int, ...]:
        if value is None or not (value.startswith("[") and value.endswith("]")):
            raise InputError(span, f"{what} expects [{','.join('x' * n)}]")
        parts = [x.strip() for x in value[1:-1].split(",")]
        if len(parts) != n:
            raise InputError(span, f"{what} takes {n} lane selects, got {len(parts)}")
        out = []
        col = 1
        for x in parts:
            v = parse_int(x, span.shifted(col), "a lane select")
            if not 0 <= v <= hi:
                raise InputError(span.shifted(col), f"{what} lane select must be in [0, {hi}], got {x}")
            out.append(v)
            col += len(x) + 1
        return tuple(out)

    return parse


def _ctrl_parser(name: str, vkind: str) -> ModParser:
    if vkind == "quad":
        return _lane_list(4, 3, "quad_perm")
    if vkind == "flag":
        return flag_mod
    if vkind == "1":
        return int_mod(1, 1, name)
    if vkind == "1..15":
        return int_mod(1, 15, name)
    if vkind == "0..15":
        return int_mod(0, 15, name)

    def bcast(value: str | None, span: Span) -> int:
        v = int_mod(15, 31, name)(value, span)
        if v not in (15, 31):
            raise InputError(span, f"row_bcast must be 15 or 31, got {value}")
        return v

    return bcast


_CTRL_VALUES: dict[str, Sequence[Any]] = {
    "quad": Tuples(4, 3), "flag": (True,), "1": range(1, 2), "1..15": range(1, 16), "0..15": range(16),
    "15|31": (15, 31),
}


# one modifier per control, in CONTROLS order, with every value it takes
CONTROL_MODS: dict[str, Mod] = {
    name: Mod(name, _ctrl_parser(name, vk), _CTRL_VALUES[vk], fmt=lane_list_text if vk == "quad" else plain_text)
    for name, (_, vk) in CONTROLS.items()
}


class DppModifiers(Modifiers):
    """DPP16 / DPP8 modifiers: exactly one control (or dpp8:[..]); the row
    and bank masks default to 0xf; bound_ctrl is kept as spelled (its
    meaning is per target) and printed per target.  [S:bound-ctrl]"""

    # modifiers of the op itself that a DPP form also takes (clamp): kept as written
    carried: tuple[str, ...] = ()

    def finish(self, mods: dict[str, Any], mspan: Span) -> dict[str, Any]:
        """Normalise DPP modifiers: exactly one control, defaults explicit."""
        out = self._finish(mods, mspan)
        out.update((k, mods[k]) for k in self.carried if k in mods)
        return out

    def _finish(self, mods: dict[str, Any], mspan: Span) -> dict[str, Any]:
        ctrls = [k for k in mods if k in self.one_of]
        if not ctrls:
            raise InputError(mspan, "a DPP instruction needs a control (quad_perm:[..], row_shl:N, row_mirror, dpp8:[..], ...)")
        if len(ctrls) > 1:
            raise InputError(mspan, f"more than one DPP control: {', '.join(ctrls)}")
        name = ctrls[0]
        out: dict[str, Any] = {"fi": mods.get("fi", 0)}
        if name == "dpp8":
            for k in self.excludes["dpp8"]:
                if k in mods:
                    raise InputError(mspan, f"DPP8 has no {k}")
            out["dpp8"] = mods["dpp8"]
            return out
        val = mods[name]
        out["ctrl"] = (name, None if val is True else val)
        out["row_mask"] = mods.get("row_mask", 0xF)
        out["bank_mask"] = mods.get("bank_mask", 0xF)
        out["bound_ctrl"] = mods.get("bound_ctrl")  # the spelling; meaning is per target
        return out

    def print(self, ins: Instr, target: Target | None) -> str:
        d = dict(ins.mods)
        parts = []
        if "dpp8" in d:
            parts.append(self.mods["dpp8"].text(d["dpp8"]))
        else:
            name, val = d["ctrl"]
            parts.append(self.mods[name].text(True if val is None else val))
            parts.append(f"row_mask:{d['row_mask']:#x} bank_mask:{d['bank_mask']:#x}")
            bc = d["bound_ctrl"]
            if bc is not None:
                if target is None:
                    parts.append(f"bound_ctrl:{bc}")
                elif bound_ctrl_bit(bc, target.has("bound_ctrl_legacy")):
                    parts.append("bound_ctrl:1")
        if d.get("fi"):
            parts.append("fi:1")
        parts += [self.mods[k].text(d[k]) for k in self.carried if k in d]
        return " ".join(parts)


MODIFIERS = DppModifiers(
    *CONTROL_MODS.values(),
    int_modifier("row_mask", 0, 15, fmt=hex_text),
    int_modifier("bank_mask", 0, 15, fmt=hex_text),
    int_modifier("bound_ctrl", 0, 1),
    int_modifier("fi", 0, 1),
    Mod("dpp8", _lane_list(8, 7, "dpp8"), Tuples(8, 7), fmt=lane_list_text),
    one_of=tuple(CONTROLS) + ("dpp8",),
    excludes={"dpp8": ("row_mask", "bank_mask", "bound_ctrl")},
)
CLAMP = Mod("clamp", flag_mod, (True,))
# VOP3 DPP of an op with a clamp bit (GFX11+: v_add_nc_u32_e64_dpp ... clamp)  [S:clamp]
MODIFIERS_CLAMP = DppModifiers(*MODIFIERS, CLAMP, one_of=MODIFIERS.one_of, excludes=MODIFIERS.excludes)
MODIFIERS_CLAMP.carried = ("clamp",)


def bound_ctrl_bit(spelled: int | None, legacy: bool) -> bool:
    """Meaning of the spelled bound_ctrl operand.  [S:bound-ctrl]

    On GFX8-GFX10 both ``bound_ctrl:0`` and ``bound_ctrl:1`` set the
    BOUND_CTRL bit (zero-fill); from GFX11 on, ``bound_ctrl:0`` clears it.

    >>> bound_ctrl_bit(0, legacy=True), bound_ctrl_bit(0, legacy=False), bound_ctrl_bit(1, legacy=False)
    (True, False, True)
    >>> bound_ctrl_bit(None, legacy=True)
    False
    """
    if spelled is None:
        return False
    return True if legacy else spelled == 1


def check(ins: Instr, target: Target, wave: int) -> list[Warning_]:
    d = dict(ins.mods)
    warns: list[Warning_] = []
    if "dpp8" in d:
        if not target.has("dpp8"):
            raise InputError(ins.mod_span("dpp8"), f"dpp8 is not available on {target.name}: {needs_text('dpp8')}")
    else:
        name, val = d["ctrl"]
        feat = CONTROLS[name][0]
        if not target.has(feat):
            text = name if val is None else f"{name}:{val}"
            raise InputError(ins.mod_span(name), f"{text} is not available on {target.name}: {needs_text(feat)}")
        if d["bound_ctrl"] == 0:
            legacy = target.has("bound_ctrl_legacy")
            text = ("'bound_ctrl:0' sets the zero-fill bit on GFX8-GFX10 but clears it on GFX11+"
                    if legacy else
                    "'bound_ctrl:0' leaves the zero-fill bit clear on GFX11+ but sets it on GFX8-GFX10")
            warns.append(Warning_(ins.mod_span("bound_ctrl"), f"{text}: write 'bound_ctrl:1' or omit it"))
    # (fi:0 too: GFX8/9 DPP has no FI field, and llvm-mc-22 refuses the modifier in any value)  [S:legality-dpp-fi]
    if (d.get("fi") or any(k == "fi" for k, _ in ins.mod_spans)) and not target.has("dpp_fi"):
        raise InputError(ins.mod_span("fi"), f"fi is not available on {target.name}: {needs_text('dpp_fi')}")
    return warns


def ctrl_code(ctrl: tuple[str, Any]) -> int:
    """The 9-bit DPP_CTRL field (SIDefines DppCtrl; checked with llvm-mc 22).

    >>> [hex(ctrl_code(c)) for c in [("quad_perm", (2, 3, 0, 1)), ("row_shr", 1), ("row_half_mirror", None),
    ...                               ("row_bcast", 31), ("row_share", 5), ("row_xmask", 5), ("wave_ror", 1)]]
    ['0x4e', '0x111', '0x141', '0x143', '0x155', '0x165', '0x13c']
    """
    kind: str
    n: int  # as in src_lane
    kind, n = ctrl
    if kind == "quad_perm":
        sel: tuple[int, ...] = ctrl[1]
        return sel[0] | sel[1] << 2 | sel[2] << 4 | sel[3] << 6
    fixed = {"wave_shl": 0x130, "wave_rol": 0x134, "wave_shr": 0x138, "wave_ror": 0x13C,
             "row_mirror": 0x140, "row_half_mirror": 0x141}
    if kind in fixed:
        return fixed[kind]
    if kind == "row_bcast":
        return 0x142 if n == 15 else 0x143
    base = {"row_shl": 0x100, "row_shr": 0x110, "row_ror": 0x120, "row_share": 0x150,
            "row_newbcast": 0x150, "row_xmask": 0x160}  # gfx90a reuses row_share's codes
    return base[kind] + n


def emit_mov(ins: Instr, E: AnyEmitter, src: Value, dst: VReg | None, old: Value = None) -> Value:
    """v_mov_b32 with DPP as llvm.amdgcn.update.dpp (old = the destination,
    kept where a lane is not written, unless `old` is given) or
    llvm.amdgcn.mov.dpp8."""
    d = dict(ins.mods)
    if d.get("fi"):
        E.unsupported("fi:1 has no operand in llvm.amdgcn.update.dpp or llvm.amdgcn.mov.dpp8")
    if "dpp8" in d:
        sel = sum(s << (3 * k) for k, s in enumerate(d["dpp8"]))
        return E.call("llvm.amdgcn.mov.dpp8.i32", "__builtin_amdgcn_mov_dpp8", [src, sel], imm=(1,))
    bc = bound_ctrl_bit(d["bound_ctrl"], E.target.has("bound_ctrl_legacy"))
    return E.call("llvm.amdgcn.update.dpp.i32", "__builtin_amdgcn_update_dpp",
                  [E.get(dst) if old is None else old, src, ctrl_code(d["ctrl"]), d["row_mask"], d["bank_mask"], bc],
                  imm=(2, 3, 4, 5))


def written_lanes(ins: Instr, W: int, bc: bool) -> int:
    """Bit i set if lane i of a DPP ALU op writes its destination when every
    lane is active (whole-wave mode): rows and banks enabled and a source in
    range, or bound_ctrl.  [S:dpp-lane-rule]

    >>> hex(written_lanes(type("I", (), {"mods": (("bank_mask", 15), ("bound_ctrl", None), ("ctrl", ("row_shr", 1)),
    ...                                             ("fi", 0), ("row_mask", 15))})(), 32, False))
    '0xfffefffe'
    """
    d = dict(ins.mods)
    if "dpp8" in d:
        return (1 << W) - 1
    m = 0
    for i in range(W):
        if masks_enable(d["row_mask"], d["bank_mask"], i) and (bc or src_lane(d["ctrl"], i, W) is not None):
            m |= 1 << i
    return m


def emit_alu(ins: Instr, E: AnyEmitter, fn: LaneFn, srcs: list[Value], dst: VReg,
             left_identity: int | None) -> Value:
    """A VALU op with DPP on src0: the move as an intrinsic, then the op.
    Lanes the instruction does not write keep the destination: when the
    destination is src1 and the op declares an exact left identity e
    (fn(e, y) == y for every y; verify/identities.py), the move's `old`
    is e (so the op gives the destination back); otherwise a select on the
    lane index, faithful where the written lanes depend on the lane only:
    in whole-wave mode or under the contract exec=full (every source
    active), with bound_ctrl (an invalid source reads 0) or with DPP8 (an
    inactive source reads 0)."""
    d = dict(ins.mods)
    if d.get("fi"):
        E.unsupported("fi:1 has no operand in llvm.amdgcn.update.dpp or llvm.amdgcn.mov.dpp8")
    bc = "dpp8" not in d and bound_ctrl_bit(d["bound_ctrl"], E.target.has("bound_ctrl_legacy"))
    m = written_lanes(ins, E.wave, bc)
    full = m == (1 << E.wave) - 1
    ident = None if full or len(srcs) != 2 or ins.operands[2] != dst else left_identity
    if ident is not None:
        # dst = op(moved, dst) and op(e, y) = y: moving e into the lanes the
        # instruction does not write leaves them as they were (LLVM's own
        # atomic-optimizer pattern, which its DPP combiner folds back)
        moved = emit_mov(ins, E, srcs[0], None, old=ident)
        return fn(E, moved, srcs[1])
    if not (E.region or bc or "dpp8" in d or E.low.exec_contract == "full"):
        E.unsupported("outside whole-wave mode and without bound_ctrl, a lane whose DPP source is inactive keeps "
                      "its old value, which no intrinsic expresses")
    old = E.get(dst)
    moved = emit_mov(ins, E, srcs[0], dst)
    r = fn(E, moved, *srcs[1:])
    if not full:
        r = E.ite(E.lane_bit(m), r, old)
    return r


# ---------------------------------------------------------------------------
# semantics


def gather(m: Machine, ins: Instr, src: list[Any], reg: VReg) -> tuple[list[Any], list[Any]]:
    """Apply the DPP lane rule to src0 (register `reg`, lane values `src`).
    [S:dpp-lane-rule]

    Returns (a, enable): a[i] is the src0 value lane i's op consumes and
    enable[i] whether lane i writes its destination at all.
    """
    W = m.W
    d = dict(ins.mods)
    fi = bool(d.get("fi"))
    act = m.actives()
    if "dpp8" in d:
        sel = d["dpp8"]
        lanes = [dpp8_src_lane(sel, i) for i in range(W)]
        return m.gather(None, reg, (Read(j, True if fi else act[j], act[i]) for i, j in enumerate(lanes)), src,
                        zero="fi:0 reads 0 from an inactive lane")
    ctrl = d["ctrl"]
    bc = bound_ctrl_bit(d["bound_ctrl"], m.has("bound_ctrl_legacy"))
    rmask, bmask = d["row_mask"], d["bank_mask"]
    full_masks = rmask == 0xF and bmask == 0xF

    def lane_masked_in(k: int) -> bool:
        return masks_enable(rmask, bmask, k)

    unknown = None
    # documented for GFX10, avoided there by ACO: an open question  [S:dpp-ctrl]
    if (ctrl[0] in ("row_share", "row_xmask") and m.has("dpp_row_share_gfx10")
            and m.assume("dpp.row_share_gfx10") == "unreliable"):
        unknown = m.unknown_lanes(f"{reg.text}@{m.line}({ctrl[0]} on GFX10)")

    def reads() -> Iterator[Read]:
        mask_scope: str | None = None if not full_masks else "dest"
        inactive_rule: str | None = None
        for i in range(W):
            masked_in = lane_masked_in(i)
            j = src_lane(ctrl, i, W)
            valid: Any = False
            if j is not None:
                valid = True if fi else act[j]
                if masked_in and not lane_masked_in(j):
                    # Does a row/bank mask also disable the lane as a source?  [S:dpp-mask-scope]
                    if mask_scope is None:
                        mask_scope = m.assume("dpp.mask_scope")
                    if mask_scope == "dest+src":
                        valid = False
            zero_write = bc
            if j is not None and not bc and valid is not True:
                # Inactive source, FI=0, BC=0: the sources disagree.  [S:dpp-inactive]
                if inactive_rule is None:
                    inactive_rule = m.assume("dpp.inactive_src")
                zero_write = inactive_rule == "zero"
            yield Read(OUT_OF_RANGE if j is None else j, valid, act[i] if masked_in else False, zero_write)

    zero = "bound_ctrl zero-fill" if bc else "inactive source reads 0 (assumption dpp.inactive_src=zero)"
    a, en = m.gather(None, reg, reads(), src, zero=zero, off="bound_ctrl is off",
                     excluded="row_mask/bank_mask exclude lane {i}")
    if unknown is not None:
        for i in range(W):
            a[i] = unknown[i]
            if m.step is not None and act[i] is not False and lane_masked_in(i):
                m.note(i, "written", why=f"unknown: {ctrl[0]} on GFX10 under dpp.row_share_gfx10=unreliable")
    return a, en


# ---------------------------------------------------------------------------
# VOP3 DPP (_e64_dpp) of the ops outside valu.Valu: v_cndmask_b32, v_mbcnt_*,
# the VOPC compares (GFX11+, llvm-mc-22 per target)  [S:dpp-encoding] [S:vop3-dpp-more]


def check_vop3(op: Any, ins: Instr, target: Target, wave: int, src1: int) -> list[Warning_]:
    """The _e64_dpp rules: GFX11+; operand `src1` a VGPR unless the target
    takes an SGPR or inline constant there (GFX11.5, GFX12); then the DPP
    control's own rules.  [S:dpp-encoding]"""
    op.require(target, "vop3_dpp", f"{ins.mnemonic} (DPP on a VOP3 encoding)", ins.span)
    s = ins.operands[src1]
    if not isinstance(s, VReg) and not target.has("vop3_dpp_sgpr_src1"):
        what = "an SGPR" if isinstance(s, SReg) else "a constant"
        raise InputError(ins.operand_span(src1), f"src1 of {ins.mnemonic} must be a VGPR on {target.name}: {what} as "
                                                 f"src1 of a VOP3 DPP instruction needs {needs_text('vop3_dpp_sgpr_src1')}")
    return check(ins, target, wave)


def require_vgpr_src0(ins: Instr, k: int) -> None:
    if not isinstance(ins.operands[k], VReg):
        raise InputError(ins.operand_span(k), f"src0 of {ins.mnemonic} must be a VGPR: DPP reads it from other lanes")


def emit_full(ins: Instr, E: AnyEmitter, src: Value, what: str) -> Value:
    """src0 moved by the DPP control, for an op whose every lane the control
    writes (dpp8, or a DPP16 control whose sources are all in range or with
    bound_ctrl, full masks) in whole-wave mode or under exec=full; otherwise
    `what` cannot be emitted."""
    d = dict(ins.mods)
    if d.get("fi"):
        E.unsupported("fi:1 has no operand in llvm.amdgcn.update.dpp or llvm.amdgcn.mov.dpp8")
    bc = "dpp8" not in d and bound_ctrl_bit(d["bound_ctrl"], E.target.has("bound_ctrl_legacy"))
    every = written_lanes(ins, E.wave, bc) == (1 << E.wave) - 1
    if not every or not (E.region or bc or "dpp8" in d or E.low.exec_contract == "full"):
        E.unsupported(f"{what}: a lane its DPP control leaves unwritten has no intrinsic spelling")
    return emit_mov(ins, E, src, None, old=0)
