"""CPU-only checks of the recorded CUDA hardware data (tests/data/cuda_h100.json).

The data were recorded on an NVIDIA H100 by tests/gpu/run_probe.sh; these tests
need no GPU.  They confirm that the recording matches the PTX ISA shfl.sync
pseudo-code and plain Python reductions (see tests/gpu/check_probe.py).
"""

import importlib.util
import json
import os

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
_DATA = os.path.join(_HERE, "..", "data", "cuda_h100.json")

_spec = importlib.util.spec_from_file_location("_gpu_check_probe", os.path.join(_HERE, "check_probe.py"))
check_probe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_probe)


@pytest.fixture(scope="module")
def data():
    if not os.path.exists(_DATA):
        pytest.skip("tests/data/cuda_h100.json not recorded")
    with open(_DATA) as f:
        return json.load(f)


def test_pseudo_code_model_basics():
    v = list(range(32))
    assert [check_probe.ptx_shfl("xor", l, 1, 32, v) for l in range(4)] == [1, 0, 3, 2]
    assert check_probe.ptx_shfl("up", 0, 1, 32, v) == 0
    assert check_probe.ptx_shfl("up", 5, 1, 32, v) == 4
    assert check_probe.ptx_shfl("down", 31, 1, 32, v) == 31
    assert check_probe.ptx_shfl("down", 7, 1, 8, v) == 7
    assert check_probe.ptx_shfl("idx", 9, 3, 8, v) == 11
    assert check_probe.py_reduce("min", [0xFFFFFFFF, 1]) == 0xFFFFFFFF
    assert check_probe.py_reduce("umin", [0xFFFFFFFF, 1]) == 1


def test_structure(data):
    assert set(data) >= {"device", "cuda_runtime", "driver", "sm", "shfl", "reduce"}
    assert set(data["shfl"]) == {"idx", "up", "down", "xor"}
    for kind in data["shfl"].values():
        assert set(kind) == {"1", "2", "4", "8", "16", "32"}
        for rows in kind.values():
            assert len(rows) == 179
            assert {"-70", "100", "-2147483648", "2147483647", "65536"} <= set(rows)
    ops = {r["op"] for r in data["reduce"]}
    assert ops == set(check_probe.REDUCE_OPS)


def test_shfl_matches_ptx_pseudo_code(data):
    bad = list(check_probe.shfl_mismatches(data))
    assert not bad, "\n".join(bad[:50])


def test_reduce_matches_python(data):
    bad = list(check_probe.reduce_mismatches(data))
    assert not bad, "\n".join(bad[:50])
