#include "FeatureExpr.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace divopt {
namespace {

const Value *stripCasts(const Value *V) {
  while (auto *C = dyn_cast<CastInst>(V))
    V = C->getOperand(0);
  return V;
}

bool isSreg(const Value *V, Intrinsic::ID Id) {
  auto *II = dyn_cast<IntrinsicInst>(stripCasts(V));
  return II && II->getIntrinsicID() == Id;
}

// blockIdx.x * blockDim.x + threadIdx.x, in any operand order.
bool isLinearTid(const Value *V) {
  const Value *A, *B, *C, *D;
  if (!match(stripCasts(V), m_c_Add(m_Value(A), m_Value(B))))
    return false;
  auto IsBase = [](const Value *M, const Value *&X, const Value *&Y) {
    return match(stripCasts(M), m_c_Mul(m_Value(X), m_Value(Y))) &&
           ((isSreg(X, Intrinsic::nvvm_read_ptx_sreg_ctaid_x) &&
             isSreg(Y, Intrinsic::nvvm_read_ptx_sreg_ntid_x)) ||
            (isSreg(Y, Intrinsic::nvvm_read_ptx_sreg_ctaid_x) &&
             isSreg(X, Intrinsic::nvvm_read_ptx_sreg_ntid_x)));
  };
  return (IsBase(A, C, D) && isSreg(B, Intrinsic::nvvm_read_ptx_sreg_tid_x)) ||
         (IsBase(B, C, D) && isSreg(A, Intrinsic::nvvm_read_ptx_sreg_tid_x));
}

std::string sregName(const IntrinsicInst &II) {
  StringRef Name = II.getCalledFunction()->getName(); // llvm.nvvm.read.ptx.sreg.ctaid.x
  if (!Name.consume_front("llvm.nvvm.read.ptx.sreg."))
    return "?";
  auto [Reg, Dim] = Name.split('.');
  const char *Cuda = Reg == "tid"     ? "threadIdx"
                     : Reg == "ctaid" ? "blockIdx"
                     : Reg == "ntid"  ? "blockDim"
                     : Reg == "nctaid" ? "gridDim"
                                       : nullptr;
  return Cuda ? std::string(Cuda) + "." + Dim.str() : "%" + Reg.str();
}

int precedence(const Value *V) {
  auto *B = dyn_cast<BinaryOperator>(stripCasts(V));
  if (!B || isLinearTid(V))
    return 9;
  switch (B->getOpcode()) {
  case Instruction::Mul:
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
  case Instruction::FMul:
  case Instruction::FDiv:
    return 3;
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::FAdd:
  case Instruction::FSub:
    return 2;
  default:
    return 1;
  }
}

const char *opText(unsigned Opcode) {
  switch (Opcode) {
  case Instruction::Add: case Instruction::FAdd: return " + ";
  case Instruction::Sub: case Instruction::FSub: return " - ";
  case Instruction::Mul: case Instruction::FMul: return " * ";
  case Instruction::UDiv: case Instruction::SDiv: case Instruction::FDiv: return " / ";
  case Instruction::URem: case Instruction::SRem: return " % ";
  case Instruction::Shl: return " << ";
  case Instruction::LShr: case Instruction::AShr: return " >> ";
  case Instruction::And: return " & ";
  case Instruction::Or: return " | ";
  case Instruction::Xor: return " ^ ";
  default: return " ? ";
  }
}

std::string render(const Value *V, unsigned Depth) {
  V = stripCasts(V);
  if (Depth > 8)
    return "...";
  if (isLinearTid(V))
    return "tid";
  if (auto *C = dyn_cast<ConstantInt>(V))
    return std::to_string(C->getSExtValue());
  if (auto *A = dyn_cast<Argument>(V))
    return paramName(*A);
  if (auto *II = dyn_cast<IntrinsicInst>(V))
    return sregName(*II);
  if (auto *B = dyn_cast<BinaryOperator>(V)) {
    int Mine = precedence(B);
    auto Side = [&](const Value *Op) {
      std::string Text = render(Op, Depth + 1);
      return precedence(Op) < Mine ? "(" + Text + ")" : Text;
    };
    return Side(B->getOperand(0)) + opText(B->getOpcode()) + Side(B->getOperand(1));
  }
  return "?";
}

} // namespace

std::string paramName(const Argument &A) {
  return A.hasName() ? A.getName().str() : "param" + std::to_string(A.getArgNo());
}

std::string loadText(const LoadInst &L) {
  const DataLayout &DL = L.getModule()->getDataLayout();
  unsigned Bits = DL.getIndexTypeSizeInBits(L.getPointerOperandType());
  SmallMapVector<Value *, APInt, 4> Terms;
  APInt Offset(Bits, 0);
  const Value *P = L.getPointerOperand();
  for (;;) {
    P = P->stripPointerCasts();
    auto *G = dyn_cast<GEPOperator>(P);
    if (!G || !G->collectOffset(DL, Bits, Terms, Offset))
      break;
    P = G->getPointerOperand();
  }
  std::string Base = isa<Argument>(P) ? paramName(*cast<Argument>(P)) : "?";
  int64_t Size = DL.getTypeStoreSize(L.getType()).getFixedValue();
  std::string Index;
  auto Append = [&](std::string Term, bool Negative) {
    if (Index.empty())
      Index = Negative ? "-" + Term : Term;
    else
      Index += (Negative ? " - " : " + ") + Term;
  };
  for (auto &[V, Scale] : Terms) {
    int64_t S = Scale.getSExtValue();
    std::string Text = render(V, 0);
    if (S % Size != 0)
      return "*(" + Base + " + bytes)"; // not in whole elements
    int64_t K = std::abs(S / Size);
    Append(K == 1 ? Text : (precedence(V) < 3 ? "(" + Text + ")" : Text) + " * " + std::to_string(K),
           S < 0);
  }
  int64_t C = Offset.getSExtValue();
  if (C % Size != 0)
    return "*(" + Base + " + bytes)";
  if (C != 0 || Index.empty())
    Append(std::to_string(std::abs(C / Size)), C < 0);
  return Base + "[" + Index + "]";
}

} // namespace divopt
