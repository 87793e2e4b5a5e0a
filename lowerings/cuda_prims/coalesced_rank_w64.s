; coalesced_rank_w64: coalesced_threads().thread_rank() on a 64-lane warp (HIP's warpSize on a GFX9
; wave64): the calling lanes below the lane, v_mbcnt_lo then v_mbcnt_hi of EXEC.
;
; @spec     cg.coalesced_rank warp=64
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s[4:5]
s_mov_b64 s[4:5], exec
v_mbcnt_lo_u32_b32 v1, s4, 0
v_mbcnt_hi_u32_b32 v1, s5, v1
