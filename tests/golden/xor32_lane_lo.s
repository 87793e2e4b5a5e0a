; Bug: a wave64 half-select keyed on the wrong lane.  The lane id comes from
; v_mbcnt_lo alone, which counts only lanes 0-31, so every lane of the upper
; half computes lane id 32 and reads lane 0.
;
; @spec     cuda64.shfl_xor mask=32 width=64
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2
; @expect   refuted
v_mbcnt_lo_u32_b32 v2, -1, 0
v_xor_b32_e32 v2, 32, v2
v_lshlrev_b32_e32 v2, 2, v2
ds_bpermute_b32 v1, v2, v0
s_waitcnt lgkmcnt(0)
