"""Frozen program representation: operands, instructions, lowerings.

Nothing here knows syntax or semantics: the parser (asm.py) builds these,
the op registry (ops/) gives them meaning.  Spans never take part in
equality, so a parse/print/parse round trip compares equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .diag import Span


@dataclass(frozen=True)
class VReg:
    index: int
    count: int = 1

    @property
    def text(self) -> str:
        if self.count == 1:
            return f"v{self.index}"
        return f"v[{self.index}:{self.index + self.count - 1}]"

    def names(self) -> list[str]:
        return [f"v{self.index + k}" for k in range(self.count)]


@dataclass(frozen=True)
class VHalf(VReg):
    """A 16-bit half of a VGPR, GFX11's true16 operand ``v1.l`` / ``v1.h``
    (``hi``: bits 31:16).  Its register is the VGPR's (hazards, waits and
    dataflow see v1); only the ops that declare 16-bit operands take it."""

    hi: bool = False

    @property
    def text(self) -> str:
        return f"v{self.index}.{'h' if self.hi else 'l'}"


@dataclass(frozen=True)
class SReg:
    """Scalar registers; `names` lists the 32-bit parts, low first."""

    names: tuple[str, ...]
    text: str = field(compare=False, default="", repr=False)

    @property
    def count(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class Imm:
    """An integer operand; `value` is the 32-bit pattern (64-bit if wide)."""

    value: int
    text: str = field(compare=False, default="", repr=False)
    wide: bool = False


Operand = VReg | SReg | Imm

# A lane value and a lane condition, as code generic over backends sees them:
# concretely an ``int`` (32-bit pattern) and a ``bool``; on the solver backend
# (verify/smt/) z3 terms, which are untyped here; on the partial backend
# also None (unknown).  Hence ``Any``: the aliases document, they do not check.
Value = Any
Cond = Any


def reg_key(reg: VReg | SReg) -> str:
    """The state key of a register operand: 'v3', 's4', 'exec_lo', ..."""
    return reg.text if isinstance(reg, VReg) else reg.names[0]


@dataclass(frozen=True)
class Instr:
    """One instruction.  `base` keys the op registry; `enc` is the encoding
    suffix as written (e32, e64, dpp, ...) and `mods` the normalised
    modifiers, sorted by name."""

    mnemonic: str
    base: str
    operands: tuple[Any, ...]
    mods: tuple[tuple[str, Any], ...] = ()
    enc: str = ""
    span: Span | None = field(compare=False, default=None)
    operand_spans: tuple[Span, ...] = field(compare=False, default=())
    mod_spans: tuple[tuple[str, Span], ...] = field(compare=False, default=())
    text: str = field(compare=False, default="")

    def mod(self, name: str, default: Any = None) -> Any:
        for k, v in self.mods:
            if k == name:
                return v
        return default

    def mod_span(self, name: str) -> Span | None:
        for k, s in self.mod_spans:
            if k == name:
                return s
        return self.span

    def operand_span(self, k: int) -> Span | None:
        return self.operand_spans[k] if k < len(self.operand_spans) else self.span

    @property
    def line(self) -> int:
        return self.span.line if self.span else 0


@dataclass
class Binding:
    """`name = register` in a lowering header."""

    name: str
    reg: Any  # VReg or SReg
    span: Span


@dataclass
class Lowering:
    name: str
    path: str
    spec: str
    params: dict[str, Any]
    targets: list[str]
    waves: list[int]
    exec_contract: str  # "any" or "full"
    inputs: list[Binding]
    outputs: list[Binding]
    # registers the lowering may change besides its outputs (`@clobbers`);
    # None for compiler output (`verify asm`): no clobber contract to check
    clobbers: list[Any] | None
    program: list[Instr]
    description: str = ""
    spans: dict[str, Span] = field(default_factory=dict)
    param_spans: dict[str, Span] = field(default_factory=dict)
    expect: str | None = None  # documented expected verdict for test fixtures
    check_exec: bool = True  # the "EXEC restored" obligation (off for `verify asm` regions)
    # the GFX12 SGPR hazard state at the program's start (verify/hazards.py):
    # "fragment" (predecessors unseen: every pair tracked), "kernel", or the
    # state after the code before a `verify asm` region
    hazard_entry: Any = "fragment"
