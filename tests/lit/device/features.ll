; The feature analysis: which kernel inputs decide each block's count.
; row_ptr[t] and row_ptr[t + 1] bound a CSR row loop; a scalar parameter
; bounds a loop; a loaded value against a parameter decides a step; a
; Collatz loop and a value the kernel itself stored are refused with reasons.
; Writes through a called function count where it writes: through the
; argument it is passed.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %s \
; RUN:   | %python %S/Inputs/summarize-features.py | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; for (j = row_ptr[t]; j < row_ptr[t + 1]; ++j) out[j] += 1, for t < n.
define ptx_kernel void @csr(ptr addrspace(1) %row_ptr, ptr addrspace(1) %out, i32 %n) {
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
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %row_ptr, i64 %t64
  %start = load i32, ptr addrspace(1) %p0
  %p1 = getelementptr inbounds i8, ptr addrspace(1) %p0, i64 4
  %end = load i32, ptr addrspace(1) %p1
  %any = icmp slt i32 %start, %end
  br i1 %any, label %loop, label %done

loop:
  %j = phi i32 [ %start, %row ], [ %j.next, %loop ]
  %j64 = sext i32 %j to i64
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %j64
  %v = load float, ptr addrspace(1) %q
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(1) %q
  %j.next = add nsw i32 %j, 1
  %more = icmp slt i32 %j.next, %end
  br i1 %more, label %loop, label %done

done:
  ret void
}

; CHECK-LABEL: kernel csr
; CHECK-NEXT:  feature 0: tid tid
; CHECK-NEXT:  feature 1: param n param 2 i32
; CHECK-NEXT:  feature 2: load row_ptr[tid] param 0 i32
; CHECK-NEXT:  feature 3: load row_ptr[tid + 1] param 0 i32
; CHECK-NEXT:  block 0 entry: []
; CHECK-NEXT:  block 1 row: [0, 1]
; CHECK-NEXT:  block 2 loop: [0, 1, 2, 3]
; CHECK-NEXT:  block 3 done: []

; for (i = 0; i < n; ++i) out[t] += i: every thread loops n times.
define ptx_kernel void @bound(ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = load i32, ptr addrspace(1) %q
  %w = add i32 %v, %i
  store i32 %w, ptr addrspace(1) %q
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}

; CHECK-LABEL: kernel bound
; CHECK-NEXT:  feature 0: param n param 1 i32
; CHECK-NEXT:  block 0 entry: []
; CHECK-NEXT:  block 1 loop: [0]
; CHECK-NEXT:  block 2 done: []

; if (x[t] > c) out[t] = 1: a step in the loaded value, unsigned here.
define ptx_kernel void @step(ptr addrspace(1) %x, ptr addrspace(1) %out, i32 %c) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %x, i64 %t64
  %v = load i32, ptr addrspace(1) %p
  %big = icmp ugt i32 %v, %c
  br i1 %big, label %then, label %done

then:
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 1, ptr addrspace(1) %q
  br label %done

done:
  ret void
}

; CHECK-LABEL: kernel step
; CHECK-NEXT:  feature 0: load x[threadIdx.x] param 0 u32
; CHECK-NEXT:  feature 1: param c param 2 u32
; CHECK-NEXT:  block 0 entry: []
; CHECK-NEXT:  block 1 then: [0, 1]
; CHECK-NEXT:  block 2 done: []

; while (x != 1) x = x & 1 ? 3x + 1 : x / 2: the exit depends on a value
; the loop computes. The blocks after the loop run once per thread.
define ptx_kernel void @collatz(ptr addrspace(1) %start, ptr addrspace(1) %steps) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds i64, ptr addrspace(1) %start, i64 %t64
  %x0 = load i64, ptr addrspace(1) %p
  %one = icmp eq i64 %x0, 1
  br i1 %one, label %done, label %loop

loop:
  %x = phi i64 [ %x0, %entry ], [ %x.next, %loop ]
  %count = phi i32 [ 0, %entry ], [ %count.next, %loop ]
  %odd = trunc i64 %x to i1
  %up = mul i64 %x, 3
  %up1 = add i64 %up, 1
  %down = lshr i64 %x, 1
  %x.next = select i1 %odd, i64 %up1, i64 %down
  %count.next = add i32 %count, 1
  %again = icmp ne i64 %x.next, 1
  br i1 %again, label %loop, label %done

done:
  %n = phi i32 [ 0, %entry ], [ %count.next, %loop ]
  %q = getelementptr inbounds i32, ptr addrspace(1) %steps, i64 %t64
  store i32 %n, ptr addrspace(1) %q
  ret void
}

; CHECK-LABEL: kernel collatz
; CHECK-NEXT:  block 0 entry: []
; CHECK-NEXT:  block 1 loop: unpredictable: its count depends on a value computed in a loop
; CHECK-NEXT:  block 2 done: []

; a[t] = 3 * t; if (a[t ^ 1] > 5) ...: the kernel wrote what decides the branch.
define ptx_kernel void @written(ptr addrspace(1) %a) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %t64
  %v = mul i32 %tid, 3
  store i32 %v, ptr addrspace(1) %p
  %other = xor i64 %t64, 1
  %q = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %other
  %w = load i32, ptr addrspace(1) %q
  %big = icmp sgt i32 %w, 5
  br i1 %big, label %then, label %done

then:
  store i32 0, ptr addrspace(1) %p
  br label %done

done:
  ret void
}

; CHECK-LABEL: kernel written
; CHECK-NEXT:  block 0 entry: []
; CHECK-NEXT:  block 1 then: unpredictable: its count depends on a[threadIdx.x ^ 1], memory the kernel writes
; CHECK-NEXT:  block 2 done: []

; if (x[t] > 0) fill(out): fill writes out, not x.
define void @fill(ptr addrspace(1) %dst) {
  store i32 7, ptr addrspace(1) %dst
  ret void
}
define ptx_kernel void @callsWriter(ptr addrspace(1) %x, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %x, i64 %t64
  %v = load i32, ptr addrspace(1) %p
  %pos = icmp sgt i32 %v, 0
  br i1 %pos, label %then, label %done

then:
  call void @fill(ptr addrspace(1) %out)
  br label %done

done:
  ret void
}

; CHECK-LABEL: kernel callsWriter
; CHECK-NEXT:  feature 0: load x[threadIdx.x] param 0 i32
; CHECK-NEXT:  block 0 entry: []
; CHECK-NEXT:  block 1 then: [0]
; CHECK-NEXT:  block 2 done: []

; The same with fill(x): the kernel writes x through its callee.
define ptx_kernel void @callsWriterOfInput(ptr addrspace(1) %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %x, i64 %t64
  %v = load i32, ptr addrspace(1) %p
  %pos = icmp sgt i32 %v, 0
  br i1 %pos, label %then, label %done

then:
  call void @fill(ptr addrspace(1) %x)
  br label %done

done:
  ret void
}

; CHECK-LABEL: kernel callsWriterOfInput
; CHECK-NEXT:  block 0 entry: []
; CHECK-NEXT:  block 1 then: unpredictable: its count depends on x[threadIdx.x], memory the kernel writes
; CHECK-NEXT:  block 2 done: []

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
