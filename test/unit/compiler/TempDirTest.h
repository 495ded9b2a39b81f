//===- TempDirTest.h - gtest fixture with a temporary directory -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// For loader tests that write model files and read back what the loader
// said: a fresh directory per test (removed afterwards) and a stream
// collecting the diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_TEST_UNIT_COMPILER_TEMPDIRTEST_H
#define TFAOT_TEST_UNIT_COMPILER_TEMPDIRTEST_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace tfaot {

class TempDirTest : public ::testing::Test {
protected:
  explicit TempDirTest(const char *prefix) : prefix(prefix), os(messages) {}
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory(prefix, dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string path(const std::string &name) {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  void write(const std::string &name, const std::string &contents) {
    std::ofstream out(path(name), std::ios::binary);
    out << contents;
  }

  const char *prefix;
  llvm::SmallString<128> dir;
  std::string messages;
  llvm::raw_string_ostream os;
};

} // namespace tfaot

#endif // TFAOT_TEST_UNIT_COMPILER_TEMPDIRTEST_H
