"""Lane-flow pictures (verify.svg) and the folded lane table (verify.cex)."""

import xml.etree.ElementTree as ET
from pathlib import Path

from helpers import cli

from verify import catalog
from verify.cex import Row, fold_lanes, folded_rows, shifted
from verify.svg import flow, render, tag_values
from verify.target import get

NS = "{http://www.w3.org/2000/svg}"


def _parse(path):
    root = ET.parse(path).getroot()
    assert root.tag == f"{NS}svg"
    return root


def _by_class(root, cls):
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_xor5_plain_counterexample_picture(tmp_path):
    out = tmp_path / "x.svg"
    code, _, err = cli("lowering", "tests/golden/xor5_plain.s", "--target", "gfx942", "--svg", str(out))
    assert code == 1, err
    root = _parse(out)
    low = catalog.load("tests/golden/xor5_plain.s")
    cols = _by_class(root, "column")
    # the entry column, then one column per instruction, in program order
    assert [int(c.get("data-line")) for c in cols] == [0] + [ins.line for ins in low.program]
    (resp,) = _by_class(root, "responsible")
    assert resp.get("data-line") == "15"  # the second v_mov_b32_dpp leaves lane 1 unwritten
    # the deciding lane (1) is red from its entry value to the output
    assert {e.get("data-lane") for e in _by_class(root, "path") if e.tag == f"{NS}line"} == {"1"}
    assert {e.get("data-lane") for e in _by_class(root, "path") if e.tag != f"{NS}line"} == {"1"}
    # expected vs actual for both failing lanes, and EXEC at entry: lanes 1 and 4
    assert [v.get("data-lane") for v in _by_class(root, "verdict")] == ["1", "4"]
    assert "expected 0x104 x[4], got 0x301 v1[1]@entry" in "".join(_by_class(root, "verdict")[0].itertext())
    on = [g.get("data-lane") for g in root.iter(f"{NS}g") if any("on" in (r.get("class") or "").split() for r in g)]
    assert on == ["1", "4"]
    # invalid reads: lanes 1 and 4 at both DPP moves (their sources are inactive)
    inv = [(m.get("data-lane")) for m in _by_class(root, "invalid") if m.tag == f"{NS}g"]
    assert inv == ["1", "4", "1", "4"]
    # wave64 folded: rows 2 and 3 repeat row 1
    folds = [(g.get("data-lane"), g.get("data-last")) for g in _by_class(root, "fold")]
    assert folds == [("8", "15"), ("17", "31"), ("32", "63")]


def test_scan_proof_picture_is_deterministic_and_folded():
    low = catalog.load("lowerings/scan/scan_add_gfx9.s")
    args = (low, get("gfx942"), 64, {}, (1 << 64) - 1, tag_values(low, 64))
    a = render(flow(*args))
    assert a == render(flow(*args))
    root = ET.fromstring(a)
    assert len(_by_class(root, "column")) == 1 + len(low.program)
    assert not _by_class(root, "responsible") and not _by_class(root, "path")
    lanes = [g for g in root.iter(f"{NS}g") if (g.get("class") or "") == "lane"]
    assert 16 <= len(lanes) <= 40  # 64 lanes, folded
    assert len(_by_class(root, "ok")) == len(lanes) + len(_by_class(root, "fold"))  # every row agrees with the spec
    assert _by_class(root, "computed")


def test_show_svg_and_errors(tmp_path):
    out = tmp_path / "s.svg"
    code, _, err = cli("show", "xor1", "--exec", "0xffff", "--svg", str(out))
    assert code == 0, err
    _parse(out)
    code, _, err = cli("show", "cuda.shfl_xor", "mask=1", "--svg", str(out))
    assert code == 2 and err == "error: --svg draws a lowering's lane flow; 'cuda.shfl_xor' is a spec\n"
    code, _, err = cli("lowering", "xor1", "--svg", str(tmp_path / "no" / "x.svg"))
    assert code == 2 and "no directory" in err


def test_shifted_and_fold_lanes():
    assert shifted("v1[4] not written (source lane 6 is inactive)", "v1[5] not written (source lane 7 is inactive)", 1)
    assert shifted("v1[15] and v1[16]", "v1[15] and v1[17]", 1)  # a broadcast source stays
    assert not shifted("line 15: v1[4]", "line 16: v1[5]", 1)
    folds = fold_lanes(range(64), lambda a, b: (a % 16 == 0) == (b % 16 == 0), pinned=[33])
    assert [f.text() if f.like is not None else f.lanes[0] for f in folds] == [
        0, 1, "lanes 2-15: same as lane 1, shifted", "lanes 16-31: same as lanes 0-15, shifted",
        32, 33, 34, "lanes 35-47: same as lane 34, shifted", 48, 49, "lanes 50-63: same as lane 49, shifted"]


def _row(lane, src_lane, line=13):
    return Row("out", lane, 0x100 + lane + 1, f"x[{lane + 1}]", 0x100 + src_lane, f"x[{src_lane}]",
               f"line {line} v_mov_b32_dpp: v1[{lane}] reads the wrong lane")


def test_lane_table_folds_and_puts_the_deciding_lane_first():
    rows = [_row(i, max(i - 1, 0)) for i in range(32)]
    rows[20] = _row(20, 19, line=11)  # the earliest responsible instruction decides
    shown = [(r.lane if r else None, t) for r, t in folded_rows(rows, True)]
    assert shown[0] == (20, "")
    # lane 0 reads itself (no lane below it): lanes 0 and 1 differ from the lanes after them
    assert shown[1:] == [(0, ""), (1, ""), (2, ""), (None, "lanes 3-15: same as lane 2, shifted"), (16, ""),
                         (None, "lanes 17-19: same as lane 16, shifted"), (21, ""),
                         (None, "lanes 22-31: same as lane 21, shifted")]


KERNEL = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\nf:\n'
          '\tv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n'
          '\tv_mov_b32 v2, v1\n\ts_setpc_b64 s[30:31]\n')


def test_asm_svg_marks_the_refuted_claims_instruction(tmp_path):
    (tmp_path / "k.s").write_text(KERNEL)
    out = tmp_path / "k.svg"
    code, _, err = cli("asm", str(tmp_path / "k.s"), "--assert", "v1 == cuda.shfl_xor(v0, mask=2, width=32)",
                       "--svg", str(out))
    assert code == 1, err
    root = _parse(out)
    assert [c.get("data-line") for c in _by_class(root, "column")] == ["0", "4"]
    assert [c.get("data-line") for c in _by_class(root, "responsible")] == ["4"]
    assert [v.get("data-lane") for v in _by_class(root, "verdict")] == ["0", "2"]  # EXEC = lanes 0 and 2


def test_xml_escape_matches_the_standard_library() -> None:
    from xml.sax.saxutils import escape

    from verify.svg import _esc

    for t in ["a&b<c>\"d'", "&amp;", "", "<<>>", "plain"]:
        assert _esc(t) == escape(t, {'"': "&quot;"})


def test_a_big_region_is_folded_to_its_path(tmp_path):
    """The atomic-scan mutant (25 instructions): the counterexample's
    picture keeps the entry column, the lines on the deciding lane's trace
    and the responsible one, folds the others into narrow columns, and is at
    most 1200 px wide; --svg-full draws every instruction."""
    import re as _re
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_asm_llvm import atomic_kernel, atomic_registers, mutate

    text = atomic_kernel("gfx1100", 32)
    x, _, scan = atomic_registers(text)
    k = tmp_path / "k.s"
    k.write_text(mutate(text, "quad_perm:[0,1,2,3] row_mask:0xa", "quad_perm:[0,1,2,3] row_mask:0xf"))
    small, full = tmp_path / "s.svg", tmp_path / "f.svg"
    assert cli("asm", str(k), "--assert", f"{scan} == exclusive_add({x})", "--svg", str(small))[0] == 1
    assert cli("asm", str(k), "--assert", f"{scan} == exclusive_add({x})", "--svg", str(full), "--svg-full")[0] == 1
    s, f = small.read_text(), full.read_text()
    width = lambda t: int(_re.search(r'<svg [^>]*width="(\d+)"', t).group(1))  # noqa: E731
    assert width(s) <= 1200 < width(f)
    assert _re.search(r"\d+ instructions off the path folded \(--svg-full draws them\)", s)
    assert "off the path" not in f
    lines = lambda t: {int(m) for m in _re.findall(r'class="column[^"]*" data-column="\d+" data-line="(\d+)"', t)}  # noqa: E731
    assert len(lines(s)) < len(lines(f))
    assert 'class="column responsible"' in s
    # the red path crosses the SGPR hop, as the text does: the writelane's lane 16
    # back through v_readlane s3 to lane 15 (issue #34); in both pictures
    for t in (s, f):
        root = ET.fromstring(t)
        path = [(e.get("data-lane")) for e in _by_class(root, "path") if e.tag == f"{NS}line"]
        assert path[-2:] == ["15", "16"], path


def test_the_red_path_follows_an_sgpr_hop(tmp_path):
    """A v_writelane of an SGPR that v_readlane read from lane 4: the red
    path goes from the writelane's lane 5 back through the readlane to lane
    4 of v0 and its entry value, as the text's trace does (issue #34)."""
    src = tmp_path / "m.s"
    src.write_text("; @spec cuda64.shfl_idx lane=5 width=64\n; @targets gfx9\n; @waves 64\n; @exec full\n"
                   "; @input x = v0\n; @output out = v1\n; @clobbers s0\n"
                   "v_mov_b32_e32 v1, v0\nv_readlane_b32 s0, v0, 4\ns_nop 4\nv_writelane_b32 v1, s0, 5\n")
    out = tmp_path / "m.svg"
    code, _, err = cli("lowering", str(src), "--target", "gfx90a", "--svg", str(out), "--svg-full")
    assert code == 1, err
    root = _parse(out)
    cols = {c.get("data-line"): k for k, c in enumerate(_by_class(root, "column"))}
    lines = [e for e in _by_class(root, "path") if e.tag == f"{NS}line"]
    # entry lane 4 -> the readlane (line 9) at lane 4 -> the writelane (line 11) at lane 5
    assert [e.get("data-lane") for e in lines] == ["4", "5"], [e.attrib for e in lines]
    xs = sorted(float(e.get("x1")) for e in lines)
    assert len(xs) == 2 and xs[0] < xs[1] and {"9", "11"} <= set(cols)


def test_the_red_path_goes_through_a_lane_local_computation(tmp_path):
    """tests/golden/shfl_up1_xor_zero.s: the text names the zero-filling
    DPP move (line 16) behind the xor of 0 (line 17); the red path is drawn
    from the DPP move's lane 0 to the xor's, as the text goes (before it
    stopped at the xor: no path at all)."""
    out = tmp_path / "z.svg"
    code, _, err = cli("lowering", "tests/golden/shfl_up1_xor_zero.s", "--target", "gfx900", "--svg", str(out))
    assert code == 1, err
    root = _parse(out)
    xs = {c.get("data-line"): float(c.get("x", "0")) for c in _by_class(root, "column")}
    lines = [e for e in _by_class(root, "path") if e.tag == f"{NS}line"]
    assert [e.get("data-lane") for e in lines] == ["0"], [e.attrib for e in lines]
    assert {"16", "17"} <= set(xs)
    assert float(lines[0].get("x1")) < float(lines[0].get("x2"))
