; What verify tv does not model in the IR, each reported as unsupported
; with its line and cause, never proved: the list of docs/tv.md
; ("Unsupported"), held true by these EXPECT lines (tests/test_tv_expect.py
; runs them; tests/test_docs_true.py checks the page quotes each message).
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; EXPECT: 12 instances
; EXPECT: unsupported @udiv_i32 "unsupported: instruction 'udiv'"
; EXPECT: unsupported @srem_i32 "unsupported: instruction 'srem'"
; EXPECT: unsupported @frem_f32 "unsupported: instruction 'frem'"
; EXPECT: unsupported @call_g "unsupported: call to @g"
; EXPECT: unsupported @fast_fadd "unsupported: fast-math flag 'fast' on fadd"
; EXPECT: unsupported @counted_loop "unsupported: loop at %l: its trip count is not bounded by the lanes"

declare i32 @g(i32)

define i32 @udiv_i32(i32 %a, i32 %b) {
  %r = udiv i32 %a, %b
  ret i32 %r
}

define i32 @srem_i32(i32 %a, i32 %b) {
  %r = srem i32 %a, %b
  ret i32 %r
}

define float @frem_f32(float %a, float %b) {
  %r = frem float %a, %b
  ret float %r
}

define i32 @call_g(i32 %a) {
  %r = call i32 @g(i32 %a)
  ret i32 %r
}

define float @fast_fadd(float %a, float %b) {
  %r = fadd fast float %a, %b
  ret float %r
}

define i32 @counted_loop(i32 %n) {
entry:
  br label %l
l:
  %i = phi i32 [0, %entry], [%j, %l]
  %j = add i32 %i, 1
  %c = icmp ult i32 %j, %n
  br i1 %c, label %l, label %e
e:
  ret i32 %j
}
