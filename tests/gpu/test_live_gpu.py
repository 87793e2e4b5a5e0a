"""On a machine with an NVIDIA GPU and nvcc: record the shuffles afresh and
compare them with verify's specs.  Skips cleanly anywhere else (CI has no
GPU); tests/test_cuda_hardware.py checks the recorded H100 data everywhere."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def _have_gpu() -> bool:
    if not shutil.which("nvcc") or not shutil.which("nvidia-smi"):
        return False
    return subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0


@pytest.mark.gpu
@pytest.mark.skipif(not _have_gpu(), reason="needs an NVIDIA GPU and nvcc")
def test_live_shuffles_match_specs(tmp_path):
    from test_cuda_hardware import MODES, show

    exe = tmp_path / "probe"
    subprocess.run(["nvcc", "-O2", "-arch=native", "-o", str(exe), str(HERE / "shfl_probe.cu")], check=True)
    out = tmp_path / "live.json"
    subprocess.run([str(exe), str(out)], check=True)
    data = json.loads(out.read_text())
    n = 0
    for mode, (spec, pname) in MODES.items():
        for width, by_param in data["shfl"][mode].items():
            for p, lanes in by_param.items():
                if int(p) % 7 and abs(int(p)) < 1000:
                    continue  # a sample; the recorded file covers every value
                got = show(spec, f"{pname}={p}", f"width={width}", "--wave", "32")
                assert got["outputs"]["out"] == lanes, (data["device"], spec, p, width)
                n += 1
    assert n > 100
