"""`verify asm` on whole kernels as LLVM prints them: HIP's __shfl_xor as a
kernel (load var from in[tid], shuffle, store to out[tid]) compiled with
llvmlite at test time, checked with no --lines and no --wave; and the
region rules (wave size, every function, loops, SGPR setup, loads) on small
hand-written files."""

import re

import pytest
from helpers import cli, cli_json

from verify.diag import InputError

TARGETS = [("gfx90a", 64), ("gfx942", 64), ("gfx950", 64), ("gfx1030", 32), ("gfx1030", 64),
           ("gfx1100", 32), ("gfx1100", 64), ("gfx1200", 32), ("gfx1200", 64)]
MASKS = (1, 5, 12, 16, 31, 32)
WIDTHS = (8, 16, 32, 64)
# (cpu, wave, mask, width): a mask inside the width, a width up to the wave size
MATRIX = [(c, w, m, x) for c, w in TARGETS for x in WIDTHS if x <= w for m in MASKS if m < x]
# ds_bpermute reaches only its own 32-lane half in wave64 on GFX10/GFX11
HALF_WAVE = {("gfx1030", 64, 32, 64), ("gfx1100", 64, 32, 64)}
FAST = [("gfx1100", 32, 5, 16), ("gfx942", 64, 32, 64), ("gfx1200", 64, 32, 64), ("gfx1030", 64, 31, 64),
        ("gfx1100", 64, 32, 64)]


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def check_kernel(tmp_path, cpu, wave, mask, width):
    pytest.importorskip("llvmlite")
    from llvm.kernels import hip_shfl_xor_kernel, kernel_registers

    text = hip_shfl_xor_kernel(cpu, wave, mask, width)
    var, res = kernel_registers(text)
    path = write(tmp_path, f"{cpu}-w{wave}-m{mask}-x{width}.s", text)
    code, js, err = cli_json("asm", path, "--assert", f"{res} == hip.shfl_xor({var}, mask={mask}, width={width})")
    assert (js["target"], js["wave"], js["function"]) == (cpu, wave, "shfl_xor_kernel"), (err, js)
    load = next(k for k, line in enumerate(text.splitlines(), 1) if re.match(r"\s*global_load", line))
    assert js["assertions"][0]["loaded"] == {var: load}
    if (cpu, wave, mask, width) in HALF_WAVE:
        assert code == 1, (err, js)
        a = js["assertions"][0]
        assert a["note"].startswith(f"half-wave rule: on {cpu} wave64 ds_bpermute/ds_permute reach its own 32-lane half")
        assert a["counterexample"]["active_lanes"] == [0, 32]
    else:
        assert code == 0, (err, js)


@pytest.mark.parametrize("cpu, wave, mask, width", FAST, ids=[f"{c}-w{w}-m{m}-x{x}" for c, w, m, x in FAST])
@pytest.mark.slow
def test_hip_shfl_xor_kernel(tmp_path, cpu, wave, mask, width):
    check_kernel(tmp_path, cpu, wave, mask, width)


@pytest.mark.slow
@pytest.mark.parametrize("cpu, wave, mask, width", MATRIX, ids=[f"{c}-w{w}-m{m}-x{x}" for c, w, m, x in MATRIX])
def test_hip_shfl_xor_kernel_matrix(tmp_path, cpu, wave, mask, width):
    check_kernel(tmp_path, cpu, wave, mask, width)


def test_the_half_wave_refutation_explains_itself(tmp_path):
    pytest.importorskip("llvmlite")
    from llvm.kernels import hip_shfl_xor_kernel

    path = write(tmp_path, "h.s", hip_shfl_xor_kernel("gfx1100", 64, 32, 64))
    code, out, err = cli("asm", path, "--assert", "v1 == hip.shfl_xor(v1, mask=32, width=64)")
    assert code == 1, out + err
    assert out.splitlines()[0].endswith(": shfl_xor_kernel, lines 10-25 (16 instructions) on gfx1100 wave64, exec=any")
    assert "    input v1: loaded at line 19 (its value as that load delivers it)" in out
    assert ("    note: half-wave rule: on gfx1100 wave64 ds_bpermute/ds_permute reach its own 32-lane half "
            "(assumption permute.wave64_half=own, [S:permute-half]); lane 0 wants lane 32, in the other half") in out


# ---------------------------------------------------------------------------
# hand-written files

HEAD = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\n'
XOR1 = ("\tv_mbcnt_lo_u32_b32 v1, -1, 0\n\tv_xor_b32_e32 v1, s4, v1\n\tv_lshlrev_b32_e32 v1, 2, v1\n"
        "\tds_bpermute_b32 v0, v1, v0\n\ts_waitcnt lgkmcnt(0)\n")
CLAIM = "v0 == cuda.shfl_xor(v0, mask=1, width=32)"


def desc(name, w32):
    return f"\t.amdhsa_kernel {name}\n\t\t.amdhsa_wavefront_size32 {w32}\n\t.end_amdhsa_kernel\n"


def test_the_wave_size_comes_from_the_descriptor_or_the_target(tmp_path):
    from verify.asmcheck import descriptor_wave, detect_wave
    from verify.target import get

    text = HEAD + "k:\n\ts_mov_b32 s4, 1\n" + XOR1 + "\ts_endpgm\n" + desc("k", 1)
    assert descriptor_wave(text, "k") == (32, 12) and detect_wave(text, get("gfx1100"), "k") == 32
    assert detect_wave(text.replace("size32 1", "size32 0"), get("gfx1100"), "k") == 64
    assert detect_wave(HEAD, get("gfx1100")) == 32 and detect_wave(HEAD, get("gfx90a")) == 64
    path = write(tmp_path, "k.s", text)
    code, js, err = cli_json("asm", path, "--exec", "0xffffffff", "--assert", CLAIM)
    assert code == 0 and js["wave"] == 32, err
    code, out, err = cli("asm", path, "--wave", "64", "--assert", CLAIM)
    assert (code, err) == (2, f"{path}:12:1: error: --wave 64 contradicts k's kernel descriptor: "
                              ".amdhsa_wavefront_size32 1 (wave32)\n")
    path = write(tmp_path, "g.s", text.replace("gfx1100", "gfx90a"))
    code, out, err = cli("asm", path, "--assert", CLAIM)
    assert (code, err) == (2, f"{path}:12:1: error: k's kernel descriptor says wave32, but gfx90a runs wave64 only\n")


def test_a_wave64_lane_mask_in_a_default_wave32_function_is_an_error(tmp_path):
    text = HEAD + "f:\n\tv_mbcnt_lo_u32_b32 v1, -1, 0\n\tv_cmp_eq_u32_e32 vcc, 0, v1\n\ts_setpc_b64 s[30:31]\n"
    path = write(tmp_path, "f.s", text)
    code, out, err = cli("asm", path, "--assert", "exec_lo == exec_lo")
    assert (code, err) == (2, f"{path}:5:19: error: 'vcc' is a wave64 lane mask, but f runs wave32 (gfx1100's default: "
                              "no kernel descriptor says otherwise); give --wave 64 if it was compiled for it\n")
    assert cli("asm", path, "--wave", "64", "--assert", "exec == exec")[0] == 0


def test_vcc_lo_as_a_scalar_source_in_wave64_is_no_lane_mask(tmp_path):
    """llc-22's gfx12 wave64 code writes a 32-bit ballot half with
    `v_writelane_b32 v1, vcc_lo, 0`: a scalar source, not a lane mask; vcc_lo
    as the mask of v_cndmask_b32 in wave64 code is still refused."""
    text = HEAD.replace("gfx1100", "gfx1200") + ("f:\n\tv_cmp_eq_u32_e32 vcc, 0, v0\n\ts_wait_alu depctr_va_vcc(0)\n"
                                                "\tv_writelane_b32 v1, vcc_lo, 0\n\ts_setpc_b64 s[30:31]\n")
    path = write(tmp_path, "f.s", text)
    code, out, err = cli("asm", path, "--wave", "64", "--assert", "exec == exec")
    assert code == 0, err
    bad = write(tmp_path, "g.s", text.replace("v_writelane_b32 v1, vcc_lo, 0", "v_cndmask_b32_e64 v1, 0, 1, vcc_lo"))
    code, out, err = cli("asm", bad, "--wave", "64", "--assert", "exec == exec")
    assert code == 2 and "'vcc_lo' is a wave32 lane mask, but f runs wave64 (--wave)" in err, err


def test_every_function_is_checked_and_named(tmp_path):
    text = (HEAD + "a:\n\ts_mov_b32 s4, 1\n" + XOR1 + "\ts_endpgm\n.Lfunc_end0:\n"
            + "b:\n\ts_mov_b32 s4, 2\n" + XOR1 + "\ts_endpgm\n.Lfunc_end1:\n"
            + "c:\n\tv_mov_b32_e32 v0, 0\n\ts_setpc_b64 s[30:31]\n.Lfunc_end2:\n")
    path = write(tmp_path, "k.s", text)
    code, js, err = cli_json("asm", path, "--exec", "0xffffffff", "--assert", CLAIM)
    assert code == 1, err
    assert [(f["function"], f["verdict"]) for f in js["functions"]] == [("a", "proved"), ("b", "refuted"),
                                                                        ("c", "skipped")]
    assert js["functions"][0]["region"]["sgpr_setup"] == [{"line": 4, "instruction": "s_mov_b32 s4, 1"}]
    code, out, err = cli("asm", path, "--exec", "0xffffffff", "--assert", CLAIM)
    assert re.search(r"k\.s: a, lines 5-8 .*\n  SGPR setup before the region, run first: line 4: s_mov_b32 s4, 1\n"
                     r"  proved ", out), out
    assert re.search(r"k\.s: b, lines 14-17 .*\n.*\n  refuted ", out), out
    assert out.rstrip().endswith("k.s: c: skipped: no instruction writes EXEC, moves data across lanes or computes "
                                 "a lane id; give the region with --lines A-B\n"
                                 "Summary: 1 correct, 1 incorrect, 0 failed-to-prove, 0 unsupported")
    assert cli("asm", path, "--function", "a", "--exec", "0xffffffff", "--assert", CLAIM)[0] == 0
    assert cli("asm", path, "--lines", "14-17", "--exec", "0xffffffff", "--assert", CLAIM)[0] == 1  # b's lines


def test_sgpr_setup_outside_the_block_is_an_input_and_said(tmp_path):
    text = HEAD + "f:\n\ts_mov_b32 s4, 1\n.LBB0_1:\n" + XOR1 + "\ts_setpc_b64 s[30:31]\n"
    path = write(tmp_path, "f.s", text)
    code, out, err = cli("asm", path, "--exec", "0xffffffff", "--assert", CLAIM)
    assert code == 1
    assert "  input s4: written at line 4, outside the region's block; taken as an unknown input" in out


def test_a_region_in_a_loop_is_refused(tmp_path):
    loop = (HEAD + "f:\n.LBB0_1:\n" + XOR1 + "\ts_add_u32 s4, s4, -1\n\ts_cbranch_scc1 .LBB0_1\n"
            "\ts_setpc_b64 s[30:31]\n")
    path = write(tmp_path, "f.s", loop)
    code, out, err = cli("asm", path, "--assert", CLAIM)
    assert (code, err) == (2, f"{path}:5:1: error: f: lines 5-8 are inside a loop (line 11 branches back to .LBB0_1 "
                              "at line 4); verify asm checks straight-line code only, not proved\n")
    # in a file of several functions, the others are still checked
    two = loop + ".Lfunc_end0:\ng:\n\ts_mov_b32 s4, 1\n" + XOR1 + "\ts_setpc_b64 s[30:31]\n"
    path = write(tmp_path, "two.s", two)
    code, out, err = cli("asm", path, "--exec", "0xffffffff", "--assert", CLAIM)
    assert code == 4, out + err
    assert "two.s: f: refused: line 5: lines 5-8 are inside a loop" in out
    assert re.search(r"two\.s: g, lines \d+-\d+ .*\n(.*\n)*  proved ", out), out


def test_a_load_after_a_read_of_its_register_is_unknown(tmp_path):
    """v0 is read (by the copy to v5) before the load writes it: the input v0
    is its entry value, and the load's value is a fresh unknown."""
    body = ("f:\n\tv_mbcnt_lo_u32_b32 v1, -1, 0\n\tv_mov_b32_e32 v5, v0\n\tglobal_load_b32 v0, v2, s[0:1]\n"
            "\tv_xor_b32_e32 v1, 1, v1\n\tv_lshlrev_b32_e32 v1, 2, v1\n\ts_waitcnt vmcnt(0)\n"
            "\tds_bpermute_b32 v0, v1, v0\n\ts_waitcnt lgkmcnt(0)\n\ts_setpc_b64 s[30:31]\n")
    path = write(tmp_path, "f.s", HEAD + body)
    code, js, err = cli_json("asm", path, "--exec", "0xffffffff", "--assert", "v0 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 1 and js["assertions"][0]["loaded"] == {}
    assert {"line": 6, "instruction": "global_load_b32 v0, v2, s[0:1]", "result": "unknown",
            "writes": ["v0"]} in js["not_modelled"]
    # without the copy, v0's first access is the load: the input is the loaded value
    path = write(tmp_path, "g.s", HEAD + body.replace("\tv_mov_b32_e32 v5, v0\n", ""))
    code, js, err = cli_json("asm", path, "--exec", "0xffffffff", "--assert", "v0 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 0 and js["assertions"][0]["loaded"] == {"v0": 5}, err


def test_check_file_names_the_function_of_its_lines():
    from verify.asmcheck import check_file

    text = HEAD + "a:\n\ts_endpgm\nb:\n\ts_mov_b32 s4, 1\n" + XOR1 + "\ts_endpgm\n"
    rep = check_file("k.s", [CLAIM], lines="7-10", exec="0xffffffff", text=text)
    assert (rep.function, rep.verdict) == ("b", "refuted")  # --lines: s4 is an input
    with pytest.raises(InputError, match="no function 'z'"):
        check_file("k.s", [CLAIM], function="z", text=text)


WIDE = [("gfx90a", 64), ("gfx942", 64), ("gfx1030", 32), ("gfx1100", 64), ("gfx1200", 32)]


@pytest.mark.parametrize("cpu, wave", WIDE, ids=[f"{c}-w{w}" for c, w in WIDE])
@pytest.mark.slow
def test_64_bit_address_arithmetic_is_modelled(tmp_path, cpu, wave):
    """Indexed by a 64-bit id, LLVM adds and shifts addresses with carry
    chains and 64-bit shifts: all modelled, so the only unmodelled lines
    are memory operations."""
    pytest.importorskip("llvmlite")
    from llvm.kernels import hip_shfl_xor_kernel, kernel_registers

    text = hip_shfl_xor_kernel(cpu, wave, 5, 16, wide=True)
    assert re.search(r"v_add_co_u32|v_lshlrev_b64|v_lshl_add_u64", text)
    var, res = kernel_registers(text)
    path = write(tmp_path, "w.s", text)
    code, js, err = cli_json("asm", path, "--assert", f"{res} == hip.shfl_xor({var}, mask=5, width=16)")
    assert code == 0, (err, js)
    unmodelled = [n["instruction"] for n in js["not_modelled"]]
    # (gfx1200 reads the workgroup id from ttmp9, a register verify does not know)
    assert all(re.match(r"(s_load|global_load|global_store)", u) or "ttmp" in u for u in unmodelled), unmodelled


def test_a_modelled_op_with_an_unknown_operand_is_not_modelled(tmp_path):
    text = HEAD + "f:\n\tv_lshl_add_u32 v1, ttmp9, 8, v4\n\tv_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n" \
                  "\ts_setpc_b64 s[30:31]\n"
    path = write(tmp_path, "f.s", text)
    code, js, err = cli_json("asm", path, "--lines", "4-5", "--assert", "v2 == cuda.shfl_xor(v1, mask=1, width=32)")
    assert code == 1, err  # v1 at entry is not what the dpp move reads
    assert js["not_modelled"] == [{"line": 4, "instruction": "v_lshl_add_u32 v1, ttmp9, 8, v4", "result": "unknown",
                                   "writes": ["v1"]}]


def test_lshl_add_u64_above_4_is_an_assumption(tmp_path):
    """A shift amount above 4 is unknown by default (LLVM emits 0-4), S1[2:0]
    under lshl_add_u64.shift=low3; a constant 0-4 never asks."""
    from verify.backend import Concrete
    from verify.diag import Span
    from verify.lowering_file import parse_instr
    from verify.machine import Machine
    from verify.target import FeatureLog, get

    def run(shift, variant):
        vals = {"v0": 0x80000001, "v1": 0x1, "v2": 0x10, "v3": 0, "s4": shift}
        m = Machine(Concrete(), 64, lambda kind, name, lane: vals.get(name, 0x5A5A5A5A),
                    FeatureLog(get("gfx942")), {"lshl_add_u64.shift": variant}, waits=False)
        m.set_exec_mask(1)
        m.run([parse_instr("v_lshl_add_u64 v[4:5], v[0:1], s4, v[2:3]", Span("t", 1))])
        return m.v(4)[0], m.v(5)[0], dict(m.assumptions_used)

    assert run(1, "unknown") == (0x12, 0x3, {"lshl_add_u64.shift": "unknown"})
    assert run(9, "low3") == (0x12, 0x3, {"lshl_add_u64.shift": "low3"})  # 9 & 7 = 1
    assert run(9, "unknown")[:2] == (0x5A5A5A5A, 0x5A5A5A5A)  # the unknown value


def test_a_load_read_before_its_wait_is_not_the_input(tmp_path):
    """A read of the loaded register before `s_waitcnt vmcnt(0)` sees its old
    value: the load is then not the input's definition (v0 means its entry
    value, the load writes a fresh unknown), so the claim is refuted."""
    body = ("f:\n\tv_mbcnt_lo_u32_b32 v1, -1, 0\n\tglobal_load_b32 v0, v2, s[0:1]\n\tv_mov_b32_e32 v3, v0\n"
            "\tv_xor_b32_e32 v1, 1, v1\n\tv_lshlrev_b32_e32 v1, 2, v1\n\ts_waitcnt vmcnt(0)\n"
            "\tds_bpermute_b32 v0, v1, v3\n\ts_waitcnt lgkmcnt(0)\n\ts_setpc_b64 s[30:31]\n")
    path = write(tmp_path, "f.s", HEAD + body)
    code, js, err = cli_json("asm", path, "--exec", "0xffffffff", "--assert", "v0 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 1 and js["assertions"][0]["loaded"] == {}, err
    # after the wait, the same read is the loaded value
    moved = body.replace("\tv_mov_b32_e32 v3, v0\n", "").replace("\ts_waitcnt vmcnt(0)\n", "\ts_waitcnt vmcnt(0)\n\tv_mov_b32_e32 v3, v0\n")
    path = write(tmp_path, "g.s", HEAD + moved)
    code, js, err = cli_json("asm", path, "--exec", "0xffffffff", "--assert", "v0 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 0 and js["assertions"][0]["loaded"] == {"v0": 5}, err
