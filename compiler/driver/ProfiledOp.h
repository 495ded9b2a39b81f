//===- ProfiledOp.h - What tfaot bench --profile knows of a timed op -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-instrument-profile gives each op of an entry function it times an
// id; the driver reads back, per id, what the op is and how much work it
// does, and `tfaot bench --profile` prints rates from that and the times.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_PROFILEDOP_H
#define TFAOT_COMPILER_DRIVER_PROFILEDOP_H

#include <cstdint>
#include <string>

namespace tfaot {

struct ProfiledOp {
  /// The kinds of linalg ops it runs and its TensorFlow node.
  std::string name;
  /// Floating-point operations of its contractions (2 per multiply-add);
  /// 0 when it has none, or a count is not known (a runtime call).
  int64_t flop = 0;
  /// Bytes of the buffers it reads or writes, each counted once: the
  /// traffic it cannot avoid.
  int64_t bytes = 0;
};

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_PROFILEDOP_H
