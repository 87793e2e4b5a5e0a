; cuda_activemask_w32: __activemask() on a wave32 is EXEC.
;
; @spec     cuda.activemask
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = s0
; @clobbers s0
s_mov_b32 s0, exec_lo
