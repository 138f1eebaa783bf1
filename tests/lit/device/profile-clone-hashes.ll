; A kernel of abi::LargeProfileCounters (16) counters or more. Its profile
; clone stores each count where it is final (passes/CounterFinalPoints.h):
; at the first block up its post-dominator tree on no cycle, taken further
; while that means fewer bypasses, so a diamond's count goes to its join; a
; thread that leaves the code that could still count it stores a zero on
; the way. It sums two 64-bit hashes of its counts (divopt/Abi.h): a count
; on no cycle (0 or 1) sets its bit in a 32-bit word, one PTX mad where it is
; stored, and a count in loops of a constant largest trip count
; (passes/CountBounds.h) its field of as many bits as its bound needs; any
; other is multiplied into both hashes there, one mad each; the return adds
; the words to the hashes and stores them when the runtime passes somewhere
; to put them; the compaction groups the threads by them. A kernel of fewer
; counters stores them at its returns and sums no hashes
; (profile-narrow-counters.ll).
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; An early return, sixteen if/else diamonds on the bits of the thread's
; input (a counter each), a loop of 1 to 4 trips (short) and one of any
; number (loop).
define ptx_kernel void @bits(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %v = load i32, ptr addrspace(1) %p
  %none = icmp eq i32 %v, 0
  br i1 %none, label %early, label %d0
early:
  ret void
d0:
  %acc0 = phi i32 [ %v, %entry ]
  %bit0 = and i32 %v, 1
  %on0 = icmp ne i32 %bit0, 0
  br i1 %on0, label %t0, label %e0
t0:
  %a0 = mul i32 %acc0, 3
  br label %j0
e0:
  %b0 = add i32 %acc0, 1
  br label %j0
j0:
  %x0 = phi i32 [ %a0, %t0 ], [ %b0, %e0 ]
  br label %d1
d1:
  %acc1 = phi i32 [ %x0, %j0 ]
  %bit1 = and i32 %v, 2
  %on1 = icmp ne i32 %bit1, 0
  br i1 %on1, label %t1, label %e1
t1:
  %a1 = mul i32 %acc1, 3
  br label %j1
e1:
  %b1 = add i32 %acc1, 2
  br label %j1
j1:
  %x1 = phi i32 [ %a1, %t1 ], [ %b1, %e1 ]
  br label %d2
d2:
  %acc2 = phi i32 [ %x1, %j1 ]
  %bit2 = and i32 %v, 4
  %on2 = icmp ne i32 %bit2, 0
  br i1 %on2, label %t2, label %e2
t2:
  %a2 = mul i32 %acc2, 3
  br label %j2
e2:
  %b2 = add i32 %acc2, 3
  br label %j2
j2:
  %x2 = phi i32 [ %a2, %t2 ], [ %b2, %e2 ]
  br label %d3
d3:
  %acc3 = phi i32 [ %x2, %j2 ]
  %bit3 = and i32 %v, 8
  %on3 = icmp ne i32 %bit3, 0
  br i1 %on3, label %t3, label %e3
t3:
  %a3 = mul i32 %acc3, 3
  br label %j3
e3:
  %b3 = add i32 %acc3, 4
  br label %j3
j3:
  %x3 = phi i32 [ %a3, %t3 ], [ %b3, %e3 ]
  br label %d4
d4:
  %acc4 = phi i32 [ %x3, %j3 ]
  %bit4 = and i32 %v, 16
  %on4 = icmp ne i32 %bit4, 0
  br i1 %on4, label %t4, label %e4
t4:
  %a4 = mul i32 %acc4, 3
  br label %j4
e4:
  %b4 = add i32 %acc4, 5
  br label %j4
j4:
  %x4 = phi i32 [ %a4, %t4 ], [ %b4, %e4 ]
  br label %d5
d5:
  %acc5 = phi i32 [ %x4, %j4 ]
  %bit5 = and i32 %v, 32
  %on5 = icmp ne i32 %bit5, 0
  br i1 %on5, label %t5, label %e5
t5:
  %a5 = mul i32 %acc5, 3
  br label %j5
e5:
  %b5 = add i32 %acc5, 6
  br label %j5
j5:
  %x5 = phi i32 [ %a5, %t5 ], [ %b5, %e5 ]
  br label %d6
d6:
  %acc6 = phi i32 [ %x5, %j5 ]
  %bit6 = and i32 %v, 64
  %on6 = icmp ne i32 %bit6, 0
  br i1 %on6, label %t6, label %e6
t6:
  %a6 = mul i32 %acc6, 3
  br label %j6
e6:
  %b6 = add i32 %acc6, 7
  br label %j6
j6:
  %x6 = phi i32 [ %a6, %t6 ], [ %b6, %e6 ]
  br label %d7
d7:
  %acc7 = phi i32 [ %x6, %j6 ]
  %bit7 = and i32 %v, 128
  %on7 = icmp ne i32 %bit7, 0
  br i1 %on7, label %t7, label %e7
t7:
  %a7 = mul i32 %acc7, 3
  br label %j7
e7:
  %b7 = add i32 %acc7, 8
  br label %j7
j7:
  %x7 = phi i32 [ %a7, %t7 ], [ %b7, %e7 ]
  br label %d8
d8:
  %acc8 = phi i32 [ %x7, %j7 ]
  %bit8 = and i32 %v, 256
  %on8 = icmp ne i32 %bit8, 0
  br i1 %on8, label %t8, label %e8
t8:
  %a8 = mul i32 %acc8, 3
  br label %j8
e8:
  %b8 = add i32 %acc8, 9
  br label %j8
j8:
  %x8 = phi i32 [ %a8, %t8 ], [ %b8, %e8 ]
  br label %d9
d9:
  %acc9 = phi i32 [ %x8, %j8 ]
  %bit9 = and i32 %v, 512
  %on9 = icmp ne i32 %bit9, 0
  br i1 %on9, label %t9, label %e9
t9:
  %a9 = mul i32 %acc9, 3
  br label %j9
e9:
  %b9 = add i32 %acc9, 10
  br label %j9
j9:
  %x9 = phi i32 [ %a9, %t9 ], [ %b9, %e9 ]
  br label %d10
d10:
  %acc10 = phi i32 [ %x9, %j9 ]
  %bit10 = and i32 %v, 1024
  %on10 = icmp ne i32 %bit10, 0
  br i1 %on10, label %t10, label %e10
t10:
  %a10 = mul i32 %acc10, 3
  br label %j10
e10:
  %b10 = add i32 %acc10, 11
  br label %j10
j10:
  %x10 = phi i32 [ %a10, %t10 ], [ %b10, %e10 ]
  br label %d11
d11:
  %acc11 = phi i32 [ %x10, %j10 ]
  %bit11 = and i32 %v, 2048
  %on11 = icmp ne i32 %bit11, 0
  br i1 %on11, label %t11, label %e11
t11:
  %a11 = mul i32 %acc11, 3
  br label %j11
e11:
  %b11 = add i32 %acc11, 12
  br label %j11
j11:
  %x11 = phi i32 [ %a11, %t11 ], [ %b11, %e11 ]
  br label %d12
d12:
  %acc12 = phi i32 [ %x11, %j11 ]
  %bit12 = and i32 %v, 4096
  %on12 = icmp ne i32 %bit12, 0
  br i1 %on12, label %t12, label %e12
t12:
  %a12 = mul i32 %acc12, 3
  br label %j12
e12:
  %b12 = add i32 %acc12, 13
  br label %j12
j12:
  %x12 = phi i32 [ %a12, %t12 ], [ %b12, %e12 ]
  br label %d13
d13:
  %acc13 = phi i32 [ %x12, %j12 ]
  %bit13 = and i32 %v, 8192
  %on13 = icmp ne i32 %bit13, 0
  br i1 %on13, label %t13, label %e13
t13:
  %a13 = mul i32 %acc13, 3
  br label %j13
e13:
  %b13 = add i32 %acc13, 14
  br label %j13
j13:
  %x13 = phi i32 [ %a13, %t13 ], [ %b13, %e13 ]
  br label %d14
d14:
  %acc14 = phi i32 [ %x13, %j13 ]
  %bit14 = and i32 %v, 16384
  %on14 = icmp ne i32 %bit14, 0
  br i1 %on14, label %t14, label %e14
t14:
  %a14 = mul i32 %acc14, 3
  br label %j14
e14:
  %b14 = add i32 %acc14, 15
  br label %j14
j14:
  %x14 = phi i32 [ %a14, %t14 ], [ %b14, %e14 ]
  br label %d15
d15:
  %acc15 = phi i32 [ %x14, %j14 ]
  %bit15 = and i32 %v, 32768
  %on15 = icmp ne i32 %bit15, 0
  br i1 %on15, label %t15, label %e15
t15:
  %a15 = mul i32 %acc15, 3
  br label %j15
e15:
  %b15 = add i32 %acc15, 16
  br label %j15
j15:
  %x15 = phi i32 [ %a15, %t15 ], [ %b15, %e15 ]
  %lim = and i32 %v, 3
  br label %short
short:
  %k = phi i32 [ 0, %j15 ], [ %knext, %short ]
  %w = phi i32 [ %x15, %j15 ], [ %w1, %short ]
  %w1 = mul i32 %w, 5
  %knext = add nuw nsw i32 %k, 1
  %kmore = icmp ule i32 %knext, %lim
  br i1 %kmore, label %short, label %loop
loop:
  %i = phi i32 [ 0, %short ], [ %next, %loop ]
  %s = phi i32 [ %w1, %short ], [ %s1, %loop ]
  %s1 = add i32 %s, %i
  %next = add nuw i32 %i, 1
  %more = icmp ult i32 %next, %v
  br i1 %more, label %loop, label %exit
exit:
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %s1, ptr addrspace(1) %q
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK-LABEL: define ptx_kernel void @bits__divopt_profile(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %divopt.counts, ptr addrspace(1) %divopt.branches, ptr addrspace(1) %divopt.overflow, ptr addrspace(1) %divopt.hashes)

; A thread that returns early runs none of the counted edges: a zero for
; each counter on the way out, in early, whose only way in that is.
; CHECK: entry:
; CHECK: br i1 %none, label %early, label %d0
; CHECK: early:
; CHECK-NEXT: getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 0
; CHECK-NEXT: store i16 0
; CHECK-NEXT: getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base, i64 32
; CHECK-NEXT: store i16 0

; The first diamond's count, at its join, where a thread of either arm
; passes (not in the arm, where the other arm would store a zero): on no
; cycle, so at most 1: bit 0 of the first bit word (a mad by 1 << bit), then
; a u16 with no test against the marker.
; CHECK: j0:
; CHECK: [[B0:%.*]] = call i32 asm "mad.lo.u32 $0, $1, $2, $3;", "=r,r,r,r"(i32 %divopt.edge0.0, i32 1, i32 0)
; CHECK-NEXT: getelementptr inbounds i16, ptr addrspace(1) %divopt.counts.base
; CHECK-NEXT: trunc i32
; CHECK-NEXT: store i16
; CHECK-NEXT: br label %d1
; The next sets the next bit.
; CHECK: j1:
; CHECK: [[B1:%.*]] = call i32 asm "mad.lo.u32 $0, $1, $2, $3;", "=r,r,r,r"(i32 %divopt.edge1.0, i32 2, i32 [[B0]])
; CHECK: [[BITS:%.*]] = call i32 asm "mad.lo.u32 $0, $1, $2, $3;", "=r,r,r,r"(i32 %divopt.edge16.0, i32 65536, i32 {{%.*}})
; Both loops' counts, final at exit. Short's back edge, taken at most 3
; times (its largest trip count, 4): a field of 3 bits after the diamonds'
; 17 (the early return's edge and 16), one mad by 1 << 17, and no compare
; with the marker. Loop's, which can pass the marker: the first term of
; each hash, the count times the counter's odd multiplier, then its u16 and
; the compare.
; CHECK: short:
; CHECK: [[SHORT:%.*]] = add i32 %divopt.edge{{[0-9]+}}.0, {{%.*}}
; CHECK-NEXT: br i1 %kmore, label %short, label %loop
; CHECK: loop:
; CHECK-NOT: store {{.*}}, ptr addrspace(1)
; CHECK: [[LONG:%.*]] = add i32 %divopt.edge{{[0-9]+}}.0, {{%.*}}
; CHECK-NEXT: br i1 %more, label %loop, label %exit
; CHECK: exit:
; CHECK: [[WORD:%.*]] = call i32 asm "mad.lo.u32 $0, $1, $2, $3;", "=r,r,r,r"(i32 [[SHORT]], i32 131072, i32 [[BITS]])
; CHECK: [[L0:%.*]] = call i64 asm "mad.lo.u64 $0, $1, $2, $3;", "=l,l,l,l"(i64 {{%.*}}, i64 {{-?[0-9]*[13579]}}, i64 0)
; CHECK: [[L1:%.*]] = call i64 asm "mad.lo.u64 $0, $1, $2, $3;", "=l,l,l,l"(i64 {{%.*}}, i64 {{-?[0-9]*[13579]}}, i64 0)
; CHECK-NOT: icmp uge i32 [[SHORT]]
; CHECK: %divopt.over = icmp uge i32 [[LONG]], 65535
; At the return, after the last count: the bit word into both hashes, and
; both at hashes[2 * gtid].
; CHECK: %divopt.wants.hashes{{[0-9]*}} = icmp ne ptr addrspace(1) %divopt.hashes, null
; CHECK-NEXT: br i1 %divopt.wants.hashes{{[0-9]*}}, label %[[STORE:[0-9]+]], label
; CHECK: [[STORE]]:
; CHECK-NEXT: [[W:%.*]] = zext i32 [[WORD]] to i64
; CHECK-NEXT: [[LAST0:%.*]] = call i64 asm "mad.lo.u64 $0, $1, $2, $3;", "=l,l,l,l"(i64 [[W]], i64 {{-?[0-9]*[13579]}}, i64 [[L0]])
; CHECK-NEXT: [[W1:%.*]] = zext i32 [[WORD]] to i64
; CHECK-NEXT: [[LAST1:%.*]] = call i64 asm "mad.lo.u64 $0, $1, $2, $3;", "=l,l,l,l"(i64 [[W1]], i64 {{-?[0-9]*[13579]}}, i64 [[L1]])
; CHECK-NEXT: [[G2:%.*]] = shl i64 %divopt.gtid, 1
; CHECK-NEXT: [[HP:%.*]] = getelementptr inbounds i64, ptr addrspace(1) %divopt.hashes, i64 [[G2]]
; CHECK-NEXT: store i64 [[LAST0]], ptr addrspace(1) [[HP]], align 8
; CHECK-NEXT: [[HP1:%.*]] = getelementptr inbounds i64, ptr addrspace(1) [[HP]], i64 1
; CHECK-NEXT: store i64 [[LAST1]], ptr addrspace(1) [[HP1]], align 8
