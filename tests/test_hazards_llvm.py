"""The hazard model against LLVM's own placement of waits: tests/tv kernels
compiled by llc-22 for gfx90a, gfx942, gfx950, gfx1100, gfx1200 and gfx1201
(wave32 and wave64 where the target has both).  LLVM's output is never
flagged; deleting any one s_nop, s_wait_alu, s_waitcnt_depctr or v_nop it
put there is flagged as a hazard (the checker then reads the value as
unknown, so a value that depends on it is refuted).  docs/semantics.md
[S:hazards].  (Over the whole tests/tv corpus, 545 compilations with 315
such waits: no finding on LLVM's code, every deletion flagged.)"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from verify.target import get
from verify.tv.check import gpu_code

LLC = shutil.which("llc-22")
CORPUS = Path(__file__).resolve().parent / "tv"
WAIT = re.compile(r"^\s*(s_nop|s_wait_alu|s_waitcnt_depctr|v_nop)\b")
TARGETS = [("gfx90a", 64), ("gfx942", 64), ("gfx950", 64), ("gfx1100", 32), ("gfx1100", 64), ("gfx1200", 32),
           ("gfx1200", 64), ("gfx1201", 32), ("gfx1201", 64)]
KERNELS = ["kernel_atomic_add_optimizer", "kernel_atomic_max_divergent", "kernel_wave_reduce_umax_divergent",
           "kernel_wwm_row_scan_add", "kernel_readlane_inreg", "kernel_hip_shfl_xor_1_w64"]


def compile_kernel(name: str, cpu: str, wave: int) -> str:
    extra = ["--amdgpu-atomic-optimizer-strategy=DPP"] if "optimizer" in name else []
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", f"-mattr=+wavefrontsize{wave}", *extra],
                       input=(CORPUS / f"{name}.ll").read_text(), capture_output=True, text=True, check=True)
    return r.stdout


def findings(asm: str, name: str, cpu: str, wave: int) -> list[str]:
    code = gpu_code(asm, name, f"<{cpu} wave{wave}>", True)
    assert code.problems == [], code.problems
    return code.hazard_warnings(get(cpu), None, wave)[0]


@pytest.mark.slow
@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.parametrize("cpu, wave", TARGETS, ids=[f"{c}-w{w}" for c, w in TARGETS])
def test_llvm_output_is_never_flagged_and_each_of_its_waits_is_needed(cpu, wave):
    waits = 0
    for name in KERNELS:
        asm = compile_kernel(name, cpu, wave)
        assert findings(asm, name, cpu, wave) == [], (name, cpu, wave)
        lines = asm.splitlines()
        for k, line in enumerate(lines):
            if WAIT.match(line):
                waits += 1
                mutant = "\n".join(lines[:k] + lines[k + 1:])
                assert findings(mutant, name, cpu, wave) != [], (name, cpu, wave, k + 1, line.strip())
    # the sample holds waits where the targets have hazards of this kind (none on gfx1100 wave32)
    assert (waits > 0) == ((cpu, wave) != ("gfx1100", 32)), (cpu, wave, waits)
