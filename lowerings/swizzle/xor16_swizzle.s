; xor16_swizzle: lane i reads lane i ^ 16 inside each 32-lane half, with the
; ds_swizzle bitmask mode (and=0x1f, or=0, xor=0x10).  ds_swizzle never
; crosses the 32-lane halves, so on a wave64 each half is its own warp: the
; spec is CUDA's 32-lane warp, applied per half.  An inactive source reads 0,
; but the spec leaves that lane undefined, so any EXEC is fine.
;
; @spec     cuda.shfl_xor mask=16 width=32
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
ds_swizzle_b32 v1, v0 offset:swizzle(SWAP,16)
s_waitcnt lgkmcnt(0)
