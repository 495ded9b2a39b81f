//===- dtype_test.cpp - Tests for DTypeSize and DTypeName -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The generated BufferInfo tables store size_bytes = num_elements *
// DTypeSize(dtype), and error messages print DTypeName(), so every enumerator
// is checked against TensorFlow's element size and name, and values outside
// the enum must degrade to 0 / "unknown" rather than crash.
//
//===----------------------------------------------------------------------===//

#include "tfaot/runtime/compiled_function.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

using tfaot::DType;
using tfaot::DTypeName;
using tfaot::DTypeSize;

struct DTypeCase {
  DType dtype;
  int tf_enum; // TensorFlow's DataType value.
  size_t size;
  const char *name;
};

// Expected values written out independently of the implementation, from
// TensorFlow's types.proto and tf.DType.name / .size.
const DTypeCase kCases[] = {
    {DType::kFloat32, 1, 4, "float32"},   {DType::kFloat64, 2, 8, "float64"},
    {DType::kInt32, 3, 4, "int32"},       {DType::kUInt8, 4, 1, "uint8"},
    {DType::kInt16, 5, 2, "int16"},       {DType::kInt8, 6, 1, "int8"},
    // A string argument's buffer is its {data, size} descriptor.
    {DType::kString, 7, 16, "string"},
    {DType::kInt64, 9, 8, "int64"},       {DType::kBool, 10, 1, "bool"},
    {DType::kBFloat16, 14, 2, "bfloat16"}, {DType::kUInt16, 17, 2, "uint16"},
    {DType::kFloat16, 19, 2, "float16"},  {DType::kUInt32, 22, 4, "uint32"},
    {DType::kUInt64, 23, 8, "uint64"},
    // Quantized types are their storage integers.
    {DType::kQInt8, 11, 1, "qint8"},      {DType::kQUInt8, 12, 1, "quint8"},
    {DType::kQInt32, 13, 4, "qint32"},    {DType::kQInt16, 15, 2, "qint16"},
    {DType::kQUInt16, 16, 2, "quint16"},
};

TEST(DTypeTest, EnumValuesMatchTensorFlow) {
  for (const DTypeCase &c : kCases)
    EXPECT_EQ(static_cast<int>(c.dtype), c.tf_enum) << c.name;
}

TEST(DTypeTest, SizeOfEveryDType) {
  for (const DTypeCase &c : kCases)
    EXPECT_EQ(DTypeSize(c.dtype), c.size) << c.name;
}

TEST(DTypeTest, SizesMatchCppTypes) {
  // The generated accessors return these C++ types, so the sizes must agree.
  EXPECT_EQ(DTypeSize(DType::kFloat32), sizeof(float));
  EXPECT_EQ(DTypeSize(DType::kFloat64), sizeof(double));
  EXPECT_EQ(DTypeSize(DType::kInt32), sizeof(int32_t));
  EXPECT_EQ(DTypeSize(DType::kInt64), sizeof(int64_t));
  EXPECT_EQ(DTypeSize(DType::kUInt8), sizeof(uint8_t));
  EXPECT_EQ(DTypeSize(DType::kBool), sizeof(bool));
  EXPECT_EQ(DTypeSize(DType::kUInt64), sizeof(uint64_t));
}

TEST(DTypeTest, NameOfEveryDType) {
  for (const DTypeCase &c : kCases)
    EXPECT_STREQ(DTypeName(c.dtype), c.name);
}

TEST(DTypeTest, UnknownValues) {
  // 0 is DT_INVALID in TensorFlow; 8 is DT_COMPLEX64, which the runtime
  // does not support; 99 and -1 are not TensorFlow types at all.
  for (int v : {0, 8, 99, -1}) {
    DType d = static_cast<DType>(v);
    EXPECT_EQ(DTypeSize(d), 0u) << v;
    EXPECT_STREQ(DTypeName(d), "unknown") << v;
  }
}

} // namespace
