; A kernel of few counters (under abi::LargeProfileCounters) stores them at
; its returns (profile-clone-hashes.ll has one that stores each where it is
; final). Every count is stored as a u16 (Abi.h); one that may not fit (a
; count on a cycle) is compared with the marker 0xFFFF, and a thread whose
; count reaches it takes a cold branch of its own that stores the marker in
; its slot and the count where the third hidden parameter, overflow, says:
;   null      wide: the u32 array after the C * 32 * ceil(nthreads / 32) u16
;             slots, at the slot's index
;   non-null  narrow: a record {gtid, counter, count} appended to the overflow
;             list: i = atomicAdd(&overflow[0], 1); if i < overflow[1]
;             (capacity), record at overflow[2 + 3 * i].
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
; skip's exit's, 1, u16 stores at the thread's counter 0 and counter 1 (32
; elements on: Abi.h). Two counters: no hashes (abi::LargeProfileCounters).
; CHECK: skip:
; CHECK-NEXT: [[C1:%.*]] = add i32 0, 1
; CHECK-NOT: asm
; CHECK-NEXT: [[Q0:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 0
; CHECK-NEXT: [[Z0:%.*]] = trunc i32 0 to i16
; CHECK-NEXT: store i16 [[Z0]], ptr addrspace(1) [[Q0]], align 2
; CHECK-NEXT: [[Q1:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 32
; CHECK-NEXT: [[T1:%.*]] = trunc i32 [[C1]] to i16
; CHECK-NEXT: store i16 [[T1]], ptr addrspace(1) [[Q1]], align 2
; CHECK-NOT: %divopt.hashes
; CHECK: ret void

; The return at exit: the back edge's count, which a loop can take past the
; marker, stored as a u16 like the other, then compared with it: the branch
; is the thread's own, the common case falls through to the return.
; CHECK: exit:
; CHECK: store i32 %next, ptr addrspace(1) %q
; CHECK-NEXT: [[X0:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 0
; CHECK-NEXT: [[TB:%.*]] = trunc i32 [[BACK]] to i16
; CHECK-NEXT: store i16 [[TB]], ptr addrspace(1) [[X0]], align 2
; CHECK-NEXT: [[X1:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 32
; CHECK-NEXT: [[TZ:%.*]] = trunc i32 0 to i16
; CHECK-NEXT: store i16 [[TZ]], ptr addrspace(1) [[X1]], align 2
; CHECK-NEXT: [[OVER:%.*]] = icmp uge i32 [[BACK]], 65535
; CHECK-NEXT: br i1 [[OVER]], label %[[ESC:divopt.escape[0-9]*]], label %[[RET:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; CHECK: [[RET]]:
; CHECK-NEXT: ret void

; The cold paths come after the body. The escape: the marker 0xFFFF (i16 -1)
; in the count's slot, then wide or narrow by overflow.
; CHECK: [[ESC]]:
; CHECK-NEXT: [[M0:%.*]] = getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 0
; CHECK-NEXT: store i16 -1, ptr addrspace(1) [[M0]], align 2
; CHECK-NEXT: [[WIDE:%.*]] = icmp eq ptr addrspace(1) %divopt.overflow, null
; CHECK-NEXT: br i1 [[WIDE]], label %[[W:divopt.escape.wide[0-9]*]], label %[[L:divopt.escape.list[0-9]*]]

; Wide: the launch's threads read anew (inline asm, so that the entry's reads
; are not kept live for it), S = ceil(nthreads / 32) * 32 * 2 slots, and the
; count at 2 * base - counts + 2 * S bytes: counts + 2 * S + 4 * slot0.
; CHECK: [[W]]:
; CHECK: call i32 asm sideeffect "mov.u32 $0, %nctaid.z;", "=r"()
; CHECK: [[THREADS:%.*]] = mul i64 {{%.*}}, {{%.*}}
; CHECK-NEXT: [[ROUND:%.*]] = add i64 [[THREADS]], 31
; CHECK-NEXT: [[WARPS:%.*]] = lshr i64 [[ROUND]], 5
; CHECK-NEXT: [[SBYTES:%.*]] = mul i64 [[WARPS]], 128
; CHECK-NEXT: [[CI:%.*]] = ptrtoint ptr addrspace(1) %divopt.counts to i64
; CHECK-NEXT: [[BI:%.*]] = ptrtoint ptr addrspace(1) %divopt.counts.base to i64
; CHECK-NEXT: [[B2:%.*]] = shl i64 [[BI]], 1
; CHECK-NEXT: [[W0:%.*]] = sub i64 [[B2]], [[CI]]
; CHECK-NEXT: [[WS:%.*]] = add i64 [[W0]], [[SBYTES]]
; CHECK-NEXT: [[WC:%.*]] = add i64 [[WS]], 0
; CHECK-NEXT: [[WP:%.*]] = inttoptr i64 [[WC]] to ptr addrspace(1)
; CHECK-NEXT: store i32 [[BACK]], ptr addrspace(1) [[WP]], align 4

; Narrow: the append, and the record when the list has room.
; CHECK: [[L]]:
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
