"""One-token mutations of an assembly instruction line, shared by
benchmarks/bench_mutants.py (the catalogue's lowerings) and
tests/test_tv_mutants.py (the code LLVM prints for the tv corpus).

A mutation changes one token of the line:

* opcode: ``max``<->``min``, ``_u32``<->``_i32``, ``add``<->``sub``,
  ``and``/``or``/``xor`` rotated, ``readlane``<->``readfirstlane``...;
* DPP control: ``row_shr:N`` to N-1 / N+1 / ``row_shl:N`` / ``row_ror:N``,
  ``row_bcast:15``<->``31``, ``row_mirror``<->``row_half_mirror``,
  one ``quad_perm`` entry changed, ``bound_ctrl`` added or dropped;
* one bit of ``row_mask`` / ``bank_mask``;
* a constant operand: 0, 1, -1, -2, 2, 0x80000000 and the value +-1.

(Dropping the whole line is the callers' own mutation.)
"""

from __future__ import annotations

import re

OPCODE_SWAPS = [("max", "min"), ("min", "max"), ("_u32", "_i32"), ("_i32", "_u32"), ("add", "sub"), ("sub", "add"),
                ("and", "or"), ("or", "xor"), ("xor", "and"), ("readlane", "readfirstlane"), ("mul_lo", "mul_hi"),
                ("cndmask", "mov"), ("_e64", "_e32"), ("_e32", "_e64")]
CONSTS = [0, 1, -1, -2, 2, 0x80000000]


def _int(tok: str) -> int | None:
    try:
        return int(tok, 0)
    except ValueError:
        return None


def token_mutations(line: str) -> list[tuple[str, str]]:
    """(what, new line) for every one-token change of an instruction line."""
    out: list[tuple[str, str]] = []
    m = re.match(r"(\s*)(\S+)(.*)$", line)
    if not m:
        return out
    lead, mnem, rest = m.groups()
    for a, b in OPCODE_SWAPS:
        if a in mnem:
            new = mnem.replace(a, b, 1)
            if new != mnem:
                out.append((f"op {mnem}->{new}", lead + new + rest))
    # operands and modifiers: split the rest on commas/spaces, keep the separators
    parts = re.split(r"(\s*,\s*|\s+)(?![^\[]*\])", rest)  # not inside quad_perm:[...]
    for k, tok in enumerate(parts):
        if not tok or re.fullmatch(r"\s*,\s*|\s+", tok):
            continue

        def put(new: str, what: str, k: int = k, tok: str = tok) -> None:
            if new != tok:
                out.append((what, lead + mnem + "".join(parts[:k] + [new] + parts[k + 1:])))

        if mm := re.fullmatch(r"(row_shr|row_shl|row_ror|row_share|row_xmask|row_newbcast):(\d+)", tok):
            ctl, n = mm.group(1), int(mm.group(2))
            for n2 in (n - 1, n + 1):
                if 0 <= n2 <= 15:
                    put(f"{ctl}:{n2}", f"dpp {tok}->{ctl}:{n2}")
            for c2 in ("row_shr", "row_shl", "row_ror"):
                if c2 != ctl and ctl in ("row_shr", "row_shl", "row_ror"):
                    put(f"{c2}:{n}", f"dpp {tok}->{c2}:{n}")
        elif mm := re.fullmatch(r"row_bcast:(\d+)", tok):
            put(f"row_bcast:{46 - int(mm.group(1))}", f"dpp {tok}->row_bcast:{46 - int(mm.group(1))}")
        elif tok in ("row_mirror", "row_half_mirror"):
            other = "row_half_mirror" if tok == "row_mirror" else "row_mirror"
            put(other, f"dpp {tok}->{other}")
        elif mm := re.fullmatch(r"quad_perm:\[(\d),(\d),(\d),(\d)\]", tok):
            q = [int(x) for x in mm.groups()]
            for j in range(4):
                q2 = list(q)
                q2[j] = (q[j] + 1) % 4
                put(f"quad_perm:[{','.join(map(str, q2))}]", f"dpp {tok}->quad_perm:[{','.join(map(str, q2))}]")
        elif mm := re.fullmatch(r"(row_mask|bank_mask):0x([0-9a-fA-F])", tok):
            mask = int(mm.group(2), 16)
            for bit in range(4):
                put(f"{mm.group(1)}:{mask ^ (1 << bit):#x}", f"{mm.group(1)} {mask:#x}->{mask ^ (1 << bit):#x}")
        elif tok in ("bound_ctrl:0", "bound_ctrl:1"):
            out.append((f"drop {tok}", lead + mnem + "".join(parts[:k] + parts[k + 1:]).rstrip()))
        elif (v := _int(tok)) is not None and not tok.startswith(("v", "s")):
            for c in CONSTS + [v - 1, v + 1]:
                if c != v:
                    put(str(c) if -16 <= c <= 64 else f"{c & 0xFFFFFFFF:#x}", f"const {tok}->{c}")
    if "_dpp" in mnem and "bound_ctrl" not in rest:
        out.append(("add bound_ctrl:1", line.rstrip() + " bound_ctrl:1"))
    return out
