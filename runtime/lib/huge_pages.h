//===- huge_pages.h - Weights on 2 MiB pages --------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library: how tfaot_rt_weights_on_huge_pages
// (tfaot/runtime/cpu_kernels.h) moves a model's read-only weights onto
// transparent huge pages, split out so that tests can call the steps.
//
// Why: a model whose weights do not fit in cache reads them from DRAM on
// every run (ResNet-50: 100-160 MB of float32). In an object file they are
// read-only data, which the loader maps with 4 KiB pages: a TLB miss every
// 4 KiB, and under virtualization each miss is a two-level page walk. On a
// Sapphire Rapids VM a sequential read of 128 MB ran at 12 GB/s on 4 KiB
// pages and 15-17 GB/s on 2 MiB pages.
//
// How: for each 2 MiB-aligned stretch of the weights that lies in one
// read-only private mapping, copy it into fresh anonymous memory advised
// MADV_HUGEPAGE, make that read-only and mremap it over the original
// stretch. Addresses, contents and protection stay as they were, so code
// that holds pointers into it (the model's, or anything else whose
// read-only data shares the stretch) cannot tell, except by speed. The
// ends of the weights that do not fill a 2 MiB page stay where they are.
//
// Nothing here allocates from the heap (it runs inside the first Run(),
// which promises not to): files are read into fixed buffers.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_HUGE_PAGES_H
#define TFAOT_RUNTIME_HUGE_PAGES_H

#include <cstdint>

namespace tfaot::internal {

inline constexpr uintptr_t kHugePageBytes = uintptr_t{2} << 20;

/// What matters here of one line of /proc/self/maps.
struct Mapping {
  uintptr_t begin = 0, end = 0;
  /// "r--p" and the like.
  char permissions[5] = {};
};

/// Reads the start of a /proc/<pid>/maps line ("7f..-7f.. r--p ...").
/// False for anything else.
bool ParseMapsLine(const char *line, Mapping *mapping);

/// The 2 MiB-aligned part of [begin, end) inside `mapping`, in `stretch`,
/// when the mapping is read-only and private ("r--p") and that part is not
/// empty; else false.
bool HugePageStretch(const Mapping &mapping, uintptr_t begin, uintptr_t end,
                     Mapping *stretch);

/// Moves one 2 MiB-aligned read-only stretch onto huge pages as above.
/// False, with the stretch untouched, when a system call refuses.
bool RemapOntoHugePages(const Mapping &stretch);

/// Whether transparent huge pages can back MADV_HUGEPAGE memory here:
/// Linux with /sys/kernel/mm/transparent_hugepage/enabled not "never".
bool TransparentHugePagesAvailable();

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_HUGE_PAGES_H
