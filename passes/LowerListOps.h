//===- LowerListOps.h - The list ops to tensor ops --------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg, declared apart from LoweringUtils.h so
// that the list ops (ir/ListOps.td) stay out of the other lowering files.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_LOWERLISTOPS_H
#define TFAOT_PASSES_LOWERLISTOPS_H

namespace mlir {
class RewritePatternSet;
class TypeConverter;
namespace tfaot {

/// Adds the pattern for ListSetItem (to tensor.insert_slice).
void populateListLoweringPatterns(RewritePatternSet &patterns,
                                  const TypeConverter &converter);

} // namespace tfaot
} // namespace mlir

#endif // TFAOT_PASSES_LOWERLISTOPS_H
