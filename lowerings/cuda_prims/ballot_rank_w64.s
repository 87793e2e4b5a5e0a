; ballot_rank_w64: popc(__ballot_sync(0xffffffff, p) & __lanemask_lt()) on a wave64 holding two
; 32-lane warps: the 64-lane ballot; lanes 0-31 count its low half below them (v_mbcnt_lo),
; lanes 32-63 its high half below them (v_mbcnt_hi with 0: no low-half bits), selected by the
; lane index (2 wait states after SGPR/VCC writes on gfx94x/gfx950 [S:hazards]).
;
; @spec     cuda.ballot_rank
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2, v3, s[4:5], vcc
v_cmp_ne_u32_e64 s[4:5], 0, v0
v_mbcnt_lo_u32_b32 v3, -1, 0
v_mbcnt_hi_u32_b32 v3, -1, v3
v_cmp_gt_u32_e32 vcc, 32, v3
v_mbcnt_lo_u32_b32 v1, s4, 0
v_mbcnt_hi_u32_b32 v2, s5, 0
v_cndmask_b32_e32 v1, v2, v1, vcc
