; Bug: whole-wave mode entered but EXEC never restored.
;
; @spec     cuda.shfl_xor mask=5 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2, s[0:1]
; @expect   refuted
s_or_saveexec_b64 s[0:1], -1
v_mov_b32_dpp v2, v0 row_half_mirror row_mask:0xf bank_mask:0xf
s_nop 1
v_mov_b32_dpp v1, v2 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
