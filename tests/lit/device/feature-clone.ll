; The feature-extraction clone: the kernel's parameters plus double *features;
; thread gtid writes feature f to features[f * nthreads + gtid]. A feature
; load runs only under the kernel's guard for it (t < n), else 0 is written.
; No loops, no stores but the features. A load reached along two paths has
; no guard the clone can replicate: its blocks are unpredictable and the
; clone does not read it.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %t.ll \
; RUN:   | %python %S/Inputs/summarize-features.py | FileCheck %s --check-prefix=NOTES

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @trips(ptr addrspace(1) %trips, ptr addrspace(1) %out, i32 %n) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %ctaid, %ntid
  %t = add i32 %base, %tid
  %live = icmp slt i32 %t, %n
  br i1 %live, label %row, label %done

row:
  %t64 = sext i32 %t to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %trips, i64 %t64
  %k = load i32, ptr addrspace(1) %p
  %any = icmp sgt i32 %k, 0
  br i1 %any, label %loop, label %done

loop:
  %i = phi i32 [ 0, %row ], [ %i.next, %loop ]
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 %i, ptr addrspace(1) %q
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %k
  br i1 %more, label %loop, label %done

done:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @trips__divopt_features(ptr addrspace(1) %trips, ptr addrspace(1) %out, i32 %n, ptr addrspace(1) %divopt.features)
; CHECK:         %divopt.gtid = add i64
; CHECK:         %divopt.nthreads = mul i64
; The thread id, feature 0.
; CHECK:         [[TID:%.*]] = uitofp i64 %divopt.gtid to double
; CHECK-NEXT:    [[S0:%.*]] = mul i64 0, %divopt.nthreads
; CHECK-NEXT:    [[I0:%.*]] = add i64 [[S0]], %divopt.gtid
; CHECK-NEXT:    [[P0:%.*]] = getelementptr inbounds double, ptr addrspace(1) %divopt.features, i64 [[I0]]
; CHECK-NEXT:    store double [[TID]], ptr addrspace(1) [[P0]], align 8
; n, feature 1.
; CHECK-NEXT:    [[N:%.*]] = sitofp i32 %n to double
; CHECK:         store double [[N]]
; trips[t], feature 2: only when t < n, as in the kernel.
; CHECK:         %live = icmp slt i32 %t, %n
; CHECK-NEXT:    br i1 %live, label %divopt.guard, label %divopt.skip
; CHECK:       divopt.guard:
; CHECK:         %k = load i32, ptr addrspace(1) %p
; CHECK-NEXT:    [[K:%.*]] = sitofp i32 %k to double
; CHECK:       divopt.feature:
; CHECK-NEXT:    [[F2:%.*]] = phi double [ [[K]], %divopt.guard ], [ 0.000000e+00, %divopt.skip ]
; CHECK-NEXT:    [[S2:%.*]] = mul i64 2, %divopt.nthreads
; CHECK:         store double [[F2]]
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; if (a[t] > 0 || b[t] > 0) { if (x[t] > 0) ... }: x[t] is read in a block
; two paths reach.
define ptx_kernel void @twopaths(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %x,
                                 ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pa = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %t64
  %va = load i32, ptr addrspace(1) %pa
  %ca = icmp sgt i32 %va, 0
  br i1 %ca, label %check, label %tryb

tryb:
  %pb = getelementptr inbounds i32, ptr addrspace(1) %b, i64 %t64
  %vb = load i32, ptr addrspace(1) %pb
  %cb = icmp sgt i32 %vb, 0
  br i1 %cb, label %check, label %done

check:
  %px = getelementptr inbounds i32, ptr addrspace(1) %x, i64 %t64
  %vx = load i32, ptr addrspace(1) %px
  %cx = icmp sgt i32 %vx, 0
  br i1 %cx, label %then, label %done

then:
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 1, ptr addrspace(1) %q
  br label %done

done:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @twopaths__divopt_features(
; CHECK-NOT:     load i32, ptr addrspace(1) %px
; CHECK:         ret void
; CHECK-NEXT:  }

; NOTES-LABEL: kernel trips
; NOTES-NEXT:  feature 0: tid tid
; NOTES-NEXT:  feature 1: param n param 2 i32
; NOTES-NEXT:  feature 2: load trips[tid] param 0 i32
; NOTES-NEXT:  block 0 entry: []
; NOTES-NEXT:  block 1 row: [0, 1]
; NOTES-NEXT:  block 2 loop: [0, 1, 2]
; NOTES-LABEL: kernel twopaths
; NOTES-NEXT:  feature 0: load a[threadIdx.x] param 0 i32
; NOTES-NEXT:  feature 1: load b[threadIdx.x] param 1 i32
; NOTES-NEXT:  block 0 entry: []
; NOTES-NEXT:  block 1 tryb: [0]
; NOTES-NEXT:  block 2 check: [0, 1]
; NOTES-NEXT:  block 3 then: unpredictable: its count depends on x[threadIdx.x], which the feature kernel cannot read safely: it is reached along several paths
; NOTES-NEXT:  block 4 done: []

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
