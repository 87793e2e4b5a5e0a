; bcast64_readlane: lane 63 to all 64 lanes of a 64-lane warp: v_readlane into
; an SGPR (it reads the lane even if it is inactive; the spec leaves that case
; undefined), then a plain move writes the active lanes.
;
; @spec     cuda64.shfl_idx lane=63 width=64
; @targets  gfx9, gfx10, gfx11
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s0
v_readlane_b32 s0, v0, 63
s_nop 1  ; gfx94x/gfx950: a VALU read of an SGPR a VALU wrote waits 2 [S:hazards]
v_mov_b32_e32 v1, s0
