; scan_add_gcn3: the full-wave inclusive prefix sum of AMD's "GCN Assembly:
; Cross-Lane Operations" article (integer add in place of v_add_f32), GFX9
; family, wave64.  No whole-wave mode and no identity fill: the scan is over
; ALL lanes (over=all), so only lanes whose whole prefix is active are
; constrained.  Steps 1-3 read x (v0) through row_shr with zero fill; steps 4-5
; shift the partial sums, masking banks that must keep theirs; row_bcast:15
; and row_bcast:31 join the rows (row_mask 0xa and 0xc are required, the
; article explains).  s_nop 1 before every DPP op that reads a VGPR just
; written: the article needs none before steps 2-3 (their DPP operand is v0),
; but LLVM's hazard recognizer counts every VGPR a DPP op reads.
;
; @spec     red.scan_incl op=add over=all
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
v_add_u32_dpp v1, v0, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
s_nop 1
v_add_u32_dpp v1, v0, v1 row_shr:2 row_mask:0xf bank_mask:0xf bound_ctrl:1
s_nop 1
v_add_u32_dpp v1, v0, v1 row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:1
s_nop 1
v_add_u32_dpp v1, v1, v1 row_shr:4 row_mask:0xf bank_mask:0xe
s_nop 1
v_add_u32_dpp v1, v1, v1 row_shr:8 row_mask:0xf bank_mask:0xc
s_nop 1
v_add_u32_dpp v1, v1, v1 row_bcast:15 row_mask:0xa bank_mask:0xf
s_nop 1
v_add_u32_dpp v1, v1, v1 row_bcast:31 row_mask:0xc bank_mask:0xf
