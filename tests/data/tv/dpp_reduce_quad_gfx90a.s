; llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a < tests/tv/dpp_reduce_quad.ll (tests/test_tv_hazard_verdict.py)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.amdhsa_code_object_version 6
	.text
	.globl	dpp_reduce_quad                 ; -- Begin function dpp_reduce_quad
	.p2align	2
	.type	dpp_reduce_quad,@function
dpp_reduce_quad:                        ; @dpp_reduce_quad
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_add_u32_dpp v0, v0, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	s_nop 1
	v_add_u32_dpp v0, v0, v0 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	s_setpc_b64 s[30:31]
.Lfunc_end0:
	.size	dpp_reduce_quad, .Lfunc_end0-dpp_reduce_quad
                                        ; -- End function
	.set dpp_reduce_quad.num_vgpr, 1
	.set dpp_reduce_quad.num_agpr, 0
	.set dpp_reduce_quad.numbered_sgpr, 32
	.set dpp_reduce_quad.num_named_barrier, 0
	.set dpp_reduce_quad.private_seg_size, 0
	.set dpp_reduce_quad.uses_vcc, 0
	.set dpp_reduce_quad.uses_flat_scratch, 0
	.set dpp_reduce_quad.has_dyn_sized_stack, 0
	.set dpp_reduce_quad.has_recursion, 0
	.set dpp_reduce_quad.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 28
; TotalNumSgprs: 36
; NumVgprs: 1
; NumAgprs: 0
; TotalNumVgprs: 1
; ScratchSize: 0
; MemoryBound: 0
	.text
	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 1
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 32
	.set amdgpu.max_num_named_barrier, 0
	.text
	.section	".note.GNU-stack","",@progbits
	.amdgpu_metadata
---
amdhsa.kernels:  []
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
