; shfl_idx_var: __shfl_sync(mask, x, lane, 32) with a per-lane source lane, on
; a wave64 running one 32-lane warp per half: ds_bpermute from
; (half base) | (lane & 31).  PTX takes the source lane modulo the warp, so a
; lane >= 32 or < 0 stays inside the lane's own warp: the address computation
; keeps bit 5 of the reading lane and only the low 5 bits of `lane`.
;
; @spec     cuda.shfl_idx lane=@lane width=32
; @targets  gfx9, gfx10, gfx11, gfx12
; @waves    64
; @exec     any
; @input    x = v0, lane = v3
; @output   out = v1
; @clobbers v2, v4
v_mbcnt_lo_u32_b32 v2, -1, 0
v_mbcnt_hi_u32_b32 v2, -1, v2
v_and_b32_e32 v2, 32, v2
v_and_b32_e32 v4, 31, v3
v_or_b32_e32 v4, v2, v4
v_lshlrev_b32_e32 v4, 2, v4
ds_bpermute_b32 v1, v4, v0
s_waitcnt lgkmcnt(0)
