; lanemask_gt_rdna: lanemask_gt(id) = 0 - (2 << id) (= ~((2 << id) - 1): the lanes above)
; in 64 bits as llc-22 -mcpu=gfx1100 (gfx1030 alike; s_delay_alu left out) emits it.
; In wave32 the high half is 0: the 32-bit form (shl i32, sub i32) as llc-22 emits it, hi set to 0.
;
; @spec     vote.lanemask_gt
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3]
v_lshlrev_b32_e64 v2, v0, 2
v_sub_nc_u32_e32 v2, 0, v2
v_mov_b32_e32 v3, 0
