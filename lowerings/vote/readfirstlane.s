; readfirstlane: llvm.amdgcn.readfirstlane.i32 is v_readfirstlane_b32, the
; value of the lowest active lane in every lane.
;
; @spec     vote.readfirstlane
; @targets  gfx10, gfx11, gfx12
; @waves    32, 64
; @exec     any
; @input    x = v0
; @output   out = s0
; @clobbers s0
v_readfirstlane_b32 s0, v0
