; bcast16_swizzle: __shfl_sync(mask, x, 5, 16): every lane reads lane 5 of its
; group of 16 (SCALE's example).  ds_swizzle BROADCAST,16,5 keeps lane bit 4
; and forces the low four bits to 5.
;
; @spec     cuda.shfl_idx lane=5 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
ds_swizzle_b32 v1, v0 offset:swizzle(BROADCAST,16,5)
s_waitcnt lgkmcnt(0)
