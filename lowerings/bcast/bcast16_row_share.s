; bcast16_row_share: __shfl_sync(mask, x, 5, 16) with one DPP row_share:5
; (GFX10+): every lane reads lane 5 of its row.
;
; @spec     cuda.shfl_idx lane=5 width=16
; @targets  gfx10, gfx11, gfx12
; @waves    32, 64
; @exec     any
; @input    x = v0
; @output   out = v1
v_mov_b32_dpp v1, v0 row_share:5 row_mask:0xf bank_mask:0xf
