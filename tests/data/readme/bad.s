; The README's bad-input example: row_bcast is GFX8/9 only.
; @spec     cuda.shfl_xor mask=1 width=16
; @targets  gfx9
; @waves    64
; @input    x = v0
; @output   out = v1
; @clobbers v2
v_mov_b32_e32 v2, v0
v_mov_b32_dpp v1, v2 row_bcast:15 row_mask:0xa
