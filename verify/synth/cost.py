"""The cost model: estimated cycles on the dependent chain, per generation.

A shuffle is a dependent chain (each step reads the previous step's
register), so the cost of a lowering is the sum of its instructions'
latencies, in clock cycles, as estimated below.  Every number is an
ESTIMATE from public sources (docs/synthesis.md, "Cost model", gives each
source); none was measured on hardware by this project.  The search ranks
candidates by this number only, so a claim "optimal" is optimal *under this
table*.

>>> c = MODELS["gcn"]
>>> c.of("v_mov_b32_dpp"), c.of("s_nop", 1), c.of("ds_swizzle_b32")
(4, 8, 44)
>>> MODELS["rdna"].of("v_mov_b32_dpp", wave=64), MODELS["rdna"].of("v_mov_b32_dpp", wave=32)
(10, 5)
>>> model_for(__import__("verify.target", fromlist=["get"]).get("gfx942")).name
'gcn'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..ir import Instr
from ..ops import MNEMONICS, OPS
from ..ops.base import COST_CLASSES
from ..target import Target
from .components import last_dpp_foldable


def class_of(mnemonic: str) -> str:
    """The cost class of a mnemonic: its op's row of the table (ops declare
    it: OpDef.cost_class, from the closed set ops.base.COST_CLASSES)."""
    op, enc = MNEMONICS[mnemonic]
    cls = op.cost_class_in(enc)
    if cls is None:
        raise KeyError(f"{mnemonic} has no cost class (synthesis does not emit it)")
    return cls


# which classes are VALU issues (doubled for wave64 on RDNA: two passes)
VALU_CLASSES = {"valu", "dpp", "readlane", "writelane", "permlane", "permlane_swap"}


@dataclass(frozen=True)
class CostModel:
    name: str
    what: str
    cycles: dict[str, int]  # class -> cycles
    wave64_valu_passes: int = 1  # RDNA issues a wave64 VALU op as two wave32 halves
    notes: dict[str, str] = field(default_factory=dict)  # class -> source / estimate note

    def of(self, mnemonic: str, n: int = 0, wave: int = 64) -> int:
        cls = class_of(mnemonic)
        if cls == "wait_state":
            return self.cycles[cls] * (n + 1)  # s_nop N is N + 1 wait states
        return self.cost_of_class(cls, wave)

    def cost_of_class(self, cls: str, wave: int) -> int:
        c = self.cycles[cls]
        if wave == 64 and cls in VALU_CLASSES:
            c *= self.wave64_valu_passes
        return c

    def dpp(self, wave: int) -> int:
        return self.of("v_mov_b32_dpp", wave=wave)


_SOURCES = {
    "valu": "GCN3 article (a wave64 runs over 16-lane SIMDs in 4 cycles); CLRX GcnTimings (4 cycles); "
            "LLVM SISchedule.td (Write32Bit: 1 quarter-rate unit on SI models, 5 cycles on GFX10/GFX11)",
    "dpp": "GCN3 article: DPP 'operates at full instruction rate' (same as its VALU op)",
    "dpp_folded": "SCALE's DPP post; LLVM GCNDPPCombine: a DPP move folds into the consuming VALU op (0 extra)",
    "salu": "CLRX GcnTimings (SOP delay 4 on GCN); LLVM SISchedule.td (WriteSALU 2 cycles on GFX10/GFX11)",
    "wait_state": "estimate: one wave issue slot per wait state (s_nop N = N + 1 wait states)",
    "ds_swizzle": "estimate: LDS-routed (s_waitcnt lgkmcnt); LLVM SISchedule.td WriteLDS 20 cycles "
                  "('can be between 2 and 64'); gem5 charges 24; SCALE: faster than bpermute, slower than DPP",
    "ds_bpermute": "estimate: Quadrants docs '~50 cycle latency'; a ggml comment reports 100+ cycles per "
                   "dependent round trip on RDNA; SCALE: 'comparable cost to a shared memory read'",
    "waitcnt": "the s_waitcnt lgkmcnt(0) that ends a DS result's latency (one SALU issue)",
    "permlane": "estimate: VOP3 cross-lane VALU; SCALE places permlane between DPP and bpermute (2 VALU)",
    "permlane_swap": "estimate: gfx950 VALU swap (one VALU issue)",
    "readlane": "VALU writing an SGPR (one VALU issue; estimate)",
    "writelane": "VALU (one VALU issue; estimate)",
}

MODELS: dict[str, CostModel] = {
    "gcn": CostModel(
        "gcn", "GCN/CDNA (GFX8, GFX9 family), wave64 on 16-lane SIMDs",
        {"valu": 4, "dpp": 4, "salu": 4, "wait_state": 4, "ds_swizzle": 44, "ds_bpermute": 60, "waitcnt": 4,
         "permlane": 8, "permlane_swap": 4, "readlane": 4, "writelane": 4},
        1, _SOURCES),
    "rdna": CostModel(
        "rdna", "RDNA (GFX10, GFX11, GFX12), wave32 on 32-lane SIMDs; wave64 VALU in two passes",
        {"valu": 5, "dpp": 5, "salu": 2, "wait_state": 1, "ds_swizzle": 40, "ds_bpermute": 60, "waitcnt": 2,
         "permlane": 10, "permlane_swap": 5, "readlane": 5, "writelane": 5},
        2, _SOURCES),
}


def model_for(target: Target) -> CostModel:
    return MODELS["rdna" if target.has("wave32") else "gcn"]  # RDNA: 32-lane SIMDs  [S:targets]


def program_cost(program: Iterable[Instr], model: CostModel, wave: int) -> int:
    """Sum of the instructions' costs (``s_nop N`` counts N + 1 wait states)."""
    total = 0
    for ins in program:
        op = OPS[ins.base]
        cls = op.cost_class_in(ins.enc)
        if cls is None:
            raise KeyError(f"{ins.base} has no cost class (synthesis does not emit it)")
        if cls == "wait_state":  # the op's own count of the wait states it gives
            total += model.cycles[cls] * op.wait_states(ins)
        else:
            total += model.cost_of_class(cls, wave)
    return total


def folded_cost(program: list[Instr], model: CostModel, wave: int) -> int | None:
    """The cost if the final DPP move is folded into the VALU op consuming
    the result (LLVM GCNDPPCombine folds a full-mask DPP move); None if the
    last instruction is not such a move."""
    if not last_dpp_foldable(program):
        return None
    return program_cost(program, model, wave) - model.dpp(wave)


def markdown_table() -> str:
    rows = ["| class | " + " | ".join(f"{m.name} ({m.what})" for m in MODELS.values()) + " | source |",
            "|---|" + "---|" * len(MODELS) + "---|"]
    for cls in COST_CLASSES:
        cells = []
        for m in MODELS.values():
            c = m.cycles[cls]
            cells.append(f"{c}" + (f" (wave64: {c * m.wave64_valu_passes})" if m.wave64_valu_passes > 1 and cls in VALU_CLASSES else ""))
        rows.append(f"| {cls} | " + " | ".join(cells) + f" | {_SOURCES[cls]} |")
    rows.append("| dpp folded | " + " | ".join("0 extra" for _ in MODELS) + f" | {_SOURCES['dpp_folded']} |")
    return "\n".join(rows) + "\n"
