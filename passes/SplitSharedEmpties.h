//===- SplitSharedEmpties.h - Bound the users of one tensor.empty -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-split-shared-empties (see SplitSharedEmpties.cpp). A pass without
// tablegen, so adding it recompiled nothing that includes Passes.h.inc.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_SPLITSHAREDEMPTIES_H
#define TFAOT_PASSES_SPLITSHAREDEMPTIES_H

namespace mlir::tfaot {

/// Registers tfaot-split-shared-empties{max-users=N} for pipeline text.
void registerSplitSharedEmptiesPass();

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_SPLITSHAREDEMPTIES_H
