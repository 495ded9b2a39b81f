//===- FrozenFeeds.h - Feeds whose value is fixed at compile time -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `--feed_value name=1.5` (or `name=1,2,3` for a small tensor) freezes a
// placeholder's value: the importer makes it a constant instead of an
// argument, so the generated class has no such argument and everything
// computed from it (a size, a scale, a count that sets internal shapes) is
// evaluated at compile time. tf2xla.Config's Feed has no field for a value,
// so the flag is the only way to give one.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_FROZENFEEDS_H
#define TFAOT_COMPILER_FRONTEND_FROZENFEEDS_H

#include "compiler/proto/tensor.pb.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <optional>
#include <string>
#include <vector>

namespace tfaot {

/// One --feed_value: the placeholder (node name, or the name a config or
/// signature gives the feed) and its values as written.
struct FrozenFeed {
  std::string name;
  std::vector<std::string> values;
};

/// Parses "name=v0,v1,...". Returns nullopt and sets `why` if malformed.
std::optional<FrozenFeed> parseFrozenFeed(const std::string &text,
                                          std::string &why);

/// The constant a frozen feed becomes: `values` parsed as `dtype`, shaped
/// `shape` when known (its element count must match; a single value fills
/// it), else a scalar for one value and a vector for several. Null, with
/// `why`, for a value that is no number of the type or a count that does
/// not fit.
mlir::DenseElementsAttr
frozenFeedValue(const FrozenFeed &feed, tensorflow::DataType dtype,
                const std::optional<std::vector<int64_t>> &shape,
                mlir::MLIRContext *ctx, std::string &why);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_FROZENFEEDS_H
