"""`verify tv` counterexamples explained as `verify lowering`'s (issue #34):
lane-tagged inputs, the IR and GPU values, the cause first (the
instruction that computed the lane a ds_bpermute read), the path step by
step, the pattern line, and the JSON carrying all of it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("llc-22") is None, reason="llc-22 not installed")


def shfl_xor_mutant(tmp_path: Path) -> tuple[str, str]:
    """HIP's __shfl_xor(var, 1) compiled by llc-22 for gfx1100 wave32, its
    address computation mutated to xor 2."""
    ll = ROOT / "tests/tv/hip_shfl_xor_1_w64.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    assert "\tv_xor_b32_e32 v2, 1, v1\n" in asm
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace("\tv_xor_b32_e32 v2, 1, v1\n", "\tv_xor_b32_e32 v2, 2, v1\n"))
    return str(ll), str(bad)


def test_shfl_xor_mutant_names_the_address_xor_and_the_pattern(tmp_path):
    ll, bad = shfl_xor_mutant(tmp_path)
    code, out, _ = cli("tv", ll, "--target", "gfx1100", "--wave", "32", "--asm", bad)
    assert code == 1
    lines = out.splitlines()
    k = lines.index("  counterexample: EXEC = 0x3")
    xor_line = next(n for n, t in enumerate(Path(bad).read_text().splitlines(), 1) if "v_xor_b32_e32 v2, 2, v1" in t)
    # the cause first: the mutated xor, not the ds_bpermute that read the lane
    assert lines[k + 1].startswith(f"    cause: line {xor_line} v_xor_b32_e32: v2[0] chooses lane 2 for line ")
    assert "    lane-tagged inputs (lane i holds a value that names it): %var = v0: 0x100+i" in lines
    assert ("    pattern: lane i reads lane i^2; the spec wants lane i^1 (of %var: lanes 0-31, with every lane active)"
            in lines)
    assert any(t.startswith("    lane  IR value") and t.endswith("GPU value           responsible") for t in lines)
    assert any(t.startswith("       0  0x101 %var[1]  0x0 ") for t in lines)
    # the path, earliest first, through the address computation to the read
    steps = lines[lines.index("    lane 0, step by step:") + 1:]
    assert steps[2] == f"      line {xor_line} (v_xor_b32_e32 v2, 2, v1): v2[0] = 0x2"
    assert any(t.endswith("ds_bpermute_b32: reads lane 2, chosen by v1[0] = 0x8") for t in steps)


def test_tv_json_carries_the_explained_counterexample(tmp_path):
    ll, bad = shfl_xor_mutant(tmp_path)
    code, out, _ = cli("tv", ll, "--target", "gfx1100", "--wave", "32", "--asm", bad, "--json")
    assert code == 1
    c = json.loads(out)["results"][0]["counterexample"]
    assert c["tagged_inputs"] and c["inputs"]["%var"][:2] == [0x100, 0x101]
    assert c["cause"].split(":")[0].endswith("v_xor_b32_e32")
    assert c["pattern"][0].startswith("lane i reads lane i^2; the spec wants lane i^1")
    lane0 = next(r for r in c["lanes"] if r["lane"] == 0)
    assert (lane0["expected"], lane0["actual"], lane0["differs"]) == (0x101, 0, True)
    assert lane0["trace"][-1].startswith("line ") and "v_mbcnt_lo_u32_b32" in lane0["trace"][-1]


def test_kernel_lanes_fold_and_never_drop_a_lane():
    from verify.tv.cextv import KernelCex

    k = KernelCex((1 << 32) - 1, 0x40, 1, 2, {i: 0x40 + i for i in range(32)})
    assert k.lane_lines() == ["  lane 0: workitem.id.x = 0x40", "  lanes 1-15: same as lane 0, shifted",
                              "  lanes 16-31: same as lanes 0-15, shifted"]
    odd = KernelCex(0b1011, 0x40, 1, 2, {0: 5, 1: 9, 3: 7})
    assert odd.lane_lines() == ["  lane 0: workitem.id.x = 0x5", "  lane 1: workitem.id.x = 0x9",
                                "  lane 3: workitem.id.x = 0x7"]
    js = odd.to_json()
    assert [r["lane"] for r in js["lanes"]] == [0, 1, 3] and js["memory"]["address"] == "0x40"


@pytest.mark.slow  # a kernel refutation (~3 s of CPU, more under load)
def test_kernel_json_carries_the_counterexample(tmp_path):
    ll = ROOT / "tests/tv/kernel_hip_shfl_xor_1_w64.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    bad = tmp_path / "k.s"
    bad.write_text(asm.replace("\tv_xor_b32_e32 v3, 1, v2\n", "\tv_xor_b32_e32 v3, 2, v2\n"))
    code, out, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad), "--json")
    assert code == 1
    c = json.loads(out)["results"][0]["counterexample"]
    assert c is not None and c["memory"]["ir"] != c["memory"]["gpu"]
    assert [r["lane"] for r in c["lanes"]] == c["active_lanes"] and set(c["inputs"]["workitem.id.x"]) == {
        str(i) for i in c["active_lanes"]}
    # the cause: the mutated address xor, traced from the store's data through the ds_bpermute (issue #34)
    xor_line = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if "v_xor_b32_e32 v3, 2, v2" in t)
    assert c["cause"].startswith(f"line {xor_line} v_xor_b32_e32: v3[") and "ds_bpermute_b32" in c["cause"]
    wrong = [r for r in c["lanes"] if r["differs"]]
    assert wrong and all(r["expected"] != r["actual"] and r["trace"] for r in wrong)
    assert c["store"].endswith(" global_store_b32")
    notes = json.loads(out)["results"][0]["notes"]
    assert notes[1] == f"  cause: {c['cause']}" and f"  the lanes' stores at {c['store']}:" in notes
    assert any(n.startswith(f"    line {xor_line} (v_xor_b32_e32 v3, 2, v2): v3[") for n in notes)


@pytest.mark.slow
def test_kernel_through_a_loop_and_a_branch_names_the_address_shift(tmp_path):
    """The atomic optimizer's kernel (a loop over the lanes, a branch around
    the atomic), its store's address shift mutated: the replay walks the
    path the model takes and names the shift, the address differing."""
    ll = ROOT / "tests/tv/kernel_atomic_add_optimizer.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    old = "\tv_lshlrev_b32_e32 v0, 2, v0\n\ts_delay_alu instid0(VALU_DEP_2)\n"
    assert old in asm and "s_cbranch_scc1" in asm and "s_cbranch_execz" in asm
    bad = tmp_path / "k.s"
    bad.write_text(asm.replace(old, "\tv_lshlrev_b32_e32 v0, 3, v0\n\ts_delay_alu instid0(VALU_DEP_2)\n"))
    shift = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if "v_lshlrev_b32_e32 v0, 3, v0" in t)
    store = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if "global_store_b32" in t)
    code, out, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad))
    assert code == 1, out
    lines = out.splitlines()
    assert f"    cause: line {shift} v_lshlrev_b32_e32: v0[0] computed by v_lshlrev_b32_e32" in lines, out
    assert f"    the lanes' stores at line {store} global_store_b32:" in lines
    row = next(t for t in lines if t.startswith("       0  "))
    assert " at 0x" in row and ", not 0x" in row and row.endswith(f"line {shift} v_lshlrev_b32_e32: v0[0] computed by "
                                                                   "v_lshlrev_b32_e32")
    steps = lines[lines.index("    lane 0, step by step:") + 1:]
    # the path on through the lane-local shift to the work-item ID (nothing there says a lane went wrong: the
    # shift stays the cause)
    assert steps[:4] == ["      v0[0] holds its value from entry (workitem.id[0])",
                         "      line 10 (v_and_b32_e32 v0, 0x3ff, v0): v0[0] computed by v_and_b32_e32",
                         f"      line {shift} (v_lshlrev_b32_e32 v0, 3, v0): v0[0] computed by v_lshlrev_b32_e32",
                         f"      line {store} (global_store_b32 v0, v1, s[4:5]): lane 0's address is from v0[0]"]


def test_function_with_branches_is_traced_on_the_models_path(tmp_path):
    """An if/else whose then-block's DPP shift is mutated (row_shr:1 to 2):
    the replay takes the branches the model takes and names the DPP move,
    the step by step included (before, code with blocks had no trace)."""
    ll = ROOT / "tests/tv/llvm-shape/cf_if_else.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    old = "\tv_mov_b32_dpp v0, v2 row_shr:1 row_mask:0xf"
    assert asm.count(old) == 1 and "s_cbranch_execz" in asm
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace(old, "\tv_mov_b32_dpp v0, v2 row_shr:2 row_mask:0xf"))
    dpp = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if "row_shr:2" in t)
    code, out, _ = cli("tv", str(ll), "--function", "if_else_dpp", "--target", "gfx1100", "--wave", "32",
                       "--asm", str(bad))
    assert code == 1, out
    lines = out.splitlines()
    k = lines.index("  counterexample: EXEC = 0x3")
    assert lines[k + 1] == (f"    cause: line {dpp} v_mov_b32_dpp: v0[1] = 0 (its source lane is out of range: "
                            "bound_ctrl zero-fill)"), out
    assert any(t.startswith(f"       1  0x100 %x[0]  0x0 0 from line {dpp}  ") for t in lines), out
    steps = lines[lines.index("    lane 1, step by step:") + 1:]
    assert steps[0].startswith(f"      line {dpp} (v_mov_b32_dpp v0, v2 row_shr:2 row_mask:0xf bank_mask:0xf "
                               "bound_ctrl:1): v0[1] = 0")


def test_function_taking_a_pointer_names_the_dpp_of_its_store(tmp_path):
    """A function that stores through a pointer (verify/tv/memory.py), its
    DPP shift mutated: the lane table of the store, the DPP move the cause."""
    ll = ROOT / "tests/tv/llvm-shape/mem_global_functions.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    old = "\tv_mov_b32_dpp v2, v2 row_shr:1 row_mask:0xf"
    assert asm.count(old) == 1
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace(old, "\tv_mov_b32_dpp v2, v2 row_shr:2 row_mask:0xf"))
    text = bad.read_text().splitlines()
    dpp = next(n for n, t in enumerate(text, 1) if "row_shr:2" in t)
    code, out, _ = cli("tv", str(ll), "--function", "mov_dpp_row_shr_store", "--target", "gfx1100", "--wave", "32",
                       "--asm", str(bad))
    lines = out.splitlines()
    assert f"    cause: line {dpp} v_mov_b32_dpp: v2[1] = 0 (its source lane is out of range: bound_ctrl zero-fill)" \
        in lines, out
    assert f"    the lanes' stores at line {dpp + 1} global_store_b32:" in lines
    assert f"      line {dpp + 1} (global_store_b32 v[0:1], v2, off): lane 1 stores v2[1] = 0x0" in lines


@pytest.mark.slow
def test_a_computation_is_passed_through_to_the_dpp_that_left_a_lane_unwritten(tmp_path):
    """`update.dpp` with an undef old value (a non-deterministic choice:
    the table from the solver's own model, untagged), its row_shr:1 made
    row_shr:2, then an add of 7: the add computed the wrong value, but the
    path goes on through it (lane-local, one VGPR) to the DPP move that left
    the first two lanes of each row unwritten, which is named; the other
    lanes, where the move read a real lane, keep the add (no tag says which
    lane was wanted)."""
    ll = tmp_path / "nd.ll"
    ll.write_text("declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)\n"
                  "define i32 @f(i32 %x) {\n"
                  "  %a = call i32 @llvm.amdgcn.update.dpp.i32(i32 undef, i32 %x, i32 273, i32 15, i32 15, i1 false)\n"
                  "  %r = add i32 %a, 7\n  ret i32 %r\n}\n")
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    assert asm.count("row_shr:1 ") == 1
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace("row_shr:1 ", "row_shr:2 "))
    text = bad.read_text().splitlines()
    dpp = next(n for n, t in enumerate(text, 1) if "v_mov_b32_dpp v0, v0 row_shr:2" in t)
    add = next(n for n, t in enumerate(text, 1) if "v_add_nc_u32_e32 v0, 7, v0" in t)
    code, out, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad), "--json")
    assert code == 1
    c = json.loads(out)["results"][0]["counterexample"]
    unwritten = "(its source lane is out of range and bound_ctrl is off)"
    first = min(r["lane"] for r in c["lanes"] if r["differs"])  # (the model's: lane 0 or 1 of a row)
    assert first % 16 < 2
    assert c["cause"] == f"line {dpp} v_mov_b32_dpp: v0[{first}] not written {unwritten}"
    by_lane = {r["lane"]: r for r in c["lanes"]}
    assert by_lane[1]["responsible"] == f"line {dpp} v_mov_b32_dpp: v0[1] not written {unwritten}"
    traced = [r for r in c["lanes"] if r["differs"] and "responsible" in r]
    assert len(traced) > 4
    active = set(c["active_lanes"])
    for r in traced:  # a row of 16 lanes: its first two have no source lane two below; an inactive one is none
        i = r["lane"]
        want = (f"line {dpp} v_mov_b32_dpp: v0[{i}] not written {unwritten}" if i % 16 < 2 else
                f"line {dpp} v_mov_b32_dpp: v0[{i}] not written (source lane {i - 2} is inactive and bound_ctrl is off)"
                if i - 2 not in active else f"line {add} v_add_nc_u32_e32: v0[{i}] computed by v_add_nc_u32_e32")
        assert r["responsible"] == want, r
    assert any(r["responsible"].startswith(f"line {add} ") for r in traced)


def test_a_wide_result_is_explained_by_its_registers(tmp_path):
    """An i64 `update.dpp` (two v_mov_b32_dpp, one per half), the high
    half's shift mutated: the table names the register of the result that
    differs (ret.1, v1), lane-tagged, and the DPP move as the cause."""
    ll = tmp_path / "w.ll"
    ll.write_text("declare i64 @llvm.amdgcn.update.dpp.i64(i64, i64, i32, i32, i32, i1)\n"
                  "define i64 @f(i64 %x) {\n"
                  "  %a = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 273, i32 15, i32 15, i1 true)\n"
                  "  ret i64 %a\n}\n")
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    old = "v_mov_b32_dpp v3, v1 row_shr:1 "
    assert asm.count(old) == 1
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace(old, "v_mov_b32_dpp v3, v1 row_shr:2 "))
    dpp = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if "row_shr:2" in t)
    code, out, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad))
    assert code == 1, out
    lines = out.splitlines()
    zero = "(its source lane is out of range: bound_ctrl zero-fill)"
    assert f"    cause: line {dpp} v_mov_b32_dpp: v3[1] = 0 {zero}" in lines, out
    assert "    lane-tagged inputs (lane i holds a value that names it): %x.0 = v0: 0x100+i; %x.1 = v1: 0x200+i" in lines
    assert (f"    ret.1[1]  0x200 %x.1[0]  0x0 0 from line {dpp}  line {dpp} v_mov_b32_dpp: v3[1] = 0 {zero}"
            in lines), out


def iterative_mutant(tmp_path: Path, old: str, new: str) -> tuple[str, Path]:
    """The atomic optimizer's Iterative kernel add_i32_varying (gfx1100
    wave32), one line of it mutated."""
    ll = ROOT / "tests/tv/llvm-shape/cf_atomic_iterative.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32",
                          "-amdgpu-atomic-optimizer-strategy=Iterative"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    fn = asm[asm.index("add_i32_varying:"):asm.index(".Lfunc_end0:")]
    assert f"\t{old}\n" in fn and "\tv_add_nc_u32_e32 v1, s0, v1\n" in fn
    bad = tmp_path / "k.s"
    bad.write_text(asm.replace(fn, fn.replace(f"\t{old}\n", f"\t{new}\n")))
    return str(ll), bad


@pytest.mark.slow
def test_a_computation_of_several_registers_is_followed_to_the_writelane(tmp_path):
    """The loop's `v_writelane_b32 v1, s2, s3` (each lane's exclusive
    prefix) mutated to write s7 (the lane's own value): the final
    `v_add_nc_u32 v1, s0, v1` reads two registers; s0 is the result the IR
    wants, so v1 is the input in error, followed to the writelane, which is
    named, not the add; `--svg` draws the kernel's replay with the writelane
    framed."""
    ll, bad = iterative_mutant(tmp_path, "v_writelane_b32 v1, s2, s3", "v_writelane_b32 v1, s7, s3")
    text = bad.read_text().splitlines()
    wl = next(n for n, t in enumerate(text, 1) if "v_writelane_b32 v1, s7, s3" in t)
    add = next(n for n, t in enumerate(text, 1) if "v_add_nc_u32_e32 v1, s0, v1" in t)
    pic = tmp_path / "k.svg"
    code, out, _ = cli("tv", ll, "--function", "add_i32_varying", "--target", "gfx1100", "--wave", "32",
                       "--asm", str(bad), "--svg", str(pic))
    assert code == 1, out
    lines = out.splitlines()
    # (the word and the old value are the solver's: the GPU's is the IR's plus lane 0's own value, 1)
    word = re.search(r"^  counterexample: EXEC = 0x1; memory at 0x[0-9a-f]+ after the kernel: IR (0x[0-9a-f]+), "
                     r"GPU (0x[0-9a-f]+)$", out, re.M)
    assert word is not None and int(word.group(2), 16) == int(word.group(1), 16) + 1, out
    old = word.group(1)
    assert f"    cause: line {wl} v_writelane_b32: v1[0] <- s7 = 0x1" in lines, out
    steps = lines[lines.index("    lane 0, step by step:") + 1:]
    assert f"      line {wl} (v_writelane_b32 v1, s7, s3): v1[0] <- s7 = 0x1" in steps
    assert (f"      line {add} (v_add_nc_u32_e32 v1, s0, v1): v1[0] computed by v_add_nc_u32_e32, its input v1 = 0x1 "
            f"in error (the other is the result wanted, {old}, or the identity 0x0)") in steps
    svg = pic.read_text()
    store = next(n for n, t in enumerate(text, 1) if "global_store_b32 v0, v1, s[4:5]" in t)
    assert f"line {store} global_store_b32: the stores differ, EXEC 0x00000001" in svg
    framed = re.findall(r'<g class="column responsible" data-column="\d+" data-line="(\d+)">', svg)
    assert framed == [str(wl)], framed
    assert f"lane 0: IR {old}, GPU {word.group(2)} written at line {wl}" in svg


@pytest.mark.slow
def test_an_add_of_two_identities_is_named_itself_not_one_input_at_random(tmp_path):
    """The same kernel, the atomic's returned value broadcast from the wrong
    register (`v_readfirstlane_b32 s0, v2` to `v0`, the work-item ID).  The
    solver's counterexample has lane 0's work-item ID 0 (its smallest
    values): the final `v_add_nc_u32 v1, s0, v1` adds s0 = 0 and lane 0's
    exclusive prefix v1 = 0, both the identity, and either alone set to the
    value wanted would give it; nothing in the state says which one is wrong,
    so the add is named with both, never one picked at random.  (Until
    2 Dec 2026 the model had a non-zero ID, and the readfirstlane was named:
    a counterexample search that avoids such ties is issue 34's.)"""
    ll, bad = iterative_mutant(tmp_path, "v_readfirstlane_b32 s0, v2", "v_readfirstlane_b32 s0, v0")
    add = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if "v_add_nc_u32_e32 v1, s0, v1" in t)
    code, out, _ = cli("tv", ll, "--function", "add_i32_varying", "--target", "gfx1100", "--wave", "32",
                       "--asm", str(bad))
    assert code == 1, out
    lines = out.splitlines()
    assert "    lane 0: workitem.id.x = 0x0" in lines, out
    assert f"    cause: line {add} v_add_nc_u32_e32: v1[0] computed by v_add_nc_u32_e32" in lines, out
    want = re.search(r"^  counterexample: EXEC = 0x1; memory at 0x[0-9a-f]+ after the kernel: IR (0x[0-9a-f]+), GPU 0x0$",
                     out, re.M)
    assert want is not None, out
    w = want.group(1)
    assert any(ln.startswith(f"      line {add} (v_add_nc_u32_e32 v1, s0, v1): v1[0] computed by v_add_nc_u32_e32; "
                             f"alone, its src0 s0 = {w} (the value wanted itself) or its src1 v1 = {w} (the value "
                             f"wanted itself) would give the value wanted, {w}") for ln in lines), out


def test_a_shaders_result_gets_the_traced_lane_table(tmp_path):
    """A pixel shader's float result (v0 under RetCC_SI_Shader), its DPP
    quad_perm mutated: the lane-tagged table, the pattern line and the
    step by step, as a function's (before: the plain table)."""
    ll = ROOT / "tests/tv/llvm-shape/cc_ps_dpp.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    assert asm.count("quad_perm:[3,2,1,0]") == 1
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace("quad_perm:[3,2,1,0]", "quad_perm:[2,3,1,0]"))
    dpp = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if "quad_perm:[2,3,1,0]" in t)
    code, out, _ = cli("tv", str(ll), "--function", "ps_update_dpp_quad", "--target", "gfx1100", "--wave", "32",
                       "--asm", str(bad))
    assert code == 1, out
    lines = out.splitlines()
    assert f"    cause: line {dpp} v_mov_b32_dpp: v0[0] reads the wrong lane" in lines, out
    assert "    lane-tagged inputs (lane i holds a value that names it): %old = v0: 0x100+i; %src = v1: 0x200+i" in lines
    assert any(t.startswith("    pattern: lane i reads lane i^2; the spec wants lane i^3") for t in lines), out
    assert f"      line {dpp} (v_mov_b32_dpp v0, v1 quad_perm:[2,3,1,0] row_mask:0xf bank_mask:0xf): v0[0] <- v1[2]" \
        in lines


def test_a_shaders_sgpr_result_names_its_writer(tmp_path):
    """An amdgpu_ps i32 result (in s0), its readfirstlane made a readlane of
    lane 1: the table tags the GPU's value as %v[1] and names the writer."""
    ll = ROOT / "tests/tv/llvm-shape/cc_readlane.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    fn = asm[asm.index("ps_readfirstlane_sgpr:"):asm.index(".Lfunc_end1:")]
    assert "\tv_readfirstlane_b32 s0, v0\n" in fn
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace(fn, fn.replace("v_readfirstlane_b32 s0, v0", "v_readlane_b32 s0, v0, 1")))
    rl = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if "v_readlane_b32 s0, v0, 1" in t)
    code, out, _ = cli("tv", str(ll), "--function", "ps_readfirstlane_sgpr", "--target", "gfx1100", "--wave", "32",
                       "--asm", str(bad))
    assert code == 1, out
    lines = out.splitlines()
    assert f"    cause: line {rl} (v_readlane_b32 s0, v0, 1): writes s0" in lines, out
    # (the row named by the result's SGPR, as a piece of a wider result is: one value, checked in lane 0)
    assert f"    ret.s0[0]  0x100 %v[0]  0x101 %v[1]  line {rl} (v_readlane_b32 s0, v0, 1): writes s0" in lines, out


def test_a_16_bit_result_gets_the_traced_lane_table(tmp_path):
    """An i16 result in a true16 half (v0.l, gfx1100) and a packed <2 x
    i16> one, each add's second operand mutated: lane-tagged tables with the
    add named (before: the plain table)."""
    ll = tmp_path / "h.ll"
    ll.write_text("define <2 x i16> @pk(<2 x i16> %x, <2 x i16> %y) {\n  %r = add <2 x i16> %x, %y\n"
                  "  ret <2 x i16> %r\n}\n"
                  "define i16 @t16(i16 %x, i16 %y) {\n  %r = add i16 %x, %y\n  ret i16 %r\n}\n")
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    old = {"pk": "v_pk_add_u16 v0, v0, v1", "t16": "v_add_nc_u16 v0.l, v0.l, v1.l"}
    assert all(asm.count(t) == 1 for t in old.values())
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace(old["pk"], "v_pk_add_u16 v0, v0, v0").replace(old["t16"], "v_add_nc_u16 v0.l, v0.l, v0.l"))
    text = bad.read_text().splitlines()
    for fn, mn, row in (("pk", "v_pk_add_u16", "ret.0.l[0]"), ("t16", "v_add_nc_u16", "0")):
        at = next(n for n, t in enumerate(text, 1) if f"\t{mn} v0" in t)
        code, out, _ = cli("tv", str(ll), "--function", fn, "--target", "gfx1100", "--wave", "32", "--asm", str(bad))
        assert code == 1, out
        lines = out.splitlines()
        assert f"    cause: line {at} {mn}: v0[0] computed by {mn}" in lines, out
        assert "    lane-tagged inputs (lane i holds a value that names it): %x = v0: 0x100+i; %y = v1: 0x200+i" in lines
        assert any(t.split() == [row, "0x300", "0x200", "computed", "at", "line", str(at), "line", str(at), f"{mn}:",
                                 "v0[0]", "computed", "by", mn] for t in lines), out


def test_tv_svg_draws_the_counterexample_with_the_cause_framed(tmp_path):
    """`verify tv --svg` (as `verify lowering --svg`): the __shfl_xor mutant's
    replay drawn, the address xor's column framed as responsible, the lanes
    that differ with their IR and GPU values; --svg-full keeps every
    instruction; a proof writes nothing and says so."""
    ll, bad = shfl_xor_mutant(tmp_path)
    xor = next(n for n, t in enumerate(Path(bad).read_text().splitlines(), 1) if "v_xor_b32_e32 v2, 2, v1" in t)
    pic, full = tmp_path / "x.svg", tmp_path / "full.svg"
    code, out, _ = cli("tv", ll, "--target", "gfx1100", "--wave", "32", "--asm", bad, "--svg", str(pic))
    assert code == 1, out
    svg = pic.read_text()
    assert svg.startswith("<svg ") and "gfx1100 wave32: refuted, EXEC 0x00000003" in svg
    assert svg.count('<g class="column responsible"') == 1
    assert f'<g class="column responsible" data-column="5" data-line="{xor}"><title>v_xor_b32_e32 v2, 2, v1</title>' \
        in svg
    assert "lane 0: IR 0x101 %var[1], GPU 0x0" in svg and "lane 1: IR 0x100 %var[0], GPU 0x0" in svg
    assert "instructions off the path folded" in svg
    cli("tv", ll, "--target", "gfx1100", "--wave", "32", "--asm", bad, "--svg", str(full), "--svg-full")
    assert "off the path folded" not in full.read_text() and f'data-line="{xor}"' in full.read_text()
    none = tmp_path / "none.svg"
    code, out, err = cli("tv", ll, "--target", "gfx1100", "--wave", "32", "--svg", str(none))
    assert code == 0 and not none.exists(), out
    assert "note: --svg: no counterexample with a lane table to draw; nothing written" in err
