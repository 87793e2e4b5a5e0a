; hip_ballot_rank_w64: HIP's __popcll(__ballot(p) & __lanemask_lt()) on a wave64: the 64-lane
; ballot, then v_mbcnt_lo/hi count its set bits below the lane (2 wait states between the
; compare's SGPR write and the VALU read on gfx94x/gfx950 [S:hazards]).
;
; @spec     hip.ballot_rank
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s[4:5]
v_cmp_ne_u32_e64 s[4:5], 0, v0
s_nop 1
v_mbcnt_lo_u32_b32 v1, s4, 0
v_mbcnt_hi_u32_b32 v1, s5, v1
