; xor32_permlane64: on a 64-lane warp, lane i reads lane i ^ 32 (swap the
; halves) with one v_permlane64_b32 (GFX11+).  permlane64 reads its source
; even in inactive lanes, and writes only active lanes.
;
; @spec     cuda64.shfl_xor mask=32 width=64
; @targets  gfx11, gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
v_permlane64_b32 v1, v0
