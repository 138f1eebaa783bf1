; The notes place each thread-indexed access: the kernel-wide number of the
; object its address points into, the constant bytes it adds to the thread's
; element, and the bytes it moves. Accesses into one object share its
; sectors in the model (docs/model.md): here three loads of one thread's 6x6
; matrix m[t] (rows of 24 bytes), one of in[t] and a store to out[t] twice.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Matrix = type { i32, [6 x [6 x float]] }

define ptx_kernel void @places(ptr addrspace(1) %m, ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %t = add i32 %base, %tid
  %t64 = zext i32 %t to i64
  ; m[t].a[0][0]: 4 bytes past the record's start
  %p00 = getelementptr %struct.Matrix, ptr addrspace(1) %m, i64 %t64, i32 1, i64 0, i64 0
  %a00 = load float, ptr addrspace(1) %p00
  ; in[t]: another object
  %pin = getelementptr float, ptr addrspace(1) %in, i64 %t64
  %x = load float, ptr addrspace(1) %pin
  ; m[t].a[2][1]: 4 + 2 * 24 + 1 * 4 = 56
  %p21 = getelementptr %struct.Matrix, ptr addrspace(1) %m, i64 %t64, i32 1, i64 2, i64 1
  %a21 = load float, ptr addrspace(1) %p21
  ; m[t + 1].a[5][5] through index arithmetic: 148 + 4 + 5 * 24 + 5 * 4 = 292
  %t1 = add i64 %t64, 1
  %p55 = getelementptr %struct.Matrix, ptr addrspace(1) %m, i64 %t1, i32 1, i64 5, i64 5
  %a55 = load float, ptr addrspace(1) %p55
  %s0 = fadd float %a00, %a21
  %s1 = fadd float %s0, %a55
  %s2 = fadd float %s1, %x
  ; out[t], a double stored twice: one object, one offset
  %pout = getelementptr double, ptr addrspace(1) %out, i64 %t64
  %d = fpext float %s2 to double
  store double %d, ptr addrspace(1) %pout
  %d2 = fmul double %d, %d
  store double %d2, ptr addrspace(1) %pout
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

; CHECK:          "tid_access_bytes": [
; CHECK-NEXT:       4,
; CHECK-NEXT:       4,
; CHECK-NEXT:       4,
; CHECK-NEXT:       4,
; CHECK-NEXT:       8,
; CHECK-NEXT:       8
; CHECK-NEXT:     ],
; CHECK-NEXT:     "tid_access_objects": [
; CHECK-NEXT:       0,
; CHECK-NEXT:       1,
; CHECK-NEXT:       0,
; CHECK-NEXT:       0,
; CHECK-NEXT:       2,
; CHECK-NEXT:       2
; CHECK-NEXT:     ],
; CHECK-NEXT:     "tid_access_offsets": [
; CHECK-NEXT:       4,
; CHECK-NEXT:       0,
; CHECK-NEXT:       56,
; CHECK-NEXT:       292,
; CHECK-NEXT:       0,
; CHECK-NEXT:       0
; CHECK-NEXT:     ],
; CHECK-NEXT:     "tid_access_steps": [
; CHECK-NEXT:       148,
; CHECK-NEXT:       4,
; CHECK-NEXT:       148,
; CHECK-NEXT:       148,
; CHECK-NEXT:       8,
; CHECK-NEXT:       8
; CHECK-NEXT:     ],
; CHECK-NEXT:     "tid_accesses": 6,
