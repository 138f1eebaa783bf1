; Device functions that are not kernels get no clone, and a module without
; kernels gets no notes.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define i32 @helper(i32 %x) {
  %c = icmp sgt i32 %x, 0
  %r = select i1 %c, i32 %x, i32 0
  ret i32 %r
}

; CHECK-NOT: __divopt_notes
; CHECK-NOT: __divopt_profile
; CHECK: define i32 @helper(i32 %x)
