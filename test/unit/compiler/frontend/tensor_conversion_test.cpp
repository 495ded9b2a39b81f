//===- tensor_conversion_test.cpp - TensorProto/DataType conversion -------===//
// SPDX-License-Identifier: Apache-2.0
//
// TensorFlow encodes constants several ways (raw tensor_content, typed value
// lists that repeat their last element, 16-bit floats in half_val); a
// mistake here silently corrupts weights, so each encoding is pinned down.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/TensorConversion.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tfaot;

namespace {

class TensorConversionTest : public ::testing::Test {
protected:
  static tensorflow::TensorProto makeTensor(tensorflow::DataType dtype,
                                            std::vector<int64_t> dims) {
    tensorflow::TensorProto tensor;
    tensor.set_dtype(dtype);
    for (int64_t d : dims)
      tensor.mutable_tensor_shape()->add_dim()->set_size(d);
    return tensor;
  }
  mlir::MLIRContext ctx;
  std::string error;
};

TEST_F(TensorConversionTest, RawFloatContent) {
  auto tensor = makeTensor(tensorflow::DT_FLOAT, {2, 2});
  float values[4] = {1.5f, -2.0f, 0.25f, 8.0f};
  tensor.set_tensor_content(std::string(reinterpret_cast<char *>(values), 16));
  mlir::DenseElementsAttr attr = convertTensor(tensor, &ctx, error);
  ASSERT_TRUE(attr) << error;
  std::vector<float> got(attr.getValues<float>().begin(),
                                   attr.getValues<float>().end());
  EXPECT_EQ(got, std::vector<float>({1.5f, -2.0f, 0.25f, 8.0f}));
  EXPECT_EQ(mlir::cast<mlir::ShapedType>(attr.getType()).getShape(),
            llvm::ArrayRef<int64_t>({2, 2}));
}

TEST_F(TensorConversionTest, ShortValueListRepeatsLastElement) {
  auto tensor = makeTensor(tensorflow::DT_INT32, {5});
  tensor.add_int_val(7);
  tensor.add_int_val(9);
  mlir::DenseElementsAttr attr = convertTensor(tensor, &ctx, error);
  ASSERT_TRUE(attr) << error;
  std::vector<int32_t> got(attr.getValues<int32_t>().begin(),
                                   attr.getValues<int32_t>().end());
  EXPECT_EQ(got, std::vector<int32_t>({7, 9, 9, 9, 9}));
}

TEST_F(TensorConversionTest, EmptyValueListIsZeros) {
  auto tensor = makeTensor(tensorflow::DT_INT64, {3});
  mlir::DenseElementsAttr attr = convertTensor(tensor, &ctx, error);
  ASSERT_TRUE(attr) << error;
  std::vector<int64_t> got(attr.getValues<int64_t>().begin(),
                                   attr.getValues<int64_t>().end());
  EXPECT_EQ(got, std::vector<int64_t>({0, 0, 0}));
}

TEST_F(TensorConversionTest, Uint8IsUnsignedAndBoolIsI1) {
  auto u8 = makeTensor(tensorflow::DT_UINT8, {2});
  u8.add_int_val(200);
  u8.add_int_val(3);
  mlir::DenseElementsAttr attr = convertTensor(u8, &ctx, error);
  ASSERT_TRUE(attr) << error;
  EXPECT_TRUE(attr.getElementType().isUnsignedInteger(8));
  std::vector<uint8_t> bytes(attr.getValues<uint8_t>().begin(),
                                   attr.getValues<uint8_t>().end());
  EXPECT_EQ(bytes, std::vector<uint8_t>({200, 3}));

  auto flags = makeTensor(tensorflow::DT_BOOL, {3});
  flags.set_tensor_content(std::string("\x01\x00\x01", 3));
  attr = convertTensor(flags, &ctx, error);
  ASSERT_TRUE(attr) << error;
  EXPECT_TRUE(attr.getElementType().isInteger(1));
  std::vector<bool> got(attr.getValues<bool>().begin(),
                                   attr.getValues<bool>().end());
  EXPECT_EQ(got, std::vector<bool>({true, false, true}));
}

TEST_F(TensorConversionTest, HalfValuesKeepTheirBits) {
  auto tensor = makeTensor(tensorflow::DT_HALF, {2});
  tensor.add_half_val(0x3C00); // 1.0
  tensor.add_half_val(0xC000); // -2.0
  mlir::DenseElementsAttr attr = convertTensor(tensor, &ctx, error);
  ASSERT_TRUE(attr) << error;
  EXPECT_TRUE(attr.getElementType().isF16());
  auto values = llvm::to_vector(attr.getValues<llvm::APFloat>());
  EXPECT_EQ(values[0].convertToDouble(), 1.0);
  EXPECT_EQ(values[1].convertToDouble(), -2.0);
}

TEST_F(TensorConversionTest, ScalarShape) {
  auto tensor = makeTensor(tensorflow::DT_DOUBLE, {});
  tensor.add_double_val(0.125);
  mlir::DenseElementsAttr attr = convertTensor(tensor, &ctx, error);
  ASSERT_TRUE(attr) << error;
  EXPECT_EQ(mlir::cast<mlir::ShapedType>(attr.getType()).getRank(), 0);
  EXPECT_EQ(*attr.getValues<double>().begin(), 0.125);
}

TEST_F(TensorConversionTest, RejectsWrongContentSize) {
  auto tensor = makeTensor(tensorflow::DT_FLOAT, {3});
  tensor.set_tensor_content(std::string(8, '\0'));
  EXPECT_FALSE(convertTensor(tensor, &ctx, error));
  EXPECT_EQ(error, "tensor_content has 8 bytes, expected 12 for shape and dtype");
}

TEST_F(TensorConversionTest, RejectsTooManyValues) {
  auto tensor = makeTensor(tensorflow::DT_FLOAT, {1});
  tensor.add_float_val(1);
  tensor.add_float_val(2);
  EXPECT_FALSE(convertTensor(tensor, &ctx, error));
  EXPECT_EQ(error, "has 2 values but its shape holds 1");
}

TEST_F(TensorConversionTest, RejectsUnsupportedDtypeAndHugeShapes) {
  auto strings = makeTensor(tensorflow::DT_STRING, {1});
  EXPECT_FALSE(convertTensor(strings, &ctx, error));
  EXPECT_EQ(error, "has unsupported dtype DT_STRING");

  auto huge = makeTensor(tensorflow::DT_FLOAT, {1 << 30, 1 << 30});
  EXPECT_FALSE(convertTensor(huge, &ctx, error));
  EXPECT_EQ(error, "has an invalid or too large shape");
}

TEST_F(TensorConversionTest, DataTypesRoundTrip) {
  for (tensorflow::DataType type :
       {tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE, tensorflow::DT_HALF,
        tensorflow::DT_BFLOAT16, tensorflow::DT_INT8, tensorflow::DT_INT16,
        tensorflow::DT_INT32, tensorflow::DT_INT64, tensorflow::DT_UINT8,
        tensorflow::DT_UINT16, tensorflow::DT_UINT32, tensorflow::DT_UINT64,
        tensorflow::DT_BOOL}) {
    mlir::Type element = convertDataType(type, &ctx);
    ASSERT_TRUE(element) << tensorflow::DataType_Name(type);
    EXPECT_EQ(convertElementType(element), type);
  }
  EXPECT_FALSE(convertDataType(tensorflow::DT_STRING, &ctx));
  EXPECT_FALSE(convertDataType(tensorflow::DT_RESOURCE, &ctx));
}

} // namespace
