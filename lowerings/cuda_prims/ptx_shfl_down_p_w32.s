; ptx_shfl_down_p_w32: inline PTX `shfl.sync.down.b32 d|p, a, b, 0x1f, 0xffffffff` with a per-lane
; delta b on a wave32: j = lane + (b & 31); in range (p) when j <= 31, else the lane reads itself;
; ds_bpermute from the chosen lane, p as 1/0 from the same compare.
;
; @spec     ptx.shfl_down_p b=@b c=31
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0, b = v4
; @output   out = v1, pred = v5
; @clobbers v2, v3, vcc_lo
v_mbcnt_lo_u32_b32 v2, -1, 0
v_and_b32_e32 v3, 31, v4
v_add_nc_u32_e32 v3, v2, v3
v_cmp_ge_u32_e32 vcc_lo, 31, v3
s_waitcnt_depctr depctr_va_vcc(0)
v_cndmask_b32_e32 v3, v2, v3, vcc_lo
v_cndmask_b32_e64 v5, 0, 1, vcc_lo
v_lshlrev_b32_e32 v3, 2, v3
ds_bpermute_b32 v1, v3, v0
s_waitcnt lgkmcnt(0)
