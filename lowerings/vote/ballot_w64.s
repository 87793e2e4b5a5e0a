; ballot_w64: llvm.amdgcn.ballot.i64 as LLVM 22 emits it (llc-22 -mcpu=gfx942,
; gfx1100 +wavefrontsize64): one v_cmp writes the lane mask to an SGPR pair;
; an inactive lane's bit is 0, so inactive lanes contribute nothing.
;
; @spec     vote.ballot
; @targets  gfx9, gfx10, gfx11, gfx12
; @waves    64
; @exec     any
; @input    x = v0
; @output   lo = s0, hi = s1
; @clobbers s[0:1]
v_cmp_ne_u32_e64 s[0:1], 0, v0
