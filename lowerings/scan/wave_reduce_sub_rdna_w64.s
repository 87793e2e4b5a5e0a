; wave_reduce_sub_rdna_w64: llvm.amdgcn.wave.reduce.sub, 0 minus each active lane's value (wrapping),
; broadcast to every lane: the whole-wave add reduction of reduce_all_add_rdna_w64.s (ACO's
; butterfly, rows joined by readlane and s_add) negated by one s_sub_u32 (the sum of the
; negations is the negated sum modulo 2^32; LLVM 22's own code for a divergent value is
; the iterative loop, which verify reads in `verify tv` but a lowering cannot hold).
;
; @spec     wave.reduce_sub
; @targets  gfx10, gfx11, gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v3, v4, s[0:1], s4, s5
s_or_saveexec_b64 s[0:1], -1
s_waitcnt_depctr depctr_sa_sdst(0)
v_cndmask_b32_e64 v1, 0, v0, s[0:1]
v_add_nc_u32_dpp v1, v1, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_nc_u32_dpp v1, v1, v1 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
v_add_nc_u32_dpp v1, v1, v1 row_half_mirror row_mask:0xf bank_mask:0xf
v_add_nc_u32_dpp v1, v1, v1 row_mirror row_mask:0xf bank_mask:0xf
v_readlane_b32 s4, v1, 0
v_readlane_b32 s5, v1, 16
s_add_u32 s4, s4, s5
v_readlane_b32 s5, v1, 32
s_waitcnt_depctr depctr_sa_sdst(0)
s_add_u32 s4, s4, s5
v_readlane_b32 s5, v1, 48
s_waitcnt_depctr depctr_sa_sdst(0)
s_add_u32 s4, s4, s5
s_waitcnt_depctr depctr_sa_sdst(0)
s_sub_u32 s4, 0, s4
s_waitcnt_depctr depctr_sa_sdst(0)
v_mov_b32_e32 v1, s4
s_mov_b64 exec, s[0:1]
