//===- ConstantsToGlobals.cpp - Tensor constants as memref globals --------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-constants-to-globals{alignment=A max-users=N}: each tensor-typed
// arith.constant becomes a read of a private constant memref.global holding
// its value (memref.get_global, then bufferization.to_tensor restrict), one
// global per distinct value, named and placed as one-shot-bufferize names
// and places the globals it makes for constants: "__constant_<shape>x<element
// type>", made unique with the symbol table's _0, _1, ... suffixes, each new
// one at the top of the module. The users of one constant in its block keep
// its read for the first N of them (block order); each further run of N
// gets a read of its own before the run's first user. Run right before
// one-shot-bufferize; with no constant used more than N times in a block,
// the bufferized IR is the same as without the pass.
//
// Why, twice over (bench/results/2026-11-28-devvm-compile-scaling-3.md):
// - one-shot-bufferize finds the global of each constant it bufferizes by
//   scanning every operation at the top of the module for one with an equal
//   value (bufferization::getGlobalFor): quadratic in the number of distinct
//   constants. A 100k-node graph whose constants are 37,000 distinct values
//   (as a model's weights are) spent about 24 of its 26 s of
//   one-shot-bufferize in that scan. Here each value is looked up in a hash
//   map, once.
// - CSE merges equal constants, so in the scaling benchmark (values that
//   repeat every 97 blocks) each of 186 constants feeds about 215 fused
//   generics, and the analysis walks all uses of a constant for every
//   in-place decision that reads it: 7.9 s of CPU at 100k. Each read's
//   cost grows with the square of its users, so a bound of N makes the
//   pass linear but N times dearer per use than one user a read: at 64 the
//   benchmark's one-shot-bufferize still grew 30x from 10k to 100k nodes
//   (constants reach 64 users between 10k and 30k) and took about 2 s at
//   100k; at 8, about 0.8 s, growing with the graph
//   (bench/results/2026-11-28-devvm-compile-scaling-5.md). Smaller bounds
//   gained nothing more and add reads. A read more changes the bufferized
//   IR, not the object: LLVM merges the global's addresses.
//
// A constant read through to_tensor is not writable, as the constant was
// not: a write into it still gets a copy. A further read of a global costs
// nothing at run time: it is the global's address.
//
//===----------------------------------------------------------------------===//
#include "passes/ConstantsToGlobals.h"
#include "passes/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace {

/// "__constant_2x3xf32" for tensor<2x3xf32>, "__constant_xf32" for a scalar.
std::string globalNameFor(RankedTensorType type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "__constant_";
  llvm::interleave(type.getShape(), os, "x");
  os << "x" << type.getElementType();
  return name;
}

struct ConstantsToGlobalsPass
    : PassWrapper<ConstantsToGlobalsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConstantsToGlobalsPass)

  ConstantsToGlobalsPass() = default;
  ConstantsToGlobalsPass(const ConstantsToGlobalsPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const override {
    return "tfaot-constants-to-globals";
  }
  StringRef getDescription() const override {
    return "Turn tensor constants into reads of memref globals, one per "
           "distinct value, as one-shot-bufferize would (which finds them "
           "by a scan of the module per constant)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<bufferization::BufferizationDialect,
                    memref::MemRefDialect>();
  }

  Option<uint64_t> alignment{
      *this, "alignment",
      llvm::cl::desc("alignment of the globals in bytes (one-shot-bufferize's "
                     "buffer-alignment, 0 for none)"),
      llvm::cl::init(64)};
  Option<int64_t> maxUsers{
      *this, "max-users",
      llvm::cl::desc("users in the constant's block sharing one read of the "
                     "global; each further run of this many gets its own "
                     "(0: all share one)"),
      llvm::cl::init(8)};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (maxUsers < 0) {
      module.emitError("tfaot-constants-to-globals: max-users must be at "
                       "least 0, not ")
          << static_cast<int64_t>(maxUsers);
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    // Globals already there with the same value and alignment are reused,
    // the first in module order, as one-shot-bufferize's scan would find.
    llvm::DenseMap<Attribute, memref::GlobalOp> globalOfValue;
    for (auto global : module.getOps<memref::GlobalOp>())
      if (global.getInitialValue() &&
          global.getAlignment().value_or(0) == alignment)
        globalOfValue.try_emplace(*global.getInitialValue(), global);

    SmallVector<arith::ConstantOp> constants;
    module.walk([&](arith::ConstantOp op) {
      if (isa<RankedTensorType>(op.getType()))
        constants.push_back(op);
    });
    for (arith::ConstantOp constant : constants) {
      memref::GlobalOp global = globalFor(constant, symbols, globalOfValue);
      OpBuilder builder(constant);
      constant.replaceAllUsesWith(readOf(global, constant, builder));
      splitUses(global, constant);
      constant.erase();
    }
  }

  /// memref.get_global + to_tensor of `global` at the builder's position.
  Value readOf(memref::GlobalOp global, arith::ConstantOp constant,
               OpBuilder &builder) {
    auto read = memref::GetGlobalOp::create(builder, constant.getLoc(),
                                            global.getType(),
                                            global.getSymName());
    return bufferization::ToTensorOp::create(builder, constant.getLoc(),
                                             constant.getType(), read,
                                             /*restrict=*/true,
                                             /*writable=*/false);
  }

  /// With max-users > 0: the users of the constant's read in its block keep
  /// it for the first max-users of them (in block order); each further run
  /// gets a read of its own before the run's first user.
  void splitUses(memref::GlobalOp global, arith::ConstantOp constant) {
    Value shared = constant->getPrevNode()->getResult(0);
    tfaot::splitUsesIntoRuns(shared, maxUsers, [&](OpBuilder &b) {
      return readOf(global, constant, b);
    });
  }

  memref::GlobalOp
  globalFor(arith::ConstantOp constant, SymbolTable &symbols,
            llvm::DenseMap<Attribute, memref::GlobalOp> &globalOfValue) {
    Attribute value = constant.getValue();
    memref::GlobalOp &global = globalOfValue[value];
    if (global)
      return global;
    auto type = cast<RankedTensorType>(constant.getType());
    ModuleOp module = getOperation();
    OpBuilder builder(module.getContext());
    IntegerAttr align =
        alignment > 0 ? builder.getI64IntegerAttr(alignment) : IntegerAttr();
    global = memref::GlobalOp::create(
        builder, constant.getLoc(), globalNameFor(type),
        builder.getStringAttr("private"),
        MemRefType::get(type.getShape(), type.getElementType()),
        cast<ElementsAttr>(value), /*constant=*/true, align);
    symbols.insert(global); // Renames it if the name is taken.
    global->moveBefore(&module.front());
    return global;
  }
};

} // namespace

void mlir::tfaot::registerConstantsToGlobalsPass() {
  PassRegistration<ConstantsToGlobalsPass>();
}
