"""The malformed-input tier: Hypothesis makes inputs that are malformed by
construction -- lowering files (bytes, header fields, operands), user specs,
proof records, proofs.lock, `--assert` texts, command-line arguments, output
paths and `verify tv` input (IR, RUN lines, `--llc` commands) -- and runs the
command line in-process on each.  Every case must end with exit 2, exactly one
`error:` line (`path:line:col: error:` naming the mutated line when a file is
at fault), no traceback, nothing on stdout and no file written (`verify tv`
may instead print a Summary with nothing proved, or say unknown: exit 3).

Each test runs VERIFY_FUZZ examples (default 40: the fast tier); `.ci/run`
runs the tier with VERIFY_FUZZ=1050: 6 tests of 1050 cases, the proofs.lock,
output-path and tv-input tests 350 each, the bad-`--llc` test 10 (each runs
the IR side, and waits out a hanging llc for VERIFY_LLC_TIMEOUT=1 s): 7,360
cases, and the 10,000-instruction function.  (2100 until 2026-11-30: 14,721
cases, 64 s of the CI run's 20 minutes.)  Derandomised: the same cases on
every run.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
import traceback
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verify import catalog
from verify.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("VERIFY_FUZZ", "40"))
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

# lowering files to mutate, each with a (target, wave) it declares (for `verify emit`)
EMIT = {"lowerings/xor5.s": ("gfx900", "64"), "lowerings/scan/reduce_smax_rdna_w32.s": ("gfx1030", "32"),
        "lowerings/bcast/bcast16_swizzle.s": ("gfx900", "64"), "lowerings/permlane/xor16_permlanex16.s": ("gfx1030", "32"),
        "lowerings/quadrants/quadrants_shuffle.s": ("gfx1100", "64")}
BASES = list(EMIT)
TEXTS = {b: (ROOT / b).read_text() for b in BASES}
XOR5 = str(ROOT / "lowerings" / "xor5.s")  # a path: a catalogue name costs a directory walk per case
SCHEDULE = ("s_nop", "s_wait", "s_sleep", "s_setprio", "s_delay_alu")  # their operand is read by the hazard rules
KERNEL = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\nf:\n'
          '\tv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n'
          '\tv_mov_b32 v2, v1\n\ts_setpc_b64 s[30:31]\n')


def _tree(d: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(d)): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(d.rglob("*"))}


def refused(argv: list[str], tmp: Path, at: str | None = None, env: dict[str, str] | None = None) -> str:
    """Run `verify ARGV` in-process and assert the malformed-input contract;
    `at` is the 'path:line:' prefix the error line must start with."""
    before = _tree(tmp)
    out, err = io.StringIO(), io.StringIO()
    old = {k: os.environ.get(k) for k in env or {}}
    os.environ.update(env or {})
    try:
        code = main(argv, out, err)
    except BaseException:  # the failure this tier exists to find
        pytest.fail(f"traceback from verify {argv!r:.300}:\n{traceback.format_exc()}")
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    text = err.getvalue()
    assert "Traceback" not in text
    errors = [line for line in text.splitlines() if "error:" in line]
    assert code == 2, f"exit {code} for malformed input {argv!r:.300}\nstdout: {out.getvalue()[:500]}\nstderr: {text[:500]}"
    assert out.getvalue() == "", out.getvalue()[:500]
    assert len(errors) == 1, text[:1000]
    if at is not None:
        assert re.match(re.escape(at) + r"(\d+:)?\d+: error: ", errors[0]), (at, errors[0][:300])
    assert _tree(tmp) == before, "a file was written"
    return errors[0]


# ---------------------------------------------------------------------------
# lowering files


def _body(line: str) -> tuple[str, int]:
    """The text of a line before its comment (a header line: its value) and where that starts."""
    m = re.match(r"^(\s*;\s*@[A-Za-z_]+\s*)(.*)$", line)
    if m:
        return m.group(2), m.end(1)
    cut = line.find(";")
    return (line if cut < 0 else line[:cut]), 0


def _is_header(line: str) -> bool:
    return re.match(r"^\s*;\s*@[A-Za-z_]+", line) is not None


def _is_instr(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith(";")


def _integers(line: str) -> list[tuple[int, int]]:
    """(start, end) of each integer literal of a header value or an instruction
    (not register numbers, not the operand of a scheduling instruction)."""
    body, off = _body(line)
    if not body.strip() or (not _is_header(line) and body.split()[0].lower().startswith(SCHEDULE)):
        return []
    spans = []
    for m in re.finditer(r"-?(?:0x[0-9a-fA-F]+|\d+)", body):
        a, b = m.span()
        if a and body[a - 1] not in " \t,=[:(":
            continue
        if b < len(body) and body[b] not in " \t,])":
            continue
        lb = body.rfind("[", 0, a)
        if lb > 0 and "]" not in body[lb:a] and body[lb - 1].isalpha() and body[lb - 1] in "sv":
            continue  # a register range
        spans.append((off + a, off + b))
    return spans


# each mutation class and the lines it can mutate
_PRED = {
    "leading_zero": lambda line: bool(_integers(line)),
    "long_int": lambda line: bool(_integers(line)),
    "imm_binding": lambda line: re.match(r"^\s*;\s*@(input|output)\s", line) is not None,
    "drop_colon": lambda line: ":" in _body(line)[0],
    "drop_dot": lambda line: re.search(r"[A-Za-z_]\.[A-Za-z_]", _body(line)[0]) is not None,
    "empty_header": lambda line: re.match(r"^\s*;\s*@(spec|targets|waves|exec|input|output)\b", line) is not None,
    "mnemonic": _is_instr,
    "register": lambda line: _is_instr(line) and re.search(r"\bv\d+\b", _body(line)[0]) is not None,
    "twice": lambda line: re.match(r"^\s*;\s*@(spec|targets|waves|exec)\b", line) is not None,
    "bad_byte": lambda line: True,
    "empty_operand": lambda line: _is_instr(line) and "," in _body(line)[0],
    "long_hex": lambda line: (_is_instr(line) or re.match(r"^\s*;\s*@(input|output)\s", line) is not None)
    and re.search(r"\bv\d+\b", _body(line)[0]) is not None,
}


@st.composite
def mutated_lowering(draw: st.DrawFn) -> tuple[str, str | bytes, int, str]:
    """(class, text or bytes, the 1-based line at fault, the file it mutates)."""
    kind = draw(st.sampled_from(sorted(_PRED)))
    base = draw(st.sampled_from([b for b in BASES if any(_PRED[kind](line) for line in TEXTS[b].splitlines())]))
    lines = TEXTS[base].splitlines()

    def pick(_: None) -> int:
        return draw(st.sampled_from([k for k, line in enumerate(lines) if _PRED[kind](line)]))

    if kind in ("leading_zero", "long_int"):
        k = pick(None)
        a, b = draw(st.sampled_from(_integers(lines[k])))
        lit = lines[k][a:b]
        sign = "-" if lit.startswith("-") else ""
        if kind == "leading_zero":
            new = sign + "0" * draw(st.integers(1, 3)) + lit.lstrip("-")
        else:
            new = sign + draw(st.sampled_from("123456789")) + "0" * draw(st.integers(80, 6000))
        lines[k] = lines[k][:a] + new + lines[k][b:]
    elif kind == "imm_binding":
        k = pick(None)
        imm = draw(st.sampled_from(["0", "1", "-1", "0x10", "64", "0b1"]))
        lines[k] = re.sub(r"=\s*[^,\s]+", "= " + imm, lines[k], count=1)
    elif kind == "drop_colon":
        k = pick(None)
        body, off = _body(lines[k])
        at = off + draw(st.sampled_from([j for j, c in enumerate(body) if c == ":"]))
        lines[k] = lines[k][:at] + lines[k][at + 1:]
    elif kind == "drop_dot":
        k = pick(None)
        body, off = _body(lines[k])
        at = off + draw(st.sampled_from([m.start() + 1 for m in re.finditer(r"[A-Za-z_](?=\.[A-Za-z_])", body)]))
        lines[k] = lines[k][:at] + lines[k][at + 1:]
    elif kind == "empty_header":
        k = pick(None)
        lines[k] = re.sub(r"^(\s*;\s*@[A-Za-z_]+).*$", r"\1" + draw(st.sampled_from(["", " ", "  ,", " , ,"])), lines[k])
    elif kind == "mnemonic":
        k = pick(None)
        m = re.match(r"^(\s*\S+)", lines[k])
        assert m
        lines[k] = m.group(1) + draw(st.sampled_from(["q", "_zz", "x9", "_e99"])) + lines[k][m.end():]
    elif kind == "register":
        k = pick(None)
        n = draw(st.one_of(st.integers(256, 10**6), st.just(10**9)))
        lines[k] = re.sub(r"\bv\d+\b", f"v{n}", lines[k], count=1)
    elif kind == "empty_operand":  # `v2,, v0`, a leading or a trailing comma
        k = pick(None)
        body, off = _body(lines[k])
        form = draw(st.sampled_from(["double", "lead", "trail"]))
        if form == "double":
            at = off + body.index(",")
            lines[k] = lines[k][:at] + "," + lines[k][at:]
        elif form == "lead":
            m = re.match(r"^(\s*\S+)", lines[k])
            assert m
            lines[k] = m.group(1) + " ," + lines[k][m.end():]
        else:
            end = off + len(body.rstrip())
            lines[k] = lines[k][:end] + "," + lines[k][end:]
    elif kind == "long_hex":  # a register replaced by a long hex literal
        k = pick(None)
        n = draw(st.sampled_from([81, 82, 100, 400, 1000, 5000, 20_000, 100_000]))  # a megabyte: tests/test_inputs.py
        lines[k] = re.sub(r"\bv\d+\b", "0x" + "f" * n, lines[k], count=1)
    elif kind == "twice":
        k = pick(None)
        lines.insert(k + 1, lines[k])
        k += 1
    else:  # bad_byte: a byte that is not UTF-8 anywhere in the file
        data = TEXTS[base].encode()
        at = draw(st.integers(0, len(data)))
        byte = draw(st.integers(0x80, 0xFF))
        data = data[:at] + bytes([byte]) + data[at:]
        return kind, data, data.count(b"\n", 0, at) + 1, base
    return kind, "\n".join(lines) + "\n", k + 1, base


@FUZZ
@given(case=mutated_lowering(), cmd=st.sampled_from(["lowering", "show", "emit"]))
def test_malformed_lowering_file(case: tuple[str, str | bytes, int, str], cmd: str) -> None:
    kind, text, line, base = case
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        p = tmp / "t.s"
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text)
        argv = [cmd, str(p)]
        if cmd == "emit":
            argv += ["--target", EMIT[base][0], "--wave", EMIT[base][1], "-o", str(tmp / "out.ll")]
        refused(argv, tmp, f"{p}:{line}:")


# ---------------------------------------------------------------------------
# user specs (VERIFY_PATH)

_INT_LEAVES = ["x[i]", "i", "lane", "1", "0x1f", "wave"]


def _exprs(bad: bool = False) -> st.SearchStrategy[tuple[str, str]]:
    """Well-sorted expressions as (sort, text): 'int' or 'bool'."""
    leaves = st.one_of(st.sampled_from(_INT_LEAVES).map(lambda t: ("int", t)),
                       st.sampled_from(["(i < 3)", "active(i)"]).map(lambda t: ("bool", t)))

    def grow(sub: st.SearchStrategy[tuple[str, str]]) -> st.SearchStrategy[tuple[str, str]]:
        ints = sub.filter(lambda e: e[0] == "int").map(lambda e: e[1])
        bools = sub.filter(lambda e: e[0] == "bool").map(lambda e: e[1])
        return st.one_of(
            st.tuples(ints, st.sampled_from("+-&|^"), ints).map(lambda t: ("int", f"({t[0]} {t[1]} {t[2]})")),
            st.tuples(ints, ints).map(lambda t: ("int", f"umax({t[0]}, {t[1]})")),
            ints.map(lambda t: ("int", f"x[({t}) & 31]")),
            st.tuples(bools, ints, ints).map(lambda t: ("int", f"({t[1]} if {t[0]} else {t[2]})")),
            st.tuples(ints, st.sampled_from(["<", "==", "!=", ">="]), ints).map(lambda t: ("bool", f"({t[0]} {t[1]} {t[2]})")),
            st.tuples(bools, bools).map(lambda t: ("bool", f"({t[0]} and {t[1]})")),
            bools.map(lambda t: ("bool", f"(not {t})")),
            ints.map(lambda t: ("bool", f"ult({t}, 7)")),
        )

    return st.recursive(leaves, grow, max_leaves=6)


EXPRS = _exprs()
INTS = EXPRS.filter(lambda x: x[0] == "int").map(lambda x: x[1])
BOOLS = EXPRS.filter(lambda x: x[0] == "bool").map(lambda x: x[1])


@st.composite
def missorted(draw: st.DrawFn) -> str:
    """An integer expression with one place that mixes the sorts."""
    i = draw(INTS)
    b = draw(BOOLS)
    site = draw(st.sampled_from([
        f"({b} + {i})", f"({i} * {b})", f"x[{b}]", f"umax({i}, {b})", f"(-{b})", f"(~{b})",
        f"({i} if {i} else {i})", f"({b} if {b} else {i})", f"(not {i})", f"({i} and {b})", f"({b} or {i})",
        f"({i} == {b})", f"ult({b}, {i})", f"active({b})", f"(x[i] if {i} else 0)",
    ]))
    outer = draw(st.sampled_from(["{}", "({} + x[i])", "umax(x[i], {})", "(x[i] if (i < 2) else {})"]))
    return outer.format(site)


@st.composite
def malformed_spec(draw: st.DrawFn) -> tuple[str, str, int]:
    """(class, spec file text, the line at fault)."""
    kind = draw(st.sampled_from(["sorts", "sorts_out", "recursive", "recursive_local", "deep", "leading_zero",
                                 "long_int", "wide_const", "listed_twice", "lanes_twice", "args_twice", "str_order",
                                 "wide_index", "long_range", "text_to_spec"]))
    head = "spec u.t(p=1):\n    lanes = 32\n"
    if kind == "listed_twice":
        n = draw(st.sampled_from(["input x, x\n    out = x[i]", "output out, out\n    out = 1",
                                  "input x, y, x\n    out = x[i]", "output o, out, o\n    out = 1\n    o = 2"]))
        return kind, head + f"    {n}\n", 3
    if kind == "lanes_twice":
        return kind, head + f"    lanes = {draw(st.sampled_from(['16', '32', 'p', 'wave']))}\n    out = x[i]\n", 3
    if kind == "args_twice":
        return kind, head + "    f(a, b, a) = a + b\n    out = f(1, 2, 3)\n", 3
    if kind == "str_order":
        cmp = draw(st.sampled_from(["<", "<=", ">", ">="]))
        e = draw(st.sampled_from([f'"a" {cmp} p', f'p {cmp} "a"', f'(1 if "b" {cmp} p else 2) == 1']))
        return kind, head + f'    require {e}, "m"\n    out = x[i]\n', 3
    # found only when the spec runs (`verify show`), at no position in the file
    if kind == "wide_index":
        return kind, head + f"    type {draw(st.sampled_from(['u64', 'i64']))}\n    out = x[{draw(st.sampled_from(['x[i]', 'x[i] & 31', 'x[0] + 1']))}]\n", -1
    if kind == "long_range":
        n = draw(st.integers(129, (1 << 31) - 1))  # a larger literal is a negative 32-bit value: an empty range
        return kind, head + f'    out = fold("add", (x[j] for j in range({n})))\n', -1
    if kind == "text_to_spec":
        return kind, head + f'    out = cuda.shfl_xor(mask="{draw(_NAME)}")\n', -1
    if kind == "sorts":
        return kind, head + f"    out = {draw(missorted())}\n", 3
    if kind == "sorts_out":
        b = draw(BOOLS)
        return kind, head + f"    out = {b}\n", 3
    if kind == "recursive":
        n = draw(st.integers(1, 4))
        text = "".join(f"spec u.s{k}():\n    lanes = 32\n    out = x[i] + u.s{(k + 1) % n}()\n" for k in range(n))
        return kind, head + "    out = u.s0()\n" + text, 0
    if kind == "recursive_local":
        n = draw(st.integers(1, 4))
        funcs = "".join(f"    f{k}(a) = f{(k + 1) % n}(a) + 1\n" for k in range(n))
        return kind, head.replace("spec u.t(p=1):\n", "spec u.t(p=1):\n") + funcs + "    out = f0(x[i])\n", 1
    if kind == "deep":
        depth = draw(st.integers(101, 3000))
        form = draw(st.sampled_from(["unary", "chain", "nest"]))
        if form == "unary":
            e = draw(st.sampled_from("-~+")) * depth + "x[i]"
        elif form == "chain":
            e = " + ".join(["x[i]"] * depth)
        else:
            e = "(x[i] + " * depth + "1" + ")" * depth
        return kind, head + f"    out = {e}\n", 3
    if kind == "leading_zero":
        return kind, head + f"    out = x[i] + 0{draw(st.integers(0, 10**6))}\n", 3
    if kind == "long_int":
        return kind, head + f"    out = x[i] + 1{'0' * draw(st.integers(4300, 6000))}\n", 3
    return kind, head + f"    out = x[i] + {draw(st.integers(1 << 32, 1 << 200))}\n", 3


@FUZZ
@given(case=malformed_spec(), cmd=st.sampled_from([["show", "u.t"], ["specs"], ["lowering", "XOR5"]]))
def test_malformed_user_spec(case: tuple[str, str, int], cmd: list[str]) -> None:
    kind, text, line = case
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "specs").mkdir()
        p = tmp / "specs" / "u.spec"
        p.write_text(text)
        argv = [XOR5 if a == "XOR5" else a for a in cmd]
        if line < 0:  # an error only running the spec finds
            argv = ["show", "u.t", "--wave", "32"]
        try:
            refused(argv, tmp, None if line < 0 else f"{p}:{line}:" if line else f"{p}:", env={"VERIFY_PATH": str(tmp)})
        finally:
            catalog._speclib.cache_clear()


# ---------------------------------------------------------------------------
# proof records given to `verify check`

RECORD = json.loads((ROOT / "proofs" / "xor5.proof").read_text())


def _paths(v: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [at]
    if isinstance(v, dict):
        for k, x in v.items():
            out += _paths(x, (*at, k))
    elif isinstance(v, list):
        for k, x in enumerate(v):
            out += _paths(x, (*at, k))
    return out


def _kind(v: object) -> str:
    return "bool" if isinstance(v, bool) else "null" if v is None else type(v).__name__


_VALUES = [None, True, False, 0, 64, 2, 1.5, 64.0, "", "proved", "gfx900", [], ["v_mov_b32"], [[["x"]]], {}, {"a": "b"}]


@st.composite
def malformed_record(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["retype", "retype", "retype", "drop", "extra", "deep", "truncate"]))
    rec = json.loads(json.dumps(RECORD))
    paths = _paths(rec)
    if kind == "truncate":
        text = json.dumps(rec, indent=2)
        return text[:draw(st.integers(0, text.rindex("}") - 1))]
    if kind == "deep":
        n = draw(st.integers(1000, 200000))
        at = draw(st.sampled_from([p for p in paths if p]))
        marker = "__DEEP__"
        _set(rec, at, marker)
        return json.dumps(rec, indent=2).replace(f'"{marker}"', "[" * n + "]" * n)
    if kind == "drop":
        at = draw(st.sampled_from([p for p in paths if p and isinstance(_get(rec, p[:-1]), dict)]))
        del _get(rec, at[:-1])[at[-1]]
        return json.dumps(rec, indent=2)
    if kind == "extra":
        at = draw(st.sampled_from([p for p in paths if isinstance(_get(rec, p), dict) and _get(rec, p) is not rec.get("assumptions")
                                   and p[-1:] != ("assumptions",)]))
        _get(rec, at)[draw(st.sampled_from(["extra", "note", "z"]))] = draw(st.sampled_from(_VALUES))
        return json.dumps(rec, indent=2)
    at = draw(st.sampled_from(paths))
    old = _get(rec, at)
    new = draw(st.sampled_from([v for v in _VALUES if _kind(v) != _kind(old)]))
    if not at:
        return json.dumps(new)
    _set(rec, at, new)
    return json.dumps(rec, indent=2)


def _get(v: object, at: tuple[object, ...]) -> object:
    for k in at:
        v = v[k]  # type: ignore[index]
    return v


def _set(v: object, at: tuple[object, ...], new: object) -> None:
    _get(v, at[:-1])[at[-1]] = new  # type: ignore[index]


@FUZZ
@given(text=malformed_record())
def test_malformed_proof_record(text: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "lowerings").mkdir()
        (tmp / "proofs").mkdir()
        (tmp / "lowerings" / "xor5.s").write_text(TEXTS["lowerings/xor5.s"])
        (tmp / "proofs.lock").write_text((ROOT / "proofs.lock").read_text())
        p = tmp / "proofs" / "xor5.proof"
        p.write_text(text)
        refused(["check", str(tmp / "lowerings" / "xor5.s")], tmp, f"{p}:")


# ---------------------------------------------------------------------------
# `verify asm --assert`


@st.composite
def malformed_assertion(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["value", "deep", "twice", "shape"]))
    if kind == "value":
        v = draw(st.one_of(
            st.integers(1, 10**6).map(lambda n: f"0{n}"),
            st.integers(4300, 6000).map(lambda n: "1" * n),
            st.integers(1 << 32, 1 << 100).map(str),
            st.integers(1 << 31 + 1, 1 << 100).map(lambda n: f"-{n}"),
            st.sampled_from(["True", "False", "-True", "None", "1.5", "-1.5", "1e3", "-1j", "b'x'", "[1]", "(1, 2)",
                             "1 + 1", "x[0]", "f(1)", "lambda: 1", "..."]),
        ))
        return f"v1 == cuda.shfl_xor(v0, mask={v})"
    if kind == "deep":
        n = draw(st.integers(101, 100000))
        return f"v1 == cuda.shfl_xor(v0, mask={draw(st.sampled_from('-+~')) * n}1)"
    if kind == "twice":
        a, b = draw(st.integers(0, 31)), draw(st.integers(0, 31))
        return f"v1 == cuda.shfl_xor(v0, mask={a}, width=32, mask={b})"
    return draw(st.sampled_from(["v1 = cuda.shfl_xor(v0, mask=1)", "v1 == v0", "cuda.shfl_xor(v0, mask=1) == v1",
                                 "v1 == cuda.shfl_xor(1, mask=1)", "v1 == cuda.nope(v0)", "v999 == cuda.shfl_xor(v0, mask=1)",
                                 "v1 == cuda.shfl_xor(v0, **m)", "v1 == cuda.shfl_xor(v0, v1, mask=1)", "",
                                 "exec == v1", "v1 == cuda.shfl_xor(v0, mask=1) == v1"]))


@FUZZ
@given(expr=malformed_assertion())
def test_malformed_assertion(expr: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        k = tmp / "k.s"
        k.write_text(KERNEL)
        refused(["asm", str(k), "--assert", expr], tmp)


# ---------------------------------------------------------------------------
# command-line arguments

_BAD_INT = st.one_of(st.integers(1, 10**6).map(lambda n: f"0{n}"), st.integers(81, 6000).map(lambda n: "9" * n))
_NAME = st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True)


@st.composite
def malformed_argv(draw: st.DrawFn, tmp: Path) -> list[str]:
    out_missing = str(tmp / draw(_NAME) / "out.txt")
    kind = draw(st.integers(0, 20))
    if kind == 0:
        return ["lowering", XOR5, "--wave", draw(st.sampled_from(["0", "16", "48", "064", "128", "x", "", "-64"]))]
    if kind == 1:
        return ["lowering", XOR5, "--timeout", draw(st.sampled_from(["0", "-1", "nan", "inf", "-inf", "x", "", "1e999"]))]
    if kind == 2:
        return ["lowering", XOR5, "--assume", draw(st.sampled_from(["x", "=", "nope=any", "permute.collision=nope", ""]))]
    if kind == 3:
        return ["lowering", "nope_" + draw(_NAME)]
    if kind == 4:
        return ["lowering", XOR5, "--target", "gfx" + draw(st.sampled_from(["0", "999", "", "x", "9000"]))]
    if kind == 5:
        return ["show", "cuda.shfl_xor", f"mask={draw(_BAD_INT)}"]
    if kind == 6:
        return ["show", "cuda.shfl_xor", "mask=1", "--wave", "32", "--input", f"x={draw(_BAD_INT)}"]
    if kind == 7:
        return ["show", XOR5, "--exec", draw(st.sampled_from(["zz", "1_0", "0x", "", " 1", "0b2", "f" * 17, "0x" + "f" * 5000, "-1"]))]
    if kind == 8:
        return ["emit", XOR5, "--target", "gfx900", "--wave", "64", "-o", draw(st.sampled_from([str(tmp), out_missing]))]
    if kind == 9:
        return ["synth", "cuda.shfl_xor", "mask=1", "--target", "gfx900", "--wave", "64", "-o",
                draw(st.sampled_from([str(tmp), out_missing]))]
    if kind == 10:
        return ["check", str(ROOT / "lowerings" / "xor5.s"), "--junit", draw(st.sampled_from([str(tmp), out_missing]))]
    if kind == 11:
        return ["check", "--shard", draw(st.sampled_from(["0/0", "2/1", "1", "a/b", "1/0", "-1/2", "", "1/" + "9" * 5000]))]
    if kind == 12:
        return ["prove", "--jobs", draw(st.sampled_from(["0", "-1", "x", "01", "1.0", ""]))]
    if kind == 13:
        return ["asm", str(tmp / "missing.s"), "--assert", "v1 == v1"]
    if kind == 14:
        return ["show", "cuda.shfl_xor", draw(st.sampled_from(["mask", "=1", "mask==1", "nomask=1", "mask=\"", "mask=1.5"]))]
    if kind == 15:
        return [draw(st.sampled_from(["frob", "--frob", "lowering --x", "-"]))]
    if kind == 18:
        return ["show", "cuda.shfl_xor", "mask=1", "width=16", draw(st.sampled_from(["mask=2", "width=8", "mask=1"]))]
    if kind == 19:
        return ["show", "cuda.shfl_xor", "mask=1", "--wave", "32", "--input", "x=1", "--input", f"x={draw(st.integers(0, 9))}"]
    if kind == 20:  # wider than the lane: 32 bits, or 64 for an i64 spec
        if draw(st.booleans()):
            v = draw(st.one_of(st.integers(1 << 32, (1 << 64) - 1), st.integers(-(1 << 63), -(1 << 31) - 1)))
            spec, param = draw(st.sampled_from([("cuda.shfl_xor", "mask=1"), ("cuda.shfl_idx", "lane=1")]))
            return ["show", spec, param, "--wave", "32", "--input", f"x={v:#x}" if v > 0 else f"x={v}"]
        v = draw(st.one_of(st.integers(1 << 64, 1 << 70), st.integers(-(1 << 70), -(1 << 63) - 1)))
        return ["show", "cuda.shfl_idx_i64", "lane=1", "--wave", "32", "--input", f"x={v}"]
    if kind == 16:
        return ["synth", "cuda.shfl_xor", "mask=1", "--target", "gfx900", "--wave", "64", "--max-ops",
                draw(st.sampled_from(["0", "-1", "x"]))]
    return ["lowering", XOR5, "--frobnicate", draw(_NAME)]


@FUZZ
@given(data=st.data())
def test_malformed_arguments(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        argv = data.draw(malformed_argv(tmp))
        refused(argv, tmp)


# ---------------------------------------------------------------------------
# any edit of a lowering file: valid or not (not decided here), never a traceback


@st.composite
def edited_lowering(draw: st.DrawFn) -> bytes:
    data = bytearray(TEXTS[draw(st.sampled_from(BASES))].encode())
    alphabet = b" \t\n,:;.=@[]()-+0123456789xabfsv_"
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data) - 1))
        op = draw(st.sampled_from(["delete", "insert", "replace"]))
        byte = draw(st.sampled_from(alphabet))
        if op == "delete":
            del data[at]
        elif op == "insert":
            data.insert(at, byte)
        else:
            data[at] = byte
    return bytes(data)


@FUZZ
@given(data=edited_lowering())
def test_edited_lowering_file_never_a_traceback(data: bytes) -> None:
    """`verify show` (no solver) on a randomly edited lowering: exit 0 with a
    lane table, or exit 2 with one `path:line:col: error:` line (or one plain
    `error:` line, for a problem no single position causes)."""
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        p = tmp / "t.s"
        p.write_bytes(data)
        before = _tree(tmp)
        out, err = io.StringIO(), io.StringIO()
        try:
            code = main(["show", str(p)], out, err)
        except BaseException:
            pytest.fail(f"traceback from verify show on:\n{data.decode(errors='replace')}\n{traceback.format_exc()}")
        assert _tree(tmp) == before
        errors = [line for line in err.getvalue().splitlines() if "error:" in line]
        if code == 0:
            assert errors == [] and out.getvalue()
        else:
            assert code == 2 and out.getvalue() == "" and len(errors) == 1, (code, err.getvalue())
            assert errors[0].startswith((f"{p}:", "error: ")), errors[0]


# ---------------------------------------------------------------------------
# proofs.lock given to `verify check`

LOCK = (ROOT / "proofs.lock").read_text()


@st.composite
def malformed_lock(draw: st.DrawFn) -> tuple[str, str | bytes, int]:
    """(class, lock text or bytes, the 1-based line at fault; 1: the file as a whole)."""
    lines = LOCK.splitlines()
    body = [k for k, ln in enumerate(lines) if ln.strip() and not ln.startswith("#")]
    kind = draw(st.sampled_from(["fields", "twice", "no_core", "bad_byte", "long_line", "empty"]))
    if kind == "fields":  # a line that is not NAME REVISION
        k = draw(st.sampled_from(body))
        lines[k] = draw(st.sampled_from([lines[k].split()[0], lines[k] + " extra", "core", " x y z", "a\x0bb c"]))
        return kind, "\n".join(lines) + "\n", k + 1
    if kind == "twice":
        k = draw(st.sampled_from(body))
        at = draw(st.integers(k + 1, len(lines)))
        lines.insert(at, lines[k].split()[0] + " " + draw(st.sampled_from(["0", "r1-0", lines[k].split()[1]])))
        return kind, "\n".join(lines) + "\n", at + 1
    if kind == "no_core":
        return kind, "\n".join(ln for ln in lines if not ln.startswith("core ")) + "\n", 1
    if kind == "bad_byte":
        data = LOCK.encode()
        at = draw(st.integers(0, len(data)))
        return kind, data[:at] + bytes([draw(st.integers(0x80, 0xFF))]) + data[at:], data.count(b"\n", 0, at) + 1
    if kind == "long_line":
        k = draw(st.sampled_from(body))
        lines[k] = lines[k] + " " + "f" * draw(st.integers(10_000, 1_000_000))
        return kind, "\n".join(lines) + "\n", k + 1
    return kind, draw(st.sampled_from(["", "\n", "# only a comment\n", "   \n\n"])), 1


@settings(FUZZ, max_examples=max(20, EXAMPLES // 3))  # each runs `verify check`/`show` setup: ~30 ms
@given(case=malformed_lock())
def test_malformed_proofs_lock(case: tuple[str, str | bytes, int]) -> None:
    kind, text, line = case
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "lowerings").mkdir()
        (tmp / "proofs").mkdir()
        (tmp / "lowerings" / "xor5.s").write_text(TEXTS["lowerings/xor5.s"])
        (tmp / "proofs" / "xor5.proof").write_text((ROOT / "proofs" / "xor5.proof").read_text())
        p = tmp / "proofs.lock"
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text)
        refused(["check", str(tmp / "lowerings" / "xor5.s")], tmp, f"{p}:{line}:")


# ---------------------------------------------------------------------------
# output paths: `check --html DIR`, `--svg FILE` (refused before any work):
# under a file, under a missing directory, an existing file where a directory
# is wanted, a name longer than the file system takes, an empty name


@st.composite
def bad_output_path(draw: st.DrawFn, tmp: Path) -> list[str]:
    (tmp / "afile").write_text("x")
    name = draw(_NAME)
    where = draw(st.sampled_from([str(tmp / "afile" / name), str(tmp / name / "sub" / "x"), str(tmp / "afile" / name / "x"),
                                  str(tmp / (name * 300)[:300])]))
    kind = draw(st.sampled_from(["html", "html_file", "svg_lowering", "svg_show", "svg_dir"]))
    if kind == "html":
        return ["check", XOR5, "--html", where]
    if kind == "html_file":  # a file (or nothing) where a directory is wanted
        return ["check", XOR5, "--html", draw(st.sampled_from([str(tmp / "afile"), XOR5, ""]))]
    if kind == "svg_dir":  # a directory, or nothing, where a file is wanted
        return [draw(st.sampled_from(["lowering", "show"])), XOR5, "--svg", draw(st.sampled_from([str(tmp), "", "."]))]
    return ["lowering" if kind == "svg_lowering" else "show", XOR5, "--svg", where + ".svg"]


@settings(FUZZ, max_examples=max(20, EXAMPLES // 3))  # each runs `verify check`/`show` setup: ~30 ms
@given(data=st.data())
def test_bad_output_path(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        argv = data.draw(bad_output_path(tmp))
        refused(argv, tmp)


# ---------------------------------------------------------------------------
# `verify tv`: malformed IR, unknown intrinsics and types, huge vectors, RUN
# lines naming unknown CPUs (these fail before any compile: cheap), and a few
# `--llc` commands that fail, hang, flood or print garbage (each runs the IR
# side first: the tier runs EXAMPLES // 100 of them)

TV_BASES = ["dpp8_reverse.ll", "dpp_quad_perm_1032_add.ll", "arith_select.ll", "ballot_popc.ll"]
TV_TEXTS = {b: (ROOT / "tests" / "tv" / b).read_text() for b in TV_BASES}
TV_TARGET = ["--target", "gfx1100", "--wave", "32"]


def tv_not_accepted(argv: list[str], tmp: Path, env: dict[str, str] | None = None) -> None:
    """`verify tv` on input that is wrong by construction: no traceback, no
    file written, and never a verdict that passes: exit 2 with one `error:`
    line, exit 4 with a Summary of unsupported functions and nothing proved
    (or 2 where an error result is among them), exit 3 (unknown), or exit 1
    with "compiler error" verdicts (an llc that ran and failed on the module)."""
    before = _tree(tmp)
    out, err = io.StringIO(), io.StringIO()
    old = {k: os.environ.get(k) for k in env or {}}
    os.environ.update(env or {})
    try:
        code = main(argv, out, err)
    except BaseException:
        pytest.fail(f"traceback from verify {argv!r:.300}:\n{traceback.format_exc()}")
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    assert "Traceback" not in err.getvalue()
    assert _tree(tmp) == before, "a file was written"
    assert code in (1, 2, 3, 4), (code, out.getvalue()[-500:], err.getvalue()[:500])
    errors = [ln for ln in err.getvalue().splitlines() if "error:" in ln]
    if out.getvalue():
        summary = out.getvalue().splitlines()[-1]
        assert summary.startswith("Summary: 0 correct, 0 incorrect"), summary
        # exit 1 only for an llc that ran and failed on the module: a "compiler error" verdict
        assert code != 1 or re.search(r", \d+ compiler errors?$", summary), summary
        assert errors == [], errors
    else:
        assert code == 2 and len(errors) == 1, err.getvalue()[:1000]


@st.composite
def malformed_ir(draw: st.DrawFn) -> tuple[str, str | bytes, list[str]]:
    """(class, IR text or bytes, extra arguments)."""
    base = draw(st.sampled_from(TV_BASES))
    text = TV_TEXTS[base]
    kind = draw(st.sampled_from(["truncate", "opcode", "bad_byte", "intrinsic", "huge_vector", "type",
                                 "unknown_cpu", "no_function", "brace"]))
    a, b = text.index("define"), text.rindex("}")
    if kind == "truncate":
        return kind, text[:draw(st.integers(a, b - 1))], TV_TARGET
    if kind == "opcode":
        ops = [m for m in re.finditer(r"= (\w+) ", text[a:])]
        m = draw(st.sampled_from(ops))
        return kind, text[:a + m.start(1)] + draw(st.sampled_from(["frob", "addd", "sel", "0"])) + text[a + m.end(1):], TV_TARGET
    if kind == "bad_byte":
        data = text.encode()
        at = draw(st.integers(0, len(data)))
        return kind, data[:at] + bytes([draw(st.integers(0x80, 0xFF))]) + data[at:], TV_TARGET
    if kind == "intrinsic":  # an intrinsic (or function) verify does not know, declared and called
        name = draw(st.sampled_from(["llvm.amdgcn.nope", "llvm.amdgcn.ds.swizzle.nope", "ext.frob", "llvm.nope"]))
        n = draw(st.integers(0, 99))
        return kind, (text[:b] + f"  %zz = call i32 @{name}{n}(i32 0)\n" + text[b:]
                      + f"declare i32 @{name}{n}(i32)\n"), TV_TARGET
    if kind == "huge_vector":
        n = draw(st.integers(1 << 10, 1 << 24))
        t = draw(st.sampled_from(["i32", "i8", "i1", "float"]))
        form = draw(st.sampled_from(["arg", "ret"]))
        if form == "arg":
            ir = f"define i32 @f(<{n} x {t}> %x) {{\n  ret i32 0\n}}\n"
        else:
            ir = f"define <{n} x {t}> @f() {{\n  ret <{n} x {t}> zeroinitializer\n}}\n"
        return kind, ir, TV_TARGET
    if kind == "type":
        t = draw(st.sampled_from(["i33", "i1024", "i128", "fp128", "x86_fp80", "{ i32, i32 }", "[4 x i32]"]))
        return kind, f"define i32 @f({t} %x) {{\n  ret i32 0\n}}\n", TV_TARGET
    if kind == "unknown_cpu":
        cpu = draw(st.sampled_from(["gfx9999", "nope", "gfx", "gfx1100x", "sm_90", "znver4"]))
        return kind, re.sub(r"-mcpu=\S+", f"-mcpu={cpu}", text), []
    if kind == "no_function":
        return kind, draw(st.sampled_from(["", "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s\n",
                                           "declare i32 @llvm.amdgcn.readfirstlane.i32(i32)\n",
                                           text[:a] + "\n"])), TV_TARGET
    return kind, text.replace("}", "", 1) if draw(st.booleans()) else text.replace("{", "", 1), TV_TARGET


@settings(FUZZ, max_examples=max(20, EXAMPLES // 3))
@given(case=malformed_ir())
def test_malformed_tv_input(case: tuple[str, str | bytes, list[str]]) -> None:
    kind, text, extra = case
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        p = tmp / "t.ll"
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text)
        tv_not_accepted(["tv", str(p), *extra], tmp)


_LLC = ["false", "sh -c 'echo boom >&2; exit 3'", "sh -c 'sleep 30'", "sh -c 'yes garbage'",
        "printf '\\377\\376\\375'", "printf 'garbage\\n'", "true", "llc-22 'unbalanced", "llc-22 \"x",
        "/nonexistent/llc-22", "sh -c 'kill -9 $$'", "sh -c 'head -c 20000000 /dev/zero'"]


@settings(FUZZ, max_examples=max(4, EXAMPLES // 100))
@given(llc=st.sampled_from(_LLC), base=st.sampled_from(TV_BASES[:2]))
def test_tv_bad_llc(llc: str, base: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        p = tmp / "t.ll"
        p.write_text(TV_TEXTS[base])
        tv_not_accepted(["tv", str(p), *TV_TARGET, "--llc", llc], tmp, env={"VERIFY_LLC_TIMEOUT": "1"})


@pytest.mark.skipif(EXAMPLES < 1000, reason="the fuzz tier's (VERIFY_FUZZ >= 1000): reading 10,000 instructions takes seconds")
def test_tv_ten_thousand_instructions() -> None:
    """A 10,000-instruction function that calls an unknown function first:
    read, and found unsupported without compiling."""
    body = "".join(f"  %v{k + 1} = add i32 %v{k}, {k}\n" for k in range(10_000))
    ir = (f"define i32 @f(i32 %a) {{\n  %v0 = call i32 @ext.nope(i32 %a)\n{body}  ret i32 %v10000\n}}\n"
          "declare i32 @ext.nope(i32)\n")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        p = tmp / "t.ll"
        p.write_text(ir)
        tv_not_accepted(["tv", str(p), *TV_TARGET], tmp)
