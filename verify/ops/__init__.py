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


def lookup(mnemonic: str, span: Span) -> tuple[OpDef, str]:
    hit = MNEMONICS.get(mnemonic.lower())
    if hit is None:
        close = difflib.get_close_matches(mnemonic.lower(), list(MNEMONICS), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise InputError(span, f"unknown mnemonic '{mnemonic}'{hint}")
    return hit
