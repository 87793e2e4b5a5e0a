"""A target is one row of verify/target.py: no other module tests a
generation number, a family label or a CPU-name prefix, and a new row (here
gfx1250, which LLVM 22 knows and verify does not model) reaches every
consumer (lowering proofs, `verify tv`'s RUN lines and calling convention,
the synthesis cost model, the emitter) without another line of code.

The gfx1250 row below is a demonstration, not a claim about gfx1250: it
reuses GFX12's features, and the real target would need its own rows for
what differs (LLVM 22 spells the return `s_set_pc_i64` there, for one)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from verify import target as T

ROOT = Path(__file__).resolve().parent.parent
TARGET_ATTRS = {"gen", "family", "arch"}
NAMEISH = {"name", "llvm_cpu", "family", "arch"}


def _str_consts(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _str_consts(e)]
    return []


def offences(path: Path, source: str | None = None) -> list[str]:
    """Where a module outside target.py branches on what a target is called
    rather than on what it has."""
    out: list[str] = []
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and node.attr == "gen":
            out.append(f"{where}: reads a target's generation number")
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            named = any(isinstance(s, ast.Attribute) and s.attr in NAMEISH for s in sides)
            gfx = any(c.lower().startswith(("gfx", "rdna", "cdna", "gcn")) for s in sides for c in _str_consts(s))
            if named and gfx:
                out.append(f"{where}: compares a target's name with a literal")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "startswith"
                and any(c.lower().startswith(("gfx", "rdna", "cdna")) for a in node.args for c in _str_consts(a))):
            out.append(f"{where}: tests a CPU-name prefix")
    return out


@pytest.mark.slow
def test_no_module_tests_a_generation_or_a_cpu_name() -> None:
    found = [o for p in sorted((ROOT / "verify").rglob("*.py")) if p.name != "target.py" for o in offences(p)]
    assert found == []


def test_the_checker_sees_each_kind_of_offence() -> None:
    src = ("def f(t):\n    a = t.gen >= 11\n    b = t.llvm_cpu in ('gfx942', 'gfx950')\n"
           "    c = t.name.startswith('gfx12')\n    return a, b, c\n")
    assert sorted(offences(Path("probe.py"), src)) == [
        "probe.py:2: reads a target's generation number", "probe.py:3: compares a target's name with a literal",
        "probe.py:4: tests a CPU-name prefix"]


@pytest.fixture
def gfx1250(monkeypatch: pytest.MonkeyPatch) -> T.Target:
    """The one row: GFX12's features, wave32 and wave64, as `_mk` writes rows."""
    (row,) = T._mk(["gfx1250"], 12, "GFX12.5", "demo", (32, 64), set(T.TARGETS["gfx1200"].features))
    monkeypatch.setitem(T.TARGETS, "gfx1250", row)
    monkeypatch.setattr(T, "ORDER", [*T.ORDER, "gfx1250"])
    return row


def test_a_new_row_reaches_every_consumer(gfx1250: T.Target) -> None:
    from verify.emit import hip
    from verify.lowering_file import load_lowering
    from verify.refine import prove_one
    from verify.synth.cost import model_for
    from verify.tv.check import first_sgpr_arg
    from verify.tv.runlines import Instance, parse_run

    assert T.get("gfx1250") is gfx1250 and gfx1250.default_wave == 32
    low = load_lowering("<row>", "; @spec cuda.shfl_xor mask=1 width=32\n; @targets gfx1250\n; @waves 32\n"
                        "; @exec full\n; @input x = v0\n; @output out = v1\n"
                        "v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n")
    assert low.targets == ["gfx1250"]
    result, _ = prove_one(low, gfx1250, 32)
    assert result.verdict == "proved"
    inst = parse_run("f.ll", 1, "llc -mtriple=amdgcn -mcpu=gfx1250 < %s | FileCheck %s", "")
    assert isinstance(inst, Instance) and inst.target is gfx1250 and inst.wave == 32
    assert first_sgpr_arg(gfx1250) == 0
    assert model_for(gfx1250).name == "rdna"
    assert "--offload-arch=gfx1250 with -mwavefrontsize64" in hip(low, gfx1250, 64, [])


def test_real_true16_turns_the_16_bit_halves_on_and_off_where_the_processor_has_them():
    """[S:true16-mattr]: llvm-mc-22 takes v_mov_b16_e32 v0.l, v1.l on gfx1200
    only with +real-true16, on gfx1100 unless -real-true16, on gfx1030 never."""
    from verify.target import get
    from verify.tv.runlines import parse_run

    assert not get("gfx1200").has("mov_b16") and get("gfx1200").with_llvm_attrs(["+real-true16"]).has("mov_b16")
    assert get("gfx1100").has("mov_b16") and not get("gfx1100").with_llvm_attrs(["-real-true16"]).has("mov_b16")
    assert get("gfx1030").with_llvm_attrs(["+real-true16"]) == get("gfx1030")
    assert get("gfx1200").with_llvm_attrs(["+wavefrontsize64", "+xnack"]) is get("gfx1200")
    ins = parse_run("f.ll", 1, "llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+real-true16 < %s", "")
    assert ins.target.name == "gfx1200" and ins.target.has("mov_b16") and ins.mattr == ("+real-true16",)
