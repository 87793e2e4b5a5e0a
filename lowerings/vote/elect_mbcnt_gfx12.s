; elect_mbcnt_gfx12: Quadrants' elect() = i32(invocation_id() == 0) as LLVM 22
; emits it (llc-22 -mcpu=gfx942, gfx1100): mbcnt of -1 is the lane id (EXEC
; plays no part), so lane 0 alone gets 1 under any EXEC.
;
; Its GFX12 copy, with the s_wait_alu LLVM's SGPR-hazard pass would insert
; (lowerings/_gen/alu_waits.py).
;
; @spec     vote.elect
; @targets  gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v2
; @clobbers v1, v2, vcc
v_mbcnt_lo_u32_b32 v1, -1, 0
v_mbcnt_hi_u32_b32 v1, -1, v1
v_cmp_eq_u32_e32 vcc, 0, v1
s_nop 1  ; gfx94x/gfx950: VCC read 2 wait states after the compare [S:hazards]
s_wait_alu depctr_va_vcc(0)
v_cndmask_b32_e64 v2, 0, 1, vcc
