//===- LowerScanOps.h - The scan ops to loops -------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg, declared apart from LoweringUtils.h so
// that the scan ops (ir/ScanOps.td) stay out of the other lowering files.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_LOWERSCANOPS_H
#define TFAOT_PASSES_LOWERSCANOPS_H

namespace mlir {
class RewritePatternSet;
class TypeConverter;
namespace tfaot {

/// Adds the pattern for Cumsum (an scf.for over the scanned dimension).
void populateScanLoweringPatterns(RewritePatternSet &patterns,
                                  const TypeConverter &converter);

} // namespace tfaot
} // namespace mlir

#endif // TFAOT_PASSES_LOWERSCANOPS_H
