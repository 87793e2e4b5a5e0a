"""Lane geometry and lane-mask conventions (no z3, no semantics).

A wave has W lanes, W in {32, 64} (8 and 16 are allowed for unit tests).
Lane i sits in row i >> 4 (16 lanes), bank (i >> 2) & 3 (4 lanes inside a
row), quad i >> 2 and half i >> 5.  [S:lane-geometry]

>>> row(37), bank(37), row_lane(37), half(37)
(2, 1, 5, 1)
>>> fmt_mask(0b100001, 64)
'0x0000000000000021'
>>> mask_lanes(0x84)
[2, 7]
>>> lanes_text([0, 1, 2, 3, 7, 9, 10])
'0-3, 7, 9-10'

Gather convention, used by every cross-lane op: a lane map says, for each
destination lane, which source lane it READS (None: no valid source).
Composing "first a then b" means lane i reads a's map at b's source:

>>> a = [1, 0, 3, 2]            # swap neighbours
>>> b = [3, 2, 1, 0]            # reverse
>>> compose(a, b)               # run a, then b on a's result
[2, 3, 0, 1]
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from .diag import InputError, Span
from .syntax import parse_int

WAVES = (32, 64)


def row(i: int) -> int:
    return i >> 4


def row_lane(i: int) -> int:
    return i & 15


def bank(i: int) -> int:
    return (i >> 2) & 3


def half(i: int) -> int:
    return i >> 5


def fmt_mask(m: int, wave: int) -> str:
    return f"0x{m & ((1 << wave) - 1):0{wave // 4}x}"


def parse_mask(text: str | None, wave: int) -> int:
    """An EXEC mask as given on the command line (hex, or 0b binary) for a
    `wave`-lane wave; None is every lane."""
    full = (1 << wave) - 1
    if text is None:
        return full
    if not re.fullmatch(r"0b[01]{1,64}" if text.lower().startswith("0b") else r"(0x)?[0-9a-f]{1,16}", text, re.I):
        raise InputError(None, f"--exec expects a hex mask, got '{text}'")
    m = int(text, 16) if not text.lower().startswith("0b") else int(text, 0)
    if m < 0 or m > full:
        raise InputError(None, f"--exec {text} does not fit in a {wave}-lane mask")
    return m


def parse_lane_values(items: list[str], wave: int, widths: dict[str, int] | None = None) -> dict[str, list[int]]:
    """``REG=a,b,c,...`` texts (--input): one value per lane, or one for
    every lane, or ``@lane``: each lane its own number.  A value is a lane
    of `widths[name]` bits (32 unless named there: a 64-bit input of a
    u64/i64 spec or a VGPR pair): a negative one is its two's complement at
    that width, and one that does not fit is refused, never cut.

    >>> parse_lane_values(["x=-5"], 2), parse_lane_values(["x=-5"], 2, {"x": 64})["x"][0]
    ({'x': [4294967291, 4294967291]}, 18446744073709551611)
    >>> parse_lane_values(["x=0x100000000"], 2)
    Traceback (most recent call last):
    verify.diag.InputError: error: --input x: 4294967296 does not fit in a 32-bit lane
    """
    out: dict[str, list[int]] = {}
    for it in items:
        if "=" not in it:
            raise InputError(None, f"--input expects REG=a,b,c,..., got '{it}'")
        name, vals = it.split("=", 1)
        name = name.strip()
        if name in out:
            raise InputError(None, f"--input {name} is given twice")
        sp = Span("--input", 1, len(name) + 2)
        if vals.strip() == "@lane":
            out[name] = list(range(wave))
            continue
        nums = [parse_int(v.strip(), sp, "an integer") for v in vals.split(",") if v.strip()]
        if len(nums) == 1:
            nums = nums * wave
        if len(nums) != wave:
            raise InputError(None, f"--input {name}: give 1 value or {wave} (one per lane), got {len(nums)}")
        bits = (widths or {}).get(name, 32)
        for v in nums:
            if not -(1 << (bits - 1)) <= v < (1 << bits):
                raise InputError(None, f"--input {name}: {v} does not fit in a {bits}-bit lane")
        out[name] = [v & ((1 << bits) - 1) for v in nums]
    return out


def lane_table(wave: int, mask: int, columns: list[tuple[str, list[Any]]]) -> list[str]:
    """Lane values as `verify show` prints them: a row per lane, a column per
    register ("*": inactive lane; "-": None, undefined or unknown)."""
    cells = [["-" if vals[i] is None else str(vals[i]) for i in range(wave)] for _, vals in columns]
    widths = [max([10, len(c)] + [len(t) for t in col]) for (c, _), col in zip(columns, cells)]  # 64-bit values: 20 digits
    out = [f"wave{wave}  EXEC = {fmt_mask(mask, wave)}", "lane  " + "  ".join(f"{c:>{w}}" for (c, _), w in zip(columns, widths))]
    for i in range(wave):
        mark = " " if (mask >> i) & 1 else "*"
        out.append(f"{i:>3}{mark}  " + "  ".join(f"{col[i]:>{w}}" for col, w in zip(cells, widths)))
    out.append("(* inactive lane; - undefined or unknown)")
    return out


def mask_lanes(m: int) -> list[int]:
    out, i = [], 0
    while m:
        if m & 1:
            out.append(i)
        m >>= 1
        i += 1
    return out


def lanes_text(lanes: list[int]) -> str:
    """Compact text for a sorted lane list."""
    parts: list[str] = []
    k = 0
    while k < len(lanes):
        j = k
        while j + 1 < len(lanes) and lanes[j + 1] == lanes[j] + 1:
            j += 1
        parts.append(str(lanes[k]) if j == k else f"{lanes[k]}-{lanes[j]}")
        k = j + 1
    return ", ".join(parts) if parts else "none"


_GROUP_NAMES = {4: "4-lane quad", 8: "8-lane group", 16: "16-lane row", 32: "32-lane half"}


def _formulas(pairs: list[tuple[int, int]], wave: int) -> list[tuple[str, Any]]:
    """The candidate formulas the pairs suggest, simplest first."""
    out: list[tuple[str, Any]] = [("its own lane", lambda i: i)]
    js = sorted({j for _, j in pairs})
    out += [(f"lane {c}", lambda i, c=c: c) for c in js]
    out += [(f"lane i^{c}", lambda i, c=c: i ^ c) for c in sorted({i ^ j for i, j in pairs} - {0})]
    for d in sorted({j - i for i, j in pairs} - {0}, key=abs):
        out.append((f"lane i+{d}" if d > 0 else f"lane i-{-d}", lambda i, d=d: i + d))
    for w in (4, 8, 16, 32):
        if w >= wave:
            continue
        for d in sorted({(j - i) % w for i, j in pairs if i // w == j // w} - {0}):
            out.append((f"lane i+{d}, wrapping within its {_GROUP_NAMES[w]}",
                        lambda i, d=d, w=w: (i & ~(w - 1)) | ((i + d) & (w - 1))))
        for c in sorted({j % w for i, j in pairs if i // w == j // w}):
            out.append((f"lane {c} of its {_GROUP_NAMES[w]}", lambda i, c=c, w=w: (i & ~(w - 1)) | c))
    return out


def lane_formula(pairs: list[tuple[int, int]], wave: int) -> tuple[str, list[int]] | None:
    """The formula for "lane i reads lane j" that holds for the most of the
    (i, j) `pairs` (the simplest among equals), as words, with the lanes i
    it holds for; None when it holds for fewer than two.  The family: its
    own lane, one fixed lane, i^c, i+c, i-c, i+c wrapping within each group
    of 4/8/16/32 lanes, one fixed lane of each such group.

    >>> lane_formula([(0, 2), (1, 3), (2, 0), (3, 1)], 32)
    ('lane i^2', [0, 1, 2, 3])
    >>> lane_formula([(i, (i & ~15) | ((i + 1) & 15)) for i in range(32)], 32)[0]
    'lane i+1, wrapping within its 16-lane row'
    >>> lane_formula([(i, (i & ~15) | 15) for i in range(32)], 32)[0]
    'lane 15 of its 16-lane row'
    >>> lane_formula([(0, 0), (1, 0), (2, 1), (3, 2)], 32)
    ('lane i-1', [1, 2, 3])
    >>> lane_formula([(0, 5), (1, 9)], 32) is None
    True"""
    best: tuple[str, list[int]] | None = None
    for text, f in _formulas(pairs, wave):
        held = [i for i, j in pairs if f(i) == j]
        if len(held) >= 2 and (best is None or len(held) > len(best[1])):
            best = (text, held)
    return best

def compose(first: list[int | None], then: list[int | None]) -> list[int | None]:
    """Lane map of running `first` and then `then` (gather maps)."""
    return [None if s is None else first[s] for s in then]


# ---------------------------------------------------------------------------
# gathers: what one destination lane of a cross-lane op reads (Machine.gather)


class Read(NamedTuple):
    """What one destination lane of a gather does.  [S:dpp-lane-rule]

    It reads source lane `lane` (an int, a backend value for a lane chosen
    at run time, or :data:`OUT_OF_RANGE`); the read gives that lane's value
    when `valid`, else 0.  The lane is written when `writes` (EXEC, row and
    bank masks: whatever the instruction enables) and either the read is
    valid or `zero_fill` (an invalid read still writes its 0).
    """

    lane: Any
    valid: Any = True
    writes: Any = True
    zero_fill: Any = True


class _OutOfRange:
    def __repr__(self) -> str:
        return "OUT_OF_RANGE"


OUT_OF_RANGE = _OutOfRange()  # a Read's source lane that does not exist (reads 0)
