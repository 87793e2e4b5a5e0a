; wave_reduce_fsub_rdna_w64: llvm.amdgcn.wave.reduce.fsub, +0.0 minus each active lane's value in
; ascending lane order (the order of LLVM 22's iterative loop: s_ff1 of a copy of EXEC,
; v_readlane, subtract, clear the bit), unrolled over every lane in whole-wave mode (four
; readlanes, then their four adds: every read of a v_readlane's SGPR 2 wait states later, as
; gfx94x needs [S:hazards]): an inactive lane
; adds -0.0, which changes no sum.  Each step adds the negation (a - b is
; a + -b exactly), so the f32 sums are the spec's, in the spec's order.
;
; @spec     wave.reduce_fsub
; @targets  gfx10, gfx11, gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2, v3, s[0:1], s[4:7]
s_or_saveexec_b64 s[0:1], -1
v_xor_b32_e32 v2, 0x80000000, v0
v_bfrev_b32_e32 v3, 1
s_waitcnt_depctr depctr_sa_sdst(0)
v_cndmask_b32_e64 v2, v3, v2, s[0:1]
v_mov_b32_e32 v1, 0
v_readlane_b32 s4, v2, 0
v_readlane_b32 s5, v2, 1
v_readlane_b32 s6, v2, 2
v_readlane_b32 s7, v2, 3
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 4
v_readlane_b32 s5, v2, 5
v_readlane_b32 s6, v2, 6
v_readlane_b32 s7, v2, 7
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 8
v_readlane_b32 s5, v2, 9
v_readlane_b32 s6, v2, 10
v_readlane_b32 s7, v2, 11
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 12
v_readlane_b32 s5, v2, 13
v_readlane_b32 s6, v2, 14
v_readlane_b32 s7, v2, 15
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 16
v_readlane_b32 s5, v2, 17
v_readlane_b32 s6, v2, 18
v_readlane_b32 s7, v2, 19
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 20
v_readlane_b32 s5, v2, 21
v_readlane_b32 s6, v2, 22
v_readlane_b32 s7, v2, 23
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 24
v_readlane_b32 s5, v2, 25
v_readlane_b32 s6, v2, 26
v_readlane_b32 s7, v2, 27
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 28
v_readlane_b32 s5, v2, 29
v_readlane_b32 s6, v2, 30
v_readlane_b32 s7, v2, 31
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 32
v_readlane_b32 s5, v2, 33
v_readlane_b32 s6, v2, 34
v_readlane_b32 s7, v2, 35
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 36
v_readlane_b32 s5, v2, 37
v_readlane_b32 s6, v2, 38
v_readlane_b32 s7, v2, 39
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 40
v_readlane_b32 s5, v2, 41
v_readlane_b32 s6, v2, 42
v_readlane_b32 s7, v2, 43
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 44
v_readlane_b32 s5, v2, 45
v_readlane_b32 s6, v2, 46
v_readlane_b32 s7, v2, 47
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 48
v_readlane_b32 s5, v2, 49
v_readlane_b32 s6, v2, 50
v_readlane_b32 s7, v2, 51
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 52
v_readlane_b32 s5, v2, 53
v_readlane_b32 s6, v2, 54
v_readlane_b32 s7, v2, 55
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 56
v_readlane_b32 s5, v2, 57
v_readlane_b32 s6, v2, 58
v_readlane_b32 s7, v2, 59
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
v_readlane_b32 s4, v2, 60
v_readlane_b32 s5, v2, 61
v_readlane_b32 s6, v2, 62
v_readlane_b32 s7, v2, 63
s_waitcnt_depctr depctr_va_sdst(0)
v_add_f32_e32 v1, s4, v1
v_add_f32_e32 v1, s5, v1
v_add_f32_e32 v1, s6, v1
v_add_f32_e32 v1, s7, v1
s_mov_b64 exec, s[0:1]
