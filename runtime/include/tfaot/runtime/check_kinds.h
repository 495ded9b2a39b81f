//===- check_kinds.h - What tfaot_rt_check_indices checks -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The kinds of run-time check that generated code asks of
// tfaot_rt_check_indices (checks.h). The compiler writes them into the IR
// (the importers' tfaot.CheckList, the gathers' checks in passes/) and the
// runtime reads them back, so both include this one definition. It holds
// the enum alone, and includes nothing but <cstdint>, so that the compiler
// can include it without any runtime code.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_CHECK_KINDS_H
#define TFAOT_RUNTIME_CHECK_KINDS_H

#include <cstdint>

namespace tfaot {

/// What tfaot_rt_check_indices checks, and whose message it writes.
enum IndexCheckKind : int64_t {
  /// GatherV2: every index in [0, bounds[0]).
  kCheckGather = 0,
  /// GatherNd: the indices' last dimension holds tuples of k components;
  /// component j must be in [0, bounds[j]). `bounds` is the whole params
  /// shape (bounds_rank >= k), which the message prints.
  kCheckGatherNd = 1,
  /// The operations on a list whose length is known only at run time
  /// (tfaot.CheckList, ir/ListOps.td): `indices` is int32 [value, length]
  /// and bounds[0] the list's bound. Push: the length must be below the
  /// bound (max_num_elements); pop: the length must be positive; access and
  /// modify: value, an index, must be in [0, length); stack: the length
  /// must equal bounds[0] (TensorListStack's num_elements).
  kCheckListPush = 2,
  kCheckListPop = 3,
  kCheckListAccess = 4,
  kCheckListModify = 5,
  kCheckListStack = 6,
  /// ArgMax along a dim whose size is a run-time count (tfaot.CheckList
  /// with a `shape`): `indices` is int32 [count, count], which must be
  /// positive; bounds[0] is the ArgMax's dimension as the graph gives it and
  /// bounds[1..bounds_rank) the input's shape, -1 at the counted dim.
  kCheckNonEmptyAxis = 7,
  /// A read of an inner list of a list of lists: `indices` is int32
  /// [index, written], and `written` (whether an inner list was written at
  /// that index) must be nonzero.
  kCheckListWritten = 8,
};

} // namespace tfaot

#endif // TFAOT_RUNTIME_CHECK_KINDS_H
