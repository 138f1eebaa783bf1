#include "ThreadIndex.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace divopt {
namespace {

Dim3Values read(IRBuilder<> &B, Intrinsic::ID X, Intrinsic::ID Y, Intrinsic::ID Z) {
  return {B.CreateIntrinsic(X, {}), B.CreateIntrinsic(Y, {}), B.CreateIntrinsic(Z, {})};
}

} // namespace

Dim3Values readTid(IRBuilder<> &B) {
  return read(B, Intrinsic::nvvm_read_ptx_sreg_tid_x, Intrinsic::nvvm_read_ptx_sreg_tid_y,
              Intrinsic::nvvm_read_ptx_sreg_tid_z);
}
Dim3Values readNtid(IRBuilder<> &B) {
  return read(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x, Intrinsic::nvvm_read_ptx_sreg_ntid_y,
              Intrinsic::nvvm_read_ptx_sreg_ntid_z);
}
Dim3Values readCtaid(IRBuilder<> &B) {
  return read(B, Intrinsic::nvvm_read_ptx_sreg_ctaid_x, Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
              Intrinsic::nvvm_read_ptx_sreg_ctaid_z);
}
Dim3Values readNctaid(IRBuilder<> &B) {
  return read(B, Intrinsic::nvvm_read_ptx_sreg_nctaid_x, Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
              Intrinsic::nvvm_read_ptx_sreg_nctaid_z);
}

std::optional<ThreadRegister> threadRegisterRead(const Value *V) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  if (!II)
    return std::nullopt;
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
    return ThreadRegister::Tid;
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    return ThreadRegister::Ntid;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    return ThreadRegister::Ctaid;
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return ThreadRegister::Nctaid;
  default:
    return std::nullopt;
  }
}

Dim3Values zext64(IRBuilder<> &B, Dim3Values V) {
  return {B.CreateZExt(V.X, B.getInt64Ty()), B.CreateZExt(V.Y, B.getInt64Ty()),
          B.CreateZExt(V.Z, B.getInt64Ty())};
}

Value *linearize(IRBuilder<> &B, Dim3Values I, Dim3Values N) {
  return B.CreateAdd(B.CreateMul(B.CreateAdd(B.CreateMul(I.Z, N.Y), I.Y), N.X), I.X);
}

Value *volume(IRBuilder<> &B, Dim3Values N) { return B.CreateMul(B.CreateMul(N.X, N.Y), N.Z); }

Dim3Values delinearize(IRBuilder<> &B, Value *L, Dim3Values N, const Twine &Name) {
  Value *X = B.CreateURem(L, N.X, Name + ".x");
  Value *Rest = B.CreateUDiv(L, N.X);
  Value *Y = B.CreateURem(Rest, N.Y, Name + ".y");
  Value *Z = B.CreateUDiv(Rest, N.Y, Name + ".z");
  return {X, Y, Z};
}

ThreadGeometry emitThreadGeometry(IRBuilder<> &B) {
  Dim3Values Ntid = zext64(B, readNtid(B)), Nctaid = zext64(B, readNctaid(B));
  Value *Tid = linearize(B, zext64(B, readTid(B)), Ntid);
  Value *Cta = linearize(B, zext64(B, readCtaid(B)), Nctaid);
  Value *BlockThreads = volume(B, Ntid);
  return {B.CreateAdd(B.CreateMul(Cta, BlockThreads), Tid, "divopt.gtid"),
          B.CreateMul(volume(B, Nctaid), BlockThreads, "divopt.nthreads"), Cta};
}

} // namespace divopt
