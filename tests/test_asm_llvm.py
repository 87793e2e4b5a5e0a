"""`verify asm` on LLVM's own output, compiled at test time with llvmlite:
the atomic optimizer's DPP scan for a divergent `atomicrmw add`, and HIP's
__shfl_xor as its header writes it; one-token mutations are refuted."""

import re

import pytest
from helpers import cli, cli_json

llvmlite = pytest.importorskip("llvmlite")

from llvm.kernels import atomic_kernel, atomic_registers, hip_shfl_xor  # noqa: E402

ATOMIC = [("gfx90a", 64), ("gfx942", 64), ("gfx950", 64), ("gfx1030", 32), ("gfx1030", 64),
          ("gfx1100", 32), ("gfx1100", 64), ("gfx1200", 32), ("gfx1200", 64), ("gfx1201", 32), ("gfx1201", 64)]


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.slow
@pytest.mark.parametrize("cpu, wave", ATOMIC, ids=[f"{c}-w{w}" for c, w in ATOMIC])
def test_atomic_optimizer_scan(tmp_path, cpu, wave):
    text = atomic_kernel(cpu, wave)
    assert "_dpp" in text  # the DPP strategy really ran
    x, total, scan = atomic_registers(text)
    path = write(tmp_path, f"{cpu}.s", text)
    # (GFX12: LLVM's s_wait_alu placement is the hazard model's default, hazard.gfx12_sgpr=llvm  [S:hazards])
    code, js, err = cli_json("asm", path, "--assert", f"{total} == reduce_add({x})",
                             "--assert", f"{scan} == exclusive_add({x})")
    assert code == 0, (err, js)
    assert js["target"] == cpu and js["wave"] == wave
    assert [a["verdict"] for a in js["assertions"]] == ["proved", "proved"]


@pytest.mark.slow
@pytest.mark.parametrize("cpu, wave", [("gfx1100", 32), pytest.param("gfx942", 64, marks=pytest.mark.slow)])
def test_atomic_optimizer_elects_the_first_active_lane(tmp_path, cpu, wave):
    ex = "exec_lo" if wave == 32 else "exec"
    path = write(tmp_path, "k.s", atomic_kernel(cpu, wave))
    code, js, err = cli_json("asm", path, "--assert", f"{ex} == first_lane({ex})")
    assert code == 0, err


def mutate(text: str, old: str, new: str, count: int = 1) -> str:
    assert old in text, old
    return text.replace(old, new, count)


MUTANTS = {
    "row_mask": ("gfx1100", 32, lambda t: mutate(t, "quad_perm:[0,1,2,3] row_mask:0xa", "quad_perm:[0,1,2,3] row_mask:0xf")),
    "row_shr": ("gfx1100", 32, lambda t: mutate(t, "row_shr:2 ", "row_shr:3 ")),
    "permlanex16_select": ("gfx1030", 32, lambda t: mutate(t, "v_permlanex16_b32 v2, v1, -1, -1", "v_permlanex16_b32 v2, v1, 0, -1")),
    "readlane_lane": ("gfx1100", 32, lambda t: re.sub(r"(v_readlane_b32 s\d+, v\d+), 31", r"\1, 30", t, count=1)),
    "row_bcast_mask": ("gfx942", 64, lambda t: mutate(t, "row_bcast:15 row_mask:0xa", "row_bcast:15 row_mask:0xf")),
}


# gfx942 wave64's row_bcast mutant (3 s) runs in the slow tier; the wave32 ones stay fast
@pytest.mark.parametrize("kind", [pytest.param(k, marks=[pytest.mark.slow] if k == "row_bcast_mask" else [])
                                  for k in sorted(MUTANTS)])
@pytest.mark.slow
def test_one_token_mutations_are_refuted(tmp_path, kind):
    cpu, wave, fn = MUTANTS[kind]
    text = atomic_kernel(cpu, wave)
    x, total, scan = atomic_registers(text)
    path = write(tmp_path, "m.s", fn(text))
    code, js, err = cli_json("asm", path, "--assert", f"{total} == reduce_add({x})",
                             "--assert", f"{scan} == exclusive_add({x})")
    assert code == 1, (kind, err)
    bad = [a for a in js["assertions"] if a["verdict"] == "refuted"]
    assert bad and all(a["counterexample"]["lanes"] for a in bad)


def test_exec_restore_mutation_is_refuted(tmp_path):
    text = atomic_kernel("gfx1100", 32)
    restore = re.search(r"s_mov_b32 exec_lo, (s\d+)", text)
    path = write(tmp_path, "m.s", text.replace(restore.group(0), "s_mov_b32 exec_lo, -1", 1))
    code, js, err = cli_json("asm", path, "--assert", "exec_lo == first_lane(exec_lo)")
    assert code == 1
    detail = js["assertions"][0]["obligations"][0]["detail"]
    ends, want = re.fullmatch(r"EXEC at the end is (0x[0-9a-f]+), expected (0x[0-9a-f]+)", detail).groups()
    assert ends != want and int(want, 16) != 0  # a wave with an active lane, not EXEC = 0


HIP = [("gfx942", 64, 1, 64), ("gfx942", 64, 32, 64), ("gfx942", 64, 5, 16),
       ("gfx1030", 32, 16, 32), ("gfx1030", 64, 5, 64), ("gfx1100", 32, 1, 32), ("gfx1100", 64, 31, 64),
       ("gfx1200", 64, 32, 64), ("gfx1200", 32, 3, 8)]


@pytest.mark.parametrize("cpu, wave, mask, width", HIP, ids=[f"{c}-w{w}-m{m}-x{x}" for c, w, m, x in HIP])
def test_hip_shfl_xor(tmp_path, cpu, wave, mask, width):
    path = write(tmp_path, "h.s", hip_shfl_xor(cpu, wave, mask, width))
    # a function (no kernel descriptor): its wave size is given, not guessed
    code, js, err = cli_json("asm", path, "--wave", str(wave), "--assert", f"v0 == hip.shfl_xor(v0, mask={mask}, width={width})")
    assert code == 0, (err, js)


@pytest.mark.parametrize("cpu", ["gfx1030", "gfx1100"])
def test_hip_shfl_xor_crossing_halves_is_wrong_on_rdna_wave64(tmp_path, cpu):
    """ds_bpermute reaches only its own 32-lane half in wave64 on GFX10/GFX11
    (assumption permute.wave64_half), so HIP's header __shfl_xor(v, 32)
    returns the lane's own half: refuted, with lanes 0 and 32 in the table."""
    path = write(tmp_path, "h.s", hip_shfl_xor(cpu, 64, 32, 64))
    code, js, err = cli_json("asm", path, "--wave", "64", "--assert", "v0 == hip.shfl_xor(v0, mask=32, width=64)")
    assert code == 1
    cex = js["assertions"][0]["counterexample"]
    assert cex["active_lanes"] == [0, 32]
    assert {l["lane"]: l["expected_from"] for l in cex["lanes"]} == {0: "x[32]", 32: "x[0]"}
    assert cex["lanes"][0]["responsible"].split(": ")[0].endswith("ds_bpermute_b32")


def test_text_output_lists_unmodelled_instructions(tmp_path):
    text = atomic_kernel("gfx942", 64)
    x, total, scan = atomic_registers(text)
    path = write(tmp_path, "k.s", text)
    code, out, err = cli("asm", path, "--assert", f"{total} == reduce_add({x})")
    assert code == 0
    assert re.search(rf"not modelled, a load: {x} at entry means the value it loads: line \d+: global_load_dword", out), out
    assert re.search(rf"proved\s+{total} == reduce_add\({x}\)", out)
    # unmodelled instructions never join the registry of modelled ones
    from verify.ops import OPS
    assert "global_load_dword" not in OPS and not any(b.startswith("global_") for b in OPS)


def test_asm_errors(tmp_path):
    path = write(tmp_path, "k.s", atomic_kernel("gfx1100", 32))
    code, out, err = cli("asm", path)
    assert code == 2 and err.strip() == "error: verify asm needs at least one --assert 'REG == SPEC(...)'"
    code, out, err = cli("asm", path, "--assert", "v1 = reduce_add(v0)")
    assert code == 2 and "cannot parse assertion" in err
    code, out, err = cli("asm", path, "--assert", "v1 == nosuch(v0)")
    assert code == 2 and err.strip() == "--assert:1:7: error: unknown spec 'nosuch'"
    code, out, err = cli("asm", path, "--lines", "9-3", "--assert", "v1 == reduce_add(v0)")
    assert code == 2 and "--lines expects A-B with A <= B" in err


@pytest.mark.slow
def test_asm_takes_assumptions_and_robust(tmp_path):
    """HIP's __shfl_xor(v, 16) at width 32 on gfx1100 wave64: ds_bpermute in
    the upper half is right only if an address selects within the lane's own
    32-lane half (permute.wave64_half=own, the default).  --robust lists both
    readings and says the verdict depends on it; --assume picks one, and the
    verdict's scope line names it."""
    path = write(tmp_path, "h.s", hip_shfl_xor("gfx1100", 64, 16, 32))
    claim = "v0 == hip.shfl_xor(v0, mask=16, width=32)"
    code, out, err = cli("asm", path, "--wave", "64", "--assert", claim)
    assert code == 0 and "assumptions: permute.addr_sign=bits, permute.wave64_half=own" in out, out + err
    code, out, err = cli("asm", path, "--wave", "64", "--assert", claim, "--robust")
    assert code == 1, out + err
    assert re.search(r"proved\s+under permute.addr_sign=bits, permute.wave64_half=own \(the defaults\)", out), out
    assert re.search(r"refuted\s+under permute.addr_sign=bits, permute.wave64_half=low\n", out), out
    assert "the verdict depends on an unsettled behaviour" in out
    code, out, err = cli("asm", path, "--wave", "64", "--assert", claim, "--assume", "permute.wave64_half=low")
    assert code == 1, out + err
    assert "for gfx1100 wave64 under exec=any, assumptions: permute.addr_sign=bits, permute.wave64_half=low" in out
    assert re.search(r"^\s+32\s.*line \d+ ds_bpermute_b32", out, re.M), out


def test_the_scan_mutant_names_the_mutated_dpp_add(tmp_path):
    """The README's mutant: row_mask:0xa -> 0xf on the DPP add after the
    permlanex16.  The wrong lane 16 of the scan is written by v_writelane
    from an SGPR that v_readlane read from lane 15; the counterexample
    follows that path back to the mutated add and names it."""
    text = atomic_kernel("gfx1100", 32)
    x, _, scan = atomic_registers(text)
    path = write(tmp_path, "m.s", mutate(text, "quad_perm:[0,1,2,3] row_mask:0xa", "quad_perm:[0,1,2,3] row_mask:0xf"))
    code, js, err = cli_json("asm", path, "--assert", f"{scan} == exclusive_add({x})")
    assert code == 1, err
    row = js["assertions"][0]["counterexample"]["lanes"][0]
    assert row["lane"] == 16
    assert re.match(r"line \d+ v_add_nc_u32_dpp: v1\[15\] = v_add_nc_u32 of v2\[15\] and v1\[15\]$", row["responsible"])
    shown = list(reversed(row["trace"]))
    # (the path may go on before the add, through its input: the permlanex16 and the row_shr:8 add)
    k = next(i for i, s in enumerate(shown) if "quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf" in s)
    assert re.fullmatch(r"line \d+ \(v_readlane_b32 s\d+, v1, 15\): s\d+ <- v1\[15\]", shown[k + 2])
    assert re.fullmatch(rf"line \d+ \(v_writelane_b32 {scan}, s\d+, 16\): {scan}\[16\] <- s\d+ = 0x110", shown[k + 3])
