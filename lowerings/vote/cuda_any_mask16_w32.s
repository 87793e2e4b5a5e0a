; cuda_any_mask16_w32: CUDA's __any_sync(0x0000ffff, p) (a partial member mask)
; as HIP spells it, on a wave32, as llc-22 -mcpu=gfx1100 emits it: the ballot
; ANDed with the mask sets SCC when a member lane's p is non-zero.
;
; @spec     cuda.any mask=0x0000ffff
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1, vcc_lo, s0
v_cmp_ne_u32_e32 vcc_lo, 0, v0
s_and_b32 s0, vcc_lo, 0xffff
s_cselect_b32 s0, -1, 0
s_waitcnt_depctr depctr_sa_sdst(0)
v_cndmask_b32_e64 v1, 0, 1, s0
