; bcast32_swizzle: lane 31 of each 32-lane half to the whole half, with
; ds_swizzle BROADCAST,32,31 (and=0, or=31).
;
; @spec     lane.bcast lane=31 width=32
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
ds_swizzle_b32 v1, v0 offset:swizzle(BROADCAST,32,31)
s_waitcnt lgkmcnt(0)
