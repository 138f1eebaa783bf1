; The profile clone of a kernel with a loop: hidden parameters, per-thread
; edge counters (off the spanning tree, notes "counters") stored at the
; return, warp-level branch counters; the original kernel is untouched and
; the notes are embedded.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @loop(ptr addrspace(1) %trips, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %trips, i64 %idx
  %n = load i32, ptr addrspace(1) %p
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %body, label %exit

body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %body ]
  %f = sitofp i32 %i to float
  %sum = fadd float %acc, %f
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %body, label %exit

exit:
  %r = phi float [ 0.0, %entry ], [ %sum, %body ]
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  store float %r, ptr addrspace(1) %q
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK: @loop__divopt_notes = addrspace(1) constant [{{[0-9]+}} x i8] c"{\22arch\22:
; CHECK-SAME: \22branches\22:[0,1]
; Two counters: entry -> exit (the loop skipped) and the loop's back edge.
; CHECK-SAME: \22counters\22:{{\[\[0,1\],\[1,0\]\]}}
; CHECK-SAME: \22name\22:\22loop\22,\22params\22:2
; CHECK: @llvm.used = appending global {{.*}} @loop__divopt_notes

; The original stays as it was.
; CHECK-LABEL: define ptx_kernel void @loop(ptr addrspace(1) %trips, ptr addrspace(1) %out) {
; CHECK-NOT: divopt
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @loop__divopt_profile(ptr addrspace(1) %trips, ptr addrspace(1) %out, ptr addrspace(1) %divopt.counts, ptr addrspace(1) %divopt.branches, ptr addrspace(1) %divopt.overflow, ptr addrspace(1) %divopt.hashes)
; The linear thread id and thread count, from all three dimensions.
; CHECK-DAG: call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
; CHECK-DAG: call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
; CHECK: %divopt.gtid = add i64
; CHECK: %divopt.nthreads = mul i64
; Branches are counted in every thread block of a launch under 2^20 threads,
; else in every 32nd (abi::BranchSamplePeriod): a block-uniform predicate
; picks one of two copies of the body, the second counting branches, into
; buckets 32 times as wide (abi::branchBucketThreads).
; CHECK: %divopt.launch.sampled = icmp uge i64 %divopt.nthreads, 1048576
; CHECK: %divopt.bucket.shift = select i1 %divopt.launch.sampled, i64 12, i64 7
; CHECK: [[LOW:%.*]] = and i64 [[BLOCK:%.*]], 31
; CHECK: [[NTH:%.*]] = icmp eq i64 [[LOW]], 0
; CHECK: [[SMALL:%.*]] = xor i1 %divopt.launch.sampled, true
; CHECK: %divopt.branch.sampled = or i1 [[SMALL]], [[NTH]]
; CHECK: br i1 %divopt.branch.sampled, label %entry.sampled, label %entry
; The copy without branch counters. The skip edge entry -> exit is critical:
; counted where the branch is, by its condition, no block of its own.
; CHECK: entry:
; CHECK-NOT: vote.ballot
; CHECK: [[SKIP:%.*]] = xor i1 %has, true
; CHECK: [[SKIP32:%.*]] = zext i1 [[SKIP]] to i32
; CHECK: [[EDGE0:%.*]] = add i32 0, [[SKIP32]]
; CHECK: br i1 %has

; The loop: the back edge counted by the branch condition, no ballot in
; this copy, no store.
; CHECK: body:
; CHECK: [[BACK:%divopt.edge1.0]] = phi i32
; CHECK-NOT: vote.ballot
; CHECK-NOT: store i32 {{.*}}%divopt.counts
; CHECK: [[MORE32:%.*]] = zext i1 %more to i32
; CHECK: [[BACKNEXT:%.*]] = add i32 [[BACK]], [[MORE32]]
; CHECK: br i1 %more, label %body, label %exit

; At the return: counter c at the thread's counter 0 plus 32c elements, as
; u16, the loop's count then compared with the marker
; (tests/lit/device/profile-narrow-counters.ll has the escape); no branch
; counters in this copy.
; CHECK: exit:
; CHECK: [[BACKOUT:%.*]] = phi i32 [ [[BACKNEXT]], %body ], [ 0, %entry ]
; CHECK: [[Q0:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 0
; CHECK-NEXT: [[E16:%.*]] = trunc i32 [[EDGE0]] to i16
; CHECK-NEXT: store i16 [[E16]], ptr addrspace(1) [[Q0]]
; CHECK-NEXT: [[Q1:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 32
; CHECK-NEXT: [[B16:%.*]] = trunc i32 [[BACKOUT]] to i16
; CHECK-NEXT: store i16 [[B16]], ptr addrspace(1) [[Q1]]
; CHECK-NEXT: %divopt.over = icmp uge i32 [[BACKOUT]], 65535
; CHECK-NOT: atomicrmw add ptr addrspace(1) {{.*}}, i64
; CHECK: ret void
; The copy that counts branches: at each conditional branch a ballot over the
; active lanes, counted in 32-bit registers by the leader, the active lane
; with no active lane below it.
; CHECK: entry.sampled:
; CHECK: [[ACTIVE:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK: [[TAKEN:%.*]] = call i32 @llvm.nvvm.vote.ballot.sync(i32 [[ACTIVE]], i1 %has.sampled)
; CHECK: [[BELOW:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
; CHECK: [[LOWER:%.*]] = and i32 [[ACTIVE]], [[BELOW]]
; CHECK: [[LEADER:%.*]] = icmp eq i32 [[LOWER]], 0
; CHECK: [[ONE:%.*]] = zext i1 [[LEADER]] to i32
; CHECK: add i32 0, [[ONE]]
; CHECK: body.sampled:
; CHECK: call i32 @llvm.nvvm.vote.ballot.sync(i32 {{%.*}}, i1 %more.sampled)
; It stores the same edge counters; where a branch's counters are final
; (entry's in entry, the loop's at exit) it adds the nonzero ones, widened,
; to its bucket.
; CHECK: exit.sampled:
; CHECK: %divopt.over{{[0-9]*}} = icmp uge i32 %divopt.edge1.{{[0-9]+}}, 65535
; CHECK: %divopt.bucket{{[0-9]*}} = lshr i64 %divopt.gtid, %divopt.bucket.shift
; CHECK: icmp ne i32 [[N:%.*]], 0
; CHECK: [[WIDE:%.*]] = zext i32 [[N]] to i64
; CHECK: atomicrmw add ptr addrspace(1) {{%.*}}, i64 [[WIDE]] monotonic, align 8
