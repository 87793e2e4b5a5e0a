; ballot_w32: llvm.amdgcn.ballot.i32 on a wave32 (llc-22 -mcpu=gfx1100): the
; compare writes vcc_lo; the mask is 32 bits (the spec's `lo`).
;
; @spec     vote.ballot
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   lo = s0
; @clobbers s0, vcc_lo
v_cmp_ne_u32_e32 vcc_lo, 0, v0
s_mov_b32 s0, vcc_lo
