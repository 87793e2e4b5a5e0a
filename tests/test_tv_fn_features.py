"""A function's own "target-features" on RUN-line instances: the RUN line's
-mattr is appended after them, so it wins on a conflict and the function's
attribute decides what the RUN line leaves open  [S:fn-target-features]."""
from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from verify.target import get
from verify.tv.check import check_file
from verify.tv.compile import by_llc
from verify.tv.features import append_features, function_target

FILE = Path(__file__).parent / "tv" / "llvm-shape" / "breadth2_fn_features.ll"
LLC = shutil.which("llc-22")


def fn(features: str) -> SimpleNamespace:
    return SimpleNamespace(attrs={"target-features": features} if features else {})


@pytest.mark.parametrize(("cpu", "mattr", "own", "true16"), [
    ("gfx1200", (), "+real-true16", True),  # the RUN line is silent: the function decides
    ("gfx1200", (), "", False),  # GFX12's default
    ("gfx1100", (), "-real-true16", False),
    ("gfx1100", ("+real-true16",), "-real-true16", True),  # the RUN line wins
    ("gfx1200", ("-real-true16",), "+real-true16", False),
    ("gfx1030", (), "+real-true16", False),  # no 16-bit halves before GFX11
])
def test_the_function_decides_what_the_run_line_leaves_open(cpu: str, mattr: tuple[str, ...], own: str,
                                                            true16: bool) -> None:
    t = get(cpu).with_llvm_attrs(mattr)
    assert function_target(t, mattr, fn(own)).has("mov_b16") is true16


def test_llvmlite_gets_the_target_machine_features_appended_as_llc_does() -> None:
    text = 'attributes #0 = { "target-features"="+real-true16" }\nattributes #1 = { "target-features"="+wavefrontsize64" }\n'
    got = append_features(text, ["+wavefrontsize32", "-real-true16"])
    assert '"target-features"="+real-true16,+wavefrontsize32,-real-true16"' in got
    assert '"target-features"="+wavefrontsize64,-real-true16"' in got  # its own wave size stays


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_a_wrong_true16_add_is_refuted_under_the_functions_own_features() -> None:
    text = FILE.read_text()
    asm = by_llc("llc-22", str(FILE), text, get("gfx1200"), 32)
    good = "v_add_nc_u16 v0.l, v0.l, v1.l"
    assert good in asm  # the function's +real-true16 decides on a gfx1200 RUN line without -mattr
    (ok,) = check_file(str(FILE), text, ["gfx1200"], 32, [], ["add_i16_true16"], asm=("a.s", asm))
    assert ok.verdict == "proved"
    bad = asm.replace(good, "v_add_nc_u16 v0.l, v0.l, v0.l")
    (r,) = check_file(str(FILE), text, ["gfx1200"], 32, [], ["add_i16_true16"], asm=("a.s", bad))
    assert r.verdict == "refuted"


def test_llvmlite_keeps_the_wave_size_of_a_function_with_its_own_features() -> None:
    from verify.tv.compile import by_llvmlite
    text = ('define i64 @f(i32 %a) #0 {\n  %c = icmp eq i32 %a, 0\n'
            '  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %c)\n  ret i64 %b\n}\n'
            'declare i64 @llvm.amdgcn.ballot.i64(i1)\nattributes #0 = { "target-features"="+real-true16" }\n')
    cmp = [ln.split()[1].rstrip(",") for ln in by_llvmlite(text, get("gfx1100"), 64).splitlines() if "v_cmp_" in ln]
    assert cmp == ["vcc"]  # a wave64 mask (without the appended +wavefrontsize64: s0, a wave32 one)
