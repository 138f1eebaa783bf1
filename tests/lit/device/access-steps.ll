; The notes give each thread-indexed access's step from one lane to the next
; (%tid.x + 1) in bytes, 0 where it is not a constant, and each indirect
; access's element bytes: what the model places a logical thread's element
; by (docs/model.md).
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @steps(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %frames,
                              ptr addrspace(1) %rows, ptr addrspace(1) %edges, i32 %w) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %t = add i32 %base, %tid
  %t64 = zext i32 %t to i64
  ; in[t], a float: 4 bytes a lane
  %pin = getelementptr float, ptr addrspace(1) %in, i64 %t64
  %x = load float, ptr addrspace(1) %pin
  ; out[t], a double: 8
  %pout = getelementptr double, ptr addrspace(1) %out, i64 %t64
  %xd = fpext float %x to double
  store double %xd, ptr addrspace(1) %pout
  ; frames[t * 1024 + 3], floats: 4096
  %f = shl i64 %t64, 10
  %f3 = or disjoint i64 %f, 3
  %pf = getelementptr float, ptr addrspace(1) %frames, i64 %f3
  %y = load float, ptr addrspace(1) %pf
  ; rows[t * w]: a run-time multiplier, 0
  %tw = mul i32 %t, %w
  %tw64 = zext i32 %tw to i64
  %pr = getelementptr i32, ptr addrspace(1) %rows, i64 %tw64
  %start = load i32, ptr addrspace(1) %pr
  ; edges[rows[t * w]], a double through one load: 8 bytes an element
  %s64 = zext i32 %start to i64
  %pe = getelementptr double, ptr addrspace(1) %edges, i64 %s64
  %e = load double, ptr addrspace(1) %pe
  %sum = fadd double %e, %xd
  store double %sum, ptr addrspace(1) %pout
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

; CHECK:          "tid_access_steps": [
; CHECK-NEXT:       4,
; CHECK-NEXT:       8,
; CHECK-NEXT:       4096,
; CHECK-NEXT:       0,
; CHECK-NEXT:       8
; CHECK-NEXT:     ],
; CHECK-NEXT:     "tid_accesses": 5,
; CHECK-NEXT:     "tid_indirect_accesses": 1,
; CHECK-NEXT:     "tid_indirect_bytes": [
; CHECK-NEXT:       8
; CHECK-NEXT:     ],
