; hip_ballot_rank_w32: HIP's __popcll(__ballot(p) & __lanemask_lt()) on a wave32 (warpSize 32):
; the ballot (v_cmp over EXEC: an inactive lane gives a 0 bit), then v_mbcnt_lo counts its set
; bits below the lane.
;
; @spec     hip.ballot_rank
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s4
v_cmp_ne_u32_e64 s4, 0, v0
s_waitcnt_depctr depctr_va_sdst(0)
v_mbcnt_lo_u32_b32 v1, s4, 0
