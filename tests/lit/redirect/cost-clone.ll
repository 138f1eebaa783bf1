; The cost clone of a regroupable kernel: weights (by value, one per block)
; and cost appended; one float sum in a register that starts at weights[0]
; (the entry block runs once) and adds weights[b] at the start of every other
; block b, loop included, each weight read from the parameter; at each return
; one store of the sum to cost[gtid]. The kernel's own code and stores stay; no profile counters.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: llvm-extract -func=loop__divopt_cost -S %t.ll \
; RUN:   | FileCheck %s --check-prefix=COST --implicit-check-not=store \
; RUN:       --implicit-check-not=alloca --implicit-check-not=atomicrmw \
; RUN:       --implicit-check-not=ballot --implicit-check-not=divopt.counts

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Blocks in layout order: entry 0, early 1, check 2, body 3 (a loop), exit 4.
define ptx_kernel void @loop(ptr addrspace(1) %trips, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %trips, i64 %idx
  %n = load i32, ptr addrspace(1) %p
  %neg = icmp slt i32 %n, 0
  br i1 %neg, label %early, label %check

early:
  ret void

check:
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %body, label %exit

body:
  %i = phi i32 [ 0, %check ], [ %next, %body ]
  %acc = phi float [ 0.0, %check ], [ %sum, %body ]
  %f = sitofp i32 %i to float
  %sum = fadd float %acc, %f
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %body, label %exit

exit:
  %r = phi float [ 0.0, %check ], [ %sum, %body ]
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  store float %r, ptr addrspace(1) %q
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK: \22regroup\22:{\22line\22:0,\22reason\22:\22\22,\22safe\22:true}
; The original stays as it was; the cost clone comes after the redirected one.
; CHECK-LABEL: define ptx_kernel void @loop(ptr addrspace(1) %trips, ptr addrspace(1) %out) {
; CHECK-NOT: divopt
; CHECK: ret void
; CHECK: define ptx_kernel void @loop__divopt_profile(
; CHECK: define ptx_kernel void @loop__divopt_redirect(
; CHECK: define ptx_kernel void @loop__divopt_cost(
; CHECK-NOT: define {{.*}}__divopt_cost

; COST-LABEL: define ptx_kernel void @loop__divopt_cost(ptr addrspace(1) %trips, ptr addrspace(1) %out, ptr noalias readonly byval([5 x float]) align 4 %divopt.weights, ptr addrspace(1) %divopt.cost)
; COST-NEXT: entry:
; COST-NEXT: [[P0:%.*]] = getelementptr inbounds float, ptr %divopt.weights, i64 0
; COST-NEXT: %divopt.w0 = load float, ptr [[P0]], align 4{{$}}
; The global linear thread id, as the profile clone computes it.
; COST: %divopt.gtid = add i64
; COST-NEXT: %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; An early return stores entry + early.
; COST: early:
; COST-NEXT: [[P1:%.*]] = getelementptr inbounds float, ptr %divopt.weights, i64 1
; COST-NEXT: %divopt.w1 = load float, ptr [[P1]], align 4{{$}}
; COST-NEXT: [[S1:%.*]] = fadd float %divopt.w0, %divopt.w1
; COST-NEXT: [[C1:%.*]] = getelementptr inbounds float, ptr addrspace(1) %divopt.cost, i64 %divopt.gtid
; COST-NEXT: store float [[S1]], ptr addrspace(1) [[C1]], align 4
; COST-NEXT: ret void
; COST: check:
; COST-NEXT: [[P2:%.*]] = getelementptr inbounds float, ptr %divopt.weights, i64 2
; COST-NEXT: %divopt.w2 = load float, ptr [[P2]], align 4{{$}}
; COST-NEXT: [[S2:%.*]] = fadd float %divopt.w0, %divopt.w2
; The loop body adds its weight each iteration, carried in a phi.
; COST: body:
; COST-NEXT: [[SUM:%.*]] = phi float [ [[S2]], %check ], [ [[S3:%.*]], %body ]
; COST: [[P3:%.*]] = getelementptr inbounds float, ptr %divopt.weights, i64 3
; COST-NEXT: %divopt.w3 = load float, ptr [[P3]], align 4{{$}}
; COST-NEXT: [[S3]] = fadd float [[SUM]], %divopt.w3
; The kernel's own store stays, then the one store of the sum.
; COST: exit:
; COST-NEXT: [[OUT:%.*]] = phi float [ [[S3]], %body ], [ [[S2]], %check ]
; COST: [[P4:%.*]] = getelementptr inbounds float, ptr %divopt.weights, i64 4
; COST-NEXT: %divopt.w4 = load float, ptr [[P4]], align 4{{$}}
; COST-NEXT: [[S4:%.*]] = fadd float [[OUT]], %divopt.w4
; COST: store float %r, ptr addrspace(1) %q
; COST-NEXT: [[C4:%.*]] = getelementptr inbounds float, ptr addrspace(1) %divopt.cost, i64 %divopt.gtid
; COST-NEXT: store float [[S4]], ptr addrspace(1) [[C4]], align 4
; COST-NEXT: ret void
