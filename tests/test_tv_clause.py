"""`s_clause` (GFX10+) is a scheduling hint verify runs as a no-op
[S:salu]: a kernel whose compiled code has one is checked, not unsupported.
The kernel also reads global memory with `s_load` at base + 0x100, whose
address must carry into the high half (verify/tv/kernel.py)."""

from __future__ import annotations

import pytest
from helpers import cli

from verify.ops.base import op_of
from verify.target import get

pytest.importorskip("llvmlite")

from verify.tv.compile import by_llvmlite_isolated

# two arguments; LLVM 22 puts the two uniform loads in one clause (s_clause 0x1)
# on gfx1030, gfx1100 and gfx1200
KERNEL = """; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @two_loads(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %a = load i32, ptr addrspace(1) %in, align 4
  %g2 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 64
  %b = load i32, ptr addrspace(1) %g2, align 4
  %x = and i32 %a, %b
  %r = add i32 %x, %id
  %idx = zext i32 %id to i64
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %r, ptr addrspace(1) %o, align 4
  ret void
}
"""


def test_s_clause_is_gfx10_and_later():
    op = op_of("s_clause")
    assert op.schedule_only and op.feature == "clause"
    assert [t for t in ("gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1200") if get(t).has("clause")] == \
        ["gfx1030", "gfx1100", "gfx1200"]


@pytest.mark.parametrize("target", ["gfx1200", pytest.param("gfx1100", marks=pytest.mark.slow),
                                    pytest.param("gfx1030", marks=pytest.mark.slow)])
def test_kernel_with_s_clause_is_proved(tmp_path, target):
    assert "s_clause 0x1" in by_llvmlite_isolated(KERNEL, get(target), 32)
    p = tmp_path / "k.ll"
    p.write_text(KERNEL)
    code, out, err = cli("tv", str(p), "--target", target, "--wave", "32")
    assert (code, err) == (0, ""), out
    assert out.splitlines()[0].startswith(f"two_loads on {target} wave32 (llvmlite): proved")
