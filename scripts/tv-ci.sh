#!/bin/sh
# The CI gate for `verify tv` over a compiler's test tree (docs/tv.md, "CI
# recipe"). It fails on every exit but 0:
#   1  an instance refuted (a miscompile) or a compiler error (LLVM crashed or failed)
#   2  bad input (an --llc that cannot run, a file verify cannot read)
#   3  an unknown verdict (the solver gave up)
#   4  an unsupported instance (a RUN line or construct verify does not model)
# (the exit codes of every command: `verify --help`, docs/ci.md "Exit codes")
# Causes a project accepts are listed with --accept (unsupported, run-line,
# unknown); nothing accepts a refutation, a compiler error or bad input.
#
#   scripts/tv-ci.sh llvm/test/CodeGen/AMDGPU --llc "$BUILD/bin/llc" --jobs "$(nproc)" --accept run-line
#
# VERIFY names the verify command (default: verify).
set -u
VERIFY=${VERIFY:-verify}
$VERIFY tv "$@"
code=$?
case $code in
  0) ;;
  1) echo "tv-ci: FAIL: a miscompile or a compiler error (exit 1)" >&2 ;;
  2) echo "tv-ci: FAIL: bad input (exit 2)" >&2 ;;
  3) echo "tv-ci: FAIL: unknown verdicts (exit 3)" >&2 ;;
  4) echo "tv-ci: FAIL: unsupported instances (exit 4)" >&2 ;;
  *) echo "tv-ci: FAIL: verify tv exited $code" >&2 ;;
esac
exit $code
