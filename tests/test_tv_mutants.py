"""One-token mutants of the code LLVM compiles a few corpus functions to are
refuted by `verify tv --asm` (or rejected as input verify does not take),
except the few listed as equivalent, each with its reason.  (One-token IR
mutants of every corpus file: tests/test_tv.py::test_corpus_ir_mutant_refuted.)

The mutations are benchmarks/mutations.py's (opcode, DPP control, row/bank
mask bit, constant) plus dropping the line.  Mutations that only change the
encoding (``_e32`` <-> ``_e64``) or drop a scheduling hint are equivalent by
construction and are counted apart."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("llvmlite")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from mutations import token_mutations

from verify.diag import InputError
from verify.target import get
from verify.tv.check import check_file
from verify.tv.compile import by_llvmlite_isolated

CORPUS = Path(__file__).parent / "tv"

# (file, target, wave): functions whose compiled code has no dead code, so
# that nearly every mutant changes what a lane computes.  (Kernels are left
# out: mutants of the work-item ID's address arithmetic, e.g. 0x3ff -> 1,
# run past the 30 s solver timeout as "unknown".)
CASES = [("dpp_row_shr1_add", "gfx1100", 64), ("swizzle_xor1", "gfx90a", 64),
         ("permlanex16_id", "gfx1100", 32)]

SCHEDULE = re.compile(r"^\s*(s_delay_alu|s_nop|s_clause|s_wait_alu)\b")

# (file, the line as LLVM printed it, the mutation) -> why the mutant computes the same
EQUIVALENT: dict[tuple[str, str, str], str] = {
    ("dpp_row_shr1_add", "v_add_nc_u32_dpp v0, v0, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
     "drop bound_ctrl:1"):
        "a lane with no source keeps its old v0 without bound_ctrl, and adds 0 to v0 with it: v0 either way",
}


def body(asm: str, fn: str) -> list[int]:
    """Indices of the instruction lines of function `fn` in `asm`."""
    lines = asm.split("\n")
    start = next(i for i, ln in enumerate(lines) if re.match(rf"^{re.escape(fn)}:", ln))
    end = next(i for i in range(start, len(lines)) if re.match(r"^\s*(s_setpc_b64|s_endpgm)\b", lines[i]))
    return [i for i in range(start + 1, end + 1)
            if lines[i].strip() and not lines[i].strip().startswith((";", ".")) and not lines[i].strip().endswith(":")]


def mutants(asm: str, fn: str) -> list[tuple[int, str, str, str]]:
    """(the line's place in the body, the line, what, the mutated assembly)
    for each one-token mutant."""
    lines = asm.split("\n")
    out = []
    for k, i in enumerate(body(asm, fn)):
        code = lines[i].split(";")[0].rstrip()
        for what, new in token_mutations(code) + [("drop line", None)]:
            out.append((k, code.strip(), what, "\n".join(lines[:i] + ([] if new is None else [new]) + lines[i + 1:])))
    return out


def generic_equivalent(k: int, line: str, what: str) -> str | None:
    """Why a mutant of any function computes the same, where a rule says.
    (None today: a function's entry wait is needed, since the caller may
    leave loads outstanding into the argument VGPRs.)"""
    return None


def by_construction(line: str, what: str) -> bool:
    """An encoding-only change, or a dropped scheduling hint."""
    if what.startswith("op ") and re.fullmatch(r"op (\S+)_e(32|64)->\1_e(32|64)", what):
        return True
    return what == "drop line" and SCHEDULE.match(line) is not None


@pytest.mark.slow
@pytest.mark.parametrize("name, target, wave", CASES, ids=[c[0] for c in CASES])
def test_compiled_code_mutants_are_refuted(name, target, wave, capsys):
    path = CORPUS / f"{name}.ll"
    text = path.read_text()
    asm = by_llvmlite_isolated(text, get(target), wave)
    counts = {"refuted": 0, "rejected": 0, "by construction": 0}
    equivalent, wrong = [], []
    for k, line, what, mutated in mutants(asm, name):
        if by_construction(line, what):
            counts["by construction"] += 1
            continue
        try:
            r = check_file(str(path), text, [target], wave, [], asm=("m.s", mutated))[0]
            verdict = r.verdict
        except InputError:
            verdict = "rejected"
        if verdict == "unsupported":  # a line verify does not take (not an instruction, or not on this target)
            verdict = "rejected"
        why = EQUIVALENT.get((name, line, what)) or generic_equivalent(k, line, what)
        if verdict == "proved" and why:
            equivalent.append(f"{line} [{what}]: {why}")
        elif verdict in counts:
            counts[verdict] += 1
        else:
            wrong.append(f"{verdict}: {line} [{what}]")
    with capsys.disabled():
        print(f"\n{name} {target} wave{wave}: {counts}, equivalent {len(equivalent)}")
        for e in equivalent:
            print(f"  equivalent: {e}")
    assert not wrong, wrong
    assert counts["refuted"] >= 5


def test_a_function_without_its_entry_wait_is_refuted():
    """A callee may not read its argument VGPRs before a vmcnt(0) and an
    lgkmcnt(0): the caller may have loads outstanding into them (LLVM waits
    at every non-entry function's entry).  [S:call-entry-wait]"""
    path = CORPUS / "swizzle_xor1.ll"
    text = path.read_text()
    asm = by_llvmlite_isolated(text, get("gfx90a"), 64)
    lines = asm.split("\n")
    entry = body(asm, "swizzle_xor1")[0]
    assert lines[entry].strip().startswith("s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)")
    assert check_file(str(path), text, ["gfx90a"], 64, [], asm=("m.s", asm))[0].verdict == "proved"
    dropped = "\n".join(lines[:entry] + lines[entry + 1:])
    r = check_file(str(path), text, ["gfx90a"], 64, [], asm=("m.s", dropped))[0]
    assert r.verdict == "refuted"
    only_vm = "\n".join(lines[:entry] + ["\ts_waitcnt vmcnt(0)"] + lines[entry + 1:])
    assert check_file(str(path), text, ["gfx90a"], 64, [], asm=("m.s", only_vm))[0].verdict == "refuted"
