//===- checks.h - Run-time checks of indices read from data -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Generated code calls tfaot_rt_check_indices() once per gather whose
// indices are not constants, before the gather reads them: one pass over the
// indices, never one test per gathered element. A bad index fails Run() with
// TensorFlow's message for the op, after the node's name; the gather itself
// still clamps every index, so nothing is read out of bounds either way.
// `tfaot compile --runtime_checks=none` emits no call. Declared here so that
// the ABI is written down once (the lowering, passes/LowerIndexChecks.cpp,
// emits the calls); users never call it themselves.
//
// This header is part of the runtime: it must not include anything from
// LLVM, MLIR, TensorFlow or Eigen.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_CHECKS_H
#define TFAOT_RUNTIME_CHECKS_H

#include "tfaot/runtime/check_kinds.h"
#include "tfaot/runtime/symbols.h"

#include <cstdint>

extern "C" {

/// Checks the `indices` (int32 when index_bytes is 4, int64 when 8) of the
/// shape indices_shape[0..indices_rank) against `bounds` as `kind` (a
/// tfaot::IndexCheckKind, check_kinds.h) says. On
/// the first bad index or tuple in row-major order it records, as the error
/// of the current Run(), "node '<node>': " followed by TensorFlow's CPU
/// message, e.g.
///   node 'gather': indices[1] = 4 is not in [0, 4)
///   node 'gnd': indices[1] = [5] does not index into param shape [5],
///   node name: gnd
///   node 'push': Tried to push item into a full list list size: 3
///   max_num_elements: 3
///   node 'argmax': Reduction axis 0 is empty in shape [0]
/// Reads the indices only; called on the thread that runs Run().
void tfaot_rt_check_indices(const void *indices, const int64_t *indices_shape,
                            const int64_t *bounds, const char *node,
                            int64_t kind, int64_t index_bytes,
                            int64_t indices_rank, int64_t bounds_rank);

} // extern "C"

// Codegen calls it by the name in symbols.h.
static_assert(tfaot_rt::sameName(tfaot_rt::kCheckIndices,
                                 TFAOT_RT_NAME_OF(tfaot_rt_check_indices)));

#endif // TFAOT_RUNTIME_CHECKS_H
