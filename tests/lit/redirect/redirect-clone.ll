; The redirected clone: D appended, the logical id D[physical] loaded once at
; entry, decomposed into threadIdx and blockIdx (x fastest), and every later
; read of %tid and %ctaid replaced; %ntid and %nctaid stay.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @scale(ptr addrspace(1) %out, i32 %n) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %ctaid, %ntid
  %t = add i32 %base, %tid
  %live = icmp slt i32 %t, %n
  br i1 %live, label %work, label %done

work:
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %v = mul i32 %t, %y
  %idx = sext i32 %t to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %v, ptr addrspace(1) %p
  br label %done

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

; CHECK: \22regroup\22:{\22line\22:0,\22reason\22:\22\22,\22safe\22:true}
; CHECK-LABEL: define ptx_kernel void @scale__divopt_redirect(ptr addrspace(1) %out, i32 %n, ptr addrspace(1) %divopt.redirect)
; CHECK: %divopt.physical = add i32
; CHECK: [[SLOT:%.*]] = getelementptr inbounds i32, ptr addrspace(1) %divopt.redirect, i64
; CHECK: %divopt.logical = load i32, ptr addrspace(1) [[SLOT]]
; CHECK: [[INBLOCK:%.*]] = urem i32 %divopt.logical, [[PERBLOCK:%.*]]
; CHECK: %divopt.tid.x = urem i32 [[INBLOCK]], [[NTIDX:%.*]]
; CHECK: %divopt.tid.y = urem i32
; CHECK: %divopt.tid.z = udiv i32
; CHECK: [[BLOCK:%.*]] = udiv i32 %divopt.logical, [[PERBLOCK]]
; CHECK: %divopt.ctaid.x = urem i32 [[BLOCK]]
; CHECK: %divopt.ctaid.z = udiv i32
; The user's reads now see the logical thread.
; CHECK-NEXT: %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT: %base = mul i32 %divopt.ctaid.x, %ntid
; CHECK-NEXT: %t = add i32 %base, %divopt.tid.x
; CHECK: work:
; CHECK-NEXT: %v = mul i32 %t, %divopt.tid.y
; CHECK-NOT: sreg.tid
; CHECK-NOT: sreg.ctaid
; CHECK: ret void
