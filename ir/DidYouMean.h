//===- DidYouMean.h - Suggestions for a mistyped name -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The one "did you mean ...?" of tfaot's errors: unknown feeds and fetches
// (compiler/frontend), unknown --target_cpu and --target_features names
// (backends/cpu). Here, in the lowest layer, so that every layer can use
// it; it is plain string code, no part of the dialect.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_DIDYOUMEAN_H
#define TFAOT_IR_DIDYOUMEAN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tfaot {

/// How far `candidate` is from `wanted` for suggestions, or nullopt when it
/// is not close: 0 when only the case differs, 1 for a scoped name whose
/// last components are `wanted` ("dense/BiasAdd" for "model/dense/BiasAdd"),
/// else llvm's edit distance within a third of the name (as clang's typo
/// correction allows).
inline std::optional<unsigned> suggestionDistance(llvm::StringRef wanted,
                                                  llvm::StringRef candidate) {
  if (wanted.equals_insensitive(candidate))
    return 0;
  if (candidate.size() > wanted.size() && candidate.ends_with(wanted) &&
      candidate[candidate.size() - wanted.size() - 1] == '/')
    return 1;
  unsigned limit = std::max<unsigned>(1, (wanted.size() + 2) / 3);
  unsigned distance =
      wanted.edit_distance(candidate, /*AllowReplacements=*/true,
                           /*MaxEditDistance=*/limit);
  if (distance > limit)
    return std::nullopt;
  return distance;
}

/// "did you mean 'a' or 'b'?" naming the candidates closest to `wanted`
/// (suggestionDistance; only the closest, as clang suggests, three at most,
/// in the candidates' order), or "" when none is close. Each candidate is
/// the names of one thing (a node, and the signature key naming it), which
/// are suggested together.
inline std::string
didYouMean(llvm::StringRef wanted,
           llvm::ArrayRef<std::vector<std::string>> candidates) {
  constexpr size_t kMaxSuggestions = 3;
  std::vector<std::pair<unsigned, size_t>> close; // (distance, candidate)
  for (auto [i, names] : llvm::enumerate(candidates)) {
    std::optional<unsigned> best;
    for (const std::string &name : names)
      if (auto d = suggestionDistance(wanted, name); d && (!best || *d < *best))
        best = d;
    if (best)
      close.push_back({*best, i});
  }
  llvm::sort(close);
  while (!close.empty() && close.back().first != close.front().first)
    close.pop_back();
  if (close.size() > kMaxSuggestions)
    close.resize(kMaxSuggestions);
  std::vector<std::string> shown;
  for (auto [distance, i] : close)
    for (const std::string &name : candidates[i])
      if (!llvm::is_contained(shown, "'" + name + "'"))
        shown.push_back("'" + name + "'");
  if (shown.empty())
    return "";
  std::string list = shown.front();
  for (size_t i = 1; i < shown.size(); ++i)
    list += (i + 1 == shown.size() ? " or " : ", ") + shown[i];
  return "did you mean " + list + "?";
}

/// didYouMean with one name per candidate.
inline std::string didYouMean(llvm::StringRef wanted,
                              llvm::ArrayRef<llvm::StringRef> names) {
  std::vector<std::vector<std::string>> candidates;
  for (llvm::StringRef name : names)
    candidates.push_back({name.str()});
  return didYouMean(wanted, candidates);
}

} // namespace tfaot

#endif // TFAOT_IR_DIDYOUMEAN_H
