; bcast64_readlane_gfx12: lane 63 to all 64 lanes of a 64-lane warp: v_readlane into
; an SGPR (it reads the lane even if it is inactive; the spec leaves that case
; undefined), then a plain move writes the active lanes.
;
; Its GFX12 copy, with the s_wait_alu LLVM's SGPR-hazard pass would insert
; (lowerings/_gen/alu_waits.py).
;
; @spec     cuda64.shfl_idx lane=63 width=64
; @targets  gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s0
v_readlane_b32 s0, v0, 63
s_nop 1  ; gfx94x/gfx950: a VALU read of an SGPR a VALU wrote waits 2 [S:hazards]
s_wait_alu depctr_va_sdst(0)
v_mov_b32_e32 v1, s0
