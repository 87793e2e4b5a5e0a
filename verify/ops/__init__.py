"""The instruction registry.  One module per instruction family; each
registers its OpDefs on import.  Nothing here imports z3."""

from __future__ import annotations

import difflib

from ..diag import InputError, Span
from .base import MNEMONICS, OPS, OpDef, register

# registration: the import order is the order of OPS, so it is kept, not sorted
from . import valu, ds, lane, salu, permlane  # noqa: F401  # isort: skip
from . import addr  # noqa: F401  # isort: skip
from . import wide16  # noqa: F401  # isort: skip
from . import carry8  # noqa: F401  # isort: skip
from . import packed16  # noqa: F401  # isort: skip
from . import wide64  # noqa: F401  # isort: skip
from . import vfloat  # noqa: F401  # isort: skip
from . import sbit  # noqa: F401  # isort: skip
from . import sfloat  # noqa: F401  # isort: skip
from . import cndmask16  # noqa: F401  # isort: skip
from . import arith64  # noqa: F401  # isort: skip
from . import sdwa  # noqa: F401  # isort: skip
from . import bitscan  # noqa: F401  # isort: skip
from . import vhalf  # noqa: F401  # isort: skip
from . import ssext  # noqa: F401  # isort: skip
from . import vhalf2  # noqa: F401  # isort: skip
from . import mad16  # noqa: F401  # isort: skip
from . import smul64  # noqa: F401  # isort: skip
from . import cvt64  # noqa: F401  # isort: skip

__all__ = ["OPS", "MNEMONICS", "OpDef", "register", "lookup"]

# Ops that Southern/Sea Islands lack, by the LLVM subtarget feature that
# introduced them (llvm-mc-22 -mcpu=tahiti / hawaii refuses each): GFX8's
# 16-bit VALU (Has16BitInsts) and GFX8Insts, CI's CIInsts  [S:sici]
NEW_IN = {
    "gfx8_insts": ("v_perm_b32", "s_cmp_eq_u64", "s_cmp_lg_u64", "v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64",
                   "v_fma_f16", "v_mad_u16", "v_add_f16", "v_sub_f16", "v_subrev_f16", "v_mul_f16", "v_max_f16",
                   "v_min_f16", "v_cvt_f16_i16", "v_cvt_f16_u16", "v_cvt_i16_f16", "v_cvt_u16_f16",
                   *(b for b in OPS if b.startswith("v_cmp_") and b.endswith("_f16"))),
    "ci_insts": ("v_mad_u64_u32",),
}
for _feat, _bases in NEW_IN.items():
    for _b in _bases:
        if OPS[_b].feature is None:
            OPS[_b].feature = _feat
        elif _feat != OPS[_b].feature:
            OPS[_b].requires = (*OPS[_b].requires, _feat)


def lookup(mnemonic: str, span: Span) -> tuple[OpDef, str]:
    hit = MNEMONICS.get(mnemonic.lower())
    if hit is None:
        close = difflib.get_close_matches(mnemonic.lower(), list(MNEMONICS), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise InputError(span, f"unknown mnemonic '{mnemonic}'{hint}")
    return hit
