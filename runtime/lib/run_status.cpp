//===- run_status.cpp - Errors reported from inside generated code --------===//
// SPDX-License-Identifier: Apache-2.0
//
// The per-thread error slot of run_status.h.
//
//===----------------------------------------------------------------------===//

#include "run_status.h"

#include <utility>

namespace tfaot::internal {

static std::string &Slot() {
  thread_local std::string error;
  return error;
}

const std::string &RunError() { return Slot(); }

void ClearRunError() { Slot().clear(); }

void ReportRunError(std::string message) {
  if (Slot().empty())
    Slot() = std::move(message);
}

} // namespace tfaot::internal
