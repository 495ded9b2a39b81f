//===- idx.cpp - Reader for IDX files (uTensor reference data) ------------===//
// SPDX-License-Identifier: Apache-2.0
#include "idx.h"

#include <gtest/gtest.h>

#include "corpus.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace tfaot_e2e {

namespace {

// Assembles `n` big-endian bytes into an unsigned integer. Done by hand,
// rather than by byte-swapping, so the reader is right on any host.
uint64_t ReadBigEndian(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i)
    v = (v << 8) | p[i];
  return v;
}

int ElementSize(uint8_t type) {
  switch (type) {
  case 0x08: case 0x09: return 1;
  case 0x0B: return 2;
  case 0x0C: case 0x0D: return 4;
  case 0x0E: return 8;
  default: return 0;
  }
}

double DecodeElement(uint8_t type, const unsigned char *p) {
  switch (type) {
  case 0x08: return static_cast<double>(p[0]);
  case 0x09: return static_cast<double>(static_cast<int8_t>(p[0]));
  case 0x0B:
    return static_cast<double>(static_cast<int16_t>(ReadBigEndian(p, 2)));
  case 0x0C:
    return static_cast<double>(static_cast<int32_t>(ReadBigEndian(p, 4)));
  case 0x0D: {
    uint32_t bits = static_cast<uint32_t>(ReadBigEndian(p, 4));
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return static_cast<double>(f);
  }
  case 0x0E: {
    uint64_t bits = ReadBigEndian(p, 8);
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  }
  return 0.0;
}

}  // namespace

std::vector<float> IdxArray::AsFloats() const {
  return std::vector<float>(values.begin(), values.end());
}

bool ReadIdx(const std::string &path, IdxArray *out, std::string *error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot open IDX file '" + path + "'";
    return false;
  }
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  if (bytes.size() < 4 || bytes[0] != 0 || bytes[1] != 0) {
    *error = "'" + path + "' is not an IDX file (bad magic)";
    return false;
  }
  IdxArray result;
  result.type = bytes[2];
  const int rank = bytes[3];
  const int elem_size = ElementSize(result.type);
  if (elem_size == 0) {
    *error = "'" + path + "': unknown IDX type byte " +
             std::to_string(static_cast<int>(result.type));
    return false;
  }
  size_t pos = 4;
  if (bytes.size() < pos + 4 * static_cast<size_t>(rank)) {
    *error = "'" + path + "': truncated dimensions";
    return false;
  }
  size_t count = 1;
  for (int i = 0; i < rank; ++i, pos += 4) {
    const int64_t d = static_cast<int64_t>(ReadBigEndian(&bytes[pos], 4));
    result.dims.push_back(d);
    count *= static_cast<size_t>(d);
  }
  if (bytes.size() - pos != count * static_cast<size_t>(elem_size)) {
    *error = "'" + path + "': expected " + std::to_string(count) +
             " elements of " + std::to_string(elem_size) + " bytes, found " +
             std::to_string(bytes.size() - pos) + " data bytes";
    return false;
  }
  result.values.reserve(count);
  for (size_t i = 0; i < count; ++i, pos += elem_size)
    result.values.push_back(DecodeElement(result.type, &bytes[pos]));
  *out = std::move(result);
  return true;
}

IdxArray LoadUtensorOpIdx(const std::string &op_dir, const std::string &file) {
  IdxArray a;
  std::string error;
  EXPECT_TRUE(ReadIdx(CorpusPath("frozen/utensor/ops/" + op_dir + "/" + file),
                      &a, &error))
      << error;
  return a;
}

}  // namespace tfaot_e2e
