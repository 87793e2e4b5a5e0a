; xor31_swizzle: lane i reads lane i ^ 31 (the 32-lane reverse) inside each
; half, with ds_swizzle's bitmask mode (xor=0x1f).
;
; @spec     cuda.shfl_xor mask=31 width=32
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
ds_swizzle_b32 v1, v0 offset:swizzle(REVERSE,32)
s_waitcnt lgkmcnt(0)
