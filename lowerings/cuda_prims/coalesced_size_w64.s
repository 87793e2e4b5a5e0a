; coalesced_size_w64: coalesced_threads().num_threads() on a 64-lane warp (HIP's warpSize on a GFX9
; wave64): s_bcnt1 of EXEC, moved to every lane.
;
; @spec     cg.coalesced_size warp=64
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s4
s_bcnt1_i32_b64 s4, exec
v_mov_b32_e32 v1, s4
