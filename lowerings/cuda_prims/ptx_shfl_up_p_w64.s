; ptx_shfl_up_p_w64: inline PTX `shfl.sync.up.b32 d|p, a, b, 0, 0xffffffff` with a per-lane delta b
; on a wave64 holding two 32-lane warps: j = (lane & 31) - (b & 31); in range (p) when j >= 0
; (signed), else the lane reads itself; ds_bpermute from the chosen lane of the lane's own half
; (bit 5 of the lane kept), p as 1/0 from the same compare (2 wait states after the VCC write
; on gfx94x/gfx950 [S:hazards]).
;
; @spec     ptx.shfl_up_p b=@b c=0
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0, b = v4
; @output   out = v1, pred = v5
; @clobbers v2, v3, v6, vcc
v_mbcnt_lo_u32_b32 v2, -1, 0
v_mbcnt_hi_u32_b32 v2, -1, v2
v_and_b32_e32 v6, 31, v2
v_and_b32_e32 v3, 31, v4
v_sub_u32_e32 v3, v6, v3
v_cmp_le_i32_e32 vcc, 0, v3
v_and_b32_e32 v6, 32, v2
v_or_b32_e32 v3, v6, v3
s_nop 0
v_cndmask_b32_e32 v3, v2, v3, vcc
v_cndmask_b32_e64 v5, 0, 1, vcc
v_lshlrev_b32_e32 v3, 2, v3
ds_bpermute_b32 v1, v3, v0
s_waitcnt lgkmcnt(0)
