; A kernel with inline assembly keeps one body in its profile clone: the asm
; may declare PTX names (here a .local array, as benchmarks/latency does) that
; a second copy of the body would declare twice, so its clone counts branches
; in every thread block and its notes have no "branch_sampling".
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @ring(ptr addrspace(1) %out, i32 %n) {
entry:
  %base = call i32 asm sideeffect ".local .align 8 .b32 ring[65];\0A\09mov.u32 $0, ring;", "=r"()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = icmp ult i32 %tid, %n
  br i1 %odd, label %then, label %done
then:
  store i32 %base, ptr addrspace(1) %out
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK: @ring__divopt_notes = addrspace(1) constant
; CHECK-NOT: branch_sampling
; CHECK-SAME: \22name\22:\22ring\22

; CHECK-LABEL: define ptx_kernel void @ring__divopt_profile(
; CHECK: divopt.entry:
; CHECK-NOT: divopt.branch.sampled
; CHECK: br label %entry
; CHECK: entry:
; CHECK: .local .align 8 .b32 ring[65]
; CHECK: call i32 @llvm.nvvm.vote.ballot.sync(i32 {{%.*}}, i1 %odd)
; CHECK: %divopt.bucket = lshr i64 %divopt.gtid, 7
; CHECK-NOT: .sampled
; CHECK-NOT: ring[65]
; CHECK: }
