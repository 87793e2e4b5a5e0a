; all_true_w64_gfx12: all_true(p) as LLVM 22 emits icmp eq (ballot !p), 0 (llc-22
; -mcpu=gfx942): the ballot of the lanes whose predicate is 0 must be empty.
; An inactive lane's bit is 0, so inactive lanes do not vote.
;
; Its GFX12 copy, with the s_wait_alu LLVM's SGPR-hazard pass would insert
; (lowerings/_gen/alu_waits.py).
;
; @spec     vote.all_true
; @targets  gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1, vcc, s[2:3]
v_cmp_eq_u32_e32 vcc, 0, v0
s_cmp_eq_u64 vcc, 0
s_cselect_b64 s[2:3], -1, 0
s_wait_alu depctr_sa_sdst(0)
v_cndmask_b32_e64 v1, 0, 1, s[2:3]
