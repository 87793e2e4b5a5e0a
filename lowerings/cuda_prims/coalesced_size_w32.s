; coalesced_size_w32: coalesced_threads().num_threads() on a wave32 (CUDA's warp): s_bcnt1 of EXEC,
; moved to every lane.
;
; @spec     cg.coalesced_size warp=32
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s4
s_bcnt1_i32_b32 s4, exec_lo
s_waitcnt_depctr depctr_sa_sdst(0)
v_mov_b32_e32 v1, s4
