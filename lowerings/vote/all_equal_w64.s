; all_equal_w64: all_equal(v) on i32 as LLVM 22 emits the readfirstlane form
; (llc-22 -mcpu=gfx942): compare every lane with the first active lane's
; value, then all_true of the compare.
;
; @spec     vote.all_equal
; @targets  gfx9, gfx10, gfx11
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1, vcc, s2, s[4:5]
v_readfirstlane_b32 s2, v0
s_nop 1
v_cmp_ne_u32_e32 vcc, s2, v0
s_cmp_eq_u64 vcc, 0
s_cselect_b64 s[4:5], -1, 0
v_cndmask_b32_e64 v1, 0, 1, s[4:5]
