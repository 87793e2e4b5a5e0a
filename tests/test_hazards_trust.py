"""The hazards an audit against LLVM 22's GCNHazardRecognizer added
(docs/semantics.md [S:trust-hazards]): each rule on the generations where
llc-22 -run-pass=post-RA-hazard-rec inserts its wait, and on one where it
does not; the exact warning; and LLVM's own output, which must not be
flagged, with its wait deleted, which must be."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from test_hazards import prog, run

from verify.hazards import check, needed, window
from verify.target import get
from verify.tv.check import gpu_code


def warns(lines, target, asm=True):
    return [str(w).split("warning: ", 1)[1] for w in check(prog(lines, asm=asm), get(target))]


# ---- v_readfirstlane of a VGPR a VALU instruction just wrote (gfx94x, gfx950)

RFL = ["v_add_u32_e32 v0, v1, v0", "v_readfirstlane_b32 s0, v0"]


@pytest.mark.parametrize("target,hit", [("gfx942", True), ("gfx950", True), ("gfx940", True), ("gfx90a", False),
                                        ("gfx900", False), ("gfx1100", False)])
def test_readfirstlane_after_a_valu_vgpr_write(target, hit):
    expect = ["hazard (gfx94x and gfx950): line 1 (v_add_u32_e32) writes v0 and v_readfirstlane_b32 reads it 0 "
              "wait states later; v_readlane/v_readfirstlane of a VGPR the previous VALU instruction wrote needs 1: "
              "insert s_nop 0"]
    assert warns(RFL, target, asm=False) == (expect if hit else [])
    assert warns(RFL[:1] + ["s_nop 0"] + RFL[1:], target, asm=False) == []


def test_readfirstlane_in_the_window_reads_an_unknown():
    lines = ["v_mov_b32_e32 v0, v3", "v_readfirstlane_b32 s0, v0"]
    m = run(lines, "gfx942", regs={"v3": 5})
    assert m.s("s0") == 0xDEAD and "v0@2(hazard after line 1)" in m.inputs_read
    assert run(lines[:1] + ["s_nop 0"] + lines[1:], "gfx942", regs={"v3": 5}).s("s0") == 5
    assert run(lines, "gfx90a", regs={"v3": 5}).s("s0") == 5


# ---- a VMEM read of an SGPR or EXEC a VALU instruction wrote (GFX8/9 family): 5 wait states

VMEM = ["v_readfirstlane_b32 s2, v0", "v_mov_b32_e32 v5, 0", "global_store_dword v4, v5, s[2:3]"]


@pytest.mark.parametrize("target,hit", [("gfx803", True), ("gfx900", True), ("gfx906", True), ("gfx90a", True),
                                        ("gfx942", True), ("gfx950", True), ("gfx1010", False), ("gfx1030", False),
                                        ("gfx1100", False), ("gfx1200", False)])
def test_vmem_sgpr_after_a_valu_write(target, hit):
    family = "GFX8/9 family"
    expect = [f"hazard ({family}): line 1 (v_readfirstlane_b32) writes s2 and global_store_dword reads it 1 wait "
              "state later; a vector memory read of an SGPR or EXEC a VALU instruction wrote needs 5: insert s_nop 3"]
    assert warns(VMEM, target) == (expect if hit else [])
    assert warns(VMEM[:2] + ["s_nop 3"] + VMEM[2:], target) == []
    assert warns(VMEM[:2] + ["s_nop 2"] + VMEM[2:], target) == ([expect[0].replace(
        "1 wait state later", "4 wait states later").replace("s_nop 3", "s_nop 0")] if hit else [])


def test_vmem_reads_exec_a_vcmpx_wrote_and_not_an_sgpr_it_does_not_read():
    w = warns(["v_cmpx_eq_u32_e64 s[20:21], v0, v1", "global_load_dword v7, v[2:3], off"], "gfx900")
    assert w == ["hazard (GFX8/9 family): line 1 (v_cmpx_eq_u32_e64) writes exec_hi, exec_lo and global_load_dword "
                 "reads it 0 wait states later; a vector memory read of an SGPR or EXEC a VALU instruction wrote "
                 "needs 5: insert s_nop 4"]
    assert warns(["v_cmp_eq_u32_e64 s[10:11], v0, v1", "global_load_dword v7, v[2:3], off"], "gfx900") == []
    # scalar memory and LDS are not its consumers
    assert warns(["v_readfirstlane_b32 s4, v0", "s_load_dword s0, s[4:5], 0x0"], "gfx900") == []
    p = prog(["v_readfirstlane_b32 s13, v1", "buffer_load_dword v7, off, s[8:11], s13"], asm=True)
    assert sorted(window(p, 1, get("gfx900"))) == ["s13"] and window(p, 1, get("gfx1030")) == {}


# ---- SDWA dst_sel other than DWORD, then a VALU read (gfx94x, gfx950): 1 wait state

SDWA = ["v_add_u32_sdwa v3, v1, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:DWORD",
        "v_add_u32_e32 v4, v3, v1"]


@pytest.mark.parametrize("target,hit", [("gfx942", True), ("gfx950", True), ("gfx900", False), ("gfx90a", False)])
def test_sdwa_dst_sel_forwarding(target, hit):
    expect = ["hazard (gfx94x and gfx950): line 1 (v_add_u32_sdwa) writes v3 and v_add_u32_e32 reads it 0 wait "
              "states later; a VALU read of a VGPR an SDWA instruction wrote part of (dst_sel not DWORD), or a VOP3P "
              "instruction wrote (op_sel_hi[0] 1) needs 1: insert s_nop 0"]
    assert warns(SDWA, target, asm=False) == (expect if hit else [])
    assert warns(SDWA, target, asm=True) == (expect if hit else [])
    assert warns(SDWA[:1] + ["s_nop 0"] + SDWA[1:], target) == []
    dword = [SDWA[0].replace("dst_sel:WORD_1", "dst_sel:DWORD"), SDWA[1]]
    assert warns(dword, target) == []


# ---- GFX10.1 write-after-read: warnings only

WAR = {
    "smem": (["s_load_dword s0, s[4:5], 0x0", "v_readfirstlane_b32 s4, v0"],
             "line 1 (s_load_dword) reads s4 and v_readfirstlane_b32 writes it with nothing between to end the "
             "hazard (a VALU write of an SGPR a scalar memory instruction still reads): insert s_mov_b32 null, 0"),
    "vcmpx": (["s_mov_b32 s0, exec_lo", "v_readfirstlane_b32 s1, v0", "v_cmpx_eq_u32_e32 v0, v1"],
              "line 1 (s_mov_b32) reads exec_lo and v_cmpx_eq_u32_e32 writes it with nothing between to end the "
              "hazard (a VALU write of EXEC that a non-VALU instruction still reads): insert s_waitcnt_depctr "
              "depctr_sa_sdst(0)"),
    "vmem": (["global_load_dword v7, v4, s[2:3]", "s_mov_b32 s2, 0"],
             "line 1 (global_load_dword) reads s2 and s_mov_b32 writes it with nothing between to end the hazard "
             "(a scalar write of an SGPR a vector memory or LDS instruction still reads): insert s_waitcnt_depctr "
             "depctr_vm_vsrc(0)"),
}
# what ends each (llc-22 puts no wait after it)
WAR_ENDS = {"smem": ["s_waitcnt lgkmcnt(0)", "s_mov_b32 s1, s2"], "vcmpx": ["v_cmp_eq_u32_e64 s1, v0, v1",
                                                                           "s_waitcnt_depctr 0xfffe"],
            "vmem": ["v_mov_b32_e32 v1, v2", "s_waitcnt_depctr 0xffe3"]}


@pytest.mark.parametrize("kind", sorted(WAR))
def test_gfx101_write_after_read(kind):
    lines, text = WAR[kind]
    assert warns(lines, "gfx1010") == [f"hazard (only on GFX10.1): {text}"]
    for t in ("gfx1030", "gfx1100", "gfx900"):
        assert warns(lines, t) == []
    for end in WAR_ENDS[kind]:
        assert warns(lines[:-1] + [end] + lines[-1:], "gfx1010") == [], end
    assert warns(lines[:-1] + ["s_nop 0"] + lines[-1:], "gfx1010") != []  # a SOPP ends none of them


def test_a_war_reader_reads_an_unknown_when_the_writer_is_in_the_code():
    lines = ["s_mov_b32 s0, exec_lo", "v_cmpx_eq_u32_e32 v0, v1"]
    w = window(prog(lines, asm=True), 0, get("gfx1010"))
    assert sorted(w) == ["exec_lo"] and w["exec_lo"].explain() == (
        "reads exec_lo inside the hazard window of line 2 (v_cmpx_eq_u32_e32), which writes it before the read may "
        "have taken its value (a VALU write of EXEC that a non-VALU instruction still reads): insert "
        "s_waitcnt_depctr depctr_sa_sdst(0); its value there is unknown")
    assert window(prog(lines, asm=True), 0, get("gfx1030")) == {}
    assert window(prog(lines[:1] + ["s_waitcnt_depctr 0xfffe"] + lines[1:], asm=True), 0, get("gfx1010")) == {}
    m = run(["s_mov_b32 s0, exec_lo", "v_cmpx_eq_u32_e32 v0, v1"], "gfx1010", wave=32, regs={"v0": 1, "v1": 1})
    assert m.s("s0") == 0xDEAD
    assert run(["s_mov_b32 s0, exec_lo", "v_cmpx_eq_u32_e32 v0, v1"], "gfx1030", wave=32,
               regs={"v0": 1, "v1": 1}).s("s0") == 0xFFFFFFFF


# ---- LLVM's own output: never flagged; its wait deleted, flagged

LLC = shutil.which("llc-22")
KERNEL = """define amdgpu_kernel void @k(<4 x i32> %rsrc, i32 %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %v = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %id)
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %x, <4 x i32> %rsrc, i32 0, i32 %v, i32 0)
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare void @llvm.amdgcn.raw.buffer.store.i32(i32, <4 x i32>, i32, i32, i32)
"""


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.parametrize("cpu", ["gfx900", "gfx942"])
def test_llvm_waits_before_a_vmem_read_of_a_readfirstlane_result(cpu):
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}"], input=KERNEL, capture_output=True,
                         text=True, check=True).stdout
    code = gpu_code(asm, "k", f"<{cpu}>", True)
    assert code.problems == [] and code.hazard_warnings(get(cpu), None, 64)[0] == []
    lines = asm.splitlines()
    nops = [k for k, t in enumerate(lines) if t.strip().startswith("s_nop")]
    # gfx900: s_nop 2 before the buffer store of the readfirstlane's SGPR; gfx942 also s_nop 0 before the
    # readfirstlane of the VGPR v_and_b32 wrote
    assert [lines[k].strip() for k in nops] == (["s_nop 2"] if cpu == "gfx900" else ["s_nop 0", "s_nop 2"]), asm
    why = ["a vector memory read of an SGPR or EXEC a VALU instruction wrote",
           "v_readlane/v_readfirstlane of a VGPR the previous VALU instruction wrote"]
    for k in nops:
        mutant = "\n".join(lines[:k] + lines[k + 1:])
        found = gpu_code(mutant, "k", f"<{cpu}>", True).hazard_warnings(get(cpu), None, 64)[0]
        rule = why[0] if lines[k].strip() == "s_nop 2" else why[1]
        assert len(found) == 1 and rule in found[0], (k, found)


# ---- GFX11 wave64 partial forwarding: s_waitcnt_depctr va_vdst(0)

PF = ["v_mov_b32_e32 v0, 0", "s_mov_b64 exec, -1", "v_mov_b32_e32 v1, 1", "v_add_u32_e32 v2, v0, v1"]


@pytest.mark.parametrize("target,wave,hit", [("gfx1100", 64, True), ("gfx1150", 64, True), ("gfx1100", 32, False),
                                             ("gfx1200", 64, False), ("gfx1030", 64, False), ("gfx942", 64, False)])
def test_partial_forwarding(target, wave, hit):
    got = [str(w).split("warning: ", 1)[1] for w in check(prog(PF, asm=True), get(target), wave=wave)]
    expect = ["hazard (only on GFX11, GFX11.5): line 1 (v_mov_b32_e32) writes v0, v1 and v_add_u32_e32 reads it with no "
              "s_waitcnt_depctr depctr_va_vdst(0) after (a VALU read of two VGPRs written by VALU instructions on "
              "either side of an SALU write of EXEC (wave64)): insert s_waitcnt_depctr depctr_va_vdst(0)"]
    assert got == (expect if hit else [])


def test_partial_forwarding_ends_and_reads_unknown():
    t = get("gfx1100")
    assert check(prog(PF[:3] + ["s_waitcnt_depctr depctr_va_vdst(0)"] + PF[3:], asm=True), t, wave=64) == []
    assert check(prog(PF[:3] + ["ds_swizzle_b32 v9, v8 offset:swizzle(SWAP,1)"] + PF[3:], asm=True), t, wave=64) == []
    # three VALU instructions between the two writes and the EXEC write: no hazard (at most 2), two: a hazard
    filler = ["v_mov_b32_e32 v5, 5"]
    assert check(prog(PF[:1] + filler * 2 + PF[1:2] + filler + PF[2:], asm=True), t, wave=64) == []
    assert check(prog(PF[:1] + filler + PF[1:2] + filler + PF[2:], asm=True), t, wave=64) != []
    # five VALU instructions between the second write and the read: none (at most 4)
    assert check(prog(PF[:3] + filler * 5 + PF[3:], asm=True), t, wave=64) == []
    assert check(prog(PF[:3] + filler * 4 + PF[3:], asm=True), t, wave=64) != []
    w = window(prog(PF, asm=True), 3, t, wave=64)
    assert sorted(w) == ["v0", "v1"] and w["v0"].rule.name == "partial-forwarding"
    assert needed(prog(PF, asm=True), 3, t, 64) == (0, "depctr_va_vdst(0)")


def test_gfx101_vmem_then_exec_write_and_what_ends_it():
    lines = ["global_load_dword v7, v[2:3], off", "s_or_b32 exec_lo, exec_lo, s4"]
    assert warns(lines, "gfx1010") == [
        "hazard (only on GFX10.1): line 1 (global_load_dword) reads exec_lo and s_or_b32 writes it with nothing "
        "between to end the hazard (a scalar write of an SGPR a vector memory or LDS instruction still reads): "
        "insert s_waitcnt_depctr depctr_vm_vsrc(0)"]
    assert warns(lines[:1] + ["s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)"] + lines[1:], "gfx1010") == []
    assert warns(lines[:1] + ["s_waitcnt vmcnt(0) lgkmcnt(0)"] + lines[1:], "gfx1010") != []  # expcnt not 0


# ---- GFX12: a function returns with no SGPR write pending

def test_gfx12_pending_write_at_a_return():
    from verify.hazards import pending_at_return
    p = prog(["v_readlane_b32 s0, v2, 0"], asm=True)
    assert [str(w).split("warning: ", 1)[1] for w in pending_at_return(p, get("gfx1200"))] == [
        "hazard (GFX12): line 1 (v_readlane_b32) writes s0 and the function returns with no s_wait_alu "
        "depctr_va_sdst(0) after it (LLVM waits before a return, so that callers need not): insert s_wait_alu "
        "depctr_va_sdst(0)"]
    p = prog(["s_mov_b32 s0, 0"], asm=True)
    assert "depctr_sa_sdst(0)" in str(pending_at_return(p, get("gfx1201"))[0])
    assert pending_at_return(prog(["v_readlane_b32 s0, v2, 0", "s_wait_alu depctr_va_sdst(0)"], asm=True),
                             get("gfx1200")) == []
    assert pending_at_return(prog(["v_readlane_b32 s0, v2, 0"], asm=True), get("gfx1100")) == []


FN = """define void @f(i32 %v) {
  %s = call i32 @llvm.amdgcn.readlane.i32(i32 %v, i32 3)
  call void asm sideeffect "; use $0", "s"(i32 %s)
  ret void
}
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
"""


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_llvm_waits_before_a_gfx12_return():
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1200"], input=FN, capture_output=True,
                         text=True, check=True).stdout
    code = gpu_code(asm, "f", "<gfx1200>", False)
    assert code.problems == [] and code.hazard_warnings(get("gfx1200"), None, 32)[0] == []
    lines = asm.splitlines()
    k = max(i for i, t in enumerate(lines) if t.strip().startswith("s_wait_alu"))
    assert lines[k + 1].strip().startswith("s_setpc_b64"), asm
    found = gpu_code("\n".join(lines[:k] + lines[k + 1:]), "f", "<gfx1200>", False).hazard_warnings(
        get("gfx1200"), None, 32)[0]
    assert len(found) == 1 and "the function returns with no s_wait_alu" in found[0], found


# ---- a VOP3P result read at once (gfx94x, gfx950: LLVM's dst-sel rule sees op_sel_hi[0])

@pytest.mark.parametrize("target,hit", [("gfx942", True), ("gfx950", True), ("gfx90a", False), ("gfx1100", False)])
def test_vop3p_result_read_at_once(target, hit):
    lines = ["v_pk_add_u16 v1, v0, v1", "v_pk_add_u16 v0, v1, v0"]
    assert len(warns(lines, target, asm=False)) == int(hit)
    assert warns(lines[:1] + ["s_nop 0"] + lines[1:], target, asm=False) == []
    assert warns(["v_pk_add_u16 v1, v0, v1 op_sel_hi:[0,1]", lines[1]], target, asm=False) == []


# ---- a store of more than 64 bits, then a VALU write of its data (GFX8/9: 1 wait state, gfx94x: 2)

STORE = ["global_store_dwordx4 v[0:1], v[2:5], off", "v_add_u32_e32 v2, 1, v6"]


@pytest.mark.parametrize("target,needs", [("gfx803", 1), ("gfx900", 1), ("gfx90a", 1), ("gfx942", 2), ("gfx950", 2),
                                          ("gfx1030", 0), ("gfx1100", 0)])
def test_store_data_overwritten(target, needs):
    for nops in range(3):
        lines = STORE[:1] + ["s_nop 0"] * nops + STORE[1:]
        got = warns(lines, target)
        assert len(got) == int(nops < needs), (nops, got)
    if needs:
        assert warns(STORE, target)[0].endswith(
            "line 1 (global_store_dwordx4) reads v2 and v_add_u32_e32 writes it too soon (a VALU write of a VGPR a "
            "vector memory store of more than 64 bits still reads): it needs "
            + ("1 wait state after the store: insert s_nop 0" if needs == 1 else
               "2 wait states after the store: insert s_nop 1, less the wait states between"))
    assert warns(["global_store_dwordx2 v[0:1], v[2:3], off", STORE[1]], target) == []  # 64 bits: none
    assert warns(["buffer_store_dwordx4 v[2:5], off, s[0:3], s5", STORE[1]], target) == []  # an SGPR soffset: none


# ---- a branch between producer and consumer is a wait state (LLVM counts it)

BRANCHY = """define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %s = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %id)
  %c = icmp ugt i32 %s, 7
  br i1 %c, label %big, label %small
small:
  %d = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %id, i32 177, i32 15, i32 15, i1 true)
  br label %join
big:
  br label %join
join:
  %r = phi i32 [ %d, %small ], [ %s, %big ]
  store i32 %r, ptr addrspace(1) %out
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)
"""


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_a_branch_counts_one_wait_state():
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942"], input=BRANCHY, capture_output=True,
                         text=True, check=True).stdout
    lines = [t.strip() for t in asm.splitlines()]
    k = lines.index("v_readfirstlane_b32 s0, v0")
    # LLVM: readfirstlane, s_cmp, s_cbranch: two wait states before the other block's `v_mov_b32 v0, s0`
    assert lines[k + 1].startswith("s_cmp") and lines[k + 2].startswith("s_cbranch"), asm
    assert "v_mov_b32_e32 v0, s0" in lines and not any(t.startswith("s_nop") for t in lines[k:k + 3])
    code = gpu_code(asm, "k", "<gfx942>", True)
    assert code.problems == [] and code.blocks is not None
    assert code.hazard_warnings(get("gfx942"), None, 64)[0] == []


def test_partial_forwarding_ignores_the_half_a_true16_destination_keeps():
    """LLVM's fixVALUPartialForwardingHazard looks at the instruction's
    explicit uses: `v_mad_u16 v0.l, ...` keeps v0's high half but names no v0
    source, so v0 and v4 written on either side of the EXEC write are no
    hazard (the atomic optimizer's i16 code on gfx1100 wave64 was refuted for
    it); a v0 half named as a source is one.  [S:mad-u16]"""
    t = get("gfx1100")
    base = ["v_mov_b32_e32 v4, 0", "s_mov_b64 exec, -1", "v_mov_b16_e32 v0.h, 0"]
    assert check(prog(base + ["v_mad_u16 v0.l, s10, v4.l, s2"], asm=True), t, wave=64) == []
    got = check(prog(base + ["v_mad_u16 v0.l, v0.h, v4.l, s2"], asm=True), t, wave=64)
    assert len(got) == 1 and "writes v0, v4 and v_mad_u16 reads it" in str(got[0]), got
