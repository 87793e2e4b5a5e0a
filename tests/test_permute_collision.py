"""ds_permute_b32 collisions: several active lanes push to one lane.  The
GCN3 article says the highest sender wins; the RDNA3/RDNA4 ISA says the
winner is not deterministic, CDNA leaves it to LDS arbitration.  Assumption
``permute.collision``: ``highest`` (default) or ``any``.  [S:permute]"""

import json
import re

import pytest
from helpers import cli, cli_json, simulate

from verify import catalog

HEADER = """; {name}
;
; @spec     lane.map src="{src}" width=64
; @targets  gfx9, gfx11, gfx12
; @waves    64
; @exec     full
; @input    x = v0
; @output   out = v1
; @clobbers v2, v3
v_mbcnt_lo_u32_b32 v2, -1, 0
v_mbcnt_hi_u32_b32 v2, -1, v2
"""

# lanes 2k and 2k+1 both push to lane 2k+1 (a collision), then every lane pulls lane i | 1
COLLIDE = HEADER.format(name="collide", src="i | 1") + """v_or_b32_e32 v2, 1, v2
v_lshlrev_b32_e32 v3, 2, v2
ds_permute_b32 v1, v3, v0
s_waitcnt lgkmcnt(0)
ds_bpermute_b32 v1, v3, v1
s_waitcnt lgkmcnt(0)
"""

# lane i pushes to lane i ^ 1: a permutation, no collision
SWAP = HEADER.format(name="swap", src="i ^ 1") + """v_xor_b32_e32 v2, 1, v2
v_lshlrev_b32_e32 v3, 2, v2
ds_permute_b32 v1, v3, v0
s_waitcnt lgkmcnt(0)
"""


def write(tmp_path, name, text):
    p = tmp_path / f"{name}.s"
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("target", ["gfx900", "gfx1100", "gfx1200"])
def test_collision_proved_under_highest_refuted_under_any(tmp_path, target):
    path = write(tmp_path, "collide", COLLIDE)
    code, js, err = cli_json("lowering", path, "--target", target)
    assert code == 0, err
    assert js["results"][0]["assumptions"]["permute.collision"] == "highest"
    code, out, err = cli("lowering", path, "--target", target, "--assume", "permute.collision=any")
    assert code == 1, out + err
    assert "assumptions: permute.collision=any" in out
    # the counterexample names the collision, the colliding lanes and the winner it picked
    assert re.search(r"line 14 ds_permute_b32: v1\[\d+\] = v0\[\d+\]: a collision, lanes \d+, \d+ send to lane \d+ "
                     r"and lane \d+ wins \(permute\.collision=any: any sender may win\)", out), out


def test_robust_says_the_verdict_relies_on_the_winner(tmp_path):
    path = write(tmp_path, "collide", COLLIDE)
    code, js, _ = cli_json("lowering", path, "--target", "gfx900", "--robust")
    assert code == 1
    r = js["results"][0]
    by = {tuple(sorted(v["assumptions"].items())): v["verdict"] for v in r["variants"]}
    assert by == {(("permute.collision", "highest"),): "proved", (("permute.collision", "any"),): "refuted"}
    assert r["assumptions"] == {"permute.collision": "any"}
    code, out, _ = cli("lowering", path, "--target", "gfx1100", "--robust")
    assert code == 1
    assert re.search(r"proved\s+under permute.collision=highest, permute.wave64_half=own \(the defaults\)", out), out
    assert re.search(r"refuted\s+under permute.collision=any, permute.wave64_half=own\n", out), out
    assert "the verdict depends on an unsettled behaviour" in out


@pytest.mark.parametrize("variant", ["highest", "any"])
def test_a_permutation_proves_under_both(tmp_path, variant):
    path = write(tmp_path, "swap", SWAP)
    code, js, err = cli_json("lowering", path, "--assume", f"permute.collision={variant}")
    assert code == 0, err
    # no two lanes can send to one lane: the assumption is not consulted
    assert all("permute.collision" not in r["assumptions"] for r in js["results"])
    # (on gfx11, permute.wave64_half=low maps lanes i and i + 32 to one lane: a real collision)
    code, js, err = cli_json("lowering", path, "--robust", "--target", "gfx900")
    assert code == 0 and js["results"][0]["assumptions"] == {}, err


def test_symbolic_addresses_consult_the_assumption(tmp_path):
    """A pushed address from an input may collide: `any` refutes a claim
    that a lane's own value arrives when another lane may send there too."""
    text = """; addr
;
; @spec     lane.map src="i" width=32
; @targets  gfx11
; @waves    32
; @exec     full
; @input    x = v0, a = v3
; @output   out = v1
ds_permute_b32 v1, v3, v0
s_waitcnt lgkmcnt(0)
"""
    code, js, _ = cli_json("lowering", write(tmp_path, "addr", text), "--robust")
    assert code == 1  # refuted in every variant (the address is arbitrary) and the assumption is asked
    assert "permute.collision" in js["results"][0]["assumptions"]


def test_concrete_runs_are_deterministic():
    """A concrete run takes the winner from the unknown's value like any other
    input: the sender it names, else the highest.  Under `highest` the
    unknown does not exist."""
    lines = ["ds_permute_b32 v1, v3, v0"]
    regs = {"v0": list(range(100, 132)), "v3": 0}  # every lane sends to lane 0
    m = simulate(lines, "gfx1100", 32, 0xFFFFFFFF, regs, {"permute.collision": "highest"})
    assert m.vregs[1] == [131] + [0] * 31 and m.assumptions_used == {"permute.collision": "highest"}
    pick = "v1@1(ds_permute collision winner)"
    for value, winner in ((5, 5), (0, 0), (40, 31), (0xFFFFFFFF, 31)):
        m = simulate(lines, "gfx1100", 32, 0xFFFFFFFF, dict(regs, **{pick: value}), {"permute.collision": "any"})
        assert m.vregs[1] == [100 + winner] + [0] * 31, value
        assert m.assumptions_used == {"permute.collision": "any"}
    # only lanes 3 and 9 active: lane 3 or 9 may win, never an inactive lane
    m = simulate(lines, "gfx1100", 32, (1 << 3) | (1 << 9), dict(regs, **{pick: 4}), {"permute.collision": "any"})
    assert m.vregs[1][3] == 0 and m.vregs[1][9] == 0  # lane 0 is inactive: not written (reads 0 from regs)
    m = simulate(lines, "gfx1100", 32, 1 | (1 << 3) | (1 << 9), dict(regs, **{pick: 3}), {"permute.collision": "any"})
    assert m.vregs[1][0] == 103


def test_catalogue_permute_lowerings_under_any():
    """Every catalogue lowering using ds_permute_b32 keeps its verdict under
    permute.collision=any, or is listed here as relying on the winner."""
    relies_on_winner: set[str] = set()
    paths = [str(p) for p in catalog.lowering_files() if "ds_permute_b32" in p.read_text()]
    for path in paths:
        c0, _, _ = cli("lowering", path)
        c1, _, _ = cli("lowering", path, "--assume", "permute.collision=any")
        assert (c0 != c1) == (path in relies_on_winner), path


def test_catalogue_lowerings_that_rely_on_the_winner():
    """Issue 11's done-when: the catalogue is proved under the robust
    permute-collision variant or says which lowerings rely on the winner.
    The proof records list every assumption a run consulted; none consults
    permute.collision (no catalogue lowering pushes with ds_permute_b32), so
    every verdict holds under `any` as under `highest`."""
    # a lowering whose record consults the assumption must be checked under
    # `--assume permute.collision=any` and, if refuted there, named here
    consulted, bpermute = set(), set()
    for rec_path in sorted((catalog.ROOT / "proofs").rglob("*.proof")):
        rec = json.loads(rec_path.read_text())
        for r in rec["records"]:
            if "permute.collision" in r["assumptions"]:
                consulted.add(rec["lowering"])
            if "ds_bpermute_b32" in r["ops"]:
                bpermute.add(rec["lowering"])
    assert sorted(consulted) == []
    assert [str(p) for p in catalog.lowering_files() if "ds_permute_b32" in p.read_text()] == []
    # the records do name the ops and assumptions they consulted: the pulling shuffles are there
    assert "lowerings/shuffle/shfl_idx_var.s" in bpermute and len(bpermute) > 10
