"""A compare as the cause of a returned value in divergent code (issue
#34): where a `v_cmp` + `s_and_saveexec` sends one lane down the other
path, no branch can be replayed the other way for that lane alone; the
lane's compare result flipped in a replay names the compare (the memory
form: tests/test_kernel_store_pairs.py)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from helpers import cli

pytestmark = pytest.mark.skipif(shutil.which("llc-22") is None, reason="llc-22 not installed")


def _ir() -> str:
    body, prev = [], "%a"
    for i in range(1, 7):  # (an arm long enough that llc-22 branches rather than selects)
        body += [f"  %m{i} = mul i32 {prev}, %b", f"  %x{i} = xor i32 %m{i}, {i * 3}"]
        prev = f"%x{i}"
    return ("define i32 @rf(i32 %c, i32 %a, i32 %b) {\nentry:\n  %cc = icmp eq i32 %c, 7\n"
            "  br i1 %cc, label %t, label %f\nt:\n" + "\n".join(body) + "\n  br label %j\nf:\n  %y = add i32 %b, 3\n"
            f"  br label %j\nj:\n  %r = phi i32 [ {prev}, %t ], [ %y, %f ]\n  ret i32 %r\n}}\n")


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.slow
def test_a_divergent_compare_that_sends_a_lane_down_the_other_path_of_a_result_is_named(tmp_path, wave):
    """`%c == 7 ? six mul/xor of %a, %b : %b + 3`, returned: llc-22
    computes `v_cmp_ne_u32_e32 vcc, 7, v0` and runs each arm under EXEC.
    The compare made `6, v0` sends the lane with c = 6 down the long arm;
    replayed with that lane's compare result the other way, the GPU
    returns the IR's value: the v_cmp is named (the trace used to stop at
    the arm's last v_xor)."""
    ir = _ir()
    ll = tmp_path / "f.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", f"-mattr=+wavefrontsize{wave}"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    lines = asm.splitlines()
    vcc = "vcc_lo" if wave == 32 else "vcc"
    at = lines.index(f"\tv_cmp_ne_u32_e32 {vcc}, 7, v0") + 1
    lines[at - 1] = f"\tv_cmp_ne_u32_e32 {vcc}, 6, v0"
    bad = tmp_path / "m.s"
    bad.write_text("\n".join(lines) + "\n")
    code, js, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", str(wave), "--asm", str(bad), "--json")
    assert code == 1, js
    c = json.loads(js)["results"][0]["counterexample"]
    row = next(r for r in c["lanes"] if r["differs"])
    lane = row["lane"]
    assert c["cause"] == (f"line {at} v_cmp_ne_u32_e32: lane {lane}'s result in error (its mask): the other way the "
                          f"GPU returns the value wanted, {row['expected']:#x}"), c
    assert row["trace"][-1] == (f"line {at} (v_cmp_ne_u32_e32 {vcc}, 6, v0): lane {lane}'s result in error (its "
                                "mask); the other way the code gives the value wanted"), row


def test_a_wrong_arm_is_not_blamed_on_the_compare(tmp_path):
    """The same function with the long arm's last constant changed (`v_xor
    v0, 18, v0` made 19) and the compare right: flipping the compare gives
    the other arm's value, not the IR's, so the compare is not named."""
    ir = _ir()
    ll = tmp_path / "f.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    lines = asm.splitlines()
    at = lines.index("\tv_xor_b32_e32 v0, 18, v0") + 1
    lines[at - 1] = "\tv_xor_b32_e32 v0, 19, v0"
    bad = tmp_path / "m.s"
    bad.write_text("\n".join(lines) + "\n")
    code, js, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad), "--json")
    assert code == 1, js
    c = json.loads(js)["results"][0]["counterexample"]
    assert c["cause"].startswith(f"line {at} v_xor_b32_e32: "), c
