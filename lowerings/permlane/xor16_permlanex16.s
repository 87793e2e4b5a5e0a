; xor16_permlanex16: lane i reads lane i ^ 16 with one v_permlanex16_b32
; (GFX10+): the other row of each pair, same position (selects 0x76543210,
; 0xfedcba98).  permlanex16 never leaves a 32-lane half, so on a wave64 each
; half is one 32-lane warp.
;
; @spec     cuda.shfl_xor mask=16 width=32
; @targets  gfx10, gfx11, gfx12
; @waves    32, 64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s0, s1
s_mov_b32 s0, 0x76543210
s_mov_b32 s1, 0xfedcba98
s_waitcnt_depctr depctr_sa_sdst(0)
v_permlanex16_b32 v1, v0, s0, s1
