"""`verify tv`: translation validation of LLVM IR against the AMDGPU code an
LLVM compiles it to (docs/tv.md)."""
