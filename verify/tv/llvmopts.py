"""The LLVM 22.1 codegen options (`-amdgpu-*`, `-global-isel*`, `-verify-machineinstrs`)
llvmlite's LLVM (22.1) is known to have: `llc-22 --help-list-hidden` (Debian llvm-22
22.1), listed once here.  llvmlite.binding.set_option ignores a name its LLVM does not
know without a word, so verify passes only these to it (verify/tv/runlines.py)."""

_NAMES = """
amdgpu-any-address-space-out-arguments amdgpu-asan-instrument-lds
amdgpu-assume-dynamic-stack-object-size amdgpu-assume-external-call-stack-size
amdgpu-atomic-optimizer-strategy amdgpu-attributor-enable amdgpu-barrier-signal-wait-latency
amdgpu-bypass-slow-div amdgpu-dce-in-ra amdgpu-disable-clustered-low-occupancy-reschedule
amdgpu-disable-loop-alignment amdgpu-disable-unclustered-high-rp-reschedule amdgpu-dpp-combine
amdgpu-dump-hsa-metadata amdgpu-early-ifcvt amdgpu-early-inline-all amdgpu-enable-delay-alu
amdgpu-enable-hipstdpar amdgpu-enable-image-intrinsic-optimizer amdgpu-enable-lower-exec-sync
amdgpu-enable-lower-module-lds amdgpu-enable-merge-m0 amdgpu-enable-pre-ra-optimizations
amdgpu-enable-promote-kernel-arguments amdgpu-enable-remove-incompatible-functions
amdgpu-enable-rewrite-partial-reg-uses amdgpu-enable-sw-lower-lds amdgpu-enable-uniform-intrinsic-combine
amdgpu-enable-vopd amdgpu-expert-scheduling-mode amdgpu-function-calls
amdgpu-hard-clause-length-limit amdgpu-igrouplp-exact-solver amdgpu-igrouplp-exact-solver-cost-heur
amdgpu-igrouplp-exact-solver-cutoff amdgpu-igrouplp-exact-solver-max-branches amdgpu-indirect-access-weight
amdgpu-indirect-call-specialization-threshold amdgpu-inline-arg-alloca-cost amdgpu-inline-arg-alloca-cutoff
amdgpu-inline-max-bb amdgpu-internalize-symbols amdgpu-ir-lower-kernel-arguments amdgpu-kernarg-preload
amdgpu-kernarg-preload-count amdgpu-large-stride-threshold amdgpu-large-stride-weight
amdgpu-limit-wave-threshold amdgpu-link-time-closed-world amdgpu-load-store-vectorizer
amdgpu-long-branch-factor amdgpu-loop-prefetch amdgpu-lower-global-ctor-dtor amdgpu-lower-module-lds-strategy
amdgpu-max-memory-clause amdgpu-max-return-arg-num-regs amdgpu-membound-threshold amdgpu-memcpy-loop-unroll
amdgpu-mfma-padding-ratio amdgpu-mfma-vgpr-form amdgpu-mode-register amdgpu-module-splitting-large-threshold
amdgpu-module-splitting-max-depth amdgpu-module-splitting-merge-threshold
amdgpu-module-splitting-no-externalize-address-taken amdgpu-module-splitting-no-externalize-globals
amdgpu-module-splitting-print-module-dotcfg amdgpu-module-splitting-print-partition-summaries
amdgpu-nsa-threshold amdgpu-opt-exec-mask-pre-ra amdgpu-opt-vgpr-liverange
amdgpu-prealloc-sgpr-spill-vgprs amdgpu-prelink amdgpu-print-max-reg-pressure-regusage-after-scheduler
amdgpu-print-max-reg-pressure-regusage-before-scheduler amdgpu-print-rp-downward
amdgpu-promote-alloca-to-vector-limit amdgpu-promote-alloca-to-vector-max-regs
amdgpu-promote-alloca-to-vector-vgpr-ratio amdgpu-reassign-regs amdgpu-scalar-ir-passes
amdgpu-scalarize-global-loads amdgpu-sched-strategy amdgpu-schedule-metric-bias
amdgpu-schedule-relaxed-occupancy amdgpu-scheduler-pending-queue-limit amdgpu-sdwa-peephole
amdgpu-set-wave-priority amdgpu-set-wave-priority-valu-insts-threshold amdgpu-sgpr-hazard-boundary-cull
amdgpu-sgpr-hazard-mem-wait-cull amdgpu-sgpr-hazard-mem-wait-cull-threshold amdgpu-sgpr-hazard-wait
amdgpu-simplify-libcall amdgpu-snop-padding amdgpu-stress-function-calls amdgpu-super-align-lds-globals
amdgpu-unroll-max-block-to-analyze amdgpu-unroll-runtime-local amdgpu-unroll-threshold-if
amdgpu-unroll-threshold-local amdgpu-unroll-threshold-private amdgpu-use-aa-in-codegen
amdgpu-use-amdgpu-trackers amdgpu-use-divergent-register-indexing amdgpu-use-native
amdgpu-verify-hsa-metadata amdgpu-vgpr-index-mode amdgpu-waitcnt-forcezero amdgpu-waitcnt-load-forcezero
amdgpupostlegalizercombiner-disable-rule amdgpupostlegalizercombiner-only-enable-rule
amdgpuprelegalizercombiner-disable-rule amdgpuprelegalizercombiner-only-enable-rule
amdgpuregbankcombiner-disable-rule amdgpuregbankcombiner-only-enable-rule amdhsa-code-object-version
global-isel global-isel-abort new-reg-bank-select verify-machineinstrs
"""
LLVM_OPTIONS = frozenset(_NAMES.split())
