; all_equal_f32_w64_gfx12: all_equal(v) on f32 (llc-22 -mcpu=gfx942 of fcmp oeq
; against readfirstlane): v_cmp_neq_f32 is true on NaN and false on +0.0 vs
; -0.0, so one NaN lane gives 0 and signed zeros are equal.
;
; Its GFX12 copy, with the s_wait_alu LLVM's SGPR-hazard pass would insert
; (lowerings/_gen/alu_waits.py).
;
; @spec     vote.all_equal_f32
; @targets  gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1, vcc, s2, s[4:5]
v_readfirstlane_b32 s2, v0
s_nop 1
s_wait_alu depctr_va_sdst(0)
v_cmp_neq_f32_e32 vcc, s2, v0
s_cmp_eq_u64 vcc, 0
s_cselect_b64 s[4:5], -1, 0
s_wait_alu depctr_sa_sdst(0)
v_cndmask_b32_e64 v1, 0, 1, s[4:5]
