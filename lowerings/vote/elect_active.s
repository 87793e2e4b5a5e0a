; elect_active: OpGroupNonUniformElect as the lowest active lane: s_ff1 of
; EXEC names it and each lane compares its id (mbcnt of -1) with it.
;
; @spec     vote.elect_active
; @targets  gfx9, gfx10, gfx11, gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v2
; @clobbers v1, v2, vcc, s0
s_ff1_i32_b64 s0, exec
v_mbcnt_lo_u32_b32 v1, -1, 0
v_mbcnt_hi_u32_b32 v1, -1, v1
v_cmp_eq_u32_e32 vcc, s0, v1
v_cndmask_b32_e64 v2, 0, 1, vcc
