"""Constants as llvm-mc-22 reads them: 64-bit integer text, float literals
and float inline constants.  [S:literal64] [S:float-literals]"""

import re
import shutil
import subprocess

import pytest

from verify.diag import InputError, Span
from verify.ops.base import M64, expand_b64
from verify.syntax import parse_operand

MC = shutil.which("llvm-mc-22")
needs_mc = [pytest.mark.llvm_mc, pytest.mark.skipif(MC is None, reason="needs llvm-mc-22")]


def imm(text):
    return parse_operand(text, Span("t", 1, 1))


def _mc(cpu, line):
    r = subprocess.run([MC, "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding"], input=line + "\n",
                       capture_output=True, text=True, timeout=60)
    m = re.search(r"encoding: (\[[0-9a-fx,]+\])", r.stdout)
    return None if r.returncode or m is None else [int(x, 16) for x in m.group(1).strip("[]").split(",")]


# 64-bit integer text in a B64 operand: (text, the 64-bit value under the default assumptions)
B64 = [
    ("0xffffffffffffffff", M64),
    ("0xFFFFFFFFFFFFFFFF", M64),
    ("0xfffffffffffffff0", M64 - 15),  # -16: inline
    ("0xffffffffffffffef", 0xFFFFFFEF),  # -17: a literal written negative (literal64.negative=zext)
    ("0xffffffff80000000", 0x80000000),
]


@pytest.mark.parametrize("text,value", B64)
def test_64bit_text_in_b64_operands(text, value):
    assert expand_b64(imm(text)) == value
    assert expand_b64(imm(text), negative="sext") == (value if value in (M64, M64 - 15) else
                                                       (int(text, 16) & M64))


def test_64bit_text_in_32bit_operands():
    assert imm("0xffffffffffffffff").value == 0xFFFFFFFF
    assert imm("0xffffffff80000000").value == 0x80000000
    for bad in ("0xffffffff00000000", "0x100000000", "0x7fffffffffffffff", "0x10000000000000000"):
        with pytest.raises(InputError, match="does not fit"):
            imm(bad)


@pytest.mark.parametrize("cpu", ["gfx900", "gfx1100", "gfx1200"])
@pytest.mark.parametrize("text,value", B64)
def test_64bit_text_matches_llvm_mc(cpu, text, value):
    if MC is None:
        pytest.skip("needs llvm-mc-22")
    enc = _mc(cpu, f"s_mov_b64 s[0:1], {text}")
    assert enc is not None
    code = enc[0]
    hw = (enc[4] | enc[5] << 8 | enc[6] << 16 | enc[7] << 24) if code == 0xFF else \
        (code - 128 if code <= 192 else (192 - code) & M64)
    assert hw == value
