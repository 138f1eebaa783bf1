; Notes give each block's longest chain of dependent instructions
; ("critical_path"), part of its mix, picked by the built-in sm_90 table's
; medians. In @load_chain a load feeding two float adds and a store (about
; 34 + 2 x 4 + 9 cycles) outweighs six dependent integer adds and their
; store (6 x 5 + 9); in @add_chain twelve adds (12 x 5 + 9) outweigh it.
; Independent instructions (the other chain) are in the mix, not the path.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @load_chain(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %x = load float, ptr addrspace(1) %in
  %x1 = fadd float %x, 1.0
  %x2 = fadd float %x1, 2.0
  store float %x2, ptr addrspace(1) %out
  %n1 = add i32 %n, 1
  %n2 = add i32 %n1, 2
  %n3 = add i32 %n2, 3
  %n4 = add i32 %n3, 4
  %n5 = add i32 %n4, 5
  %n6 = add i32 %n5, 6
  %o2 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 1
  store i32 %n6, ptr addrspace(1) %o2
  ret void
}

define ptx_kernel void @add_chain(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %x = load float, ptr addrspace(1) %in
  %x1 = fadd float %x, 1.0
  %x2 = fadd float %x1, 2.0
  store float %x2, ptr addrspace(1) %out
  %n1 = add i32 %n, 1
  %n2 = add i32 %n1, 2
  %n3 = add i32 %n2, 3
  %n4 = add i32 %n3, 4
  %n5 = add i32 %n4, 5
  %n6 = add i32 %n5, 6
  %n7 = add i32 %n6, 7
  %n8 = add i32 %n7, 8
  %n9 = add i32 %n8, 9
  %n10 = add i32 %n9, 10
  %n11 = add i32 %n10, 11
  %n12 = add i32 %n11, 12
  %o2 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 1
  store i32 %n12, ptr addrspace(1) %o2
  ret void
}

; CHECK:            "critical_path": {
; CHECK-NEXT:         "add.f32": 2,
; CHECK-NEXT:         "ld.global": 1,
; CHECK-NEXT:         "st.global": 1
; CHECK-NEXT:       },
; CHECK:            "mix": {
; CHECK-NEXT:         "add.f32": 2,
; CHECK-NEXT:         "add.s32": 6,
; CHECK-NEXT:         "ld.global": 1,
; CHECK-NEXT:         "ret": 1,
; CHECK-NEXT:         "st.global": 2
; CHECK-NEXT:       },
; CHECK:        "name": "load_chain",

; CHECK:            "critical_path": {
; CHECK-NEXT:         "add.s32": 12,
; CHECK-NEXT:         "st.global": 1
; CHECK-NEXT:       },
; CHECK:        "name": "add_chain",
