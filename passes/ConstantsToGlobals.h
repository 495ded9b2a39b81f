//===- ConstantsToGlobals.h - Tensor constants as memref globals -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-constants-to-globals (see ConstantsToGlobals.cpp). A pass without
// tablegen, so adding it recompiled nothing that includes Passes.h.inc.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_CONSTANTSTOGLOBALS_H
#define TFAOT_PASSES_CONSTANTSTOGLOBALS_H

namespace mlir::tfaot {

/// Registers tfaot-constants-to-globals for pipeline text.
void registerConstantsToGlobalsPass();

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_CONSTANTSTOGLOBALS_H
