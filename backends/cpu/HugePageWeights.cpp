//===- HugePageWeights.cpp - Ask the runtime for huge-page weights --------===//
// SPDX-License-Identifier: Apache-2.0
//
// The table is [n x {ptr, i64}] (TfaotWeightRange) of the module's large
// read-only constants; the flag is an i32 the runtime sets once the move is
// done (or was refused), so later runs pay one call and one load.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/HugePageWeights.h"

#include "tfaot/runtime/symbols.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace tfaot;

uint64_t cpu::addHugePageWeightsCall(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::LLVMContext &context = module.getContext();
  auto *i64 = llvm::Type::getInt64Ty(context);
  auto *i32 = llvm::Type::getInt32Ty(context);
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *rangeType = llvm::StructType::get(context, {ptr, i64});

  std::vector<llvm::Constant *> ranges;
  uint64_t listed = 0;
  for (llvm::GlobalVariable &global : module.globals()) {
    if (!global.isConstant() || !global.hasInitializer())
      continue;
    uint64_t bytes = layout.getTypeAllocSize(global.getValueType());
    if (bytes < kHugePageWeightMinBytes)
      continue;
    ranges.push_back(llvm::ConstantStruct::get(
        rangeType, {&global, llvm::ConstantInt::get(i64, bytes)}));
    listed += bytes;
  }
  if (listed < kHugePageModelMinBytes)
    return 0;

  std::vector<llvm::Function *> entries;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && function.hasExternalLinkage())
      entries.push_back(&function);
  if (entries.empty())
    return 0;

  auto *tableType = llvm::ArrayType::get(rangeType, ranges.size());
  auto *table = new llvm::GlobalVariable(
      module, tableType, /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(tableType, ranges), "tfaot_weight_ranges");
  // Written by the runtime, hence not constant; private, so each object
  // (each model linked into a program) has its own.
  auto *done = new llvm::GlobalVariable(
      module, i32, /*isConstant=*/false, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantInt::get(i32, 0), "tfaot_weights_moved");
  llvm::FunctionCallee callee = module.getOrInsertFunction(
      tfaot_rt::kWeightsOnHugePages,
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {i64, i64, i64},
                              /*isVarArg=*/false));
  for (llvm::Function *entry : entries) {
    llvm::IRBuilder<> builder(&*entry->getEntryBlock().getFirstInsertionPt());
    builder.CreateCall(callee, {builder.CreatePtrToInt(table, i64),
                                llvm::ConstantInt::get(i64, ranges.size()),
                                builder.CreatePtrToInt(done, i64)});
  }
  return listed;
}
