"""v_permlane64_b32 in wave32: the ISA's no-operation against LLVM's reading
(the value unchanged) is the assumption `permlane64.wave32`, which the
instruction asks and `verify tv` names in a verdict's scope.  [S:permlane64]"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli, cli_json, simulate

from verify.assume import ASSUMPTIONS

CORPUS = Path(__file__).parent / "tv"
SRC = [0x100 + i for i in range(64)]


def test_the_assumption_and_its_default():
    a = ASSUMPTIONS["permlane64.wave32"]
    assert (a.default, sorted(a.variants), a.source) == ("nop", ["copy", "nop"], "S:permlane64")


@pytest.mark.parametrize(("variant", "want"), [("nop", [7] * 32), ("copy", [0x100 + i if i % 2 else 7
                                                                            for i in range(32)])])
def test_wave32_nop_keeps_the_destination_copy_copies_active_lanes(variant, want):
    m = simulate(["v_permlane64_b32 v1, v0"], "gfx1100", 32, 0xAAAAAAAA, {"v0": SRC[:32], "v1": 7},
                 {"permlane64.wave32": variant})
    assert m.v(1) == want and m.assumptions_used == {"permlane64.wave32": variant}


def test_wave64_swaps_halves_and_asks_nothing():
    m = simulate(["v_permlane64_b32 v1, v0"], "gfx1100", 64, (1 << 64) - 1, {"v0": SRC})
    assert m.v(1) == [0x100 + (i ^ 32) for i in range(64)] and m.assumptions_used == {}


def tv(*extra: str) -> tuple[int, str, str]:
    return cli("tv", str(CORPUS / "permlane64_add.ll"), "--target", "gfx1100", "--wave", "32", *extra)


@pytest.mark.slow
def test_tv_wave32_verdict_depends_on_the_assumption():
    """LLVM reads v_permlane64_b32's result in wave32: refuted under the ISA's
    no-operation (the default), proved under `copy`, and --robust refutes."""
    code, out, _ = tv()
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("permlane64_add on gfx1100 wave32 (llvmlite): refuted")
    assert lines[1] == "  for gfx1100 wave32 under exec=any, assumptions: permlane64.wave32=nop"
    code, out, _ = tv("--assume", "permlane64.wave32=copy")
    assert code == 0 and out.splitlines()[1:] == [
        "  for gfx1100 wave32 under exec=any, assumptions: permlane64.wave32=copy",
        "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported"]
    code, out, _ = tv("--robust")
    lines = out.splitlines()
    assert code == 1 and lines[1:4] == ["  for gfx1100 wave32 under exec=any, assumptions: permlane64.wave32=nop",
                                        "  refuted  under permlane64.wave32=nop (the defaults)",
                                        "  proved   under permlane64.wave32=copy"]
    code, js, _ = cli_json("tv", str(CORPUS / "permlane64_add.ll"), "--target", "gfx1100", "--wave", "32",
                           "--assume", "permlane64.wave32=copy")
    r = js["results"][0]
    assert (r["verdict"], r["scope"], r["exec"], r["assumptions"]) == (
        "proved", "gfx1100 wave32 under exec=any, assumptions: permlane64.wave32=copy", "any",
        {"permlane64.wave32": "copy"})


def test_tv_kernel_scope_names_the_dispatch_contract():
    code, out, _ = cli("tv", str(CORPUS / "kernel_readfirstlane.ll"), "--target", "gfx1100", "--wave", "32")
    assert code == 0 and out.splitlines()[1] == "  for gfx1100 wave32 under exec=dispatch, assumptions: kernel.entry_exec=prefix"


def test_tv_robust_proved_names_every_variant():
    code, out, _ = cli("tv", str(CORPUS / "hip_shfl_xor_5_w16.ll"), "--target", "gfx1100", "--wave", "32", "--robust")
    assert code == 0 and out.splitlines()[1] == ("  for gfx1100 wave32 under exec=any, assumptions: every variant of "
                                                 "permute.addr_sign")
