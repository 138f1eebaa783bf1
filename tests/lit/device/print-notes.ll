; divopt-print-notes: blocks in layout order, successors by number, the
; instruction mix per latency-table key, and which blocks end in a
; conditional branch. It changes nothing.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @mix(ptr addrspace(1) %a, ptr addrspace(3) %s, i32 %n) {
entry:
  %x = load i32, ptr addrspace(1) %a
  %c = icmp ult i32 %x, %n
  br i1 %c, label %then, label %done

then:
  %d = udiv i32 %x, 7
  %f = uitofp i32 %d to float
  %r = call float @llvm.sqrt.f32(float %f)
  %m = call float @llvm.fma.f32(float %r, float %r, float 1.0)
  %e = call float @__nv_sinf(float %m)
  store float %e, ptr addrspace(3) %s
  br label %done

done:
  ret void
}

declare float @llvm.sqrt.f32(float)
declare float @llvm.fma.f32(float, float, float)
declare float @__nv_sinf(float)

; CHECK:      "kernels": [
; CHECK:        "blocks": [
; CHECK:            "id": 0,
; CHECK:            "mix": {
; CHECK-NEXT:         "bra": 1,
; CHECK-NEXT:         "ld.global": 1,
; CHECK-NEXT:         "setp.u32": 1
; CHECK-NEXT:       },
; CHECK-NEXT:       "name": "entry",
; CHECK-NEXT:       "predictable": true,
; CHECK-NEXT:       "succ": [
; CHECK-NEXT:         1,
; CHECK-NEXT:         2
; CHECK-NEXT:       ]
; CHECK:            "id": 1,
; CHECK:            "mix": {
; CHECK-NEXT:         "bra": 1,
; CHECK-NEXT:         "call.sinf": 1,
; CHECK-NEXT:         "cvt.f32.u32": 1,
; CHECK-NEXT:         "div.u32": 1,
; CHECK-NEXT:         "fma.f32": 1,
; CHECK-NEXT:         "sqrt.f32": 1,
; CHECK-NEXT:         "st.shared": 1
; CHECK-NEXT:       },
; CHECK-NEXT:       "name": "then",
; CHECK:            "id": 2,
; CHECK:            "mix": {
; CHECK-NEXT:         "ret": 1
; CHECK-NEXT:       },
; CHECK:        "branches": [
; CHECK-NEXT:     0
; CHECK-NEXT:   ],
; CHECK:        "name": "mix",
; CHECK-NEXT:   "params": 3
; CHECK:      "version": 2
