//===- header_writer_test.cpp - Generated header naming rules -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Accessor names come from feed/fetch names, which may hold any characters
// and may collide once sanitized; the header must still compile.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/HeaderWriter.h"

#include <gtest/gtest.h>

using namespace tfaot;

namespace {

TensorSignature makeTensor(const std::string &name,
                           tensorflow::DataType dtype,
                           std::vector<int64_t> shape) {
  TensorSignature t;
  t.name = name;
  t.node = name;
  t.dtype = dtype;
  t.shape = std::move(shape);
  return t;
}

TEST(HeaderWriter, ClassNames) {
  EXPECT_TRUE(isValidCppClassName("Model"));
  EXPECT_TRUE(isValidCppClassName("a::b_2::Model"));
  EXPECT_FALSE(isValidCppClassName(""));
  EXPECT_FALSE(isValidCppClassName("a::"));
  EXPECT_FALSE(isValidCppClassName("2fast"));
  EXPECT_FALSE(isValidCppClassName("a:b"));
  EXPECT_FALSE(isValidCppClassName("my-model"));
}

TEST(HeaderWriter, SanitizesNames) {
  EXPECT_EQ(sanitizeIdentifier("scope/dense:0"), "scope_dense_0");
  EXPECT_EQ(sanitizeIdentifier("plain_name1"), "plain_name1");
}

TEST(HeaderWriter, CollidingAccessorsGetSuffixes) {
  FunctionSignature sig;
  sig.args.push_back(makeTensor("a/b", tensorflow::DT_FLOAT, {2}));
  sig.args.push_back(makeTensor("a_b", tensorflow::DT_INT32, {}));
  sig.results.push_back(makeTensor("out", tensorflow::DT_UINT8, {3, 4}));
  HeaderOptions options;
  options.cppClass = "ns::M";
  options.entrySymbol = "entry_sym";
  options.sourceGraph = "g.pb";
  options.tempBytes = 40;
  options.arenaBytes = 40;
  options.naiveTempBytes = 100;
  options.peakLiveBytes = 36;
  std::string header, error;
  ASSERT_TRUE(writeHeader(sig, options, header, error)) << error;
  EXPECT_NE(header.find("float* arg_a_b_data()"), std::string::npos);
  EXPECT_NE(header.find("int32_t* arg_a_b_2_data()"), std::string::npos);
  EXPECT_NE(header.find("uint8_t* result_out_data()"), std::string::npos);
  // A scalar has rank 0 and one element.
  EXPECT_NE(header.find("static constexpr int kArg1Rank = 0;"), std::string::npos);
  EXPECT_NE(header.find("static constexpr int64_t kArg1Elements = 1;"),
            std::string::npos);
  EXPECT_NE(header.find("static constexpr size_t kResult0Bytes = 12;"),
            std::string::npos);
  // Two arguments, one result, then the arena.
  EXPECT_NE(header.find("extern \"C\" void entry_sym(void*, void*, void*, void*);"),
            std::string::npos);
  EXPECT_NE(header.find("entry_sym(args[0], args[1], results[0], temp);"),
            std::string::npos);
  EXPECT_NE(header.find("static constexpr size_t kTempBytes = 40;"),
            std::string::npos);
  EXPECT_NE(header.find("//   temporary: 40 bytes in one arena (kTempBytes)"),
            std::string::npos);
  EXPECT_NE(header.find("//              plan: 100 bytes if every temporary "
                        "had its own buffer,\n"
                        "//              36 bytes live at most at once"),
            std::string::npos);
  EXPECT_EQ(header.find("heap-allocated"), std::string::npos);
}

TEST(HeaderWriter, NoArenaArgumentWithoutTemporaries) {
  FunctionSignature sig;
  sig.args.push_back(makeTensor("x", tensorflow::DT_FLOAT, {2}));
  sig.results.push_back(makeTensor("y", tensorflow::DT_FLOAT, {2}));
  HeaderOptions options;
  options.cppClass = "M";
  options.entrySymbol = "entry_sym";
  std::string header, error;
  ASSERT_TRUE(writeHeader(sig, options, header, error)) << error;
  EXPECT_NE(header.find("extern \"C\" void entry_sym(void*, void*);"),
            std::string::npos);
  EXPECT_NE(header.find("entry_sym(args[0], results[0]);"), std::string::npos);
  EXPECT_NE(header.find("static constexpr size_t kTempBytes = 0;"),
            std::string::npos);
}

TEST(HeaderWriter, ReportsUnplannedHeapTemporaries) {
  FunctionSignature sig;
  sig.results.push_back(makeTensor("y", tensorflow::DT_FLOAT, {2}));
  HeaderOptions options;
  options.cppClass = "M";
  options.entrySymbol = "entry_sym";
  options.tempBytes = 96;  // 64 in the arena, 32 left on the heap.
  options.arenaBytes = 64;
  std::string header, error;
  ASSERT_TRUE(writeHeader(sig, options, header, error)) << error;
  EXPECT_NE(header.find("static constexpr size_t kTempBytes = 64;"),
            std::string::npos);
  EXPECT_NE(header.find("plus at most 32 bytes heap-allocated during Run()"),
            std::string::npos);
}

TEST(HeaderWriter, RejectsBadClassAndUnsupportedDtypes) {
  FunctionSignature sig;
  HeaderOptions options;
  options.cppClass = "not valid";
  std::string header, error;
  EXPECT_FALSE(writeHeader(sig, options, header, error));
  EXPECT_EQ(error, "--cpp_class 'not valid' is not a C++ class name like 'ns::Name'");

  sig.results.push_back(makeTensor("s", tensorflow::DT_STRING, {1}));
  options.cppClass = "M";
  EXPECT_FALSE(writeHeader(sig, options, header, error));
  EXPECT_EQ(error, "'s' has dtype DT_STRING, which the generated API does not support");
}

TEST(HeaderWriter, StringArgumentsTakeBytes) {
  FunctionSignature sig;
  sig.args.push_back(makeTensor("contents", tensorflow::DT_STRING, {}));
  sig.results.push_back(makeTensor("image", tensorflow::DT_UINT8, {2, 2, 3}));
  HeaderOptions options;
  options.cppClass = "M";
  options.entrySymbol = "entry_sym";
  std::string header, error;
  ASSERT_TRUE(writeHeader(sig, options, header, error)) << error;
  // Pointer and length, stored by the base class; the buffer is the
  // 16-byte tfaot::Bytes descriptor, dtype 7 (DT_STRING).
  EXPECT_NE(header.find("  bool set_arg_contents_data(const void* data, "
                        "size_t size) {\n    return set_arg_bytes(0, data, "
                        "size);\n  }"),
            std::string::npos);
  EXPECT_NE(header.find("static constexpr size_t kArg0Bytes = 16;"),
            std::string::npos);
  EXPECT_NE(header.find("tfaot::Bytes* arg_contents_data()"),
            std::string::npos);
  EXPECT_NE(header.find("{\"contents\", static_cast<tfaot::DType>(7), 0"),
            std::string::npos);
  EXPECT_NE(header.find("// String arguments (string[]"), std::string::npos);
  EXPECT_NE(header.find("//   fn.set_arg0_data(jpeg_bytes, jpeg_size);"),
            std::string::npos);
  // No single-pointer setter: it would read like setting the bytes.
  EXPECT_EQ(header.find("void set_arg_contents_data(const void* data)"),
            std::string::npos);
}

} // namespace
