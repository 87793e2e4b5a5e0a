"""Two-input mask steps on a cause's path (issue #34): an `s_xor` or an
`s_andn2_saveexec` (`s_and_not1_saveexec`) whose inputs no bitwise rule
tells apart is decided against the run that gives the value wanted (the
replay with the storing lane's compare the other way): the input that
differs there is followed; where both do and one was computed from the
other, the one both come from; else one line says why neither is."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import cli

from verify.explain import _decide_input

LLC = shutil.which("llc-22") is not None

# a divergent if/else: the t path stores to global memory, the f path to the LDS
IR = """\
define void @pf(ptr addrspace(1) %p, ptr addrspace(3) %q, i32 %c, i32 %a, i32 %b) {
entry:
  %cc = icmp eq i32 %c, 7
  br i1 %cc, label %t, label %f
t:
  %x = add i32 %a, 5
  store i32 %x, ptr addrspace(1) %p
  br label %j
f:
  %y = add i32 %b, 2
  store i32 %y, ptr addrspace(3) %q
  br label %j
j:
  ret void
}
"""


def _mutant(tmp_path: Path, ir: str, old: str, new: str) -> tuple[Path, Path, list[str], int]:
    ll = tmp_path / "f.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    lines = asm.splitlines()
    assert lines.count(f"\t{old}") == 1, asm
    at = lines.index(f"\t{old}")
    lines[at] = f"\t{new}"
    bad = tmp_path / "m.s"
    bad.write_text("\n".join(lines) + "\n")
    return ll, bad, lines, at + 1


@pytest.mark.skipif(not LLC, reason="llc-22 not installed")
def test_a_lane_let_into_the_else_path_is_traced_through_s_and_not1_saveexec_to_the_compare(tmp_path):
    """llc-22: `s_mov_b32 s0, exec_lo`, `v_cmpx_ne_u32_e32 7, v3`, `s_xor_b32
    s0, exec_lo, s0`, then the t path under `s_and_not1_saveexec_b32 s0,
    s0` (EXEC = s0 & ~EXEC).  The compare made `6, v3` lets the lane with
    c = 6 store %a + 5 at %p.  Both inputs of the s_and_not1_saveexec
    differ from the replay with the lane's compare the other way (which
    stores nothing there, as the IR); s0 is the s_xor of exec_lo, so
    exec_lo is followed, to the v_cmpx (the path used to stop at the
    s_and_not1_saveexec, both inputs being possible)."""
    ll, bad, lines, at = _mutant(tmp_path, IR, "v_cmpx_ne_u32_e32 7, v3", "v_cmpx_ne_u32_e32 6, v3")
    assert lines[at] == "\ts_xor_b32 s0, exec_lo, s0", lines[at - 2:at + 4]
    sv = lines.index("\ts_and_not1_saveexec_b32 s0, s0") + 1
    st = lines.index("\tglobal_store_b32 v[0:1], v2, off") + 1
    code, js, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad), "--json")
    assert code == 1, js
    c = json.loads(js)["results"][0]["counterexample"]
    row = next(r for r in c["lanes"] if r.get("differs"))
    i = row["lane"]
    assert row["expected_from"] == "no store", row
    assert c["cause"].startswith(f"line {at} v_cmpx_ne_u32_e32: exec_lo = 0x0 -> line {sv} s_and_not1_saveexec_b32: "
                                 f"EXEC bit {i} = 1, a correct program would hold 0 -> line {st} global_store_b32: "
                                 f"lane {i} stores at "), c["cause"]
    assert (f"line {sv} s_and_not1_saveexec_b32: of its inputs (s0 = 0x{1 << i:x}, exec_lo = 0x0), both differ from "
            f"the run that gives the value wanted, and s0 is computed from exec_lo (line {at + 1} s_xor_b32): "
            "exec_lo followed") in row["trace"], row["trace"]


@pytest.mark.skipif(not LLC, reason="llc-22 not installed")
def test_a_lane_kept_out_of_a_store_names_the_compare(tmp_path):
    """Both paths store to global memory (%p, %q): the compare made `6,
    v4` keeps the lane with c = 6 out of the f path's store, which then
    runs with EXEC zero (or not at all).  The IR's lane stores at %q,
    the GPU's nothing: replayed with the lane's compare the other way the
    GPU stores the IR's word, so the v_cmpx is named (the row used to name
    the store instruction alone)."""
    ir = IR.replace("ptr addrspace(3) %q", "ptr addrspace(1) %q")
    ll, bad, _, at = _mutant(tmp_path, ir, "v_cmpx_ne_u32_e32 7, v4", "v_cmpx_ne_u32_e32 6, v4")
    code, js, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad), "--json")
    assert code == 1, js
    c = json.loads(js)["results"][0]["counterexample"]
    mem = c["memory"]
    if mem["gpu"] == "0x0" and mem["ir"] != "0x0":  # (the word at %q: the IR's lane stores, the GPU's does not)
        row = next(r for r in c["lanes"] if r.get("differs"))
        assert c["cause"] == (f"line {at} v_cmpx_ne_u32_e32: lane {row['lane']}'s result in error (EXEC): the other "
                              f"way the GPU stores the value wanted, {mem['ir']}"), c
    else:  # (the word at %p: the GPU's lane stores where the IR's does not)
        assert c["cause"].startswith(f"line {at} v_cmpx_ne_u32_e32: "), c


def _step(k: int, text: str, writes: list[str], line: int) -> SimpleNamespace:
    from verify.asmcheck import parse_line
    from verify.diag import Span
    ins = parse_line(text, Span("t.s", line, 1))
    return SimpleNamespace(index=k, instr=ins, events={(r, None): None for r in writes})


def test_an_s_xor_input_is_decided_by_the_run_that_gives_the_value_wanted():
    """explain._decide_input on `s_xor_b32 s2, s0, s1`: the input whose
    writer left other bits in the reference run is followed; the same
    when both differ and one is computed from the other; neither, with
    one line, where none differs, both differ apart, or no run is given."""
    trace = [_step(0, "s_mov_b32 s0, 5", ["s0"], 1), _step(1, "s_mov_b32 s1, 3", ["s1"], 2),
             _step(2, "s_xor_b32 s2, s0, s1", ["s2"], 3)]
    pair = [("s0",), ("s1",)]
    read = {"s0": 0x5, "s1": 0x3}
    ref_s1 = {(0, "s0"): 0x5, (1, "s1"): 0x2}  # the run that gives the value wanted: s1's bit 0 differs

    def ref(vals: dict[tuple[int, str], int]):  # type: ignore[no-untyped-def]
        return lambda j, regs: vals.get((j, regs[0]))
    pick, note = _decide_input(trace, 2, pair, 0x1, read, ref(ref_s1))  # type: ignore[arg-type]
    assert pick == (("s1",), 0x1, False), pick
    assert note == ("line 3 s_xor_b32: of its inputs (s0 = 0x5, s1 = 0x3), s1 differs from the run that gives the "
                    "value wanted, s0 does not: s1 followed"), note
    pick, note = _decide_input(trace, 2, pair, 0x1, read, ref({(0, "s0"): 0x5, (1, "s1"): 0x3}))  # type: ignore[arg-type]
    assert pick is None and note.endswith("neither input (s0 = 0x5, s1 = 0x3) differs from the run that gives the "
                                          "value wanted on the bits in error; neither is followed"), note
    pick, note = _decide_input(trace, 2, pair, 0x1, read, ref({(0, "s0"): 0x4, (1, "s1"): 0x2}))  # type: ignore[arg-type]
    assert pick is None and "from separate computations; neither is followed" in note, note
    pick, note = _decide_input(trace, 2, pair, 0x1, read, None)  # type: ignore[arg-type]
    assert pick is None and note == ("line 3 s_xor_b32: either input (s0 = 0x5, s1 = 0x3) may carry the wrong bits; "
                                     "no run gives the value wanted to tell which"), note
    # s1 computed from s0 (`s_not_b32 s1, s0`), both differing: s0, the one both come from, is followed
    trace[1] = _step(1, "s_not_b32 s1, s0", ["s1"], 2)
    pick, note = _decide_input(trace, 2, pair, 0x1, {"s0": 0x5, "s1": 0xFFFFFFFA},  # type: ignore[arg-type]
                               ref({(0, "s0"): 0x4, (1, "s1"): 0xFFFFFFFB}))
    assert pick == (("s0",), 0x1, False) and "s1 is computed from s0 (line 2 s_not_b32): s0 followed" in note, note
