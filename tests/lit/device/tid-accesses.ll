; Notes count, per block, the accesses whose address follows the thread id:
; out[tid] and in[2 * tid + 1] do, in[idx[tid]] (an index loaded from memory)
; and a uniform p[0] do not. in[idx[tid]] follows it through one load (an
; indirect access); in[idx[in[idx[tid]]]], two loads deep, is data.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %idx, ptr addrspace(1) %out, ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %two = shl i64 %t, 1
  %odd = add i64 %two, 1
  %a = getelementptr inbounds float, ptr addrspace(1) %in, i64 %odd
  %x = load float, ptr addrspace(1) %a
  %ip = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %t
  %i = load i32, ptr addrspace(1) %ip
  %ie = sext i32 %i to i64
  %g = getelementptr inbounds float, ptr addrspace(1) %in, i64 %ie
  %y = load float, ptr addrspace(1) %g
  %u = load float, ptr addrspace(1) %p
  %yi = bitcast float %y to i32
  %yie = sext i32 %yi to i64
  %ip2 = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %yie
  %j = load i32, ptr addrspace(1) %ip2
  %je = sext i32 %j to i64
  %g2 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %je
  %z = load float, ptr addrspace(1) %g2
  %s0 = fadd float %x, %z
  %s = fadd float %s0, %y
  %s2 = fadd float %s, %u
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %t
  store float %s2, ptr addrspace(1) %o
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; in[2t+1], idx[t], out[t]: 3 of the 7 accesses; in[idx[t]] through one
; load; idx[in[idx[t]]] and in[idx[in[idx[t]]]] through two, and p[0] not at all.
; CHECK: "tid_accesses": 3
; CHECK-NEXT: "tid_indirect_accesses": 1
