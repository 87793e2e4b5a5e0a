; bcast32_readlane: lane 31 to every lane of a wave32 (GFX10+): v_readlane
; into an SGPR, then a move writes the active lanes.
;
; @spec     lane.bcast lane=31 width=32
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s0
v_readlane_b32 s0, v0, 31
s_waitcnt_depctr depctr_va_sdst(0)
v_mov_b32_e32 v1, s0
