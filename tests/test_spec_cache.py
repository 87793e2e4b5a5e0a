"""The spec library's cache between runs (verify/spec.py, issue #35): a hit
gives the library parsing gives, an edited spec file misses it (and
replaces it), and a cache file that is not ours is ignored."""

from __future__ import annotations

from pathlib import Path

import pytest

from verify import spec
from verify.spec import SpecLib

ROOT = Path(__file__).resolve().parent.parent
DEMO = """spec demo.xor(mask, width=32):
    lanes = 32
    j = i ^ mask
    out = x[j] if j < width else x[i]
"""


def _sig(lib: SpecLib) -> dict[str, tuple[str, str]]:
    return {n: (s.signature, repr([(st.kind, st.name, str(st.span)) for st in s.body])) for n, s in lib.specs.items()}


def test_a_hit_is_the_parsed_library_and_an_edit_misses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    fresh = SpecLib.from_dirs([ROOT / "specs"])
    assert len(list((tmp_path / "cache").glob("specs-*.pickle"))) == 1
    parsed = []
    monkeypatch.setattr(spec, "_parse_file", lambda text, path: parsed.append(path) or spec.parse_specs(text, path))
    again = SpecLib.from_dirs([ROOT / "specs"])
    assert parsed == [] and _sig(again) == _sig(fresh)
    d = tmp_path / "specs"
    d.mkdir()
    (d / "demo.spec").write_text(DEMO)
    assert list(SpecLib.from_dirs([d]).specs) == ["demo.xor"] and parsed == [str(d / "demo.spec")]
    (d / "demo.spec").write_text(DEMO.replace("demo.xor", "demo.xor2"))
    assert list(SpecLib.from_dirs([d]).specs) == ["demo.xor2"] and len(parsed) == 2
    assert len(list((tmp_path / "cache").glob("specs-*.pickle"))) == 2  # one per set of directories


def test_a_foreign_or_broken_cache_file_is_parsed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    d = tmp_path / "specs"
    d.mkdir()
    (d / "demo.spec").write_text(DEMO)
    SpecLib.from_dirs([d])
    (f,) = tmp_path.glob("specs-*.pickle")
    f.write_bytes(b"not a pickle")
    assert list(SpecLib.from_dirs([d]).specs) == ["demo.xor"]
    monkeypatch.setenv("VERIFY_CACHE_DIR", "off")
    (d / "demo.spec").write_text(DEMO.replace("demo.xor", "demo.other"))
    assert list(SpecLib.from_dirs([d]).specs) == ["demo.other"]
    assert len(list(tmp_path.glob("specs-*.pickle"))) == 1  # off: nothing written
