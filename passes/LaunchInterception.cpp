#include "LaunchInterception.h"
#include "Kernels.h"
#include "divopt/Abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace divopt {
namespace {

// Host stub -> the global holding the kernel's device-side name, from
// __cudaRegisterFunction(handle, stub, deviceFun, deviceName, ...), or with
// --offload-new-driver (which -fgpu-rdc builds use; the linker wrapper
// registers the kernels) from the offload entries {..., addr, name, ...}.
DenseMap<const Value *, Value *> registeredKernelNames(Module &M) {
  DenseMap<const Value *, Value *> Names;
  if (Function *Register = M.getFunction("__cudaRegisterFunction"))
    for (User *U : Register->users())
      if (auto *Call = dyn_cast<CallBase>(U); Call && Call->arg_size() >= 4)
        Names[Call->getArgOperand(1)->stripPointerCasts()] = Call->getArgOperand(3);
  for (GlobalVariable &G : M.globals()) {
    auto *Entry = G.hasInitializer() ? dyn_cast<ConstantStruct>(G.getInitializer()) : nullptr;
    if (!Entry || G.getSection() != "llvm_offload_entries" || Entry->getNumOperands() < 6)
      continue;
    if (auto *Stub = dyn_cast<Function>(Entry->getOperand(4)->stripPointerCasts()))
      Names[Stub] = Entry->getOperand(5);
  }
  return Names;
}

FunctionCallee launchEntry(Module &M, Function &Original, StringRef EntryName) {
  SmallVector<Type *, 9> Params(Original.getFunctionType()->params());
  Params.push_back(PointerType::get(M.getContext(), 0));
  auto *Ty = FunctionType::get(Original.getReturnType(), Params, false);
  return M.getOrInsertFunction(EntryName, Ty);
}

StringRef kernelNameOf(Value *NameGlobal) {
  if (auto *G = dyn_cast_or_null<GlobalVariable>(NameGlobal->stripPointerCasts()))
    if (auto *Data = dyn_cast_or_null<ConstantDataSequential>(G->getInitializer()))
      if (Data->isCString())
        return Data->getAsCString();
  return "";
}

void remark(CallBase &Call, StringRef Kernel) {
  OptimizationRemarkEmitter ORE(Call.getFunction());
  ORE.emit([&] {
    OptimizationRemark R("divopt", "LaunchIntercepted", &Call);
    if (Kernel.empty())
      R << "launch of an unregistered kernel goes through the divopt runtime (runs the original)";
    else
      R << "launch of kernel '" << demangledName(Kernel) << "' goes through the divopt runtime";
    return R;
  });
}

// A CUDA runtime launch function and the divopt entry that replaces it: the
// same arguments, then the kernel's name. Func is the argument holding the
// kernel's host stub.
struct LaunchApi {
  const char *Name;
  const char *Entry;
  unsigned Params;
  unsigned Func;
};

// The kernels launched in this module, by stub, with their name globals.
using LaunchedKernels = MapVector<Function *, Value *>;

unsigned rewriteCallsTo(Module &M, const LaunchApi &Api,
                        const DenseMap<const Value *, Value *> &Names, LaunchedKernels &Launched) {
  Function *Launch = M.getFunction(Api.Name);
  if (!Launch || Launch->arg_size() != Api.Params)
    return 0;
  FunctionCallee Entry = launchEntry(M, *Launch, Api.Entry);
  auto *NullName = ConstantPointerNull::get(PointerType::get(M.getContext(), 0));
  // Calls and invokes: a stub inlined into a function with cleanups (any
  // function holding a std::vector) launches through an invoke.
  SmallVector<CallBase *, 8> Calls;
  for (User *U : Launch->users())
    if (auto *Call = dyn_cast<CallBase>(U); Call && Call->getCalledOperand() == Launch)
      Calls.push_back(Call);
  for (CallBase *Call : Calls) {
    Value *Stub = Call->getArgOperand(Api.Func)->stripPointerCasts();
    Value *Name = Names.lookup(Stub);
    if (auto *StubFn = dyn_cast<Function>(Stub); StubFn && Name)
      Launched.insert({StubFn, Name});
    SmallVector<Value *, 9> Args(Call->args());
    Args.push_back(Name ? Name : NullName);
    CallBase *New;
    if (auto *Invoke = dyn_cast<InvokeInst>(Call))
      New = InvokeInst::Create(Entry, Invoke->getNormalDest(), Invoke->getUnwindDest(), Args, "",
                               Call->getIterator());
    else
      New = CallInst::Create(Entry, Args, "", Call->getIterator());
    New->setDebugLoc(Call->getDebugLoc());
    New->setAttributes(Call->getAttributes());
    New->takeName(Call);
    Call->replaceAllUsesWith(New);
    remark(*New, Name ? kernelNameOf(Name) : "");
    Call->eraseFromParent();
  }
  return Calls.size();
}

// A constructor that hands the runtime the module's launched kernels
// (abi::RegisterKernelsEntry) before main: in optimize mode it finds their
// notes and loads their clones while the program sets up, not at their
// first launch.
void registerLaunchedKernels(Module &M, const LaunchedKernels &Launched) {
  if (Launched.empty())
    return;
  LLVMContext &Ctx = M.getContext();
  PointerType *Ptr = PointerType::get(Ctx, 0);
  StructType *Entry = StructType::get(Ctx, {Ptr, Ptr});
  SmallVector<Constant *, 16> Entries;
  for (auto &[Stub, Name] : Launched)
    Entries.push_back(ConstantStruct::get(Entry, {Stub, cast<Constant>(Name)}));
  ArrayType *TableTy = ArrayType::get(Entry, Entries.size());
  auto *Table = new GlobalVariable(M, TableTy, /*isConstant=*/true, GlobalValue::PrivateLinkage,
                                   ConstantArray::get(TableTy, Entries),
                                   "__divopt_launched_kernels");
  FunctionCallee Register = M.getOrInsertFunction(
      abi::RegisterKernelsEntry, FunctionType::get(Type::getVoidTy(Ctx),
                                                   {Ptr, Type::getInt32Ty(Ctx)}, false));
  Function *Ctor = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                    GlobalValue::InternalLinkage, "__divopt_register_module", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  B.CreateCall(Register, {Table, B.getInt32(Entries.size())});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, /*Priority=*/65535);
}

} // namespace

unsigned interceptLaunches(Module &M) {
  // The <<<>>> launches, cudaLaunchKernelEx (whose template calls the C
  // function, with a cudaLaunchConfig_t) and cooperative launches, each with
  // its per-thread default stream variant (--default-stream per-thread).
  // In IR a dim3 argument is an i64 and an i32.
  static const LaunchApi Apis[] = {
      {"cudaLaunchKernel", abi::LaunchEntry, 8, 0},
      {"cudaLaunchKernel_ptsz", abi::LaunchEntryPtsz, 8, 0},
      {"cudaLaunchKernelExC", abi::LaunchExEntry, 3, 1},
      {"cudaLaunchKernelExC_ptsz", abi::LaunchExEntryPtsz, 3, 1},
      {"cudaLaunchCooperativeKernel", abi::LaunchCooperativeEntry, 8, 0},
      {"cudaLaunchCooperativeKernel_ptsz", abi::LaunchCooperativeEntryPtsz, 8, 0}};
  auto Names = registeredKernelNames(M);
  unsigned Rewritten = 0;
  LaunchedKernels Launched;
  for (const LaunchApi &Api : Apis)
    Rewritten += rewriteCallsTo(M, Api, Names, Launched);
  registerLaunchedKernels(M, Launched);
  return Rewritten;
}

} // namespace divopt
