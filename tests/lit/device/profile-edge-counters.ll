; The profile clone counts the edges off a maximum spanning tree of the CFG
; (the notes' "counters"), not every block: about one counter per
; conditional branch, none for straight-line code. An edge is counted in its
; source when that has one successor, else in its target when that has one
; predecessor, else by the branch condition, else (a switch's critical edge)
; in a block of its own. At the return each thread stores its C counters,
; at its counter 0's slot plus 32c elements (Abi.h), as u16
; (profile-narrow-counters.ll has the escape of a count that does not fit). A kernel of
; abi::LargeProfileCounters counters or more stores each where it is final
; instead (profile-clone-hashes.ll).
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @ifloop(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %v = load i32, ptr addrspace(1) %p
  %odd = icmp ne i32 %v, 0
  br i1 %odd, label %then, label %else

then:
  %a = mul i32 %v, 3
  br label %join

else:
  %b = add i32 %v, 7
  br label %join

join:
  %x = phi i32 [ %a, %then ], [ %b, %else ]
  br label %loop

loop:
  %i = phi i32 [ 0, %join ], [ %next, %loop ]
  %acc = phi i32 [ %x, %join ], [ %sum, %loop ]
  %sum = add i32 %acc, %i
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done

done:
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %sum, ptr addrspace(1) %q
  ret void
}

define ptx_kernel void @straight(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %tid, ptr addrspace(1) %q
  ret void
}

define ptx_kernel void @sw(ptr addrspace(1) %out, i32 %k) {
entry:
  switch i32 %k, label %done [ i32 0, label %a
                               i32 1, label %b ]
a:
  store i32 1, ptr addrspace(1) %out
  br label %done
b:
  %c = icmp eq i32 %k, 7
  br i1 %c, label %done, label %trap
trap:
  unreachable
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @split(ptr addrspace(1) %out, i32 %k, i32 %m) {
entry:
  %e = icmp eq i32 %k, 0
  br i1 %e, label %a, label %b
a:
  switch i32 %m, label %c [ i32 0, label %d ]
b:
  switch i32 %m, label %c [ i32 5, label %d ]
c:
  store i32 1, ptr addrspace(1) %out
  ret void
d:
  ret void
}

; The notes: if/else and a loop need two counters (else -> join, the loop's
; back edge: the self loop can never be in the tree); straight-line code
; none; the switches' kernel counts an exit edge ([4,-1]).
; CHECK: @ifloop__divopt_notes = {{.*}}\22branches\22:[0,4],\22counters\22:{{\[\[2,0\],\[4,0\]\]}},
; CHECK-SAME: \22name\22:\22ifloop\22
; CHECK: @straight__divopt_notes = {{.*}}\22counters\22:[],{{.*}}\22name\22:\22straight\22
; CHECK: @sw__divopt_notes = {{.*}}\22counters\22:{{\[\[1,0\],\[2,0\],\[2,1\]\]}},{{.*}}\22name\22:\22sw\22
; CHECK: @split__divopt_notes = {{.*}}\22counters\22:{{\[\[1,0\],\[1,1\],\[4,-1\]\]}},{{.*}}\22name\22:\22split\22

; CHECK-LABEL: define ptx_kernel void @ifloop__divopt_profile(
; CHECK-SAME: ptr addrspace(1) %divopt.counts, ptr addrspace(1) %divopt.branches, ptr addrspace(1) %divopt.overflow, ptr addrspace(1) %divopt.hashes)
; Neither of entry's edges is counted (only its branch, by the leader).
; CHECK: entry:
; CHECK-NOT: zext i1 %odd
; CHECK: br i1 %odd, label %then, label %else
; Counter 0, else -> join, in its source (one successor).
; CHECK: then:
; CHECK-NEXT: %a = mul i32 %v, 3
; CHECK-NEXT: br label %join
; CHECK: else:
; CHECK-NEXT: %b = add i32 %v, 7
; CHECK-NEXT: [[ELSE:%.*]] = add i32 0, 1
; CHECK-NEXT: br label %join
; CHECK: join:
; CHECK-NEXT: [[C0:%.*]] = phi i32 [ 0, %then ], [ [[ELSE]], %else ]
; CHECK-NOT: add i32
; CHECK: br label %loop
; Counter 1, the back edge, by the loop's condition: no block of its own,
; no store in the loop.
; CHECK: loop:
; CHECK: [[BACK:%divopt.edge1.0]] = phi i32 [ 0, %join ], [ [[BACKNEXT:%.*]], %loop ]
; CHECK-NOT: store {{.*}}, ptr addrspace(1)
; CHECK: [[MORE:%.*]] = zext i1 %more to i32
; CHECK-NEXT: [[BACKNEXT]] = add i32 [[BACK]], [[MORE]]
; CHECK: br i1 %more, label %loop, label %done
; At the return, both: two counters, no hashes.
; CHECK: done:
; CHECK: store i32 %sum
; CHECK-NOT: asm
; CHECK-NEXT: [[Q0:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 0
; CHECK-NEXT: [[T0:%.*]] = trunc i32 [[C0]] to i16
; CHECK-NEXT: store i16 [[T0]], ptr addrspace(1) [[Q0]]
; CHECK-NEXT: [[Q1:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 32
; CHECK-NEXT: [[T1:%.*]] = trunc i32 [[BACKNEXT]] to i16
; CHECK-NEXT: store i16 [[T1]], ptr addrspace(1) [[Q1]]
; The back edge's count is on a cycle: compared with the marker.
; CHECK-NEXT: %divopt.over = icmp uge i32 [[BACKNEXT]], 65535
; CHECK-NEXT: br i1 %divopt.over, label %divopt.escape, label %[[DONE:[0-9]+]], !prof
; CHECK: [[DONE]]:
; CHECK-NEXT: ret void
; The copy that counts branches adds them to the bucket after its counters;
; a bucket spans 128 threads, or 32 times that where only one block in 32
; counts (abi::branchBucketThreads).
; CHECK: done.sampled:
; CHECK: %divopt.over{{[0-9]+}} = icmp uge i32
; CHECK: %divopt.bucket{{[0-9]*}} = lshr i64 %divopt.gtid, %divopt.bucket.shift
; CHECK-NOT: %divopt.counts
; CHECK: atomicrmw add
; CHECK: ret void

; No counters: nothing is written to counts, overflow is not even tested.
; CHECK-LABEL: define ptx_kernel void @straight__divopt_profile(
; CHECK-SAME: %divopt.counts, ptr addrspace(1) %divopt.branches, ptr addrspace(1) %divopt.overflow, ptr addrspace(1) %divopt.hashes)
; CHECK-NOT: %divopt.counts
; CHECK-NOT: %divopt.overflow
; CHECK: ret void

; The copy without branch counters first. A switch's edge to a block of one
; predecessor counts there; b -> trap too, and an unreachable block's exit
; edge needs no counter of its own here.
; CHECK-LABEL: define ptx_kernel void @sw__divopt_profile(
; CHECK: switch i32 %k, label %done
; CHECK: a:
; CHECK: store i32 1, ptr addrspace(1) %out
; CHECK-NEXT: [[A:%.*]] = add i32 0, 1
; CHECK: b:
; CHECK: [[C:%.*]] = zext i1 %c to i32
; CHECK-NEXT: [[B:%.*]] = add i32 0, [[C]]
; CHECK: trap:
; CHECK-NEXT: [[T:%.*]] = add i32 0, 1
; CHECK-NEXT: unreachable
; The thread that reaches the return never took b -> trap: its count there
; is 0.
; CHECK: done:
; CHECK: store i16 {{%.*}}, ptr addrspace(1)
; CHECK: store i16 {{%.*}}, ptr addrspace(1)
; CHECK: [[P:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 64
; CHECK-NEXT: [[Z:%.*]] = trunc i32 0 to i16
; CHECK-NEXT: store i16 [[Z]], ptr addrspace(1) [[P]]
; CHECK: ret void
; Then the copy that counts branches: a switch is a conditional branch, the
; lanes diverge when they disagree on some bit of their successor's number
; (done 0, a 1, b 2).
; CHECK: entry.sampled:
; CHECK: [[ACTIVE:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: [[IS0:%.*]] = icmp eq i32 %k, 0
; CHECK-NEXT: [[I0:%.*]] = select i1 [[IS0]], i32 1, i32 0
; CHECK-NEXT: [[IS1:%.*]] = icmp eq i32 %k, 1
; CHECK-NEXT: [[I1:%.*]] = select i1 [[IS1]], i32 2, i32 [[I0]]
; CHECK-NEXT: [[BIT0:%.*]] = trunc i32 [[I1]] to i1
; CHECK-NEXT: [[VOTES0:%.*]] = call i32 @llvm.nvvm.vote.ballot.sync(i32 [[ACTIVE]], i1 [[BIT0]])
; CHECK: [[SHIFTED:%.*]] = lshr i32 [[I1]], 1
; CHECK-NEXT: [[BIT1:%.*]] = trunc i32 [[SHIFTED]] to i1
; CHECK-NEXT: [[VOTES1:%.*]] = call i32 @llvm.nvvm.vote.ballot.sync(i32 [[ACTIVE]], i1 [[BIT1]])
; CHECK: switch i32 %k, label %done.sampled [

; Critical edges out of a switch: split in the clone, counted in the new block.
; CHECK-LABEL: define ptx_kernel void @split__divopt_profile(
; CHECK: a:
; CHECK: switch i32 %m, label %[[TOC:divopt.edge[0-9]*]] [
; CHECK-NEXT: i32 0, label %[[TOD:divopt.edge[0-9]*]]
; CHECK: [[TOD]]:
; CHECK-NEXT: add i32 0, 1
; CHECK-NEXT: br label %d
; CHECK: [[TOC]]:
; CHECK-NEXT: add i32 0, 1
; CHECK-NEXT: br label %c
; The other switch is left as it was.
; CHECK: b:
; CHECK: switch i32 %m, label %c [
; CHECK-NEXT: i32 5, label %d
