"""verify: a formal verifier for AMD GPU cross-lane lowerings.

A lowering (AMDGPU assembly) is proved to refine a shuffle/reduction spec
for every EXEC mask its contract admits, per target and wave size.
"""

__version__ = "0.1.0"

# Bumped to make every proof record stale without a source change (e.g. when
# the meaning of an instruction or a spec changes outside verify/); the core
# line of proofs.lock carries it (verify/revisions.py).
SEMANTICS_REVISION = 1
