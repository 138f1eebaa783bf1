; Kernels that call device functions, in IR (issue 15; calls.cu from CUDA).
; Accepted: a helper with a loop, an internal fastcc function without line
; information (CUDA's double pow internals), a template helper, helpers
; reading %tid and %ctaid, recursion. Refused two calls deep, at the
; kernel's call with the callees and the inner callee's line named: a
; shuffle, a barrier, shared memory, %laneid; and an indirect call. The
; helpers that read the ids get copies with the logical ids appended for the
; redirected clones; the originals stay, for the other kernels and clones.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -pass-remarks=divopt -pass-remarks-missed=divopt -S %s -o %t.ll 2> %t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: FileCheck %s < %t.ll

target triple = "nvptx64-nvidia-cuda"

@sharedTile = internal addrspace(3) global [256 x float] undef

; ---- accepted ----

define float @weightedSum(ptr %p, i32 %n) !dbg !10 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %idx = zext i32 %i to i64
  %a = getelementptr float, ptr %p, i64 %idx
  %v = load float, ptr %a
  %s.next = fadd float %s, %v
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret float %s.next
}

define ptx_kernel void @loopHelper(ptr %p, ptr %out, i32 %n) !dbg !11 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s = call float @weightedSum(ptr %p, i32 %n), !dbg !12
  %idx = zext i32 %t to i64
  %o = getelementptr float, ptr %out, i64 %idx
  store float %s, ptr %o
  ret void
}
; REMARK-DAG: remark: calls.cu:{{.*}}: kernel 'loopHelper' can be regrouped at launch: redirected clone loopHelper__divopt_redirect, cost clone loopHelper__divopt_cost

; As libdevice's pow leaves it: internal, fastcc, no line information, and
; calling more libdevice.
define internal fastcc double @__internal_accurate_pow(double %x) {
  %l = call double @__nv_log(double %x)
  %m = fmul double %l, 1.7
  ret double %m
}
declare double @__nv_log(double)

define ptx_kernel void @doubleMath(ptr %in, ptr %out) !dbg !13 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %t to i64
  %a = getelementptr double, ptr %in, i64 %idx
  %x = load double, ptr %a
  %y = call fastcc double @__internal_accurate_pow(double %x)
  %o = getelementptr double, ptr %out, i64 %idx
  store double %y, ptr %o
  ret void
}
; REMARK-DAG: remark: calls.cu:{{.*}}: kernel 'doubleMath' can be regrouped at launch

define linkonce_odr float @_Z10polynomialIfET_S0_i(float %x, i32 %degree) {
  %d = sitofp i32 %degree to float
  %r = fmul float %x, %d
  ret float %r
}
define ptx_kernel void @templateHelper(ptr %out, float %x) !dbg !14 {
  %r = call float @_Z10polynomialIfET_S0_i(float %x, i32 3)
  store float %r, ptr %out
  ret void
}
; REMARK-DAG: remark: calls.cu:{{.*}}: kernel 'templateHelper' can be regrouped at launch

define i32 @globalId() {
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = mul i32 %c, %n
  %g = add i32 %b, %t
  ret i32 %g
}
define i32 @mix(i32 %x) {
  %g = call i32 @globalId()
  %y = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %a = xor i32 %x, %g
  %r = xor i32 %a, %y
  ret i32 %r
}
define ptx_kernel void @idHelpers(ptr %out) !dbg !15 {
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %m = call i32 @mix(i32 %ty)
  %g = call i32 @globalId()
  %idx = zext i32 %g to i64
  %o = getelementptr i32, ptr %out, i64 %idx
  store i32 %m, ptr %o
  ret void
}
; REMARK-DAG: remark: calls.cu:{{.*}}: kernel 'idHelpers' can be regrouped at launch: redirected clone idHelpers__divopt_redirect

define i32 @splits(i32 %x) {
entry:
  %small = icmp ule i32 %x, 1
  br i1 %small, label %leaf, label %split
leaf:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret i32 %t
split:
  %h = lshr i32 %x, 1
  %a = call i32 @splits(i32 %h)
  %th = udiv i32 %x, 3
  %b = call i32 @splits(i32 %th)
  %s = add i32 %a, %b
  ret i32 %s
}
define ptx_kernel void @recursion(ptr %out, i32 %x) !dbg !16 {
  %r = call i32 @splits(i32 %x)
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %t to i64
  %o = getelementptr i32, ptr %out, i64 %idx
  store i32 %r, ptr %o
  ret void
}
; REMARK-DAG: remark: calls.cu:{{.*}}: kernel 'recursion' can be regrouped at launch

; ---- refused, two calls deep ----

define i32 @shuffled(i32 %x) !dbg !20 {
  %r = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %x, i32 1, i32 31), !dbg !21
  ret i32 %r
}
define i32 @viaShuffle(i32 %x) !dbg !22 {
  %r = call i32 @shuffled(i32 %x), !dbg !23
  ret i32 %r
}
define ptx_kernel void @deepShuffle(ptr %p) !dbg !24 {
  %r = call i32 @viaShuffle(i32 1), !dbg !25
  store i32 %r, ptr %p
  ret void
}
; REMARK-DAG: remark: calls.cu:102:5: kernel 'deepShuffle' will not be regrouped: it calls viaShuffle at calls.cu:102, which calls shuffled at calls.cu:92, which at calls.cu:82 uses a warp shuffle (__shfl_*), which depends on how threads are grouped

; A shared function with an unredirected kernel: deepBarrier calls globalId
; and keeps calling the original.
define void @synced() !dbg !30 {
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !31
  ret void
}
define void @viaBarrier() !dbg !32 {
  call void @synced(), !dbg !33
  ret void
}
define ptx_kernel void @deepBarrier(ptr %out) !dbg !34 {
  %g = call i32 @globalId()
  store i32 %g, ptr %out
  call void @viaBarrier(), !dbg !35
  ret void
}
; REMARK-DAG: remark: calls.cu:132:5: kernel 'deepBarrier' will not be regrouped: it calls viaBarrier at calls.cu:132, which calls synced at calls.cu:122, which at calls.cu:112 uses a block-wide barrier (__syncthreads or a named barrier), which depends on how threads are grouped

define float @neighbour(i32 %i) !dbg !40 {
  %idx = zext i32 %i to i64
  %a = getelementptr [256 x float], ptr addrspace(3) @sharedTile, i64 0, i64 %idx, !dbg !41
  %v = load float, ptr addrspace(3) %a, !dbg !41
  ret float %v
}
define float @viaShared(i32 %i) !dbg !42 {
  %v = call float @neighbour(i32 %i), !dbg !43
  ret float %v
}
define ptx_kernel void @deepShared(ptr %p) !dbg !44 {
  %v = call float @viaShared(i32 3), !dbg !45
  store float %v, ptr %p
  ret void
}
; REMARK-DAG: remark: calls.cu:162:5: kernel 'deepShared' will not be regrouped: it calls viaShared at calls.cu:162, which calls neighbour at calls.cu:152, which at calls.cu:142 uses shared memory, which threads of one block share

define i32 @lane() !dbg !50 {
  %l = call i32 @llvm.nvvm.read.ptx.sreg.laneid(), !dbg !51
  ret i32 %l
}
define i32 @viaLane() !dbg !52 {
  %l = call i32 @lane(), !dbg !53
  ret i32 %l
}
define ptx_kernel void @deepLane(ptr %p) !dbg !54 {
  %l = call i32 @viaLane(), !dbg !55
  store i32 %l, ptr %p
  ret void
}
; REMARK-DAG: remark: calls.cu:192:5: kernel 'deepLane' will not be regrouped: it calls viaLane at calls.cu:192, which calls lane at calls.cu:182, which at calls.cu:172 uses %laneid, which depends on how threads are grouped

define i32 @twice(i32 %x) {
  %r = shl i32 %x, 1
  ret i32 %r
}
define i32 @thrice(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}
define ptx_kernel void @indirect(ptr %p, i1 %which) !dbg !60 {
  %f = select i1 %which, ptr @twice, ptr @thrice
  %r = call i32 %f(i32 5), !dbg !61
  store i32 %r, ptr %p
  ret void
}
; REMARK-DAG: remark: calls.cu:201:9: kernel 'indirect' will not be regrouped: it makes an indirect call, which divopt cannot see into

; A weak definition may be replaced at link time by one divopt has not seen.
define weak i32 @replaceable(i32 %x) {
  ret i32 %x
}
define ptx_kernel void @weakCall(ptr %p) !dbg !62 {
  %r = call i32 @replaceable(i32 1), !dbg !63
  store i32 %r, ptr %p
  ret void
}
; REMARK-DAG: remark: calls.cu:211:9: kernel 'weakCall' will not be regrouped: it calls replaceable, whose definition another translation unit may replace at link time

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; The verdict in the notes: the kernel's line, and the reason as remarked.
; CHECK: \22name\22:\22deepShuffle\22,\22params\22:1,\22regroup\22:{\22line\22:102,\22reason\22:\22it calls viaShuffle at calls.cu:102, which calls shuffled at calls.cu:92, which at calls.cu:82 uses a warp shuffle

; The originals are untouched.
; CHECK-LABEL: define i32 @globalId()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-LABEL: define i32 @mix(
; CHECK: call i32 @globalId()
; CHECK-LABEL: define i32 @splits(
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call i32 @splits(
; A refused kernel calls the original.
; CHECK-LABEL: define ptx_kernel void @deepBarrier(
; CHECK: call i32 @globalId()

; Helpers without id reads are called as they are; those with copy calls.
; CHECK-LABEL: define ptx_kernel void @loopHelper__divopt_redirect(
; CHECK: call float @weightedSum(ptr %p, i32 %n)
; CHECK-LABEL: define ptx_kernel void @doubleMath__divopt_redirect(
; CHECK: call fastcc double @__internal_accurate_pow(
; CHECK-LABEL: define ptx_kernel void @idHelpers__divopt_redirect(ptr %out, ptr addrspace(1) %divopt.redirect)
; CHECK: %m = call i32 @mix__divopt_ids(i32 %divopt.tid.y, i32 %divopt.tid.x, i32 %divopt.tid.y, i32 %divopt.tid.z, i32 %divopt.ctaid.x, i32 %divopt.ctaid.y, i32 %divopt.ctaid.z)
; CHECK-NEXT: %g = call i32 @globalId__divopt_ids(i32 %divopt.tid.x, i32 %divopt.tid.y, i32 %divopt.tid.z, i32 %divopt.ctaid.x, i32 %divopt.ctaid.y, i32 %divopt.ctaid.z)
; CHECK-LABEL: define internal i32 @mix__divopt_ids(i32 %x, i32 %divopt.tid.x, i32 %divopt.tid.y, i32 %divopt.tid.z, i32 %divopt.ctaid.x, i32 %divopt.ctaid.y, i32 %divopt.ctaid.z)
; CHECK-NEXT: %g = call i32 @globalId__divopt_ids(i32 %divopt.tid.x, i32 %divopt.tid.y, i32 %divopt.tid.z, i32 %divopt.ctaid.x, i32 %divopt.ctaid.y, i32 %divopt.ctaid.z)
; CHECK-NEXT: %a = xor i32 %x, %g
; CHECK-NEXT: %r = xor i32 %a, %divopt.ctaid.y
; CHECK-LABEL: define internal i32 @globalId__divopt_ids(i32 %divopt.tid.x, i32 %divopt.tid.y, i32 %divopt.tid.z, i32 %divopt.ctaid.x, i32 %divopt.ctaid.y, i32 %divopt.ctaid.z)
; CHECK-NEXT: %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT: %b = mul i32 %divopt.ctaid.x, %n
; CHECK-NEXT: %g = add i32 %b, %divopt.tid.x
; The profile and cost clones run unredirected and call the originals.
; CHECK-LABEL: define ptx_kernel void @idHelpers__divopt_cost(
; CHECK: call i32 @mix(i32
; CHECK: call i32 @globalId()
; A recursive helper calls its own copy.
; CHECK-LABEL: define ptx_kernel void @recursion__divopt_redirect(
; CHECK: call i32 @splits__divopt_ids(i32 %x, i32 %divopt.tid.x,
; CHECK-LABEL: define internal i32 @splits__divopt_ids(
; CHECK: ret i32 %divopt.tid.x
; CHECK: call i32 @splits__divopt_ids(i32 %h, i32 %divopt.tid.x,
; CHECK: call i32 @splits__divopt_ids(i32 %th, i32 %divopt.tid.x,
; No copy for kernels that were refused, or helpers that do not read ids.
; CHECK-NOT: define {{.*}}@deepBarrier__divopt_redirect
; CHECK-NOT: define {{.*}}__divopt_ids
; CHECK-NOT: define {{.*}}@weightedSum__
; CHECK-NOT: define {{.*}}@__internal_accurate_pow__

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "calls.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DISubroutineType(types: !{})
!10 = distinct !DISubprogram(name: "weightedSum", scope: !1, file: !1, line: 10, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!11 = distinct !DISubprogram(name: "loopHelper", scope: !1, file: !1, line: 20, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!12 = !DILocation(line: 21, column: 5, scope: !11)
!13 = distinct !DISubprogram(name: "doubleMath", scope: !1, file: !1, line: 30, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!14 = distinct !DISubprogram(name: "templateHelper", scope: !1, file: !1, line: 40, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!15 = distinct !DISubprogram(name: "idHelpers", scope: !1, file: !1, line: 50, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!16 = distinct !DISubprogram(name: "recursion", scope: !1, file: !1, line: 60, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!20 = distinct !DISubprogram(name: "shuffled", scope: !1, file: !1, line: 80, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!21 = !DILocation(line: 82, column: 5, scope: !20)
!22 = distinct !DISubprogram(name: "viaShuffle", scope: !1, file: !1, line: 90, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!23 = !DILocation(line: 92, column: 5, scope: !22)
!24 = distinct !DISubprogram(name: "deepShuffle", scope: !1, file: !1, line: 100, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!25 = !DILocation(line: 102, column: 5, scope: !24)
!30 = distinct !DISubprogram(name: "synced", scope: !1, file: !1, line: 110, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!31 = !DILocation(line: 112, column: 5, scope: !30)
!32 = distinct !DISubprogram(name: "viaBarrier", scope: !1, file: !1, line: 120, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!33 = !DILocation(line: 122, column: 5, scope: !32)
!34 = distinct !DISubprogram(name: "deepBarrier", scope: !1, file: !1, line: 130, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!35 = !DILocation(line: 132, column: 5, scope: !34)
!40 = distinct !DISubprogram(name: "neighbour", scope: !1, file: !1, line: 140, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!41 = !DILocation(line: 142, column: 5, scope: !40)
!42 = distinct !DISubprogram(name: "viaShared", scope: !1, file: !1, line: 150, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!43 = !DILocation(line: 152, column: 5, scope: !42)
!44 = distinct !DISubprogram(name: "deepShared", scope: !1, file: !1, line: 160, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!45 = !DILocation(line: 162, column: 5, scope: !44)
!50 = distinct !DISubprogram(name: "lane", scope: !1, file: !1, line: 170, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!51 = !DILocation(line: 172, column: 5, scope: !50)
!52 = distinct !DISubprogram(name: "viaLane", scope: !1, file: !1, line: 180, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!53 = !DILocation(line: 182, column: 5, scope: !52)
!54 = distinct !DISubprogram(name: "deepLane", scope: !1, file: !1, line: 190, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!55 = !DILocation(line: 192, column: 5, scope: !54)
!60 = distinct !DISubprogram(name: "indirect", scope: !1, file: !1, line: 200, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!61 = !DILocation(line: 201, column: 9, scope: !60)
!62 = distinct !DISubprogram(name: "weakCall", scope: !1, file: !1, line: 210, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!63 = !DILocation(line: 211, column: 9, scope: !62)
