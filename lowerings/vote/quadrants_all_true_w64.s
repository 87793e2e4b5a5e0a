; quadrants_all_true_w64: Quadrants' all_true as its portable shuffle_xor butterfly
; lowers on AMDGPU: the predicate as 0/1, then 6 rounds of
; shuffle(v, invocation_id() ^ m) (ds_bpermute at byte address 4 * (id ^ m))
; combined with v_and_b32.  Every lane takes part (Quadrants' contract, hence
; a full EXEC); the spec's over=all makes an inactive lane undefined.
; On GFX9/CDNA ds_bpermute reaches the whole wave64.
;
; @spec     vote.all_true over=all
; @targets  gfx9
; @waves    64
; @exec     full
; @input    x = v0
; @output   out = v1
; @clobbers v1, v2, v3, v4, vcc
v_cmp_ne_u32_e32 vcc, 0, v0
v_mbcnt_lo_u32_b32 v2, -1, 0
v_mbcnt_hi_u32_b32 v2, -1, v2
v_cndmask_b32_e64 v1, 0, 1, vcc
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
v_xor_b32_e32 v3, 32, v2
v_lshlrev_b32_e32 v3, 2, v3
ds_bpermute_b32 v4, v3, v1
s_waitcnt lgkmcnt(0)
v_and_b32_e32 v1, v1, v4
