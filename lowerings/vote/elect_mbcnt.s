; elect_mbcnt: Quadrants' elect() = i32(invocation_id() == 0) as LLVM 22
; emits it (llc-22 -mcpu=gfx942, gfx1100): mbcnt of -1 is the lane id (EXEC
; plays no part), so lane 0 alone gets 1 under any EXEC.
;
; @spec     vote.elect
; @targets  gfx9, gfx10, gfx11
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v2
; @clobbers v1, v2, vcc
v_mbcnt_lo_u32_b32 v1, -1, 0
v_mbcnt_hi_u32_b32 v1, -1, v1
v_cmp_eq_u32_e32 vcc, 0, v1
s_nop 1  ; gfx94x/gfx950: VCC read 2 wait states after the compare [S:hazards]
v_cndmask_b32_e64 v2, 0, 1, vcc
