"""The command line as a person meets it: the Summary line closing every
multi-proof command, the progress bar (a terminal only, never JSON), every
option's help, --target lists, --wave narrowing and `-` for standard input."""

from __future__ import annotations

import argparse
import fcntl
import io
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from helpers import cli, cli_json

from verify import summary
from verify.cli import build_parser
from verify.progress import REDRAW, Bar

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = "Summary: {} correct, {} incorrect, {} failed-to-prove, {} unsupported"
HEAD = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\n'
XOR1 = ("\tv_mbcnt_lo_u32_b32 v1, -1, 0\n\tv_xor_b32_e32 v1, s4, v1\n\tv_lshlrev_b32_e32 v1, 2, v1\n"
        "\tds_bpermute_b32 v0, v1, v0\n\ts_waitcnt lgkmcnt(0)\n")
CLAIM = "v0 == cuda.shfl_xor(v0, mask=1, width=32)"


# -- Summary -------------------------------------------------------------------------------


def test_summary_line_counts_each_kind_and_errors_only_when_there_are_some() -> None:
    n = summary.counts(["proved", "refuted", "refuted", "unknown", "unsupported"])
    assert summary.line(n) == SUMMARY.format(1, 2, 1, 1)
    n = summary.counts(["proved", "stale", "missing", None])
    assert n["errors"] == 3 and summary.line(n) == SUMMARY.format(1, 0, 0, 0) + ", 3 errors"
    assert summary.counts(["none"], {"none": "incorrect"})["incorrect"] == 1
    assert summary.counts(["skipped"], {"skipped": None}) == dict.fromkeys(summary.KINDS, 0)


def test_lowering_on_several_targets_ends_with_summary_and_json_counts() -> None:
    code, out, err = cli("lowering", "xor5", "--target", "gfx906,gfx942")
    assert code == 0, err
    assert out.splitlines()[-1] == SUMMARY.format(2, 0, 0, 0)
    assert "gfx906, gfx942 wave64" in out
    code, js, err = cli_json("lowering", "xor5", "--target", "gfx906,gfx942")
    assert js["counts"] == {"correct": 2, "incorrect": 0, "failed-to-prove": 0, "unsupported": 0, "errors": 0}
    assert "Summary" not in str(js["results"])


def test_one_proof_has_no_summary_line() -> None:
    code, out, err = cli("lowering", "xor5", "--target", "gfx942")
    assert code == 0 and "Summary" not in out


def test_a_refuted_lowering_counts_as_incorrect() -> None:
    code, out, err = cli("lowering", "tests/golden/xor5_plain.s", "--target", "gfx900,gfx906")
    assert code == 1
    assert out.splitlines()[-1] == SUMMARY.format(0, 2, 0, 0)


def test_asm_with_several_functions_ends_with_summary(tmp_path: Path) -> None:
    text = (HEAD + "a:\n\ts_mov_b32 s4, 1\n" + XOR1 + "\ts_endpgm\n.Lfunc_end0:\n"
            + "b:\n\ts_mov_b32 s4, 2\n" + XOR1 + "\ts_endpgm\n.Lfunc_end1:\n")
    path = tmp_path / "k.s"
    path.write_text(text)
    code, out, err = cli("asm", str(path), "--exec", "0xffffffff", "--assert", CLAIM)
    assert code == 1, err
    assert out.splitlines()[-1] == SUMMARY.format(1, 1, 0, 0)
    code, js, err = cli_json("asm", str(path), "--exec", "0xffffffff", "--assert", CLAIM)
    assert js["counts"]["correct"] == 1 and js["counts"]["incorrect"] == 1


@pytest.mark.slow
def test_check_ends_with_summary_and_json_carries_counts() -> None:
    code, out, err = cli("check", "lowerings/xor5.s")
    last = out.splitlines()[-1]
    assert last.startswith("Summary: ") and out.splitlines()[-2].startswith("check: 1 lowering")
    code, js, err = cli_json("check", "lowerings/xor5.s")
    n = js["counts"]
    assert sum(n.values()) == 8  # xor5 declares 8 targets, wave64
    assert last == summary.line(n)


# -- progress ------------------------------------------------------------------------------


def _openpty() -> tuple[int, int]:
    """A pseudo-terminal 80 columns wide (a new one has none: a bar would be empty)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    return master, slave


def _read_all(fd: int) -> bytes:
    data = b""
    while select.select([fd], [], [], 0.2)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data


@pytest.mark.slow
def test_the_bar_draws_on_a_terminal_once_its_delay_has_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFY_PROGRESS_DELAY", "0")
    master, slave = _openpty()
    try:
        with open(slave, "w", closefd=False) as tty:
            with Bar(tty, "check") as tick:
                tick(0, 3, "lowerings/xor5.s")
                tick(1, 3)
            assert b"check" in _read_all(master)
            monkeypatch.setenv("VERIFY_PROGRESS_DELAY", "3600")  # a run shorter than the delay: nothing
            with Bar(tty, "check") as tick:
                tick(0, 3, "lowerings/xor5.s")
                tick(3, 3)
            assert _read_all(master) == b""
            with Bar(tty, "check", enabled=False) as tick:  # --json
                tick(0, 3, "x")
            assert _read_all(master) == b""
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.slow
def test_a_run_that_reports_no_steps_still_shows_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFY_PROGRESS_DELAY", "0")
    master, slave = _openpty()
    try:
        with open(slave, "w", closefd=False) as tty, Bar(tty, "lowering", steps=False):
            time.sleep(2 * REDRAW)  # the redraw thread draws it
        assert b"\rlowering: 00:0" in _read_all(master)
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.slow
def test_without_a_terminal_tqdm_is_not_even_loaded() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = ("import sys; from verify.cli import main; "
            "main(['lowering', 'xor5', '--target', 'gfx942']); print('tqdm' in sys.modules, file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert r.stderr == "False\n", r.stderr


@pytest.mark.slow
def test_no_bar_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFY_PROGRESS_DELAY", "0")
    code, out, err = cli("check", "lowerings/xor5.s", "--full")
    assert err == "" and "check" not in err


def _run_on_pty(argv: list[str]) -> tuple[int, str, str]:
    """`verify ARGV` with stderr on a terminal (stdout a pipe); the terminal
    says no width, as a fresh pseudo-terminal (the bar takes 80 columns)."""
    master, slave = pty.openpty()
    env = {**os.environ, "VERIFY_PROGRESS_DELAY": "0", "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "verify", *argv], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=slave, text=True)
    os.close(slave)
    out, _ = p.communicate(timeout=300)
    err = _read_all(master).decode(errors="replace")
    os.close(master)
    return p.returncode, out, err


@pytest.mark.slow
def test_progress_of_one_lowering_on_a_terminal() -> None:
    code, out, err = _run_on_pty(["lowering", "xor5"])
    assert code == 0 and "lowering" in err, err
    assert out.splitlines()[-1] == SUMMARY.format(8, 0, 0, 0)  # stdout as without a terminal


@pytest.mark.slow
def test_progress_on_a_terminal_and_never_in_json() -> None:
    code, out, err = _run_on_pty(["check", "--full", "lowerings/xor5.s"])
    assert "check" in err and "lowering" in err, err
    assert out.splitlines()[-1].startswith("Summary: ")
    code, js_out, err = _run_on_pty(["check", "--full", "lowerings/xor5.s", "--json"])
    assert err == "", err
    assert js_out.lstrip().startswith("{")


# -- options -------------------------------------------------------------------------------


def _subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            return dict(a.choices)
    return {}


def test_every_option_says_what_it_does() -> None:
    p = build_parser()
    subs = _subparsers(p)
    assert {"lowering", "prove", "check", "emit", "list", "show", "asm", "tv", "targets", "synth", "specs"} <= set(subs)
    missing = [f"{name} {'/'.join(a.option_strings) or a.dest}" for name, sp in subs.items() for a in sp._actions
               if not a.help or a.help == argparse.SUPPRESS or len(a.help) < 8]
    assert not missing, missing
    helps = {a.dest: a.help for a in subs["show"]._actions}
    assert "@NAME" in str(helps["input"])  # per-lane parameters are named in the help


def _help_of(cmd: str, dest: str) -> str:
    return next(str(a.help) for a in _subparsers(build_parser())[cmd]._actions if a.dest == dest)


@pytest.mark.parametrize("cmd", ["lowering", "show", "synth", "tv"])
def test_target_help_says_it_takes_a_list(cmd: str) -> None:
    assert "comma list" in _help_of(cmd, "target")


def test_synth_targets_is_an_alias_of_target() -> None:
    p = build_parser()
    a = p.parse_args(["synth", "--table", "--targets", "gfx9,gfx11"])
    b = p.parse_args(["synth", "--table", "--target", "gfx9,gfx11"])
    assert a.target == b.target == "gfx9,gfx11"


def test_a_target_list_with_an_empty_name_is_an_error() -> None:
    assert cli("lowering", "xor5", "--target", "gfx906,") == (
        2, "", "error: empty name in the target list 'gfx906,'\n")


def test_asm_and_emit_need_one_target() -> None:
    code, out, err = cli("asm", "-", "--target", "gfx906,gfx942", "--assert", CLAIM)
    assert (code, err) == (2, "error: --target gfx906,gfx942 names 2 targets; verify asm needs one "
                              "(e.g. --target gfx906)\n")


def test_wave_narrows_the_declared_waves() -> None:
    code, out, err = cli("lowering", "xor5", "--wave", "32")
    assert code == 2 and err.endswith("lowerings/xor5.s:17:13: error: xor5 declares wave64; "
                                      "--wave 32 is not one of them\n"), err
    code, out, err = cli("show", "xor5", "--wave", "32")
    assert code == 2 and err.endswith("lowerings/xor5.s:17:13: error: xor5 declares wave64; "
                                      "--wave 32 is not one of them\n"), err
    assert cli("show", "xor5", "--wave", "64")[0] == 0


def _stdin(monkeypatch: pytest.MonkeyPatch, data: str | bytes) -> None:
    raw = data if isinstance(data, bytes) else data.encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))


def test_dash_reads_a_lowering_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, (ROOT / "lowerings" / "xor5.s").read_text())
    code, out, err = cli("lowering", "-", "--target", "gfx942")
    assert code == 0, err
    assert out.startswith("<stdin>: cuda.shfl_xor mask=5 width=16  (<stdin>)\n  proved for gfx942 wave64")
    _stdin(monkeypatch, "; @spec nope\nv_mov_b32 v1, v0\n")
    code, out, err = cli("lowering", "-")
    assert code == 2 and err.startswith("<stdin>:1:"), err


def test_dash_reads_asm_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, HEAD + "a:\n\ts_mov_b32 s4, 1\n" + XOR1 + "\ts_endpgm\n")
    code, out, err = cli("asm", "-", "--exec", "0xffffffff", "--assert", CLAIM)
    assert code == 0, err
    assert out.startswith("<stdin>: a, lines 5-8 ")


@pytest.mark.slow
def test_dash_reads_llvm_ir_from_stdin() -> None:
    pytest.importorskip("llvmlite")
    text = (ROOT / "tests" / "tv" / "dpp_quad_perm_2301_xor.ll").read_text()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "verify", "tv", "-", "--target", "gfx1100", "--wave", "32"], cwd=ROOT,
                       env=env, input=text, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == SUMMARY.format(1, 0, 0, 0)


def test_not_utf8_on_stdin_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, b"; \xff\n")
    assert cli("lowering", "-") == (2, "", "<stdin>:1:3: error: not UTF-8 text (byte 0xff)\n")


def test_input_at_lane_gives_each_lane_its_number() -> None:
    code, js, err = cli_json("show", "cuda.shfl_idx", "lane=@src", "--wave", "32", "--input", "src=@lane",
                             "--input", "x=7")
    assert code == 0, err
    assert js["outputs"]["out"] == [7] * 32
    code, js, err = cli_json("show", "cuda.shfl_idx", "lane=@src", "--wave", "32", "--input", "src=0",
                             "--input", "x=@lane")
    assert js["outputs"]["out"] == [0] * 32


def test_synth_table_ends_with_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    from verify.synth import table

    entries = [{"verdict": "proved"}, {"verdict": "none"}, {"verdict": "unknown"}]
    monkeypatch.setattr(table, "build", lambda cols: entries)
    monkeypatch.setattr(table, "save", lambda es: (es, {}))
    code, out, err = cli("synth", "--table")
    assert (code, out) == (0, "wrote 3 entries, 0 lowering files\n" + SUMMARY.format(1, 1, 1, 0) + "\n")


def test_tv_wave_narrows_the_run_lines() -> None:
    pytest.importorskip("llvmlite")
    assert cli("tv", "tests/tv/permlane64_add.ll", "--wave", "32") == (
        2, "", "error: tests/tv/permlane64_add.ll: its RUN lines run wave64; --wave 32 is not one of them\n")


def test_version_names_verify_z3_and_llvm() -> None:
    from importlib import metadata

    import z3

    code, out, err = cli("--version")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"verify {metadata.version('verify')}"
    assert lines[1] == f"z3 {z3.get_version_string()} (z3-solver {metadata.version('z3-solver')})"
    assert re.fullmatch(rf"llvmlite {re.escape(metadata.version('llvmlite'))} \(LLVM \d+\.\d+\.\d+\)", lines[2])


@pytest.mark.parametrize("argv", [
    ["lowering", "xor5", "--target", "gfx900", "--target", "gfx942"],
    ["lowering", "xor5", "--target", "gfx900,gfx942"],
    ["lowering", "xor5", "--target", "gfx942", "--target", "gfx900,gfx942"],
])
def test_target_is_repeatable_and_a_comma_list_alike(argv: list[str]) -> None:
    code, out, err = cli(*argv)
    assert code == 0, (out, err)
    assert "proved for gfx900, gfx942 wave64" in out


@pytest.mark.parametrize("argv", [
    ["lowering", "xor5", "--target", ""],
    ["lowering", "xor5", "--target", "gfx900,"],
    ["tv", "x.ll", "--target", "gfx900,,gfx942"],
    ["emit", "xor5", "--wave", "64", "--target", " "],
])
def test_an_empty_target_name_is_refused(argv: list[str]) -> None:
    code, out, err = cli(*argv)
    assert code == 2 and out == ""
    assert err.startswith("error: empty name in the target list '") and len(err.splitlines()) == 1


def test_emit_with_two_repeated_targets_names_both() -> None:
    code, out, err = cli("emit", "xor5", "--wave", "64", "--target", "gfx900", "--target", "gfx942")
    assert code == 2 and out == ""
    assert "--target gfx900,gfx942 names 2 targets; emit needs one" in err
