#include "InstructionMix.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#include <algorithm>

using namespace llvm;

namespace divopt {
namespace {

// PTX type suffix of an IR type: f16/f32/f64, pred for i1, <s|u|b><bits>.
std::string typeSuffix(Type *T, char IntKind) {
  T = T->getScalarType();
  if (T->isHalfTy() || T->isBFloatTy())
    return T->isHalfTy() ? "f16" : "bf16";
  if (T->isFloatTy())
    return "f32";
  if (T->isDoubleTy())
    return "f64";
  if (T->isIntegerTy(1))
    return "pred";
  if (T->isIntegerTy()) { // odd widths (i33) live in the next PTX register size
    unsigned Bits = T->getIntegerBitWidth();
    return IntKind + std::to_string(Bits <= 16 ? 16 : Bits <= 32 ? 32 : Bits <= 64 ? 64 : 128);
  }
  if (T->isPointerTy())
    return "u64";
  return "b32";
}

std::string spaceName(unsigned AddrSpace) {
  switch (AddrSpace) {
  case 1: return "global";
  case 3: return "shared";
  case 4: return "const";
  case 5: return "local";
  default: return "generic";
  }
}

std::string binaryKey(const BinaryOperator &B) {
  Type *T = B.getType();
  switch (B.getOpcode()) {
  case Instruction::Add: case Instruction::FAdd: return "add." + typeSuffix(T, 's');
  case Instruction::Sub: case Instruction::FSub: return "sub." + typeSuffix(T, 's');
  case Instruction::Mul: case Instruction::FMul: return "mul." + typeSuffix(T, 's');
  case Instruction::FDiv: case Instruction::SDiv: return "div." + typeSuffix(T, 's');
  case Instruction::UDiv: return "div." + typeSuffix(T, 'u');
  case Instruction::FRem: case Instruction::SRem: return "rem." + typeSuffix(T, 's');
  case Instruction::URem: return "rem." + typeSuffix(T, 'u');
  case Instruction::Shl: return "shl." + typeSuffix(T, 'b');
  case Instruction::LShr: return "shr." + typeSuffix(T, 'u');
  case Instruction::AShr: return "shr." + typeSuffix(T, 's');
  case Instruction::And: return "and." + typeSuffix(T, 'b');
  case Instruction::Or: return "or." + typeSuffix(T, 'b');
  case Instruction::Xor: return "xor." + typeSuffix(T, 'b');
  default: return std::string("op.") + B.getOpcodeName();
  }
}

std::string castKey(const CastInst &C) {
  char Src = 's', Dst = 's';
  switch (C.getOpcode()) {
  case Instruction::ZExt: case Instruction::UIToFP: Src = 'u'; break;
  case Instruction::FPToUI: Dst = 'u'; break;
  default: break;
  }
  return "cvt." + typeSuffix(C.getDestTy(), Dst) + "." + typeSuffix(C.getSrcTy(), Src);
}

std::optional<std::string> intrinsicKey(const IntrinsicInst &II) {
  Type *T = II.getType();
  switch (II.getIntrinsicID()) {
  case Intrinsic::fma: case Intrinsic::fmuladd: return "fma." + typeSuffix(T, 's');
  case Intrinsic::sqrt: return "sqrt." + typeSuffix(T, 's');
  case Intrinsic::fabs: case Intrinsic::abs: return "abs." + typeSuffix(T, 's');
  case Intrinsic::minnum: case Intrinsic::minimum: case Intrinsic::smin: return "min." + typeSuffix(T, 's');
  case Intrinsic::maxnum: case Intrinsic::maximum: case Intrinsic::smax: return "max." + typeSuffix(T, 's');
  case Intrinsic::umin: return "min." + typeSuffix(T, 'u');
  case Intrinsic::umax: return "max." + typeSuffix(T, 'u');
  case Intrinsic::ctpop: return "popc." + typeSuffix(T, 'b');
  case Intrinsic::ctlz: return "clz." + typeSuffix(T, 'b');
  case Intrinsic::memcpy: case Intrinsic::memset: case Intrinsic::memmove: return "call.memcpy";
  default: break;
  }
  if (II.isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(II))
    return std::nullopt;
  StringRef Name = II.getCalledFunction()->getName();
  // Special-register reads (tid, ctaid, ...) are moves from a register file.
  if (Name.starts_with("llvm.nvvm.read.ptx.sreg."))
    return std::string("mov.sreg");
  Name.consume_front("llvm.");
  Name.consume_front("nvvm.");
  return Name.str();
}

std::string callKey(const CallBase &Call) {
  if (const Function *Callee = Call.getCalledFunction()) {
    StringRef Name = Callee->getName();
    Name.consume_front("__nv_"); // libdevice: __nv_sinf -> sinf
    return ("call." + Name).str();
  }
  return "call.indirect";
}

} // namespace

std::optional<std::string> latencyKey(const Instruction &I) {
  if (auto *B = dyn_cast<BinaryOperator>(&I))
    return binaryKey(*B);
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return intrinsicKey(*II);
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (Call->isInlineAsm())
      return std::string("asm");
    return callKey(*Call);
  }
  if (auto *L = dyn_cast<LoadInst>(&I))
    return "ld." + spaceName(L->getPointerAddressSpace());
  if (auto *S = dyn_cast<StoreInst>(&I))
    return "st." + spaceName(S->getPointerAddressSpace());
  if (auto *A = dyn_cast<AtomicRMWInst>(&I))
    return "atom." + spaceName(A->getPointerAddressSpace());
  if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
    return "atom." + spaceName(X->getPointerAddressSpace());
  if (auto *C = dyn_cast<CmpInst>(&I)) {
    char Kind = isa<ICmpInst>(C) && cast<ICmpInst>(C)->isUnsigned() ? 'u' : 's';
    return "setp." + typeSuffix(C->getOperand(0)->getType(), Kind);
  }
  if (isa<SelectInst>(I))
    return "selp." + typeSuffix(I.getType(), 'b');
  if (isa<UnaryOperator>(I))
    return "neg." + typeSuffix(I.getType(), 's');
  if (isa<AddrSpaceCastInst>(I))
    return std::string("cvta");
  if (auto *C = dyn_cast<CastInst>(&I)) {
    if (C->isNoopCast(I.getDataLayout()))
      return std::nullopt;
    return castKey(*C);
  }
  if (auto *G = dyn_cast<GetElementPtrInst>(&I))
    return G->hasAllConstantIndices() ? std::nullopt : std::optional<std::string>("mad.s64");
  if (isa<BranchInst>(I) || isa<SwitchInst>(I))
    return std::string("bra");
  if (isa<ReturnInst>(I))
    return std::string("ret");
  if (isa<ExtractElementInst>(I) || isa<InsertElementInst>(I) || isa<ShuffleVectorInst>(I) ||
      isa<ExtractValueInst>(I) || isa<InsertValueInst>(I))
    return std::string("mov");
  return std::nullopt; // phi, alloca, freeze, unreachable, fence: no cost of their own
}

const Function *expandedCallee(const Instruction &I, const std::vector<const Function *> &InBody) {
  auto *Call = dyn_cast<CallBase>(&I);
  if (!Call || isa<IntrinsicInst>(I) || Call->isInlineAsm())
    return nullptr;
  const Function *F = Call->getCalledFunction();
  if (!F || F->isDeclaration() || F->getName().starts_with("__nv_") ||
      std::find(InBody.begin(), InBody.end(), F) != InBody.end())
    return nullptr;
  return F;
}

namespace {

void addMix(const BasicBlock &BB, std::vector<const Function *> &InBody,
            std::map<std::string, unsigned> &Mix) {
  for (const Instruction &I : BB) {
    if (const Function *F = expandedCallee(I, InBody)) {
      InBody.push_back(F);
      for (const BasicBlock &Inner : *F)
        addMix(Inner, InBody, Mix);
      InBody.pop_back();
    } else if (auto Key = latencyKey(I)) {
      ++Mix[*Key];
    }
  }
}

} // namespace

std::map<std::string, unsigned> instructionMix(const BasicBlock &BB) {
  std::map<std::string, unsigned> Mix;
  std::vector<const Function *> InBody{BB.getParent()};
  addMix(BB, InBody, Mix);
  return Mix;
}

} // namespace divopt
