"""Exit codes, written once (verify.commands.EXIT_HELP) and equal in every
command (issue #34): 0 proved, 1 refuted, 2 input error, 3 unknown, 4
unsupported, 5 internal error (a bug, never a verdict); `--help` prints the table
and docs/ci.md quotes it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import cli

from verify.commands import EXIT, EXIT_HELP, EXIT_INTERNAL, worst
from verify.tv.tree import verdict_code

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ["lowering", "prove", "check", "asm", "tv", "synth", "emit", "show", "list", "specs", "targets"]


def test_the_table_names_each_code_once():
    assert EXIT == {"proved": 0, "refuted": 1, "error": 2, "unknown": 3, "unsupported": 4}
    for code in range(6):
        assert sum(line.startswith(f"  {code}  ") for line in EXIT_HELP.splitlines()) == 1


def test_an_internal_error_exits_5_with_its_traceback(monkeypatch):
    import verify.cli as C

    def boom(args, out, err):
        raise AssertionError("replay did not fail")

    monkeypatch.setattr(C, "command", lambda name: boom)
    code, out, err = cli("lowering", "lowerings/xor5.s")
    assert code == EXIT_INTERNAL == 5 and out == ""
    assert "AssertionError: replay did not fail" in err
    assert err.rstrip().endswith("error: internal error in verify (exit 5): please report it with the traceback above")


def test_docs_quote_the_table():
    assert f"```\n{EXIT_HELP}\n```" in (ROOT / "docs/ci.md").read_text()


@pytest.mark.parametrize("cmd", COMMANDS)
def test_every_command_help_prints_the_table(cmd, capsys):
    with pytest.raises(SystemExit) as e:
        cli(cmd, "--help")
    assert e.value.code == 0
    assert EXIT_HELP in capsys.readouterr().out


def test_several_results_take_the_first_of_1_2_3_4():
    assert worst([0, 4, 3]) == 3
    assert worst([4, 2, 1]) == 1
    assert worst([0, 0]) == 0
    assert verdict_code({"proved", "unsupported"}) == 4
    assert verdict_code({"unsupported", "unknown"}) == 3
    assert verdict_code({"unsupported", "error"}) == 2
    assert verdict_code({"compiler error", "error"}) == 1
    assert verdict_code({"proved", "not codegen"}) == 0


def test_tv_unsupported_is_4_and_bad_input_2(tmp_path):
    if shutil.which("llc-22") is None:
        pytest.skip("llc-22 not installed")
    p = tmp_path / "d.ll"
    p.write_text("define i32 @f(i32 %x, i32 %y) {\n  %q = udiv i32 %x, %y\n  ret i32 %q\n}\n")
    code, out, _ = cli("tv", str(p), "--target", "gfx1100", "--wave", "32", "--llc", "llc-22")
    assert code == 4 and out.splitlines()[0] == "f on gfx1100 wave32 (llc-22): unsupported"
    p.write_text("define i32 @f(i32 %x) {\n  %y = add i32 %x\n  ret i32 %y\n}\n")
    code, out, err = cli("tv", str(p), "--target", "gfx1100", "--llc", "llc-22")
    assert (code, out) == (2, "") and ": error: " in err


def test_asm_region_in_a_loop_is_unsupported_beside_a_proof(tmp_path):
    head = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n\t.text\n"
    xor1 = ("\tv_mbcnt_lo_u32_b32 v1, -1, 0\n\tv_xor_b32_e32 v1, 1, v1\n\tv_lshlrev_b32_e32 v1, 2, v1\n"
            "\tds_bpermute_b32 v0, v1, v0\n\ts_waitcnt lgkmcnt(0)\n")
    text = (head + "f:\n.LBB0_1:\n" + xor1 + "\ts_add_u32 s4, s4, -1\n\ts_cbranch_scc1 .LBB0_1\n"
            "\ts_setpc_b64 s[30:31]\n.Lfunc_end0:\ng:\n\ts_mov_b32 s4, 1\n" + xor1 + "\ts_setpc_b64 s[30:31]\n")
    p = tmp_path / "two.s"
    p.write_text(text)
    code, out, _ = cli("asm", str(p), "--exec", "0xffffffff", "--assert", "v0 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 4, out
    assert "two.s: f: refused: line" in out and "  proved " in out
