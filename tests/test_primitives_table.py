"""docs/primitives.md is generated from the catalogue and the proof records
(verify/primitives.py): it is current, and it follows the catalogue."""

import pytest

from verify import primitives
from verify.primitives import DOC, markdown, rows


@pytest.mark.slow
def test_docs_table_is_current():
    # after new specs, lowerings or proofs: python -m verify.primitives --write
    assert markdown(rows()) == DOC.read_text()


def _row(table, name):
    return next(r for r in table if r.primitive.name == name)


@pytest.mark.slow
def test_a_proved_record_fills_targets(monkeypatch):
    def proved(low, revs, locks):
        return {("gfx942", 64)} if low.name == "bitonic_t64_w64_gfx9" else set()

    monkeypatch.setattr(primitives, "proved_instances", proved)
    r = _row(rows(), "bitonic_sort_kv, bitonic_sort_kv_tiled")
    assert r.specs == ["quadrants.bitonic_sort_kv"]
    assert "bitonic_t64_w64_gfx11" in r.lowerings and len(r.lowerings) == 22  # (13 and their GFX11/GFX12 copies)
    assert r.proved == {64: ["gfx942"]}
    line = next(ln for ln in markdown([r]).splitlines() if ln.startswith("| bitonic_sort_kv"))
    assert line.endswith("| wave64: gfx942 |")


@pytest.mark.slow
def test_a_spec_added_to_the_catalogue_fills_its_row(tmp_path, monkeypatch):
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "v.spec").write_text("spec vote.elect_probe():\n    lanes = wave\n    out = 1 if i == 0 else 0\n")
    monkeypatch.setenv("VERIFY_PATH", str(tmp_path))
    r = _row(rows(), "elect")
    assert "vote.elect_probe" in r.specs and "vote.elect" in r.specs  # the new spec joins the row's own


def test_every_issue13_primitive_has_a_row():
    names = " ".join(p.name for p in primitives.PRIMITIVES)
    for word in ("ballot", "ballot_first_n", "all_true", "any_true", "all_equal", "elect", "invocation_id",
                 "lanemask_lt", "lanemask_ge", "bitonic_sort_kv", "readfirstlane", "__ballot_sync", "__any_sync",
                 "__all_sync", "__activemask", "__match_any_sync", "__match_all_sync", "cg::reduce",
                 "cg::inclusive_scan", "cg::exclusive_scan", "wave.reduce.sub", "wave.reduce.fsub", "64-bit"):
        assert word in names, word
