//===- huge_pages.cpp - Weights on 2 MiB pages ----------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot_rt_weights_on_huge_pages; huge_pages.h says why and how.
//
//===----------------------------------------------------------------------===//
#include "huge_pages.h"

#include "env_flag.h"
#include "tfaot/runtime/cpu_kernels.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>

#ifdef __linux__
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#endif

namespace tfaot::internal {

bool ParseMapsLine(const char *line, Mapping *mapping) {
  unsigned long long begin = 0, end = 0;
  char permissions[5] = {};
  if (std::sscanf(line, "%llx-%llx %4s", &begin, &end, permissions) != 3 ||
      end <= begin)
    return false;
  mapping->begin = static_cast<uintptr_t>(begin);
  mapping->end = static_cast<uintptr_t>(end);
  std::memcpy(mapping->permissions, permissions, sizeof permissions);
  return true;
}

bool HugePageStretch(const Mapping &mapping, uintptr_t begin, uintptr_t end,
                     Mapping *stretch) {
  // Only memory nobody may write: its copy is then the same bytes for as
  // long as anyone can look. Executable memory is left alone (the code
  // doing the move could be in it).
  if (std::strcmp(mapping.permissions, "r--p") != 0)
    return false;
  uintptr_t from = std::max(begin, mapping.begin);
  uintptr_t to = std::min(end, mapping.end);
  if (from >= to)
    return false;
  from = (from + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  to &= ~(kHugePageBytes - 1);
  if (from >= to)
    return false;
  *stretch = mapping;
  stretch->begin = from;
  stretch->end = to;
  return true;
}

#ifdef __linux__

/// Copies `bytes` from `from` to `to` by a system call: the stretch holds
/// other objects' data too, whose padding a sanitizer may have poisoned,
/// and a plain memcpy from it would be reported.
static bool CopyByKernel(void *to, const void *from, size_t bytes) {
  while (bytes) {
    iovec local{to, bytes};
    iovec remote{const_cast<void *>(from), bytes};
    ssize_t copied = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (copied <= 0)
      return false;
    to = static_cast<char *>(to) + copied;
    from = static_cast<const char *>(from) + copied;
    bytes -= static_cast<size_t>(copied);
  }
  return true;
}

bool RemapOntoHugePages(const Mapping &stretch) {
  const size_t bytes = stretch.end - stretch.begin;
  // Reserve one huge page more, to cut a 2 MiB-aligned block out of it: a
  // huge page can only back an aligned 2 MiB of virtual memory.
  void *reserved = mmap(nullptr, bytes + kHugePageBytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (reserved == MAP_FAILED)
    return false;
  const auto start = reinterpret_cast<uintptr_t>(reserved);
  const uintptr_t aligned =
      (start + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  if (aligned > start)
    munmap(reserved, aligned - start);
  const uintptr_t tail = start + bytes + kHugePageBytes - (aligned + bytes);
  if (tail)
    munmap(reinterpret_cast<void *>(aligned + bytes), tail);
  void *copy = reinterpret_cast<void *>(aligned);
  // Advise before the first touch, so that the copy's page faults take huge
  // pages directly (with THP "madvise" this is what asks for them).
  madvise(copy, bytes, MADV_HUGEPAGE);
  const void *original = reinterpret_cast<const void *>(stretch.begin);
  if (!CopyByKernel(copy, original, bytes) ||
      mprotect(copy, bytes, PROT_READ) != 0 ||
      mremap(copy, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED,
             const_cast<void *>(original)) == MAP_FAILED) {
    munmap(copy, bytes);
    return false;
  }
  return true;
}

bool TransparentHugePagesAvailable() {
  int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY);
  if (fd < 0)
    return false;
  char text[128] = {};
  ssize_t length = read(fd, text, sizeof text - 1);
  close(fd);
  return length > 0 && !std::strstr(text, "[never]");
}

/// Calls `visit` with each line of /proc/self/maps, at most kLineBytes - 1
/// characters of it (the fields wanted come first).
template <typename Visit> static void ForEachOwnMapping(Visit visit) {
  int fd = open("/proc/self/maps", O_RDONLY);
  if (fd < 0)
    return;
  constexpr size_t kLineBytes = 256;
  char chunk[4096], line[kLineBytes];
  size_t length = 0;
  ssize_t got;
  while ((got = read(fd, chunk, sizeof chunk)) > 0) {
    for (ssize_t i = 0; i < got; ++i) {
      if (chunk[i] != '\n') {
        if (length < kLineBytes - 1)
          line[length++] = chunk[i];
        continue;
      }
      line[length] = '\0';
      length = 0;
      Mapping mapping;
      if (ParseMapsLine(line, &mapping))
        visit(mapping);
    }
  }
  close(fd);
}

#else

bool RemapOntoHugePages(const Mapping &) { return false; }
bool TransparentHugePagesAvailable() { return false; }
template <typename Visit> static void ForEachOwnMapping(Visit) {}

#endif

} // namespace tfaot::internal

using namespace tfaot::internal;

extern "C" void tfaot_rt_weights_on_huge_pages(int64_t table, int64_t count,
                                               int64_t done) {
  auto *flag = reinterpret_cast<int32_t *>(done);
  if (__atomic_load_n(flag, __ATOMIC_ACQUIRE))
    return;
  // One move at a time in the process: two models' weights may share a
  // stretch, and /proc/self/maps must not change under a reader.
  static std::mutex moving;
  std::lock_guard<std::mutex> lock(moving);
  if (__atomic_load_n(flag, __ATOMIC_RELAXED))
    return;
  const auto *ranges = reinterpret_cast<const TfaotWeightRange *>(table);
  uintptr_t begin = UINTPTR_MAX, end = 0;
  for (int64_t i = 0; i < count; ++i) {
    const auto data = reinterpret_cast<uintptr_t>(ranges[i].data);
    begin = std::min(begin, data);
    end = std::max(end, data + static_cast<uintptr_t>(ranges[i].bytes));
  }
  if (begin < end && !EnvFlagSet("TFAOT_DISABLE_HUGE_PAGES") &&
      TransparentHugePagesAvailable()) {
    // Collected first, moved after: each move changes the maps being read.
    // A model's weights lie in one or two mappings; more are left alone.
    Mapping stretches[16];
    int found = 0;
    ForEachOwnMapping([&](const Mapping &mapping) {
      if (found < 16 && HugePageStretch(mapping, begin, end, &stretches[found]))
        ++found;
    });
    for (int i = 0; i < found; ++i)
      RemapOntoHugePages(stretches[i]);
  }
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}
