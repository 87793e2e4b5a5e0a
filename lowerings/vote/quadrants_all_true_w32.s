; quadrants_all_true_w32: Quadrants' all_true as its portable shuffle_xor butterfly
; lowers on AMDGPU: the predicate as 0/1, then 5 rounds of
; shuffle(v, invocation_id() ^ m) (ds_bpermute at byte address 4 * (id ^ m))
; combined with v_and_b32.  Every lane takes part (Quadrants' contract, hence
; a full EXEC); the spec's over=all makes an inactive lane undefined.
;
; @spec     vote.all_true over=all
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     full
; @input    x = v0
; @output   out = v1
; @clobbers v1, v2, v3, v4, vcc_lo
v_mbcnt_lo_u32_b32 v2, -1, 0
v_cmp_ne_u32_e32 vcc_lo, 0, v0
s_waitcnt_depctr depctr_va_vcc(0)
v_cndmask_b32_e64 v1, 0, 1, vcc_lo
v_xor_b32_e32 v3, 1, v2
v_lshlrev_b32_e32 v3, 2, v3
ds_bpermute_b32 v4, v3, v1
s_waitcnt lgkmcnt(0)
v_and_b32_e32 v1, v1, v4
v_xor_b32_e32 v3, 2, v2
v_lshlrev_b32_e32 v3, 2, v3
ds_bpermute_b32 v4, v3, v1
s_waitcnt lgkmcnt(0)
v_and_b32_e32 v1, v1, v4
v_xor_b32_e32 v3, 4, v2
v_lshlrev_b32_e32 v3, 2, v3
ds_bpermute_b32 v4, v3, v1
s_waitcnt lgkmcnt(0)
v_and_b32_e32 v1, v1, v4
v_xor_b32_e32 v3, 8, v2
v_lshlrev_b32_e32 v3, 2, v3
ds_bpermute_b32 v4, v3, v1
s_waitcnt lgkmcnt(0)
v_and_b32_e32 v1, v1, v4
v_xor_b32_e32 v3, 16, v2
v_lshlrev_b32_e32 v3, 2, v3
ds_bpermute_b32 v4, v3, v1
s_waitcnt lgkmcnt(0)
v_and_b32_e32 v1, v1, v4
