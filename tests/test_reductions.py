"""Reductions and scans: specs, the monoid encoding against the naive one,
mutants, f32 claims."""

from pathlib import Path

import pytest
from helpers import cli, cli_json, simulate

from verify import catalog
from verify.lowering_file import load_lowering
from verify.refine import prove_one
from verify.target import get

GOLDEN = Path(__file__).parent / "golden"
OPS = ["add", "mul", "and", "or", "xor", "umin", "umax", "smin", "smax"]
IDENT = {"add": "0", "mul": "1", "and": "-1", "or": "0", "xor": "0", "umin": "-1", "umax": "0",
         "smin": "0x7fffffff", "smax": "0x80000000"}
VALU = {"add": "v_add_nc_u32", "and": "v_and_b32", "or": "v_or_b32", "xor": "v_xor_b32", "umin": "v_min_u32",
        "umax": "v_max_u32", "smin": "v_min_i32", "smax": "v_max_i32"}


def row_scan(op: str, wave: int, broken: bool = False) -> str:
    """A whole-wave row scan for a small wave (the naive encoding's range)."""
    lines = [f"; @spec red.scan_incl op={op} over=active", "; @targets gfx1100", "; @waves 32",
             "; @input x = v0", "; @output out = v1", "; @clobbers v3, v4, s0",
             "s_or_saveexec_b32 s0, -1", f"v_mov_b32_e32 v3, {IDENT[op]}", "v_cndmask_b32_e64 v1, v3, v0, s0"]
    for k in (1, 2, 4, 8)[: {8: 3, 16: 4}[wave]]:
        mask = "0x1" if broken and k == 2 else "0xf"
        if op == "mul":
            lines += [f"v_mov_b32_e32 v4, {IDENT[op]}", f"v_mov_b32_dpp v4, v1 row_shr:{k} row_mask:0xf bank_mask:{mask}",
                      "v_mul_lo_u32 v1, v1, v4"]
        else:
            lines.append(f"{VALU[op]}_dpp v1, v1, v1 row_shr:{k} row_mask:0xf bank_mask:{mask}")
    lines.append("s_mov_b32 exec_lo, s0")
    return "\n".join(lines) + "\n"


# min/max: the naive encoding needs ~4 s at 8 lanes and minutes at 16
CROSS = [(op, w) for op in OPS for w in ((8,) if op[1:] in ("min", "max") else (8, 16))]
# (the test is slow-tier; smax and umin, 9 s of CPU each, the corpus tier:
# smin and umax keep a signed and an unsigned order in CI)
CROSS = [pytest.param(op, w, marks=[pytest.mark.slow, pytest.mark.corpus]) if op in ("smax", "umin")
         else pytest.param(op, w, marks=pytest.mark.slow) if op[1:] in ("min", "max") or op == "mul" else (op, w)
         for op, w in CROSS]  # mul: 5-11 s a case (the naive encoding multiplies 32-bit lanes)


@pytest.mark.slow
@pytest.mark.parametrize("op, wave", CROSS)
def test_monoid_and_naive_encodings_agree(tmp_path, op, wave):
    """The fast encoding is exact: at small waves the naive bit-vector
    encoding gives the same verdicts, on a correct scan and on a mutant."""
    for broken in (False, True):
        p = tmp_path / f"{op}{wave}{broken}.s"
        p.write_text(row_scan(op, wave, broken))
        low = load_lowering(p)
        fast, _ = prove_one(low, get("gfx1100"), wave, timeout=120)
        naive, _ = prove_one(low, get("gfx1100"), wave, timeout=120, encoding="naive")
        assert "monoid" in fast.method and "bit-vector" in naive.method
        want = "refuted" if broken else "proved"
        assert fast.verdict == naive.verdict == want, (op, wave, broken, fast.verdict, naive.verdict)


MUTANTS = {
    "scan_add_gfx9_rowmask": "row_mask",
    "scan_umax_gfx9_bankmask": "bank_mask",
    "scan_umax_rdna_w64_noident": "identity",
    "scan_add_gcn3_commuted": "commuted",
    "reduce_add_gfx9_lane62": "readlane",
}


# the row_mask and missing-identity mutants (3.5 s together) run in the slow tier
SLOW_MUTANTS = {"scan_add_gfx9_rowmask", "scan_umax_rdna_w64_noident"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW_MUTANTS else [])
                                  for n in sorted(MUTANTS)])
@pytest.mark.slow
def test_mutants_are_refuted_with_counterexamples(name):
    code, js, err = cli_json("lowering", str(GOLDEN / "reductions" / f"{name}.s"))
    assert code == 1, err
    for r in js["results"]:
        assert r["verdict"] == "refuted"
        cex = r["counterexample"]
        assert cex["lanes"] and all(l["expected"] != l["actual"] for l in cex["lanes"])
        assert 1 <= len(cex["active_lanes"]) <= 2  # minimised


@pytest.mark.slow
def test_readlane_mutant_names_the_readlane():
    _, js, _ = cli_json("lowering", str(GOLDEN / "reductions" / "reduce_add_gfx9_lane62.s"))
    cex = js["results"][0]["counterexample"]
    assert cex["active_lanes"] == [63]
    assert cex["lanes"][0]["responsible"].startswith("line 27 (v_readlane_b32 s4, v1, 62)")


@pytest.mark.slow
def test_bank_mask_mutant_witness():
    _, js, _ = cli_json("lowering", str(GOLDEN / "reductions" / "scan_umax_gfx9_bankmask.s"))
    cex = js["results"][0]["counterexample"]
    assert cex["active_lanes"] == [0, 8]
    assert cex["inputs"]["v0"][0] == 0xFFFFFFFF  # the monoid witness: lane 0 at the top, lane 8 at identity
    assert cex["lanes"][0]["lane"] == 8 and "bank_mask" in cex["lanes"][0]["responsible"]


@pytest.mark.slow
def test_every_wave64_reduction_uses_the_monoid_encoding():
    """Every wave64 reduction of the catalogue was proved with the monoid
    encoding: its proof records say so (tests/test_repo.py checks every
    record current, re-proving any stale one), and a live proof of the
    first agrees.  (Their times: benchmarks/bench_reductions.py.)"""
    from verify import proofs
    from verify.target import resolve_all

    seen = []
    for p in catalog.lowering_files():
        low = load_lowering(p)
        if not low.spec.startswith("red.") or 64 not in low.waves or "tree" in low.spec:
            continue
        if low.spec.endswith("_u64"):
            continue  # 64-bit lanes (verify/wide.py) have no monoid encoding: proved per lane
        recs = proofs.load(proofs.record_file(p))
        assert recs is not None, p.name
        w64 = [r for r in recs["list"] if r["wave"] == 64]
        assert w64 and all("monoid(" in r["method"] for r in w64), (p.name, [r["method"] for r in w64])
        seen.append(low)
    assert len(seen) > 50
    r, _ = prove_one(seen[0], resolve_all(seen[0].targets)[0], 64)
    assert r.verdict == "proved" and "monoid" in r.method, (seen[0].name, r.method)


@pytest.mark.slow
def test_f32_exact_tree_vs_reassociation():
    code, js, _ = cli_json("lowering", "reduce_all_fadd_rowsfirst_w32", "--target", "gfx1100")
    assert code == 0 and js["results"][0]["scope"].endswith(
        "claim: reassociation: the same multiset of f32 summands as the spec, in any order and grouping, "
        "for inputs that are not NaN")
    code, js, _ = cli_json("lowering", str(GOLDEN / "reduce_all_fadd_rowsfirst_exact.s"), "--target", "gfx1100")
    r = js["results"][0]
    assert code == 1 and "claim: exact" in r["scope"]
    lanes = r["counterexample"]["lanes"]
    assert lanes and lanes[0]["expected"] != lanes[0]["actual"]
    code, js, _ = cli_json("lowering", "reduce_all_fadd_tree_w32", "--target", "gfx1200")
    assert code == 0 and "claim: exact" in js["results"][0]["scope"]


def test_exclusive_scan_puts_identity_first():
    _, js, _ = cli_json("show", "red.scan_excl", "op=smax", "--wave", "32")
    assert js["outputs"]["out"][:3] == [0x80000000, 0, 1]


def test_segmented_scan_restarts_at_heads():
    flags = [0] * 32
    flags[3] = flags[9] = 1
    _, js, _ = cli_json("show", "red.seg_scan", "op=add", "--wave", "32", "--input", "x=1",
                        "--input", "flags=" + ",".join(map(str, flags)))
    assert js["outputs"]["out"][:12] == [1, 2, 3, 1, 2, 3, 4, 5, 6, 1, 2, 3]


def test_reduce_over_all_lanes_is_undefined_with_an_inactive_lane():
    _, js, _ = cli_json("show", "red.reduce_all", "op=add", "width=8", "over=all", "--wave", "32", "--exec", "0xfffffffe")
    out = js["outputs"]["out"]
    assert out[1:8] == [None] * 7 and out[8] == sum(range(8, 16))


def test_gcn3_scan_over_all_lanes():
    x = list(range(1, 65))
    m = simulate(load_lowering(catalog.find_lowering("scan_add_gcn3")).program and
                 [l for l in catalog.find_lowering("scan_add_gcn3").read_text().splitlines() if l and not l.startswith(";")],
                 "gfx900", 64, (1 << 64) - 1, {"v0": x})
    assert m.v(1) == [sum(x[: i + 1]) for i in range(64)]


def test_a_computation_reading_an_inactive_lane_says_so():
    """The missing-identity mutant: lane 1's scan step reads lane 0, inactive
    at entry and never filled with the identity; the step-by-step says so."""
    code, out, _ = cli("lowering", str(GOLDEN / "reductions" / "scan_umax_rdna_w64_noident.s"), "--target", "gfx1030")
    assert code == 1
    assert ("line 14 (v_max_u32_dpp v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf): v1[1] = v_max_u32 of v1[0] "
            "and v1[1] (lane 0 inactive at entry)") in out
