; Divergent if/else around cross-lane operations (LLVM's SIAnnotateControlFlow
; shape: s_and_saveexec, s_xor/s_andn2_saveexec for the else, s_or exec at the join).
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s

declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)

define i32 @if_readfirstlane(i32 %x, i32 %c) {
entry:
  %cmp = icmp eq i32 %c, 0
  br i1 %cmp, label %then, label %join
then:
  %a = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  br label %join
join:
  %r = phi i32 [ %a, %then ], [ %x, %entry ]
  ret i32 %r
}

define i32 @if_else_readfirstlane(i32 %x, i32 %y, i32 %c) {
entry:
  %cmp = icmp ult i32 %c, 10
  br i1 %cmp, label %then, label %else
then:
  %a = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  br label %join
else:
  %b = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %y)
  br label %join
join:
  %r = phi i32 [ %a, %then ], [ %b, %else ]
  ret i32 %r
}

define i32 @if_else_dpp(i32 %x, i32 %c) {
entry:
  %cmp = icmp sgt i32 %c, 3
  br i1 %cmp, label %then, label %else
then:
  %a = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 273, i32 15, i32 15, i1 true)
  br label %join
else:
  %b = add i32 %x, 5
  br label %join
join:
  %r = phi i32 [ %a, %then ], [ %b, %else ]
  ret i32 %r
}

define i32 @if_swizzle_then_add(i32 %x, i32 %c) {
entry:
  %cmp = icmp ne i32 %c, 0
  br i1 %cmp, label %then, label %join
then:
  %s = call i32 @llvm.amdgcn.ds.swizzle(i32 %x, i32 31)
  %a = add i32 %s, %x
  br label %join
join:
  %r = phi i32 [ %a, %then ], [ 0, %entry ]
  ret i32 %r
}

define i32 @nested_if(i32 %x, i32 %c, i32 %d) {
entry:
  %c1 = icmp eq i32 %c, 0
  br i1 %c1, label %outer, label %join
outer:
  %c2 = icmp ugt i32 %d, 7
  br i1 %c2, label %inner, label %ojoin
inner:
  %a = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  br label %ojoin
ojoin:
  %m = phi i32 [ %a, %inner ], [ 1, %outer ]
  br label %join
join:
  %r = phi i32 [ %m, %ojoin ], [ 2, %entry ]
  ret i32 %r
}
