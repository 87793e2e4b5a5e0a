; xor32_permlane32_swap: on a 64-lane warp, lane i reads lane i ^ 32 on gfx950
; (CDNA4), which has v_permlane32_swap_b32 but not v_permlane64: copy the
; value, then swap the copy's two halves in place (vD = vS).
; The swap's EXEC behaviour is not documented (assumption permlane_swap.exec);
; this form is right under every variant (`--robust`).
;
; @spec     cuda64.shfl_xor mask=32 width=64
; @targets  gfx950
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
v_mov_b32_e32 v1, v0
s_nop 1
v_permlane32_swap_b32 v1, v1
