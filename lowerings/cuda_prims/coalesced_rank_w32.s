; coalesced_rank_w32: coalesced_threads().thread_rank() on a wave32 (CUDA's warp): the calling
; lanes below the lane, v_mbcnt_lo of EXEC.
;
; @spec     cg.coalesced_rank warp=32
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s4
s_mov_b32 s4, exec_lo
s_waitcnt_depctr depctr_sa_sdst(0)
v_mbcnt_lo_u32_b32 v1, s4, 0
