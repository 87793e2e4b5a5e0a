; ballot_rank_w32_gfx12: popc(__ballot_sync(0xffffffff, p) & __lanemask_lt()) on a GFX12 wave32:
; the ballot, an s_wait_alu before the VALU reads the SGPR the compare wrote [S:hazards], then
; v_mbcnt_lo.
;
; @spec     cuda.ballot_rank
; @targets  gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s4
v_cmp_ne_u32_e64 s4, 0, v0
s_wait_alu depctr_va_sdst(0)
v_mbcnt_lo_u32_b32 v1, s4, 0
