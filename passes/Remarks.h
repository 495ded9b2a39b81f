//===- Remarks.h - What the graph passes changed, as MLIR remarks -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A graph pass says what it rewrote with a remark at the op's location (a
// NameLoc, so it names the TensorFlow node), worded
//   "[<pass>] <what>: <detail>"
// `tfaot compile --report` groups the remarks by pass and <what>, tfaot-opt
// prints them, and the lit tests check them with -verify-diagnostics. (The
// passes' Statistics say the same, but Debian's release MLIR compiles pass
// statistics out, so the remarks are what users and tests see.)
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_REMARKS_H
#define TFAOT_PASSES_REMARKS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

namespace mlir::tfaot {

/// Emits "[pass] what: detail" (or "[pass] what" without a detail) at `loc`.
inline void remarkRewrite(Location loc, llvm::StringRef pass,
                          llvm::StringRef what,
                          const llvm::Twine &detail = "") {
  InFlightDiagnostic remark = emitRemark(loc);
  remark << "[" << pass << "] " << what;
  if (!detail.isTriviallyEmpty())
    remark << ": " << detail;
}

/// The TensorFlow node name a location carries (its first NameLoc; the
/// importer locates every op at its node), if any. Also what errors use to
/// name the node (compiler/frontend/Diagnostics.cpp).
inline std::optional<std::string> nodeNameOf(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::optional<std::string> name = nodeNameOf(inner))
        return name;
  return std::nullopt;
}

/// The op's name without its dialect ("conv_2d_nhwc_hwcf"), as remarks and
/// profiles name ops.
inline std::string opShortName(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name.substr(name.find('.') + 1).str();
}

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_REMARKS_H
