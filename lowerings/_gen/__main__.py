import sys
from pathlib import Path

from . import bitonic, cuda_prims, prims, quadrants_gfx10, scans, wide64, xor_rdna, xor_rows

GENERATORS = [xor_rows, xor_rdna, scans, quadrants_gfx10, bitonic, wide64, prims, cuda_prims]
ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for g in GENERATORS:
        for rel, text in g.files().items():
            p = ROOT / rel
            if p.exists() and p.read_text() == text:
                continue
            if check:
                stale.append(rel)
            else:
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_text(text)
                print(f"wrote lowerings/{rel}")
    for rel in stale:
        print(f"lowerings/{rel}: stale: run `python -m lowerings._gen`", file=sys.stderr)
    return 1 if stale else 0


sys.exit(main(sys.argv[1:]))
