"""verify: a formal verifier for AMD GPU cross-lane lowerings.

A lowering (AMDGPU assembly) is proved to refine a shuffle/reduction spec
for every EXEC mask its contract admits, per target and wave size.
"""

__version__ = "0.1.0"

# Bumped whenever the meaning of an instruction or a spec changes; proof
# records carry it so that a semantics change makes old proofs stale.
SEMANTICS_REVISION = 1
