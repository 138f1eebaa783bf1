; Host job: every cudaLaunchKernel, called or invoked, goes through the
; runtime's launch entry with the kernel's device-side name, taken from
; __cudaRegisterFunction; a launch of an unregistered pointer passes null.
; cudaLaunchKernelExC (the kernel its second argument) and
; cudaLaunchCooperativeKernel go to entries of their own. With
; --offload-new-driver (-fgpu-rdc) the names come from the offload entries.
; A constructor registers each launched kernel once, stub and name, so the
; runtime can prepare it before its first launch; the pointer launch is not
; among them.
; REQUIRES: llvm-tools
; RUN: %opt -load-pass-plugin=%plugin -passes=divopt-instrument -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@name = private constant [7 x i8] c"_Z1kPi\00"
@rdcName = internal constant [9 x i8] c"_Z3rdcPi\00"
@.offloading.entry._Z3rdcPi = weak constant { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr } { i64 0, i16 1, i16 2, i32 0, ptr @_Z18__device_stub__rdcPi, ptr @rdcName, i64 0, i64 0, ptr null }, section "llvm_offload_entries"

define void @_Z16__device_stub__kPi(ptr %p) {
  %r = call i32 @cudaLaunchKernel(ptr @_Z16__device_stub__kPi, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null)
  ret void
}

define void @viaPointer(ptr %f) personality ptr @__gxx_personality_v0 {
  %r = invoke i32 @cudaLaunchKernel(ptr %f, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null)
          to label %ok unwind label %lp
ok:
  ret void
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

define void @_Z18__device_stub__rdcPi(ptr %p) {
  %r = call i32 @cudaLaunchKernel(ptr @_Z18__device_stub__rdcPi, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null)
  ret void
}

define void @launchEx(ptr %config, ptr %args) {
  %r = call i32 @cudaLaunchKernelExC(ptr %config, ptr @_Z16__device_stub__kPi, ptr %args)
  %s = call i32 @cudaLaunchKernelExC_ptsz(ptr %config, ptr @_Z16__device_stub__kPi, ptr %args)
  ret void
}

define void @cooperative(ptr %args) {
  %r = call i32 @cudaLaunchCooperativeKernel(ptr @_Z16__device_stub__kPi, i64 1, i32 1, i64 32, i32 1, ptr %args, i64 0, ptr null)
  %s = call i32 @cudaLaunchCooperativeKernel_ptsz(ptr @_Z16__device_stub__kPi, i64 1, i32 1, i64 32, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

define void @register(ptr %h) {
  %r = call i32 @__cudaRegisterFunction(ptr %h, ptr @_Z16__device_stub__kPi, ptr @name, ptr @name, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @cudaLaunchKernelExC(ptr, ptr, ptr)
declare i32 @cudaLaunchKernelExC_ptsz(ptr, ptr, ptr)
declare i32 @cudaLaunchCooperativeKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @cudaLaunchCooperativeKernel_ptsz(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
declare i32 @__gxx_personality_v0(...)

; CHECK: @__divopt_launched_kernels = private constant [2 x { ptr, ptr }] [{ ptr, ptr } { ptr @_Z16__device_stub__kPi, ptr @name }, { ptr, ptr } { ptr @_Z18__device_stub__rdcPi, ptr @rdcName }]
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__divopt_register_module, ptr null }]
; CHECK-LABEL: define void @_Z16__device_stub__kPi
; CHECK: call i32 @__divopt_launch_kernel(ptr @_Z16__device_stub__kPi, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null, ptr @name)
; CHECK-LABEL: define void @viaPointer
; CHECK: invoke i32 @__divopt_launch_kernel(ptr %f, {{.*}}, ptr null)
; CHECK-NEXT: to label %ok unwind label %lp
; CHECK-LABEL: define void @_Z18__device_stub__rdcPi
; CHECK: call i32 @__divopt_launch_kernel(ptr @_Z18__device_stub__rdcPi, {{.*}}, ptr @rdcName)
; CHECK-LABEL: define void @launchEx
; CHECK: call i32 @__divopt_launch_kernel_ex(ptr %config, ptr @_Z16__device_stub__kPi, ptr %args, ptr @name)
; CHECK: call i32 @__divopt_launch_kernel_ex_ptsz(ptr %config, ptr @_Z16__device_stub__kPi, ptr %args, ptr @name)
; CHECK-LABEL: define void @cooperative
; CHECK: call i32 @__divopt_launch_cooperative_kernel(ptr @_Z16__device_stub__kPi, {{.*}}, ptr @name)
; CHECK: call i32 @__divopt_launch_cooperative_kernel_ptsz(ptr @_Z16__device_stub__kPi, {{.*}}, ptr @name)
; CHECK-NOT: call i32 @cudaLaunch
; CHECK: declare i32 @__divopt_launch_kernel(ptr, i64, i32, i64, i32, ptr, i64, ptr, ptr)
; CHECK-LABEL: define internal void @__divopt_register_module()
; CHECK-NEXT: call void @__divopt_register_kernels(ptr @__divopt_launched_kernels, i32 2)
; CHECK-NEXT: ret void
