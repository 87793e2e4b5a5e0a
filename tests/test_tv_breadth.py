"""`verify tv` on LLVM's test shapes (issue #31, helper breadth): the IR's
non-deterministic lanes of an i64 `mov.dpp` chosen from the GPU's stores
(verify/tv/nondet.py settle_stores, [S:tv-nondet-stores]); a GPU mutant
that no choice can match is not proved."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

LLC = shutil.which("llc-22")
SHAPE = Path(__file__).parent / "tv" / "llvm-shape"


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_mov_dpp64_func_witness_and_a_half_swapping_mutant(tmp_path):
    src = SHAPE / "breadth_movdpp64.ll"
    assert LLC is not None
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1010", "-mattr=+wavefrontsize32", str(src),
                          "-o", "-"], capture_output=True, text=True, check=True).stdout
    good = "v_mov_b32_dpp v3, v3 row_shr:1 row_mask:0x3 bank_mask:0x5"
    assert good in asm
    args = ("tv", str(src), "--function", "mov_dpp64_func", "--target", "gfx1010", "--wave", "32", "--json")
    ok = tmp_path / "ok.s"
    ok.write_text(asm)
    code, js, _ = cli(*args, "--asm", str(ok))
    r = json.loads(js)["results"][0]
    assert (code, r["verdict"]) == (0, "proved")
    assert any("chosen from the target's" in n for n in r["notes"])
    # the high half moved from the low half's register: the written lanes
    # differ whatever the unwritten ones are, so no witness proves it
    bad = tmp_path / "bad.s"
    bad.write_text(asm.replace(good, good.replace("v3, v3", "v3, v2")))
    code, js, _ = cli(*args, "--asm", str(bad))
    r = json.loads(js)["results"][0]
    assert r["verdict"] == "unknown" and code == 3
    assert any("unwritten lanes of mov.dpp" in n for n in r["notes"])


# ---- v_<op>_f16_e64_dpp (GFX11+ fake16: LLVM's DPP combiner on an f16 add)  [S:f16-e64-dpp]

F16_E64_DPP = ["add", "sub", "subrev", "mul", "min", "max"]


@pytest.mark.parametrize("op", F16_E64_DPP)
def test_f16_e64_dpp_legal_on_gfx11_and_gfx12_only(op):
    from verify.diag import InputError, Span
    from verify.lowering_file import parse_instr
    from verify.ops import OPS
    from verify.target import TARGETS
    line = f"v_{op}_f16_e64_dpp v1, v1, v2 quad_perm:[1,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1"
    ins = parse_instr(line, Span("t", 1))
    for t in ("gfx1100", "gfx1150", "gfx1200"):
        OPS[ins.base].check(ins, TARGETS[t], 32)
    with pytest.raises(InputError, match="VOP3"):
        OPS[ins.base].check(ins, TARGETS["gfx1030"], 32)
    with pytest.raises(InputError, match="must be a VGPR on gfx1100"):  # as llvm-mc-22: "src1 immediate"
        ins2 = parse_instr(line.replace("v1, v2 quad", "v1, 1.0 quad"), Span("t", 1))
        OPS[ins2.base].check(ins2, TARGETS["gfx1100"], 32)


def test_f16_e64_dpp_adds_the_moved_src0_to_the_lanes_own_src1():
    from helpers import simulate
    # lane i: src0 = 1.0 + i/1024-ish (f16 0x3c00 + i), src1 = 2.0 (0x4000); quad_perm [1,0,0,0]
    m = simulate(["v_add_f16_e64_dpp v1, v0, v2 quad_perm:[1,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1"],
                 "gfx1200", 32, 0xFFFFFFFF, {"v0": [0x3C00 + i for i in range(32)], "v2": 0x4000, "v1": 0x1234})
    got = [v & 0xFFFF for v in m.v(1)]
    # 1.0 + k ulp(1.0) + 2.0 = 3.0 + k ulp(1.0): ulp(3.0) is twice ulp(1.0), ties to even
    def add2(k: int) -> int:
        return 0x4200 + (k >> 1) + ((k & 1) and ((k >> 1) & 1))
    assert got[0] == add2(1) and got[1] == add2(0) and got[3] == add2(0) and got[4] == add2(5)


@pytest.mark.parametrize("op", F16_E64_DPP)
@pytest.mark.parametrize("seed", [1, 2])
def test_f16_e64_dpp_concrete_and_symbolic_agree(op, seed):
    from test_semantics_agree import run, values

    from verify import smt
    from verify.backend import Concrete
    from verify.target import get
    line = f"v_{op}_f16_e64_dpp v1, v0, v2 row_shr:{seed} row_mask:0xf bank_mask:0x5"
    t, wave, exec_mask = get("gfx1100"), 32, 0xF0F0FF3F >> seed
    env = values(seed, wave)
    mc = run([line], t, wave, Concrete(), env, exec_mask, {})
    ms = run([line], t, wave, smt.Z3(), env, exec_mask, {})
    ev = smt.Evaluator(dict(env, **{f"exec[{i}]": bool((exec_mask >> i) & 1) for i in range(wave)}))
    # the low halves (bits 31:16 are an unknown of their own on GFX11: [S:packed16])
    assert [ev(x) & 0xFFFF for x in ms.vregs[1]] == [v & 0xFFFF for v in mc.vregs[1]]


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_f16_e64_dpp_mutant_is_refuted(tmp_path):
    src = SHAPE / "breadth_f16_e64_dpp.ll"
    assert LLC is not None
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1200", "-mattr=-real-true16", str(src),
                          "-o", "-"], capture_output=True, text=True, check=True).stdout
    good = "v_add_f16_e64_dpp v1, v1, v1 quad_perm:[1,0,0,0]"
    assert good in asm
    bad = tmp_path / "bad.s"
    bad.write_text(asm.replace(good, good.replace("[1,0,0,0]", "[2,0,0,0]")))
    code, js, _ = cli("tv", str(src), "--function", "dpp_fadd_f16", "--target", "gfx1200", "--wave", "32",
                      "--asm", str(bad), "--json")
    r = json.loads(js)["results"][0]
    assert (code, r["verdict"]) == (1, "refuted")


GLOBAL_AND_LDS = """@lds = addrspace(3) global [64 x i64] poison

define amdgpu_kernel void @mov_dpp64_global_and_lds(ptr addrspace(1) %out, i64 %in1) {
  %tmp0 = call i64 @llvm.amdgcn.mov.dpp.i64(i64 %in1, i32 1, i32 1, i32 1, i1 0)
  store i64 %tmp0, ptr addrspace(1) %out
  store i64 %tmp0, ptr addrspace(3) @lds
  ret void
}

declare i64 @llvm.amdgcn.mov.dpp.i64(i64, i32, i32, i32, i1)
"""


def test_no_store_witness_where_global_memory_and_lds_are_two_questions(tmp_path):
    # each memory's witness would be a choice of its own: one choice must
    # serve both, so the kernel stays unknown (never proved by two witnesses)
    p = tmp_path / "lds.ll"
    p.write_text(GLOBAL_AND_LDS)
    code, js, _ = cli("tv", str(p), "--target", "gfx1010", "--wave", "32", "--json")
    r = json.loads(js)["results"][0]
    assert (code, r["verdict"]) == (3, "unknown")
    assert any("unwritten lanes of mov.dpp" in n for n in r["notes"])
