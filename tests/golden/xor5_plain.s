; xor5_plain: the two-step XOR-5 without whole-wave mode.  Correct when every
; lane is active, refuted under a partial EXEC: lane 7 needs v2[5], which the
; first step does not write when lane 5 is inactive.
;
; @spec     cuda.shfl_xor mask=5 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2
; @expect   refuted
v_mov_b32_dpp v2, v0 row_half_mirror row_mask:0xf bank_mask:0xf
s_nop 1
v_mov_b32_dpp v1, v2 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
