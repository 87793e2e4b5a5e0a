; invocation_id_w64: subgroup.invocation_id() on a wave64: mbcnt_lo/hi of -1
; (LLVM's llvm.amdgcn.mbcnt.lo/hi pair).
;
; @spec     vote.invocation_id
; @targets  gfx9, gfx10, gfx11, gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1
v_mbcnt_lo_u32_b32 v1, -1, 0
v_mbcnt_hi_u32_b32 v1, -1, v1
