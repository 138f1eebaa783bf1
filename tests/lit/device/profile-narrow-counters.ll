; A kernel of few counters (under abi::LargeProfileCounters) stores them at
; its returns (profile-clone-hashes.ll has one that stores each where it is
; final). The profile clone's third hidden parameter, overflow, picks the
; width of counts for the whole launch (Abi.h), one uniform test at each
; store:
;   null      wide: counts[c * nthreads + gtid] as u32
;   non-null  narrow: as u16 when the count is < 0xFFFF; else the marker
;             0xFFFF in its slot, and the thread appends {gtid, counter,
;             count} to the overflow list: i = atomicAdd(&overflow[0], 1);
;             if i < overflow[1] (capacity), record at overflow[2 + 3 * i].
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Two counters (the back edge, skip's exit edge), two returns.
define ptx_kernel void @loop(ptr addrspace(1) %trips, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %trips, i64 %idx
  %n = load i32, ptr addrspace(1) %p
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %body, label %skip

body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %body, label %exit

skip:
  ret void

exit:
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %next, ptr addrspace(1) %q
  ret void
}

define ptx_kernel void @straight(ptr addrspace(1) %out) {
entry:
  store i32 1, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK: \22counters\22:{{\[\[1,0\],\[2,-1\]\]}},{{.*}}\22name\22:\22loop\22

; CHECK-LABEL: define ptx_kernel void @loop__divopt_profile(ptr addrspace(1) %trips, ptr addrspace(1) %out, ptr addrspace(1) %divopt.counts, ptr addrspace(1) %divopt.branches, ptr addrspace(1) %divopt.overflow, ptr addrspace(1) %divopt.hashes)
; Counter c of thread g at element ((g / 32) * C + c) * 32 + g % 32: one
; pointer for counter 0, counter c at a constant offset from it.
; CHECK: [[WARP:%.*]] = lshr i64 %divopt.gtid, 5
; CHECK-NEXT: [[ROW:%.*]] = mul i64 [[WARP]], 64
; CHECK-NEXT: [[LANE:%.*]] = and i64 %divopt.gtid, 31
; CHECK-NEXT: %divopt.slot0 = add i64 [[ROW]], [[LANE]]
; CHECK-NEXT: %divopt.counts.base = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts, i64 %divopt.slot0

; The loop keeps its count in a register: no store inside it.
; CHECK: body:
; CHECK-NOT: store {{.*}}, ptr addrspace(1)
; CHECK: [[BACK:%.*]] = add i32 %divopt.edge0.0, {{%.*}}
; CHECK-NEXT: br i1 %more, label %body, label %exit

; At the return at skip: the back edge's count (0 there, never run) and
; skip's exit's, 1. Two counters: no hashes (abi::LargeProfileCounters).
; CHECK: skip:
; CHECK-NEXT: [[C1:%.*]] = add i32 0, 1
; CHECK-NOT: asm
; The width: one test of the kernel parameter, the same for every thread,
; narrow the likely way.
; CHECK-NEXT: [[NARROW:%.*]] = icmp ne ptr addrspace(1) %divopt.overflow, null
; CHECK-NEXT: br i1 [[NARROW]], label %[[N:divopt.narrow[0-9]*]], label %[[W:divopt.wide[0-9]*]], !prof [[LIKELY:![0-9]+]]
; CHECK: [[N]]:
; CHECK: [[T1:%.*]] = trunc i32 [[C1]] to i16
; CHECK-NEXT: getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 32
; CHECK-NEXT: store i16 [[T1]]
; CHECK-NOT: %divopt.hashes
; CHECK: ret void

; The return at exit: the back edge's count, which a loop can take past the
; marker.
; CHECK: exit:
; CHECK: store i32 %next, ptr addrspace(1) %q
; CHECK-NEXT: [[NARROWX:%.*]] = icmp ne ptr addrspace(1) %divopt.overflow, null
; CHECK-NEXT: br i1 [[NARROWX]], label %[[NX:divopt.narrow[0-9]*]], label %[[WX:divopt.wide[0-9]*]], !prof [[LIKELY]]

; Narrow: does any lane's count reach the marker? A warp-wide vote, so that
; the branch is uniform and the common case runs straight on.
; CHECK: [[NX]]:
; CHECK-NEXT: [[OVER:%.*]] = icmp uge i32 [[BACK]], 65535
; CHECK-NEXT: [[ACTIVE:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: [[ANY:%.*]] = call i1 @llvm.nvvm.vote.any.sync(i32 [[ACTIVE]], i1 [[OVER]])
; CHECK-NEXT: br i1 [[ANY]], label %[[SPILL:divopt.narrow.spill[0-9]*]], label %[[FIT:divopt.narrow.fit[0-9]*]], !prof [[UNLIKELY:![0-9]+]]

; No lane's does (the common case): u16 stores at the thread's counter 0
; and counter 1 (32 elements on: Abi.h).
; CHECK: [[FIT]]:
; CHECK-NEXT: [[T0:%.*]] = trunc i32 [[BACK]] to i16
; CHECK-NEXT: [[Q0:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 0
; CHECK-NEXT: store i16 [[T0]], ptr addrspace(1) [[Q0]], align 2
; CHECK-NEXT: [[Z1:%.*]] = trunc i32 0 to i16
; CHECK-NEXT: [[Q1:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 32
; CHECK-NEXT: store i16 [[Z1]], ptr addrspace(1) [[Q1]], align 2
; CHECK-NEXT: br label %[[DONE:divopt.stored[0-9]*]]

; This copy of the body counts no branches (the sampled copy does).
; CHECK: [[DONE]]:
; CHECK-NEXT: ret void

; The cold paths come after the body. Wide: u32 stores at counts + 4 * slot0,
; 2 * base - counts, so that only the base stays live.
; CHECK: [[WX]]:
; CHECK-NEXT: [[CI:%.*]] = ptrtoint ptr addrspace(1) %divopt.counts to i64
; CHECK-NEXT: [[BI:%.*]] = ptrtoint ptr addrspace(1) %divopt.counts.base to i64
; CHECK-NEXT: [[B2:%.*]] = shl i64 [[BI]], 1
; CHECK-NEXT: [[WI:%.*]] = sub i64 [[B2]], [[CI]]
; CHECK-NEXT: [[WB:%.*]] = inttoptr i64 [[WI]] to ptr addrspace(1)
; CHECK-NEXT: [[P0:%.*]] = getelementptr inbounds i32, ptr addrspace(1) [[WB]], i64 0
; CHECK-NEXT: store i32 [[BACK]], ptr addrspace(1) [[P0]], align 4
; CHECK: br label %[[DONE]]

; Some lane's count does not fit: the marker 0xFFFF (i16 -1) in its slot,
; then the append; the other lanes store their counts.
; CHECK: [[SPILL]]:
; CHECK-NEXT: [[FITS2:%.*]] = icmp ult i32 [[BACK]], 65535
; CHECK-NEXT: [[T2:%.*]] = trunc i32 [[BACK]] to i16
; CHECK-NEXT: [[MARKED:%.*]] = select i1 [[FITS2]], i16 [[T2]], i16 -1
; CHECK-NEXT: [[M0:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 0
; CHECK-NEXT: store i16 [[MARKED]], ptr addrspace(1) [[M0]], align 2
; CHECK-NEXT: [[NOFIT:%.*]] = xor i1 [[FITS2]], true
; CHECK-NEXT: br i1 [[NOFIT]], label %[[APPEND:[0-9]+]], label
; CHECK: [[APPEND]]:
; CHECK-NEXT: [[IDX:%.*]] = atomicrmw add ptr addrspace(1) %divopt.overflow, i32 1 monotonic, align 4
; CHECK-NEXT: [[CAPP:%.*]] = getelementptr inbounds i32, ptr addrspace(1) %divopt.overflow, i64 1
; CHECK-NEXT: [[CAP:%.*]] = load i32, ptr addrspace(1) [[CAPP]], align 4
; CHECK-NEXT: [[ROOM:%.*]] = icmp ult i32 [[IDX]], [[CAP]]
; CHECK-NEXT: br i1 [[ROOM]], label %[[REC:[0-9]+]], label

; Room in the list: record i at 2 + 3 * i = gtid, counter, count.
; CHECK: [[REC]]:
; CHECK-NEXT: [[IDX64:%.*]] = zext i32 [[IDX]] to i64
; CHECK-NEXT: [[OFF:%.*]] = mul i64 [[IDX64]], 3
; CHECK-NEXT: [[BASE:%.*]] = add i64 2, [[OFF]]
; CHECK-NEXT: [[GTID32:%.*]] = trunc i64 %divopt.gtid to i32
; CHECK-NEXT: [[R:%.*]] = getelementptr inbounds i32, ptr addrspace(1) %divopt.overflow, i64 [[BASE]]
; CHECK-NEXT: store i32 [[GTID32]], ptr addrspace(1) [[R]], align 4
; CHECK-NEXT: [[B1:%.*]] = add i64 [[BASE]], 1
; CHECK-NEXT: [[R1:%.*]] = getelementptr inbounds i32, ptr addrspace(1) %divopt.overflow, i64 [[B1]]
; CHECK-NEXT: store i32 0, ptr addrspace(1) [[R1]], align 4
; CHECK-NEXT: [[BB2:%.*]] = add i64 [[BASE]], 2
; CHECK-NEXT: [[R2:%.*]] = getelementptr inbounds i32, ptr addrspace(1) %divopt.overflow, i64 [[BB2]]
; CHECK-NEXT: store i32 [[BACK]], ptr addrspace(1) [[R2]], align 4
; CHECK: }

; No counters: nothing stored to counts, overflow never touched.
; CHECK-LABEL: define ptx_kernel void @straight__divopt_profile(ptr addrspace(1) %out, ptr addrspace(1) %divopt.counts, ptr addrspace(1) %divopt.branches, ptr addrspace(1) %divopt.overflow, ptr addrspace(1) %divopt.hashes)
; CHECK-NOT: divopt.counts
; CHECK-NOT: divopt.overflow
; CHECK: ret void
