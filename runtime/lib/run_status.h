//===- run_status.h - Errors reported from inside generated code -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library. Generated code calls runtime functions
// (JPEG decoding today) that can fail on bad input, but its entry function
// returns void and keeps that ABI. A failing runtime function records the
// error in a per-thread slot and writes zeros where its output would be, so
// the rest of the generated code runs on defined data; Run() clears the slot
// before calling the entry and turns a recorded error into `false` plus
// error_msg() afterwards. Thread-local because one instance runs on one
// thread at a time while distinct instances may run concurrently.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_RUN_STATUS_H
#define TFAOT_RUNTIME_RUN_STATUS_H

#include "tfaot/runtime/run_hooks.h"

#include <string>

namespace tfaot::internal {

// RunError() and ClearRunError() are declared in run_hooks.h, for tfaot's
// in-process runner.

/// Records `message` unless an earlier error is already recorded: the first
/// failure is the cause, later ones usually follow from it.
void ReportRunError(std::string message);

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_RUN_STATUS_H
