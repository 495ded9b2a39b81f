//===- HugePageWeights.h - Ask the runtime for huge-page weights -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The step of object emission that makes a model with large weights move
// them onto 2 MiB pages when it first runs (tfaot_rt_weights_on_huge_pages,
// tfaot/runtime/cpu_kernels.h; runtime/lib/huge_pages.h says why).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_CPU_HUGEPAGEWEIGHTS_H
#define TFAOT_BACKENDS_CPU_HUGEPAGEWEIGHTS_H

#include <cstdint>

namespace llvm {
class Module;
} // namespace llvm

namespace tfaot::cpu {

/// Constants smaller than this are not listed (they are not what makes a
/// model DRAM-bound, and the list would only grow).
inline constexpr uint64_t kHugePageWeightMinBytes = uint64_t{64} << 10;
/// Models whose listed constants add up to less get no call: their weights
/// cover only a few huge pages and mostly stay in cache.
inline constexpr uint64_t kHugePageModelMinBytes = uint64_t{8} << 20;

/// For a module of model entries (external functions defined in `module`)
/// whose large constants reach kHugePageModelMinBytes: adds a table of them
/// and a per-object flag, and makes each entry call the runtime with both
/// first. Returns the number of bytes listed (0: nothing added).
uint64_t addHugePageWeightsCall(llvm::Module &module);

} // namespace tfaot::cpu

#endif // TFAOT_BACKENDS_CPU_HUGEPAGEWEIGHTS_H
