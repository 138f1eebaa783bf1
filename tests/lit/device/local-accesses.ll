; The notes count each block's accesses into the thread's own local arrays
; (allocas left after optimization), with the bytes each moves, and the
; kernel's local frame: here a 129-int DP row swept by a loop (nw's shape)
; and an 8-byte scratch slot reached through a select. Global accesses are
; not local ones.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @row(ptr addrspace(1) %out, i32 %n, i1 %c) {
entry:
  %h = alloca [129 x i32], align 4
  %s = alloca [2 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %p = getelementptr [129 x i32], ptr %h, i32 0, i32 %k
  %v = load i32, ptr %p
  %w = add i32 %v, %tid
  store i32 %w, ptr %p
  %k1 = add i32 %k, 1
  %done = icmp eq i32 %k1, %n
  br i1 %done, label %exit, label %loop

exit:
  %q = select i1 %c, ptr %s, ptr %h
  %r = load i64, ptr %q
  %t = trunc i64 %r to i32
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %t, ptr addrspace(1) %o
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK: "local_access_bytes": []
; CHECK: "local_access_bytes": [
; CHECK-NEXT: 4,
; CHECK-NEXT: 4
; CHECK-NEXT: ]
; CHECK: "local_access_bytes": [
; CHECK-NEXT: 8
; CHECK-NEXT: ]
; CHECK: "local_bytes": 524
; CHECK: "name": "row"
