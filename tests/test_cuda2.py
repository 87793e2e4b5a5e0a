"""Issue #33 (round cuda2): the spec notation's constants on 64-bit lanes,
and verify emit's spelling of the bit scans (v_ffbl_b32 / v_ffbh_u32) as
llvm.cttz / llvm.ctlz under a select, with verify tv reading both."""

from __future__ import annotations

import pytest

from verify.backend import Concrete
from verify.diag import InputError
from verify.spec import SpecLib
from verify.wide import join

WIDE = '''
spec t.sh():
    lanes = 2
    type u64
    out = x[i] + (1 << 31)

spec t.lit():
    lanes = 2
    type i64
    k = 0xffffffff
    out = x[i] & k

spec t.neg():
    lanes = 2
    type u64
    out = x[i] + (0 - 1) + (1 << 30)

spec t.narrow():
    lanes = 2
    out = x[i] + (1 << 31)
'''


def ev(name: str, x: list[int]) -> list[int]:
    r = SpecLib.from_text(WIDE, "w.spec").evaluate(name, {}, Concrete(), 2, {"x": x}, [True, True])["out"]
    return [join(v) for v in r[0]]


def test_a_wrapped_constant_on_64_bit_lanes_is_an_error_at_its_line():
    """1 << 31 on u64 lanes: 0x80000000 or 0xffffffff80000000?  The notation's
    constants are 32-bit; the widening of one that wrapped is not defined."""
    with pytest.raises(InputError) as e:
        ev("t.sh", [0, 0])
    assert str(e.value).startswith("w.spec:5:")
    assert "the constant 0x80000000 does not fit a signed 32-bit value" in str(e.value)
    assert "by sign (0xffffffff80000000) or by zero (0x80000000)" in str(e.value)
    with pytest.raises(InputError, match=r"^w\.spec:10:.*the constant 0xffffffff does not fit"):
        ev("t.lit", [0, 0])


def test_constants_in_range_widen_by_sign_and_32_bit_specs_wrap():
    assert ev("t.neg", [(5 << 32) | 1, 0]) == [((5 << 32) | 1) - 1 + (1 << 30), (1 << 30) - 1]
    assert ev("t.narrow", [1, 0x80000000]) == [0x80000001, 0]
