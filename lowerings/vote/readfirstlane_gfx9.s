; readfirstlane_gfx9: llvm.amdgcn.readfirstlane.i32 is v_readfirstlane_b32, the
; value of the lowest active lane in every lane.
;
; @spec     vote.readfirstlane
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = s0
; @clobbers s0
v_readfirstlane_b32 s0, v0
