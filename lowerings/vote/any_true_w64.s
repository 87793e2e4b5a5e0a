; any_true_w64: any_true(p) as LLVM 22 emits icmp ne (ballot p), 0 (llc-22
; -mcpu=gfx942): the ballot in vcc, SCC = vcc != 0, a select to -1/0 and a
; v_cndmask to 1/0 in every active lane.
;
; @spec     vote.any_true
; @targets  gfx9, gfx10, gfx11
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1, vcc, s[2:3]
v_cmp_ne_u32_e32 vcc, 0, v0
s_cmp_lg_u64 vcc, 0
s_cselect_b64 s[2:3], -1, 0
v_cndmask_b32_e64 v1, 0, 1, s[2:3]
