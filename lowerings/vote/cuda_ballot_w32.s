; cuda_ballot_w32: CUDA's __ballot_sync(0xffffffff, p) on a wave32 (HIP's
; __ballot on a 32-lane warp): lanes that do not call (inactive) give 0 bits.
;
; @spec     cuda.ballot
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = s0
; @clobbers s0
v_cmp_ne_u32_e64 s0, 0, v0
