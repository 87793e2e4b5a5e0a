"""`verify tv` as a lit test format (LLVM's `lit`, from PyPI), so that
``lit -sv -j N --num-shards K --run-shard I --xunit-xml-output out.xml DIR``
runs verify over a test tree (docs/tv.md, "lit").

A user's ``lit.cfg.py`` is three lines::

    import os
    from verify.tv.litformat import configure
    configure(config, lit_config, os.path.dirname(__file__))

Each ``.ll`` file is one lit test, run as ``verify tv FILE`` would be (its
RUN lines, each an instance): PASS when every instance is correct (or its
cause accepted), FAIL otherwise, UNSUPPORTED when no RUN line runs llc for
an AMDGPU target at all (not a codegen test).  Each instance is also a lit
micro-test named ``function on target waveN (compiler) [RUN file:line]``
(lit's JSON report, ``-o out.json``, and ``-a`` list them); a failing
test's output names every instance that failed.  Parameters
(``--param NAME=VALUE``): ``verify_tests`` (the tree, default: the
directory of lit.cfg.py), ``llc`` (a compiler command line, default
llvmlite's LLVM), ``accept`` (a comma list of causes, as ``verify tv
--accept``), ``verify_timeout`` (seconds per solver question),
``verify_split`` (``file``, the default, or ``instance``: each function and
RUN line of a file a lit test of its own, so that lit's JUnit report names
them and lit's shards split a file's instances).
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

import lit.formats
import lit.Test

from ..diag import InputError, read_source
from .check import check_file, summary
from .compile import plan
from .runlines import check_llc
from .tree import accepted, check_one, exit_code, parse_accept

_DEFINE = re.compile(r"^define\b[^@\n]*@([\w.$-]+)\s*\(", re.M)


class VerifyTV(lit.formats.FileBasedTest):  # type: ignore[misc]
    """Each .ll file a test: `verify tv FILE` in this process; with
    split="instance", each (function, RUN line) of it a test of its own,
    named so that lit's JUnit report names the function, target and RUN
    line."""

    def __init__(self, llc: str | None = None, accept: str = "", timeout: str | None = None,
                 split: str = "file") -> None:
        if split not in ("file", "instance"):
            raise ValueError(f"verify_split={split}: 'file' or 'instance'")
        self.llc = llc
        self.accept = accept
        self.timeout = timeout
        self.split = split

    def getTestsForPath(self, suite: Any, path_in_suite: Any, lit_config: Any, local_config: Any) -> Any:
        for test in super().getTestsForPath(suite, path_in_suite, lit_config, local_config):
            if self.split == "file":
                yield test
                continue
            path = test.getSourcePath()
            names = instance_names(path)
            if not names:  # not a codegen test (or unreadable): the file's own test says why
                yield test
                continue
            for name in names:
                yield lit.Test.Test(suite, (*path_in_suite, name), local_config)

    def execute(self, test: Any, lit_config: Any) -> Any:
        if self.split == "instance" and not os.path.isfile(test.getSourcePath()):
            return self.execute_instance(test)
        return self.execute_file(test)

    def execute_instance(self, test: Any) -> Any:
        path = os.path.dirname(test.getSourcePath())
        name = test.path_in_suite[-1]
        m = re.fullmatch(r"(.*) on .* \[RUN line (\d+)\]", name)
        if m is None:
            return lit.Test.Result(lit.Test.UNRESOLVED, f"not a verify tv instance name: {name}")
        fn, line = m.group(1), m.group(2)
        accept = parse_accept([self.accept] if self.accept else [])
        t0 = time.perf_counter()
        try:
            text = read_source(path)
            results = check_file(path, text, [], None, [self.llc] if self.llc else [],
                                 None if fn == "(every function)" else [fn],
                                 float(self.timeout) if self.timeout else 30.0, runs=[f"{path}:{line}"])
        except InputError as e:
            return lit.Test.Result(lit.Test.FAIL, str(e) + "\n", time.perf_counter() - t0)
        code = exit_code(results, accept)
        lines = [ln for r in results for ln in r.lines()] + [summary(results)]
        return lit.Test.Result(lit.Test.PASS if code == 0 else lit.Test.FAIL, "\n".join(lines) + "\n",
                               time.perf_counter() - t0)

    def argv(self, path: str) -> list[str]:
        out = ["tv", path, "--json"]
        if self.llc:
            out += ["--llc", self.llc]
        if self.accept:
            out += ["--accept", self.accept]
        if self.timeout:
            out += ["--timeout", self.timeout]
        return out

    def execute_file(self, test: Any) -> Any:
        path = test.getSourcePath()
        accept = parse_accept([self.accept] if self.accept else [])
        t0 = time.perf_counter()
        results = check_one(path, [], None, [self.llc] if self.llc else [], None,
                            float(self.timeout) if self.timeout else 30.0, {}, False, 1)
        elapsed = time.perf_counter() - t0
        if [r.verdict for r in results] == ["not codegen"]:  # no llc RUN line for AMDGPU
            return lit.Test.Result(lit.Test.UNSUPPORTED, results[0].notes[0] + "\n", elapsed)
        code = exit_code(results, accept)
        failed = [r for r in results if not accepted(r, accept)]
        lines = [f"verify tv {path}: exit {code}; {summary(results)}"]
        lines += [f"  {r.head()}: {r.verdict}" + (f" ({r.notes[0]})" if r.notes else "") for r in (failed or results)]
        result = lit.Test.Result(lit.Test.PASS if code == 0 else lit.Test.FAIL, "\n".join(lines) + "\n", elapsed)
        seen: dict[str, int] = {}
        for r in results:
            name = r.head()
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name += f" #{seen[name]}"
            ok = accepted(r, accept)
            result.addMicroResult(name, lit.Test.Result(lit.Test.PASS if ok else lit.Test.FAIL, r.verdict + "\n"))
        return result


def instance_names(path: str) -> list[str]:
    """The lit test names of a file's instances: one per function and RUN
    line (and one per RUN line verify cannot use); [] when the file has no
    AMDGPU codegen RUN line or cannot be read."""
    try:
        text = read_source(path)
        planned = plan(path, text, [], None)
    except InputError:
        return []
    fns = _DEFINE.findall(text)
    out = [f"(every function) on RUN line [RUN line {s.run.rsplit(':', 1)[1]}]" for s in planned.skipped if s.counts]
    for i in planned.instances:
        flags = f" ({' '.join(i.flags)})" if i.flags else ""
        line = i.run.rsplit(":", 1)[1] if i.run else "0"
        out += [f"{f} on {i.target.name} wave{i.wave}{flags} [RUN line {line}]" for f in fns if i.only in ("", f)]
    return out


def configure(config: Any, lit_config: Any, here: str) -> None:
    """Set up a lit suite that runs verify tv over `verify_tests` (default:
    `here`, the directory of the calling lit.cfg.py)."""
    params = lit_config.params
    root = params.get("verify_tests") or here
    config.name = "verify-tv"
    config.suffixes = [".ll"]
    config.excludes = ["Inputs"]
    config.test_source_root = os.path.abspath(root)
    config.test_exec_root = params.get("verify_exec_root") or config.test_source_root
    # LLVM's lit.local.cfg files ask for the AMDGPU target to be built
    config.targets = {"AMDGPU"}
    config.target_triple = "amdgcn-amd-amdhsa"
    if params.get("llc"):  # fail closed: a compiler that cannot run stops lit before any test
        try:
            check_llc([params["llc"]])
        except InputError as e:
            lit_config.fatal(str(e))
    config.test_format = VerifyTV(params.get("llc"), params.get("accept", ""), params.get("verify_timeout"),
                                  params.get("verify_split", "file"))
