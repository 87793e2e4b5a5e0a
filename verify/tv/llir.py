"""LLVM IR as `verify tv` reads it: llvmlite's parser (LLVM's own), turned
into plain records with source positions.

llvmlite gives no source locations, so each instruction is matched, in
order, with the instruction lines of its function's body in the file (one
instruction per line, as hand-written and llc-test IR is); a file where the
two do not line up gets the `define` line for every instruction.

Values are keyed by their printed text within a function (llvmlite names
numbered values ''), which is unique per definition.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

import llvmlite.binding as llvm

from ..diag import InputError, Span

# types verify tv gives lane values to: name -> (bit width, is float)
TYPES: dict[str, tuple[int, bool]] = {"i1": (1, False), "i8": (8, False), "i16": (16, False), "i32": (32, False),
                                      "float": (32, True)}


@dataclass(frozen=True)
class Operand:
    kind: str  # "const", "undef", "poison", "ref", "func", "other"
    type: str
    value: int = 0  # const: the integer (masked to the type's width) or the float's bits
    key: str = ""  # ref: the defining value's key; func: the callee's name
    text: str = ""
    elems: tuple[int | None, ...] | None = None  # a vector constant: each element's bits (None: poison)


@dataclass
class Inst:
    key: str
    name: str  # "%x" or "" (unnamed results are "%<n>" in the text)
    opcode: str
    type: str  # result type ("void" for none)
    text: str  # as llvmlite prints it, stripped
    operands: list[Operand]
    span: Span
    words: list[str] = field(default_factory=list)  # the tokens between '=' opcode and the type
    block: int = 0  # the index of its basic block in the function
    # control flow: a terminator's successor blocks (br: [then, else] or
    # [dest]; switch: [default, case...]), a phi's incoming blocks, in operand order
    targets: list[int] = field(default_factory=list)
    cases: list[int] = field(default_factory=list)  # switch: each case's value (masked), in order

    @property
    def callee(self) -> str:
        return self.operands[-1].key if self.opcode == "call" and self.operands else ""


@dataclass
class Arg:
    key: str
    name: str
    type: str
    inreg: bool


@dataclass
class Function:
    name: str
    span: Span
    kernel: bool
    cc: str
    args: list[Arg]
    ret: str
    blocks: int
    insts: list[Inst]
    block_names: list[str] = field(default_factory=list)
    # the function's string attributes ("amdgpu-no-workitem-id-y": "", "amdgpu-flat-work-group-size": "1,256")
    attrs: dict[str, str] = field(default_factory=dict)
    reqd_work_group_size: tuple[int, int, int] | None = None  # its !reqd_work_group_size metadata


@dataclass
class Module:
    path: str
    text: str
    functions: list[Function]
    run_lines: list[tuple[int, str]]  # (line, the RUN command)


def _type_text(t: object) -> str:
    return str(t).strip()


def _const_value(text: str, ty: str) -> int | None:
    """The bits of a printed constant ('i32 -1', 'i1 true', 'float 1.0',
    'half 0xH3C00', 'double 1.5', 'ptr null')."""
    body = text[len(ty):].strip() if text.startswith(ty) else text.split(" ", 1)[-1]
    if ty == "i1" and body in ("true", "false"):
        return 1 if body == "true" else 0
    if body == "null" and ty.startswith("ptr"):
        # the IR's null is the zero bit pattern in every address space (llc-22
        # materialises `ptr addrspace(2/3/5/6) null` as 0); AMDGPU's -1 for
        # LDS, private and region is what an addrspacecast of a flat null
        # gives (getNullPointerValue), not this constant  [S:ir-null]
        return 0 if re.fullmatch(r"ptr(\s+addrspace\(\d+\))?", ty) else None
    w = TYPES.get(ty, (64 if ty == "i64" else 0, False))[0]
    m = re.fullmatch(r"0x([HR])([0-9A-Fa-f]{4})", body)
    if m and ty == {"H": "half", "R": "bfloat"}[m.group(1)]:
        return int(m.group(2), 16)
    if ty == "double":
        m = re.fullmatch(r"0x([0-9A-Fa-f]{16})", body)
        if m:
            return int(m.group(1), 16)
        try:
            return int(struct.unpack("<Q", struct.pack("<d", float(body)))[0])
        except ValueError:
            return None
    if ty.startswith("i") and re.fullmatch(r"-?\d+", body):
        return int(body) & ((1 << w) - 1 if w else -1)
    if ty == "float":
        m = re.fullmatch(r"0x([0-9A-Fa-f]{16})", body)
        if m:  # LLVM prints floats as the double's bits when not exact in decimal
            d = struct.unpack("<d", bytes.fromhex(m.group(1))[::-1])[0]
            return int(struct.unpack("<I", struct.pack("<f", d))[0])
        try:
            return int(struct.unpack("<I", struct.pack("<f", float(body)))[0])
        except ValueError:
            return None
    return None


def _vector_elems(text: str, ty: str) -> tuple[int | None, ...] | None:
    """A vector constant's elements ('<2 x i16> <i16 1, i16 poison>',
    'zeroinitializer', 'splat (half 0xH3C00)'); None: not one verify reads
    (an undef element, a constant expression)."""
    m = re.fullmatch(r"<\s*(\d+)\s+x\s+(.+?)\s*>", ty)
    if m is None:
        return None
    n, ety = int(m.group(1)), m.group(2)
    body = text[len(ty):].strip() if text.startswith(ty) else text
    if body == "zeroinitializer":
        return (0,) * n
    m2 = re.fullmatch(r"splat \((.*)\)", body)
    if m2:
        c = _const_value(m2.group(1).strip(), ety)
        return None if c is None else (c,) * n
    if not (body.startswith("<") and body.endswith(">")):
        return None
    out: list[int | None] = []
    for item in body[1:-1].split(","):
        item = item.strip()
        if item == f"{ety} poison":
            out.append(None)
            continue
        c = _const_value(item, ety)
        if c is None:
            return None
        out.append(c)
    return tuple(out) if len(out) == n else None


def value_key(v: llvm.ValueRef) -> str:
    """A key for an argument or instruction, the same at its definition and its uses."""
    if v.value_kind.name == "argument":
        return "a:" + (v.name or str(v).strip().split()[-1])
    return "i:" + str(v).strip()


def _operand(v: llvm.ValueRef) -> Operand:
    kind = v.value_kind.name
    ty = _type_text(v.type)
    text = str(v).strip()
    if kind in ("constant_int", "constant_fp", "constant_pointer_null"):
        c = _const_value(text, ty)
        return Operand("const", ty, c, text=text) if c is not None else Operand("other", ty, text=text)
    if kind in ("constant_data_vector", "constant_vector", "constant_aggregate_zero"):
        elems = _vector_elems(text, ty)
        return Operand("const", ty, 0, text=text, elems=elems) if elems is not None else Operand("other", ty, text=text)
    if kind == "undef_value":
        return Operand("undef", ty, text=text)
    if kind == "poison_value":
        return Operand("poison", ty, text=text)
    if kind == "function":
        return Operand("func", ty, key=v.name, text=v.name)
    if kind in ("argument", "instruction"):
        return Operand("ref", ty, key=value_key(v), text=text)
    return Operand("other", ty, text=text)


def _block_key(v: llvm.ValueRef) -> str:
    """A basic block's key, the same for the block and an operand naming it."""
    return v.name or str(v).strip().split("\n", 1)[0]


def _body_lines(lines: list[str], start: int) -> list[tuple[int, int]]:
    """(line number, column) of each instruction line of the function whose
    `define` is on line `start` (1-based); a `switch` spans its case lines."""
    out = []
    in_switch = False
    for k in range(start, len(lines)):
        s = lines[k].split(";", 1)[0].rstrip()
        st = s.strip()
        if in_switch:
            in_switch = "]" not in st
            continue
        if not st or st == "{":
            continue
        if re.match(r"switch\b", st) and "[" in st and "]" not in st:
            in_switch = True
        if st == "}" or st.startswith("}"):
            break
        if re.fullmatch(r"[-\w.$\"]+:", st):
            continue  # a label
        out.append((k + 1, len(s) - len(s.lstrip()) + 1))
    return out


def run_lines(text: str) -> list[tuple[int, str]]:
    """The file's lit RUN lines: (line, the command)."""
    runs = []
    for k, text_line in enumerate(text.splitlines(), 1):
        m = re.search(r";\s*RUN:\s*(.*)$", text_line)
        if m:
            runs.append((k, m.group(1)))
    return runs


def read_module(path: str, text: str) -> Module:
    try:
        mod = llvm.parse_assembly(text)
    except RuntimeError as e:
        msg = str(e).strip()
        m = re.search(r":(\d+):(\d+): error: (.*)", msg)
        if m:
            raise InputError(Span(path, int(m.group(1)), int(m.group(2))), m.group(3).strip()) from None
        raise InputError(None, f"{path}: LLVM cannot parse it: {msg.splitlines()[0] if msg else '?'}") from None
    lines = text.splitlines()
    runs = run_lines(text)
    printed = str(mod)
    funcs = []
    for f in mod.functions:
        if f.is_declaration:
            continue
        name = f.name
        head = next((k for k, ln in enumerate(lines) if ln.lstrip().startswith("define")
                     and re.search(r"@\"?" + re.escape(name) + r"\"?\s*\(", ln)), None)
        span = Span(path, head + 1 if head is not None else 1, 1)
        header = lines[head] if head is not None else ""
        m = re.match(r"\s*define\s+(.*?)@", header)
        pre = m.group(1).split() if m else []
        cc = next((w for w in pre if w.startswith("amdgpu_") or w.endswith("cc")), "")
        fty = str(f.global_value_type)
        ret = fty.split(" (", 1)[0].strip() if " (" in fty else "void"
        args = []
        for a in f.arguments:
            atext = str(a).strip()
            attrs = [bytes(x).decode() if isinstance(x, bytes) else str(x) for x in a.attributes]
            args.append(Arg(value_key(a), atext.split()[-1], _type_text(a.type), any("inreg" in x for x in attrs)))
        blocks = list(f.blocks)
        insts = []
        positions = _body_lines(lines, head + 1) if head is not None else []
        bkeys = {_block_key(b): k for k, b in enumerate(blocks)}
        raw = [(k, i) for k, b in enumerate(blocks) for i in b.instructions]
        if len(positions) != len(raw):
            positions = [(span.line, 1)] * len(raw)
        for (bk, ins), (ln, col) in zip(raw, positions):
            itext = str(ins).strip()
            nm = itext.split("=", 1)[0].strip() if re.match(r"%[-\w.$]+\s*=", itext) else ""
            raw_ops = list(ins.operands)
            targets = [bkeys.get(_block_key(o), -1) for o in raw_ops if o.value_kind.name == "basic_block"]
            ops = [_operand(o) for o in raw_ops if o.value_kind.name != "basic_block"]
            words: list[str] = []
            if nm:
                rest = itext.split("=", 1)[1].split()
                words = rest[1:]
            cases: list[int] = []
            if ins.opcode == "br" and len(targets) == 2:
                targets = [targets[1], targets[0]]  # (LLVM keeps the false successor first)
            elif ins.opcode == "phi":
                targets = [bkeys.get(_block_key(b), -1) for b in ins.incoming_blocks]
            elif ins.opcode == "switch":
                w = TYPES.get(ops[0].type, (64, False))[0] if ops else 64
                cases = [int(c) & ((1 << w) - 1) for c in re.findall(r"\bi\d+\s+(-?\d+)\s*,\s*label", itext)]
            insts.append(Inst(value_key(ins), nm, ins.opcode, _type_text(ins.type), itext, ops, Span(path, ln, col),
                              words, bk, targets, cases))
        funcs.append(Function(name, span, cc == "amdgpu_kernel", cc, args, ret, len(blocks), insts,
                              [_block_key(b) for b in blocks], _fn_attrs(f), _reqd_size(str(f), printed)))
    return Module(path, text, funcs, runs)


def _fn_attrs(f: object) -> dict[str, str]:
    """A function's string attributes, as LLVM prints its attribute group."""
    out: dict[str, str] = {}
    for a in f.attributes:  # type: ignore[attr-defined]
        t = bytes(a).decode() if isinstance(a, bytes) else str(a)
        for k, v in re.findall(r'"([^"]+)"(?:="([^"]*)")?', t):
            out[k] = v
    return out


def _reqd_size(fn_text: str, module_text: str) -> tuple[int, int, int] | None:
    """The !reqd_work_group_size of a function (three i32), from LLVM's printing."""
    m = re.search(r"!reqd_work_group_size\s+!(\d+)", fn_text.split("{", 1)[0] if "{" in fn_text else fn_text)
    if m is None:
        return None
    d = re.search(r"^!" + m.group(1) + r"\s*=\s*!\{i32 (\d+), i32 (\d+), i32 (\d+)\}", module_text, re.M)
    return None if d is None else (int(d.group(1)), int(d.group(2)), int(d.group(3)))
