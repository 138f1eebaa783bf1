; A call to a device function the module defines (left out of line, as
; __noinline__ leaves it) counts as the callee's body in the caller's mix and
; critical path: each callee block once, calls inside expanded the same way.
; A libdevice call (__nv_sinf) stays a call key; a recursive call stays a
; call where it recurses. The profile counts the kernel's blocks only.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define internal double @step(double %e) noinline {
entry:
  %s = fmul double %e, %e
  %c = fcmp olt double %s, 1.0
  br i1 %c, label %small, label %big

small:
  %q = fdiv double %s, 3.0
  br label %out

big:
  %h = call double @half(double %s)
  br label %out

out:
  %r = phi double [ %q, %small ], [ %h, %big ]
  ret double %r
}

define internal double @half(double %x) noinline {
  %h = fmul double %x, 0.5
  %f = call float @__nv_sinf(float 1.0)
  %r = call double @half(double %h)
  ret double %r
}

define ptx_kernel void @loop(ptr addrspace(1) %a, i32 %n) {
entry:
  br label %body

body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %e = phi double [ 1.0, %entry ], [ %v, %body ]
  %v = call double @step(double %e)
  %next = add i32 %i, 1
  %c = icmp ult i32 %next, %n
  br i1 %c, label %body, label %done

done:
  store double %v, ptr addrspace(1) %a
  ret void
}

declare float @__nv_sinf(float)

; The loop's block: its own add, compare and branch; step's four blocks
; (its three branches, the division, the compare, the return) and
; half's body (a multiply, sinf, the return), where half's call to itself
; stays a call. step's own multiply makes two.
; CHECK:            "name": "entry",
; CHECK:            "critical_path": {
; CHECK-NEXT:         "bra": 1,
; CHECK-NEXT:         "call.sinf": 1,
; CHECK-NEXT:         "div.f64": 1,
; CHECK-NEXT:         "mul.f64": 1,
; CHECK-NEXT:         "ret": 1,
; CHECK-NEXT:         "setp.f64": 1
; CHECK-NEXT:       },
; CHECK:            "id": 1,
; CHECK:            "mix": {
; CHECK-NEXT:         "add.s32": 1,
; CHECK-NEXT:         "bra": 4,
; CHECK-NEXT:         "call.half": 1,
; CHECK-NEXT:         "call.sinf": 1,
; CHECK-NEXT:         "div.f64": 1,
; CHECK-NEXT:         "mul.f64": 2,
; CHECK-NEXT:         "ret": 2,
; CHECK-NEXT:         "setp.f64": 1,
; CHECK-NEXT:         "setp.u32": 1
; CHECK-NEXT:       },
; CHECK-NEXT:       "name": "body",
