; bcast16_row_newbcast: __shfl_sync(mask, x, 5, 16) with DPP row_newbcast:5,
; the CDNA2+ name of the same control (gfx90a, gfx94x, gfx950).
;
; @spec     cuda.shfl_idx lane=5 width=16
; @targets  gfx90a, gfx94x, gfx950
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
v_mov_b32_dpp v1, v0 row_newbcast:5 row_mask:0xf bank_mask:0xf
