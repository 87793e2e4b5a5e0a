"""Two @input names bound to one register would make a proof cover only equal
inputs: an error at the second binding (issue 11)."""

import pytest
from helpers import cli

HEADER = """; @spec     cuda.shfl_idx lane=@lane width=32
; @targets  gfx1100
; @waves    32
; @input    {inputs}
; @output   out = v1
; @clobbers v2
"""
BODY = "v_lshlrev_b32_e32 v2, 2, v3\nds_bpermute_b32 v1, v2, v0\ns_waitcnt lgkmcnt(0)\n"


def run(tmp_path, inputs, more=""):
    p = tmp_path / "t.s"
    p.write_text(HEADER.format(inputs=inputs) + more + BODY)
    code, out, err = cli("lowering", str(p))
    return code, out, err.replace(str(p), "F")


def test_distinct_registers_are_accepted(tmp_path):
    code, out, err = run(tmp_path, "x = v0, lane = v3")
    assert code == 0, out + err


@pytest.mark.parametrize("inputs, more, want", [
    ("x = v0, lane = v0", "", "F:4:21: error: @input 'lane' and 'x' are both bound to v0"),
    ("x = v3, lane = v3", "", "F:4:21: error: @input 'lane' and 'x' are both bound to v3"),
    ("x = v0", "; @input    lane = v0\n", "F:7:13: error: @input 'lane' and 'x' are both bound to v0"),
])
def test_two_inputs_in_one_register_are_an_error(tmp_path, inputs, more, want):
    code, out, err = run(tmp_path, inputs, more)
    assert (code, out) == (2, "")
    assert err == want + " (the proof would cover only equal inputs)\n"
