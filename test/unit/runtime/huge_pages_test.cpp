//===- huge_pages_test.cpp - Tests for tfaot_rt_weights_on_huge_pages -----===//
// SPDX-License-Identifier: Apache-2.0
//
// The stretch arithmetic on hand-written /proc/self/maps lines, then the
// move itself on a read-only private file mapping, as an object file's
// weights are mapped: afterwards the bytes must read the same, the aligned
// middle must be anonymous memory advised for huge pages ("hg" in smaps'
// VmFlags) and still read-only, and the unaligned ends must still be the
// file. The process's own maps and smaps are read back independently of
// the runtime's parser.
//
//===----------------------------------------------------------------------===//

#include "runtime/lib/huge_pages.h"
#include "tfaot/runtime/cpu_kernels.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifdef __linux__
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace {

using tfaot::internal::HugePageStretch;
using tfaot::internal::kHugePageBytes;
using tfaot::internal::Mapping;
using tfaot::internal::ParseMapsLine;

constexpr uintptr_t kMiB = uintptr_t{1} << 20;

TEST(HugePages, ParsesMapsLines) {
  Mapping mapping;
  ASSERT_TRUE(ParseMapsLine(
      "7f0000200000-7f0000a00000 r--p 00001000 08:02 17 /lib/model.so",
      &mapping));
  EXPECT_EQ(mapping.begin, 0x7f0000200000u);
  EXPECT_EQ(mapping.end, 0x7f0000a00000u);
  EXPECT_STREQ(mapping.permissions, "r--p");
  ASSERT_TRUE(ParseMapsLine("00400000-00452000 r-xp 00000000 08:02 1 /bin/x",
                            &mapping));
  EXPECT_STREQ(mapping.permissions, "r-xp");
  EXPECT_FALSE(ParseMapsLine("not a mapping line", &mapping));
  EXPECT_FALSE(ParseMapsLine("00452000-00400000 r--p 0 0:0 0", &mapping));
}

TEST(HugePages, StretchesAreAlignedAndReadOnly) {
  const uintptr_t base = 0x7f0000000000;
  const Mapping readOnly{base, base + 10 * kMiB, "r--p"};
  Mapping stretch;
  // [1, 31) MiB asked for: [2, 10) of the mapping is whole pages.
  ASSERT_TRUE(
      HugePageStretch(readOnly, base + kMiB, base + 31 * kMiB, &stretch));
  EXPECT_EQ(stretch.begin, base + 2 * kMiB);
  EXPECT_EQ(stretch.end, base + 10 * kMiB);
  // Less than one whole page of it, or none at all.
  EXPECT_FALSE(
      HugePageStretch(readOnly, base + kMiB, base + 3 * kMiB, &stretch));
  EXPECT_FALSE(
      HugePageStretch(readOnly, base + 20 * kMiB, base + 30 * kMiB, &stretch));
  // Writable and executable memory is never moved.
  for (const char *permissions : {"rw-p", "r-xp", "r--s"}) {
    Mapping other = readOnly;
    std::strcpy(other.permissions, permissions);
    EXPECT_FALSE(HugePageStretch(other, base, base + 10 * kMiB, &stretch))
        << permissions;
  }
}

#ifdef __linux__

/// The line of /proc/self/maps holding `address` and, when `flags` is not
/// null, that mapping's VmFlags from /proc/self/smaps.
std::string MappingOf(const void *address, std::string *flags = nullptr) {
  const auto at = reinterpret_cast<uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line, found;
  while (std::getline(smaps, line)) {
    unsigned long long begin, end;
    char dash;
    std::istringstream fields(line);
    if (fields >> std::hex >> begin >> dash >> end && dash == '-') {
      if (!found.empty())
        break; // The next mapping's header: the one found had no VmFlags.
      if (begin <= at && at < end)
        found = line;
    } else if (!found.empty() && flags && line.rfind("VmFlags:", 0) == 0) {
      *flags = line;
      break;
    }
  }
  return found;
}

/// Inode field (the fifth) of a maps line: "0" for anonymous memory.
std::string InodeOf(const std::string &mapsLine) {
  std::istringstream fields(mapsLine);
  std::string field;
  for (int i = 0; i < 5 && fields >> field; ++i) {
  }
  return field;
}

/// A read-only private mapping of a 10 MiB + 4 KiB file of known bytes.
struct FileWeights {
  static constexpr size_t kBytes = 10 * kMiB + 4096;
  const unsigned char *data = nullptr;

  FileWeights() {
    char path[] = "/tmp/tfaot_huge_pages_XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    unlink(path);
    std::vector<unsigned char> bytes(kBytes);
    for (size_t i = 0; i < kBytes; ++i)
      bytes[i] = Expected(i);
    EXPECT_EQ(write(fd, bytes.data(), kBytes), static_cast<ssize_t>(kBytes));
    void *mapped = mmap(nullptr, kBytes, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    EXPECT_NE(mapped, MAP_FAILED);
    data = static_cast<const unsigned char *>(mapped);
  }
  ~FileWeights() { munmap(const_cast<unsigned char *>(data), kBytes); }

  static unsigned char Expected(size_t i) {
    return static_cast<unsigned char>(i * 7 + i / 4096);
  }
  bool Intact() const {
    for (size_t i = 0; i < kBytes; ++i)
      if (data[i] != Expected(i))
        return false;
    return true;
  }
  /// The first and last 2 MiB-aligned addresses inside.
  const unsigned char *FirstAligned() const {
    auto at = reinterpret_cast<uintptr_t>(data);
    return reinterpret_cast<const unsigned char *>((at + kHugePageBytes - 1) &
                                                   ~(kHugePageBytes - 1));
  }
  void Move(int32_t *done) const {
    TfaotWeightRange range{data, static_cast<int64_t>(kBytes)};
    tfaot_rt_weights_on_huge_pages(reinterpret_cast<int64_t>(&range), 1,
                                   reinterpret_cast<int64_t>(done));
  }
};

TEST(HugePages, MovesReadOnlyFileMemoryOntoHugePages) {
  if (!tfaot::internal::TransparentHugePagesAvailable())
    GTEST_SKIP() << "transparent huge pages are off here "
                    "(/sys/kernel/mm/transparent_hugepage/enabled)";
  unsetenv("TFAOT_DISABLE_HUGE_PAGES");
  FileWeights weights;
  ASSERT_NE(InodeOf(MappingOf(weights.FirstAligned())), "0");
  int32_t done = 0;
  weights.Move(&done);
  EXPECT_EQ(done, 1);
  EXPECT_TRUE(weights.Intact());

  std::string flags;
  std::string middle = MappingOf(weights.FirstAligned(), &flags);
  EXPECT_EQ(InodeOf(middle), "0") << middle;
  EXPECT_NE(middle.find(" r--p "), std::string::npos) << middle;
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
  // Bytes before the first aligned address (a 2 MiB page cannot hold
  // them alone) are still the file's.
  if (weights.FirstAligned() != weights.data)
    EXPECT_NE(InodeOf(MappingOf(weights.data)), "0");
  EXPECT_NE(InodeOf(MappingOf(weights.data + FileWeights::kBytes - 1)), "0");

  // A second call sees the flag and does nothing.
  weights.Move(&done);
  EXPECT_EQ(done, 1);
  EXPECT_TRUE(weights.Intact());
}

TEST(HugePages, EnvironmentVariableLeavesWeightsInPlace) {
  setenv("TFAOT_DISABLE_HUGE_PAGES", "1", 1);
  FileWeights weights;
  int32_t done = 0;
  weights.Move(&done);
  unsetenv("TFAOT_DISABLE_HUGE_PAGES");
  EXPECT_EQ(done, 1);
  EXPECT_NE(InodeOf(MappingOf(weights.FirstAligned())), "0");
  EXPECT_TRUE(weights.Intact());
}

TEST(HugePages, WritableMemoryIsLeftAlone) {
  const size_t bytes = 8 * kMiB;
  void *mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  auto *data = static_cast<unsigned char *>(mapped);
  std::memset(data, 0x5a, bytes);
  int32_t done = 0;
  TfaotWeightRange range{data, static_cast<int64_t>(bytes)};
  tfaot_rt_weights_on_huge_pages(reinterpret_cast<int64_t>(&range), 1,
                                 reinterpret_cast<int64_t>(&done));
  EXPECT_EQ(done, 1);
  std::string flags;
  std::string line = MappingOf(data + 4 * kMiB, &flags);
  EXPECT_NE(line.find(" rw-p "), std::string::npos) << line;
  EXPECT_EQ(flags.find(" hg"), std::string::npos) << flags;
  data[bytes / 2] = 1; // Still writable.
  EXPECT_EQ(data[bytes / 2 + 1], 0x5a);
  munmap(mapped, bytes);
}

#endif // __linux__

} // namespace
