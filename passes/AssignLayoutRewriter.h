//===- AssignLayoutRewriter.h - Pieces of --tfaot-assign-layout -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What the three files of --tfaot-assign-layout share: the permutation
// helpers (AssignLayout.cpp), the op classes transposes move through
// (AssignLayoutMotion.cpp), and LayoutRewriter, whose steps are spread over
// AssignLayout.cpp (step 1, the driver loop), AssignLayoutMotion.cpp (step
// 2, moving transposes through groups of ops) and AssignLayoutFolds.cpp
// (folding transposes and absorbing them into MatMuls). Internal to passes/.
//
// Notation (see AssignLayout.cpp): v = Transpose(v', p).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_ASSIGNLAYOUTREWRITER_H
#define TFAOT_PASSES_ASSIGNLAYOUTREWRITER_H

#include "ir/Ops.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tfaot::assign_layout {

using Perm = SmallVector<int64_t, 4>;

//===----------------------------------------------------------------------===//
// Permutations and constants (AssignLayout.cpp)
//===----------------------------------------------------------------------===//

bool isIdentity(ArrayRef<int64_t> perm);
Perm inverse(ArrayRef<int64_t> perm);
/// Transpose(Transpose(x, first), second) == Transpose(x, compose(first,
/// second)).
Perm compose(ArrayRef<int64_t> first, ArrayRef<int64_t> second);
RankedTensorType transposeType(Type type, ArrayRef<int64_t> perm);
int64_t rankOf(Value value);
/// The permutation of a Transpose whose perm is a constant permutation of
/// its operand's dimensions.
std::optional<Perm> permOf(TransposeOp op);
/// Whether Transpose(x, perm) only moves dimensions of size 1, so that it
/// keeps the row-major order of the elements and is a Reshape.
bool movesOnlyUnitDims(TransposeOp op, ArrayRef<int64_t> perm);
/// An integer constant of `type` holding `values`.
Value intConstant(OpBuilder &b, Location loc, Type type,
                  ArrayRef<int64_t> values);

/// `values` (one per old dimension) in the order of the new dimensions:
/// result[perm[k]] = values[k].
template <typename T>
SmallVector<T> scatter(ArrayRef<T> values, ArrayRef<int64_t> perm) {
  SmallVector<T> result(values.size());
  for (auto [k, p] : llvm::enumerate(perm))
    result[p] = values[k];
  return result;
}

//===----------------------------------------------------------------------===//
// Which ops transposes move through (AssignLayoutMotion.cpp)
//===----------------------------------------------------------------------===//

/// How an op computes its result permuted by p from permuted operands.
struct Motion {
  /// Operands of the op's rank, which the new op reads permuted.
  SmallVector<unsigned, 4> permuted;
  /// Constants of lower rank (NumPy broadcasting), which the new op reads
  /// expanded to the full rank and permuted.
  SmallVector<unsigned, 2> broadcast;
  /// old result = Transpose(new result, resultPerm): p, except for
  /// reductions that drop dimensions.
  Perm resultPerm;
};

bool isUnaryElementwise(Operation *op);
bool isBroadcastingElementwise(Operation *op);
/// Ops with a data_format attribute.
bool hasDataFormat(Operation *op);
StringRef dataFormatOf(Operation *op);

//===----------------------------------------------------------------------===//
// The rewriter
//===----------------------------------------------------------------------===//

/// Transposes moved, created and erased in one function body.
class LayoutRewriter {
public:
  LayoutRewriter(Block &block, StringRef target)
      : block(block), target(target) {}

  void relayout(Operation *op);
  void optimize();

  int64_t inserted = 0, removed = 0, relaidOut = 0, groupsMoved = 0;

private:
  struct Group {
    llvm::SetVector<Operation *> members;
    DenseMap<Operation *, Motion> motions;
  };

  static const Motion &motionIn(const Group &group, Operation *op) {
    return group.motions.find(op)->second;
  }
  std::optional<Motion> motionOf(Operation *op, ArrayRef<int64_t> p);
  bool usesPermuted(Operation *user, unsigned index, const Group &group);
  void grow(ArrayRef<Operation *> starts, ArrayRef<int64_t> p, bool up,
            bool down, Group &group);
  bool worthwhile(const Group &group, ArrayRef<int64_t> p);
  void rewrite(Group &group, ArrayRef<int64_t> p);
  bool tryMove(TransposeOp transpose);
  bool foldTransposes();
  bool absorbIntoMatMuls(TransposeOp transpose);
  void unitTransposesToReshapes();

  Value transpose(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> perm);
  void erase(Operation *op);
  void eraseKeepingOperands(Operation *op, llvm::SetVector<Operation *> &defs);
  void eraseDead(llvm::SetVector<Operation *> &worklist);

  Block &block;
  StringRef target;
};

} // namespace mlir::tfaot::assign_layout

#endif // TFAOT_PASSES_ASSIGNLAYOUTREWRITER_H
