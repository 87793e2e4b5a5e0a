"""Facts on their owner: each op declares its synthesis cost class (from a
closed set, so a misspelt class fails when the op is registered) and the
wait states it gives; the cost model and the hazard checker read them from
the op, never from a list of mnemonics."""

from __future__ import annotations

import pytest

from verify.ir import Instr
from verify.lowering_file import parse_instr
from verify.ops import MNEMONICS
from verify.ops.base import COST_CLASSES, OpDef, register
from verify.synth.cost import MODELS, class_of, program_cost


def test_a_misspelt_cost_class_fails_at_registration() -> None:
    class Probe(OpDef):
        base = "v_probe_cost_class"
        cost_class = "dpp16"

    with pytest.raises(ValueError, match="v_probe_cost_class: unknown cost class dpp16"):
        register(Probe())
    assert "v_probe_cost_class" not in MNEMONICS


@pytest.mark.parametrize("mnemonic, cls", [
    ("v_mov_b32", "valu"), ("v_mov_b32_dpp", "dpp"), ("v_add_u32_dpp", "dpp"), ("v_readlane_b32", "readlane"),
    ("v_readfirstlane_b32", "readlane"), ("v_writelane_b32", "writelane"), ("v_permlanex16_b32", "permlane"),
    ("v_permlane64_b32", "permlane"), ("v_permlane32_swap_b32", "permlane_swap"), ("ds_swizzle_b32", "ds_swizzle"),
    ("ds_bpermute_b32", "ds_bpermute"), ("s_waitcnt", "waitcnt"), ("s_wait_dscnt", "waitcnt"),
    ("s_nop", "wait_state"), ("s_wait_alu", "salu"), ("s_or_saveexec_b64", "salu")])
def test_each_op_names_its_cost_class(mnemonic: str, cls: str) -> None:
    assert class_of(mnemonic) == cls


def test_every_class_has_a_cost_in_every_model() -> None:
    for m in MODELS.values():
        assert sorted(m.cycles) == sorted(COST_CLASSES)


def _prog(*lines: str) -> list[Instr]:
    from verify.diag import Span
    return [parse_instr(t, Span("<t>", k + 1, 1)) for k, t in enumerate(lines)]


def test_s_nop_costs_the_wait_states_the_op_gives() -> None:
    gcn = MODELS["gcn"]
    # s_nop 3 gives 4 wait states; s_nop 9 gives 9[2:0] + 1 = 2 (the op's own count, as the hazards read it)
    assert program_cost(_prog("s_nop 3"), gcn, 64) == 4 * gcn.cycles["wait_state"]
    assert program_cost(_prog("s_nop 9"), gcn, 64) == 2 * gcn.cycles["wait_state"]
    assert program_cost(_prog("v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
                              "ds_swizzle_b32 v2, v1 offset:0x041f"), gcn, 64) == gcn.cycles["dpp"] + gcn.cycles["ds_swizzle"]
