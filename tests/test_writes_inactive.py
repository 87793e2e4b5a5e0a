"""`writes_inactive` holds over every EXEC, not one concrete run: a
v_writelane into lane 0 changes lane 0 only where lane 0 is inactive at
entry, which the concrete run (EXEC = lane 0) cannot see (issue 11)."""

import pytest
from helpers import cli_json

HEADER = """; @spec     cuda.shfl_xor mask=0 width=32
; @targets  gfx1100
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2, s0
"""


@pytest.mark.parametrize("body, changed", [
    ("v_mov_b32_e32 v1, v0\nv_writelane_b32 v2, s0, 0\n", ["v2"]),      # lane 0: inactive under EXEC = 0x2
    ("v_mov_b32_e32 v1, v0\nv_writelane_b32 v2, s0, 5\n", ["v2"]),      # the concrete run sees lane 5
    ("v_mov_b32_e32 v1, v0\nv_mov_b32_e32 v2, v0\n", []),               # EXEC-masked writes change nothing
    ("v_mov_b32_e32 v1, v0\nv_readlane_b32 s0, v0, 0\nv_writelane_b32 v1, s0, 0\n", ["v1"]),
])
def test_writes_inactive_over_every_exec(tmp_path, body, changed):
    p = tmp_path / "k.s"
    p.write_text(HEADER + body)
    code, js, err = cli_json("lowering", str(p))
    assert code == 0, err
    assert js["results"][0]["writes_inactive"] == changed
