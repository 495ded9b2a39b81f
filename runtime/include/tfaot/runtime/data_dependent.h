//===- data_dependent.h - Ops whose output size depends on data -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The extern "C" functions generated CPU code calls for tfaot.NonMaxSuppression
// and tfaot.Where (passes/LowerDataDependentOps.cpp). Each writes a buffer
// sized for the bound known at compile time, zero past the entries it
// found, and the count it found (docs/dynamic-shapes.md). Bad run-time
// values (a negative max_output_size, an iou_threshold outside [0, 1], a
// negative soft_nms_sigma) are recorded as the error of the current Run(),
// prefixed with the node's name, and the outputs are then all zero.
//
// This header is part of the runtime: it must not include anything from
// LLVM, MLIR, TensorFlow or Eigen.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_DATA_DEPENDENT_H
#define TFAOT_RUNTIME_DATA_DEPENDENT_H

#include "tfaot/runtime/symbols.h"

#include <cstdint>

namespace tfaot {

/// How tfaot_rt_where reads its input's elements (`element_kind`).
enum WhereElementKind : int64_t {
  kWhereInteger = 0,  ///< Integers and bool: non-zero bytes.
  kWhereFloat32 = 1,  ///< float: != 0 (so -0.0 is false, NaN true).
  kWhereFloat64 = 2,
  kWhereFloat16 = 3,  ///< half and bfloat16: any bit but the sign set.
};

} // namespace tfaot

extern "C" {

/// NonMaxSuppressionV3/V4/V5 on `boxes` (float [n, 4]) and `scores`
/// (float [n]), with TensorFlow's semantics: candidates are the boxes with
/// a score above *score_threshold, visited in decreasing score order (equal
/// scores: lower index first); with *soft_nms_sigma == 0 a box whose IoU
/// with an already selected box is above *iou_threshold is dropped; with
/// sigma > 0 its score is multiplied by exp(-0.5 * iou^2 / sigma) for each
/// selected box instead, and it is visited again at its new rank while the
/// score stays above the threshold. At most min(*max_output_size, bound)
/// boxes are selected (max_output_size int32 when max_size_bytes is 4,
/// int64 when 8). Writes the selected indices (int32) and their scores
/// (float) into `indices` and `selected_scores`, `bound` entries each, zero
/// past the selection, and the number selected into *count (int32).
void tfaot_rt_non_max_suppression(const float *boxes, const float *scores,
                                  const void *max_output_size,
                                  const float *iou_threshold,
                                  const float *score_threshold,
                                  const float *soft_nms_sigma, int32_t *indices,
                                  float *selected_scores, int32_t *count,
                                  const char *node, int64_t n, int64_t bound,
                                  int64_t max_size_bytes);

/// Where: the coordinates (int64, `rank` each) of the non-zero elements of
/// `input` (shape dims[0..rank), elements of `element_bytes` bytes read as
/// `element_kind` says), in row-major order, into `index` ([elements,
/// rank], zero past the last one found); their number into *count (int32).
void tfaot_rt_where(const void *input, const int64_t *dims, int64_t *index,
                    int32_t *count, int64_t rank, int64_t element_bytes,
                    int64_t element_kind);

} // extern "C"

// Codegen calls them by the names in symbols.h.
static_assert(tfaot_rt::sameName(
    tfaot_rt::kNonMaxSuppression,
    TFAOT_RT_NAME_OF(tfaot_rt_non_max_suppression)));
static_assert(tfaot_rt::sameName(tfaot_rt::kWhere,
                                 TFAOT_RT_NAME_OF(tfaot_rt_where)));

#endif // TFAOT_RUNTIME_DATA_DEPENDENT_H
