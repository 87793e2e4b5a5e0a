"""Each instruction's semantics, run concretely and symbolically, agree.

For random instructions of EVERY registered op (the test fails if an op has
no generator), random register contents and random EXEC masks, the concrete
backend's result equals the z3 backend's result evaluated at the same
inputs, for every register and lane.
"""

import zlib

from hypothesis import HealthCheck, assume, given, settings, strategies as st

settings_one = settings(max_examples=1)

from verify import smt
from verify.lowering_file import parse_instr
from verify.assume import ASSUMPTIONS
from verify.backend import Concrete
from verify.diag import InputError, Span
from verify.machine import Machine
from verify.ops import OPS
from verify.ops.dpp import CONTROLS
from verify.ops.valu import VALU_OPS, CMP_OPS
from verify.target import FeatureLog, get

TARGETS = ["gfx803", "gfx900", "gfx90a", "gfx950", "gfx1030", "gfx1100", "gfx1200"]
V = st.sampled_from(["v0", "v1", "v2", "v3"])
S = st.sampled_from(["s0", "s1", "s2", "s3"])
PAIR = st.sampled_from(["s[0:1]", "s[2:3]", "vcc"])
CONST = st.sampled_from(["0", "1", "-1", "5", "31", "32", "64", "0x3ff", "-16", "0x80000000"])
SRC = st.one_of(V, S, CONST)


@st.composite
def dpp_mods(draw):
    kind = draw(st.sampled_from(sorted(CONTROLS) + ["dpp8"]))
    if kind == "dpp8":
        sel = draw(st.lists(st.integers(0, 7), min_size=8, max_size=8))
        return "dpp8:[" + ",".join(map(str, sel)) + "]" + draw(st.sampled_from(["", " fi:1"]))
    vk = CONTROLS[kind][1]
    if vk == "quad":
        c = "quad_perm:[" + ",".join(str(draw(st.integers(0, 3))) for _ in range(4)) + "]"
    elif vk == "flag":
        c = kind
    elif vk == "1":
        c = f"{kind}:1"
    elif vk == "15|31":
        c = f"{kind}:{draw(st.sampled_from([15, 31]))}"
    elif vk == "1..15":
        c = f"{kind}:{draw(st.integers(1, 15))}"
    else:
        c = f"{kind}:{draw(st.integers(0, 15))}"
    rm, bm = draw(st.integers(0, 15)), draw(st.integers(0, 15))
    extra = draw(st.sampled_from(["", " bound_ctrl:1", " bound_ctrl:0", " fi:1"]))
    return f"{c} row_mask:{rm:#x} bank_mask:{bm:#x}{extra}"


@st.composite
def instr_text(draw, base):
    op = OPS[base]
    if base in {o.base for o in VALU_OPS}:
        enc = draw(st.sampled_from(sorted(op.encs)))
        suffix = enc
        srcs = [draw(SRC) for _ in range(op.nsrc)]
        if op.encs[enc] in ("e32", "dpp") and op.nsrc == 2:
            srcs[1] = draw(V)
        if op.encs[enc] in ("dpp", "e64_dpp"):
            srcs[0] = draw(V)
            return f"{base}{suffix} {draw(V)}, {', '.join(srcs)} {draw(dpp_mods())}"
        return f"{base}{suffix} {draw(V)}, {', '.join(srcs)}"
    if base == "v_cndmask_b32":
        return f"v_cndmask_b32_e64 {draw(V)}, {draw(SRC)}, {draw(SRC)}, {draw(PAIR)}"
    if base.startswith("v_cmp_"):
        return f"{base}_e64 {draw(PAIR)}, {draw(SRC)}, {draw(SRC)}"
    if base == "ds_swizzle_b32":
        return f"ds_swizzle_b32 {draw(V)}, {draw(V)} offset:{draw(st.integers(0, 0xFFFF)):#x}"
    if base in ("ds_bpermute_b32", "ds_permute_b32"):
        return f"{base} {draw(V)}, {draw(V)}, {draw(V)} offset:{draw(st.integers(0, 0xFFFF))}"
    if base == "v_readlane_b32":
        return f"v_readlane_b32 {draw(S)}, {draw(V)}, {draw(st.one_of(S, CONST))}"
    if base == "v_readfirstlane_b32":
        return f"v_readfirstlane_b32 {draw(S)}, {draw(V)}"
    if base == "v_writelane_b32":
        return f"v_writelane_b32 {draw(V)}, {draw(st.one_of(S, CONST))}, {draw(st.one_of(S, CONST))}"
    if base.startswith("v_mbcnt_"):
        return f"{base} {draw(V)}, {draw(SRC)}, {draw(SRC)}"
    if base.startswith("v_permlane") and base.endswith("16_b32"):
        op_sel = draw(st.sampled_from(["", " op_sel:[1,0]", " op_sel:[0,1]", " op_sel:[1,1]"]))
        sel = st.one_of(S, CONST, st.sampled_from(["0x76543210", "0xfedcba98"]))
        return f"{base} {draw(V)}, {draw(V)}, {draw(sel)}, {draw(sel)}{op_sel}"
    if base.endswith("16_var_b32"):
        op_sel = draw(st.sampled_from(["", " op_sel:[1,0]", " op_sel:[0,1]"]))
        return f"{base} {draw(V)}, {draw(V)}, {draw(V)}{op_sel}"
    if base.endswith("_swap_b32"):
        return f"{base} {draw(V)}, {draw(V)}"
    if base == "ds_bpermute_fi_b32":
        return f"{base} {draw(V)}, {draw(V)}, {draw(V)} offset:{draw(st.integers(0, 0xFFFF))}"
    if base == "v_permlane64_b32":
        return f"v_permlane64_b32 {draw(V)}, {draw(V)}"
    if base == "s_mov_b32":
        return f"s_mov_b32 {draw(st.sampled_from(['s0', 's1', 'exec_lo', 'vcc_lo']))}, {draw(st.one_of(S, CONST))}"
    if base == "s_mov_b64":
        return f"s_mov_b64 {draw(st.sampled_from(['s[0:1]', 'exec', 'vcc']))}, {draw(st.one_of(PAIR, CONST))}"
    if "_saveexec_" in base or "_saveexec_" in str(OPS.get(base, "")):
        dst = draw(S) if base.endswith("b32") else draw(st.sampled_from(["s[0:1]", "s[2:3]"]))
        src = draw(st.one_of(S, CONST)) if base.endswith("b32") else draw(st.one_of(PAIR, CONST))
        return f"{base} {dst}, {src}"
    kind = type(OPS[base]).__name__
    if kind == "Salu2":
        return f"{draw(st.sampled_from(sorted(OPS[base].mnemonics())))} {draw(S)}, {draw(st.one_of(S, CONST))}, {draw(st.one_of(S, CONST))}"
    if kind == "Salu2x64":
        return f"{draw(st.sampled_from(sorted(OPS[base].mnemonics())))} {draw(st.sampled_from(['s[0:1]', 's[2:3]']))}, {draw(st.one_of(PAIR, CONST))}, {draw(st.one_of(PAIR, CONST))}"
    if kind == "Salu1":
        dst = draw(st.sampled_from(["s[0:1]", "s[2:3]"])) if OPS[base].dst64 else draw(S)
        src = draw(st.one_of(PAIR, CONST)) if OPS[base].src64 else draw(st.one_of(S, CONST))
        return f"{base} {dst}, {src}"
    if kind == "Bitset":
        dst = draw(S) if base.endswith("b32") else draw(st.sampled_from(["s[0:1]", "s[2:3]"]))
        return f"{base} {dst}, {draw(st.one_of(S, CONST))}"
    if kind == "Saveexec" and draw(st.booleans()):
        base = draw(st.sampled_from(sorted(OPS[base].mnemonics())))
    if OPS[base].schedule_only:
        return f"{base} null, 0" if base.startswith("s_waitcnt_") and base != "s_waitcnt_depctr" else f"{base} 0"
    raise AssertionError(f"no generator for {base}")


@given(st.data())
@settings_one
def test_every_op_has_a_generator(data):
    for base in OPS:  # the generator raises AssertionError for an op it does not know
        text = data.draw(instr_text(base))
        assert parse_instr(text, Span("t", 1)).base == base


def run(text_lines, target, wave, backend, init_vals, exec_mask, assume_):
    fresh = {}

    def initial(kind, name, lane):
        if backend.symbolic:
            if kind == "scc":
                t = backend.fresh_bool("scc")
                fresh["scc"] = t
                return t
            key = f"{name}[{lane}]" if kind == "v" else name
            t = backend.fresh(key)
            fresh[key] = t
            return t
        if kind == "scc":
            return init_vals["scc"]
        key = f"{name}[{lane}]" if kind == "v" else name
        # an unknown an op makes up (e.g. an assumption's unknown result): some fixed value
        return init_vals.setdefault(key, zlib.crc32(key.encode()))

    m = Machine(backend, wave, initial, FeatureLog(target), assume_, waits=False)  # each op's own semantics
    if backend.symbolic:
        bits = [backend.fresh_bool(f"exec[{i}]") for i in range(wave)]
        lo, hi = m.from_lane_bits(bits)
        m.set_s("exec_lo", lo)
        m.set_s("exec_hi", hi if wave == 64 else init_vals["exec_hi"])
    else:
        m.set_exec_mask(exec_mask)
        if wave == 32:
            m.set_s("exec_hi", init_vals["exec_hi"])
    m.scc = initial("scc", "scc", None)
    prog = [parse_instr(t, Span("t", k + 1)) for k, t in enumerate(text_lines)]
    m.run(prog)
    return m


def values(seed_vals, wave):
    import random

    rnd = random.Random(seed_vals)
    env = {"scc": rnd.random() < 0.5, "exec_hi": rnd.getrandbits(32)}
    for r in range(8):
        for lane in range(wave):
            env[f"v{r}[{lane}]"] = rnd.choice([rnd.getrandbits(32), rnd.randrange(0, 300), lane * 4])
    for n in ["s0", "s1", "s2", "s3", "vcc_lo", "vcc_hi", "m0", "exec_hi"]:
        env[n] = rnd.choice([rnd.getrandbits(32), rnd.randrange(0, 70), 0xFFFFFFFF])
    return env


@st.composite
def programs(draw):
    tname = draw(st.sampled_from(TARGETS))
    t = get(tname)
    wave = draw(st.sampled_from(list(t.waves)))
    bases = draw(st.lists(st.sampled_from(sorted(OPS)), min_size=1, max_size=3))
    return t, wave, [draw(instr_text(b)) for b in bases]


@settings(max_examples=250)
@given(programs(), st.integers(0, 2**64 - 1), st.integers(0, 2**32), st.data())
def test_concrete_and_symbolic_agree(prog, exec_mask, seed, data):
    t, wave, lines = prog
    exec_mask &= (1 << wave) - 1
    from verify.ops import lookup
    from verify.refine import static_checks  # noqa: F401

    try:
        instrs = [parse_instr(x, Span("t", 1)) for x in lines]
        for ins in instrs:
            OPS[ins.base].check(ins, t, wave)
    except InputError:
        assume(False)
    assume_ = {n: data.draw(st.sampled_from(sorted(a.variants))) for n, a in ASSUMPTIONS.items()}
    env = values(seed, wave)
    mc = run(lines, t, wave, Concrete(), env, exec_mask, assume_)
    B = smt.Z3()
    ms = run(lines, t, wave, B, env, exec_mask, assume_)
    senv = dict(env)
    for i in range(wave):
        senv[f"exec[{i}]"] = bool((exec_mask >> i) & 1)
    ev = smt.Evaluator(senv)
    for n, vals in mc.vregs.items():
        got = [ev(x) for x in ms.vregs[n]]
        assert got == vals, (lines, f"v{n}")
    for n, val in mc.sregs.items():
        if wave == 32 and n == "exec_hi":
            continue
        assert ev(ms.sregs[n]) == val, (lines, n)
    assert bool(ev(ms.scc)) == bool(mc.scc), lines
    # the symbolic run consults an assumption whenever SOME state makes it
    # matter; a concrete run only when this state does
    assert set(mc.assumptions_used) <= set(ms.assumptions_used)


import pytest  # noqa: E402


@pytest.mark.parametrize("base", sorted(OPS))
@settings(max_examples=3, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.data(), st.integers(0, 2**64 - 1), st.integers(0, 2**32))
def test_each_op_agrees(base, data, exec_mask, seed):
    """Every op, on its own, a few times (the random programs above may miss one)."""
    feat = OPS[base].feature
    tname = data.draw(st.sampled_from([n for n in TARGETS if feat is None or get(n).has(feat)] or TARGETS))
    t = get(tname)
    wave = data.draw(st.sampled_from(list(t.waves)))
    line = data.draw(instr_text(base))
    try:
        ins = parse_instr(line, Span("t", 1))
        OPS[ins.base].check(ins, t, wave)
    except InputError:
        assume(False)
    exec_mask &= (1 << wave) - 1
    env = values(seed, wave)
    mc = run([line], t, wave, Concrete(), env, exec_mask, {})
    ms = run([line], t, wave, smt.Z3(), env, exec_mask, {})
    senv = dict(env, **{f"exec[{i}]": bool((exec_mask >> i) & 1) for i in range(wave)})
    ev = smt.Evaluator(senv)
    for n, vals in mc.vregs.items():
        assert [ev(x) for x in ms.vregs[n]] == vals, (line, f"v{n}")
    for n, val in mc.sregs.items():
        if not (wave == 32 and n == "exec_hi"):
            assert ev(ms.sregs[n]) == val, (line, n)
