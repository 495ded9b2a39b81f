//===- checks.cpp - Run-time checks of indices read from data -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot_rt_check_indices (checks.h). The common case, every index in range,
// is one branch-free pass that the compiler vectorizes; only a failing check
// goes back to find the first bad position and format TensorFlow's message.
//
//===----------------------------------------------------------------------===//
#include "tfaot/runtime/checks.h"

#include "run_status.h"

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

/// Whether any element of v[0..n) is outside [0, bound): one unsigned
/// comparison each (a negative index becomes a huge one), no early exit and
/// the comparisons in the index's own width, so that the loop vectorizes
/// (8 int32 lanes with AVX2, 4 with SSE2); int32 indices against a bound
/// past 2^31 are compared with 2^31, which accepts every non-negative one.
template <typename T>
bool AnyOutOfRange(const T *v, int64_t n, uint64_t bound) {
  using U = std::make_unsigned_t<T>;
  const U limit = static_cast<U>(
      std::min<uint64_t>(bound, uint64_t(std::numeric_limits<T>::max()) + 1));
  U bad = 0;
  for (int64_t i = 0; i < n; ++i)
    bad |= static_cast<U>(static_cast<U>(v[i]) >= limit);
  return bad != 0;
}

/// Index i of a row-major tuple array v[count][k], checked componentwise.
template <typename T>
bool TupleOutOfRange(const T *v, int64_t i, int64_t k, const int64_t *bounds) {
  bool bad = false;
  for (int64_t j = 0; j < k; ++j)
    bad |= static_cast<uint64_t>(static_cast<int64_t>(v[i * k + j])) >=
           static_cast<uint64_t>(bounds[j]);
  return bad;
}

/// The first tuple of v[count][k] with a component out of its bound, or -1.
template <typename T>
int64_t FirstBadTuple(const T *v, int64_t count, int64_t k,
                      const int64_t *bounds) {
  if (k == 1)
    if (!AnyOutOfRange(v, count, static_cast<uint64_t>(bounds[0])))
      return -1;
  bool bad = false;
  for (int64_t i = 0; i < count; ++i)
    bad |= TupleOutOfRange(v, i, k, bounds);
  if (!bad)
    return -1;
  for (int64_t i = 0; i < count; ++i)
    if (TupleOutOfRange(v, i, k, bounds))
      return i;
  return -1;
}

/// TensorFlow's SliceDebugString: the row-major position `flat` of a tensor
/// of shape dims[0..rank) as "[i,j,...]", "" for a scalar.
std::string Position(const int64_t *dims, int64_t rank, int64_t flat) {
  if (rank == 0)
    return "";
  std::vector<int64_t> at(rank);
  for (int64_t d = rank - 1; d >= 0; --d) {
    at[d] = flat % dims[d];
    flat /= dims[d];
  }
  std::string out;
  for (int64_t d = 0; d < rank; ++d)
    out += (d ? "," : "[") + std::to_string(at[d]);
  return out + "]";
}

int64_t Element(const void *indices, int64_t index_bytes, int64_t i) {
  return index_bytes == 4 ? static_cast<const int32_t *>(indices)[i]
                          : static_cast<const int64_t *>(indices)[i];
}

/// argmax_op.cc's message for an empty reduced dim: the dimension as the
/// graph gives it and the shape, `count` at the dim marked -1.
std::string EmptyAxisFailure(int64_t count, const int64_t *bounds,
                             int64_t bounds_rank) {
  if (count > 0)
    return "";
  std::string shape;
  for (int64_t d = 1; d < bounds_rank; ++d)
    shape += (d > 1 ? "," : "[") +
             std::to_string(bounds[d] < 0 ? count : bounds[d]);
  return "Reduction axis " + std::to_string(bounds[0]) + " is empty in shape " +
         (shape.empty() ? "[]" : shape + "]");
}

/// The list checks (kCheckListPush...): TensorFlow's messages of
/// list_kernels.h for `value` and `length`, or "" when the check passes.
std::string ListCheckFailure(int64_t kind, int64_t value, int64_t length,
                             int64_t bound) {
  const std::string v = std::to_string(value), n = std::to_string(length);
  switch (kind) {
  case tfaot::kCheckListPush:
    return value < bound ? ""
                         : "Tried to push item into a full list list size: " +
                               v + " max_num_elements: " +
                               std::to_string(bound);
  case tfaot::kCheckListPop:
    return value > 0 ? "" : "Trying to pop from an empty list.";
  case tfaot::kCheckListAccess:
  case tfaot::kCheckListModify:
    if (value >= 0 && value < length)
      return "";
    return std::string("Trying to ") +
           (kind == tfaot::kCheckListAccess ? "access" : "modify") +
           " element " + v + " in a list with " + n + " elements.";
  case tfaot::kCheckListWritten:
    return length != 0 ? ""
                       : "Trying to read the inner list at index " + v +
                             " of a list of lists, which was never written.";
  case tfaot::kCheckListStack:
    return value == bound ? ""
                          : "Operation expected a list with " +
                                std::to_string(bound) +
                                " elements but got a list with " + v +
                                " elements.";
  default:
    return "unknown check " + std::to_string(kind);
  }
}

} // namespace

extern "C" void tfaot_rt_check_indices(const void *indices,
                                       const int64_t *indices_shape,
                                       const int64_t *bounds, const char *node,
                                       int64_t kind, int64_t index_bytes,
                                       int64_t indices_rank,
                                       int64_t bounds_rank) {
  if (kind >= tfaot::kCheckListPush) {
    const auto *pair = static_cast<const int32_t *>(indices);
    std::string failure =
        kind == tfaot::kCheckNonEmptyAxis
            ? EmptyAxisFailure(pair[0], bounds, bounds_rank)
            : ListCheckFailure(kind, pair[0], pair[1], bounds[0]);
    if (!failure.empty())
      tfaot::internal::ReportRunError(std::string("node '") + node + "': " +
                                      failure);
    return;
  }
  int64_t elements = 1;
  for (int64_t d = 0; d < indices_rank; ++d)
    elements *= indices_shape[d];
  // GatherV2 checks scalars: tuples of one component.
  const bool nd = kind == tfaot::kCheckGatherNd;
  const int64_t k = nd ? indices_shape[indices_rank - 1] : 1;
  if (elements == 0 || k == 0)
    return;
  const int64_t count = elements / k;
  const int64_t bad =
      index_bytes == 4
          ? FirstBadTuple(static_cast<const int32_t *>(indices), count, k,
                          bounds)
          : FirstBadTuple(static_cast<const int64_t *>(indices), count, k,
                          bounds);
  if (bad < 0)
    return;
  std::string message = std::string("node '") + node + "': indices";
  if (!nd) {
    // gather_op.cc's message.
    message += Position(indices_shape, indices_rank, bad) + " = " +
               std::to_string(Element(indices, index_bytes, bad)) +
               " is not in [0, " + std::to_string(bounds[0]) + ")";
  } else {
    // gather_nd_op.h's: the tuple's position in the indices without their
    // last dimension, the tuple, params.shape().DebugString(), the node.
    message += Position(indices_shape, indices_rank - 1, bad) + " = [";
    for (int64_t j = 0; j < k; ++j)
      message += (j ? ", " : "") +
                 std::to_string(Element(indices, index_bytes, bad * k + j));
    message += "] does not index into param shape [";
    for (int64_t d = 0; d < bounds_rank; ++d)
      message += (d ? "," : "") + std::to_string(bounds[d]);
    message += std::string("], node name: ") + node;
  }
  tfaot::internal::ReportRunError(std::move(message));
}
