; xor5: lane i reads lane i ^ 5 inside each 16-lane row, on the GFX9 family,
; which has no row_xmask.  i ^ 5 = (i ^ 7) ^ 2, so a row_half_mirror (i ^ 7)
; followed by quad_perm:[2,3,0,1] (i ^ 2) does it (SCALE's construction).
;
; EXEC contract: any.  The plain two-step sequence is wrong under a partial
; EXEC: a lane's value can travel through an inactive lane of the
; intermediate register, which the first step does not write (see
; tests/golden/xor5_plain.s for the counterexample).  Running both steps in
; whole-wave mode (all lanes on, EXEC saved and restored) makes every
; intermediate lane valid, so the result is right in every lane that was
; active; lanes that were inactive get values too, which is allowed.
; GFX9 needs two wait states between a VALU write of v2 and the DPP read of
; v2 (s_nop 1).
;
; @spec     cuda.shfl_xor mask=5 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2, s[0:1]
s_or_saveexec_b64 s[0:1], -1
v_mov_b32_dpp v2, v0 row_half_mirror row_mask:0xf bank_mask:0xf
s_nop 1
v_mov_b32_dpp v1, v2 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
s_mov_b64 exec, s[0:1]
