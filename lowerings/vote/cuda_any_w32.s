; cuda_any_w32: CUDA's __any_sync(0xffffffff, p) as HIP spells it (the ballot of p
; under the member mask, compared with 0) on a wave32, as llc-22 -mcpu=gfx1100
; emits it: the compare's lane mask in vcc_lo, s_cmp_lg against 0, s_cselect
; feeding v_cndmask.  Lanes that do not call (inactive) give 0 bits.
;
; @spec     cuda.any
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1, vcc_lo, s0
v_cmp_ne_u32_e32 vcc_lo, 0, v0
s_cmp_lg_u32 vcc_lo, 0
s_cselect_b32 s0, -1, 0
s_waitcnt_depctr depctr_sa_sdst(0)
v_cndmask_b32_e64 v1, 0, 1, s0
