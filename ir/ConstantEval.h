//===- ConstantEval.h - Compile-time evaluation of demanded values -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Some operands must be known at compile time: a Reshape's shape, a Range's
// bounds, a Pad's amounts, a resize's size. Graphs often compute them
// (Shape -> StridedSlice -> Cast -> Range, or a size scaled in float and cast
// back), and with static shapes every such chain is a constant. The import-
// time folders (OpFolders.cpp) fold integer shape arithmetic eagerly; this
// evaluator goes further, on demand only: it evaluates the whole chain
// behind an operand that an op needs as a constant, float math and casts
// included, and says which value stopped it when it cannot.
//
// Float results are rounded to their element type after every op (for
// + - * / and sqrt, double then rounding is the correctly rounded result),
// so a demanded value is what TensorFlow's kernels compute at run time.
// Transcendental functions (exp, log, ...) are not evaluated: TF's values
// for them depend on its kernels' approximations.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_CONSTANTEVAL_H
#define TFAOT_IR_CONSTANTEVAL_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"

#include <string>

namespace mlir::tfaot {

/// Why a value could not be evaluated: the value the evaluation stopped at
/// (a function argument, i.e. a feed, or the result of an op it does not
/// evaluate) and, where that is not all there is to say, a reason.
struct EvalFailure {
  Value blocker;
  std::string why;
};

/// Largest tensor (elements) the evaluator computes at any step: demanded
/// operands are shapes, sizes and small tables, never activations.
constexpr int64_t kMaxEvalElements = int64_t(1) << 20;

/// The value of `value` computed at compile time, or failure with `failure`
/// set. Looks through the ops that built it, evaluating each.
FailureOr<DenseElementsAttr> evaluateConstant(Value value,
                                              EvalFailure &failure);

} // namespace mlir::tfaot

#endif // TFAOT_IR_CONSTANTEVAL_H
