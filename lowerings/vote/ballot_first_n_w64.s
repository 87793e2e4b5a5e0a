; ballot_first_n_w64: Quadrants' ballot_first_n(p, 16): the low 32 bits of the
; ballot masked to lanes [0, 16) (llc-22 -mcpu=gfx942: v_cmp to vcc, then
; s_and_b32 of vcc_lo).
;
; @spec     vote.ballot_first_n n=16
; @targets  gfx9, gfx10, gfx11, gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = s0
; @clobbers s0, vcc
v_cmp_ne_u32_e32 vcc, 0, v0
s_and_b32 s0, vcc_lo, 0xffff
