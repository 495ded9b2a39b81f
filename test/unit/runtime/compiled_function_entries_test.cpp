//===- compiled_function_entries_test.cpp - Buckets and string arguments -===//
// SPDX-License-Identifier: Apache-2.0
//
// FunctionInfo tables beyond one entry on numeric buffers: batch buckets
// (one entry per bucket, the smallest that holds the batch runs) and string
// (bytes) arguments, as a compiled DecodeJpeg takes.
//
//===----------------------------------------------------------------------===//

#include "compiled_function_test.h"

#include "tfaot/runtime/jpeg.h"

#include <cstdint>
#include <string>

namespace tfaot_runtime_test {
namespace {

//===----------------------------------------------------------------------===//
// Batch buckets
//===----------------------------------------------------------------------===//

// y = 2 * x over rows of two floats, with buckets of 1, 2 and 4 rows; each
// entry handles exactly its bucket's rows and records which one ran.
int64_t g_last_bucket = 0;

template <int64_t kRows>
void DoubleRows(void *const *args, void *const *results, void * /*temp*/) {
  g_last_bucket = kRows;
  const float *x = static_cast<const float *>(args[0]);
  float *y = static_cast<float *>(results[0]);
  for (int64_t i = 0; i < kRows * 2; ++i)
    y[i] = 2 * x[i];
}

constexpr int64_t kRows4x2[] = {4, 2};
const BufferInfo kRowsArgs[] = {{"x", DType::kFloat32, 2, kRows4x2, 8, 32}};
const BufferInfo kRowsResults[] = {{"y", DType::kFloat32, 2, kRows4x2, 8, 32}};
constexpr int64_t kBuckets[] = {1, 2, 4};
const tfaot::EntryFunction kBucketEntries[] = {DoubleRows<1>, DoubleRows<2>,
                                               DoubleRows<4>};
const FunctionInfo kBucketInfo = {
    "tfaot_test::Buckets", nullptr, 1, kRowsArgs, 1, kRowsResults, 0,
    3,                     kBuckets, kBucketEntries};

TEST(BatchBucketsTest, SmallestBucketThatHoldsTheBatchRuns) {
  CompiledFunction fn(kBucketInfo);
  EXPECT_EQ(fn.max_batch_size(), 4);
  EXPECT_EQ(fn.batch_size(), 4);  // Every row, by default.
  const int64_t expected_bucket[] = {0, 1, 2, 4, 4};
  for (int64_t batch = 1; batch <= 4; ++batch) {
    float *x = static_cast<float *>(fn.arg_data(0));
    for (int i = 0; i < 8; ++i)
      x[i] = 100.0f + i;  // Rows past the batch are garbage to be zeroed.
    ASSERT_TRUE(fn.set_batch_size(batch)) << fn.error_msg();
    EXPECT_EQ(fn.bucket_for_batch(), expected_bucket[batch]);
    ASSERT_TRUE(fn.Run()) << fn.error_msg();
    EXPECT_EQ(g_last_bucket, expected_bucket[batch]);
    const float *y = static_cast<const float *>(fn.result_data(0));
    for (int i = 0; i < batch * 2; ++i)
      EXPECT_EQ(y[i], 2 * (100.0f + i)) << "batch " << batch << " i " << i;
    // Padding rows inside the bucket were zeroed before the entry ran.
    for (int i = batch * 2; i < expected_bucket[batch] * 2; ++i)
      EXPECT_EQ(y[i], 0.0f) << "batch " << batch << " i " << i;
  }
}

TEST(BatchBucketsTest, CallerArgumentsAreNotWritten) {
  CompiledFunction fn(kBucketInfo);
  const float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_TRUE(fn.set_arg_data(0, x, sizeof(x)));
  ASSERT_TRUE(fn.set_batch_size(3));
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(g_last_bucket, 4);
  EXPECT_EQ(x[6], 7);  // The padding row is read as it is.
  EXPECT_EQ(static_cast<const float *>(fn.result_data(0))[7], 16);
}

TEST(BatchBucketsTest, OutOfRangeBatchIsRejected) {
  CompiledFunction fn(kBucketInfo);
  ASSERT_TRUE(fn.set_batch_size(2));
  EXPECT_FALSE(fn.set_batch_size(5));
  EXPECT_EQ(fn.error_msg(), "batch size 5 is out of range: "
                            "tfaot_test::Buckets takes 1 to 4");
  EXPECT_FALSE(fn.set_batch_size(0));
  EXPECT_EQ(fn.batch_size(), 2);  // Unchanged by the rejected calls.
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(g_last_bucket, 2);
}

TEST(BatchBucketsTest, FunctionsWithoutBucketsHaveAFixedBatch) {
  CompiledFunction fn(kAddInfo);
  EXPECT_EQ(fn.max_batch_size(), 0);
  EXPECT_FALSE(fn.set_batch_size(1));
  EXPECT_EQ(fn.error_msg(), "tfaot_test::Add was compiled without batch "
                            "buckets (tfaot compile --batch); its batch is "
                            "fixed");
}

// A function taking a string (bytes) argument, shaped like a compiled
// DecodeJpeg: the entry passes the descriptor on to the runtime's decoder,
// which reports a bad image through the per-thread error slot that Run()
// turns into false + error_msg().
const tfaot::Bytes *g_seen_bytes = nullptr;

void DecodeEntry(void *const *args, void *const *results, void *) {
  g_seen_bytes = static_cast<const tfaot::Bytes *>(args[0]);
  tfaot_rt_decode_jpeg(args[0], nullptr, static_cast<uint8_t *>(results[0]),
                       "DecodeJpeg 'd'", 2, 2, 1, 1, 0, 0, 0);
}

const BufferInfo kBytesArgs[] = {{"jpeg", DType::kString, 0, kVec0, 1, 16}};
const int64_t kImage[] = {2, 2, 1};
const BufferInfo kBytesResults[] = {{"image", DType::kUInt8, 3, kImage, 4, 4}};
const FunctionInfo kBytesInfo = {"tfaot_test::Decode", DecodeEntry, 1,
                                 kBytesArgs, 1, kBytesResults, 0};

TEST(BytesArgumentTest, UnsetUntilGivenInBothModes) {
  for (AllocMode mode : {AllocMode::kArgsAndResults, AllocMode::kResultsOnly}) {
    CompiledFunction fn(kBytesInfo, mode);
    EXPECT_FALSE(fn.Run());
    EXPECT_EQ(fn.error_msg(), "argument 0 ('jpeg') is not set: call "
                              "set_arg0_data(data, size) before Run()");
  }
}

TEST(BytesArgumentTest, TheEntryGetsTheDescriptor) {
  CompiledFunction fn(kBytesInfo);
  const char data[] = "not a jpeg";
  ASSERT_TRUE(fn.set_arg_bytes(0, data, 10));
  EXPECT_FALSE(fn.Run());
  ASSERT_NE(g_seen_bytes, nullptr);
  EXPECT_EQ(g_seen_bytes->data, data);
  EXPECT_EQ(g_seen_bytes->size, 10);
  EXPECT_EQ(fn.error_msg(), "DecodeJpeg 'd': JPEG is corrupt: Not a JPEG "
                            "file: starts with 0x6e 0x6f");
  // A caller-owned descriptor through set_arg_data() works the same way.
  tfaot::Bytes empty{data, 0};
  fn.set_arg_data(0, &empty);
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(g_seen_bytes, &empty);
  EXPECT_EQ(fn.error_msg(), "DecodeJpeg 'd': JPEG is empty (0 bytes)");
  EXPECT_FALSE(fn.set_arg_bytes(1, data, 10));
  EXPECT_EQ(fn.error_msg(), "argument index 1 is out of range: "
                            "tfaot_test::Decode has 1 argument");
}

TEST(BytesArgumentTest, OnlyStringArgumentsTakeBytes) {
  CompiledFunction fn(kAddInfo);
  EXPECT_FALSE(fn.set_arg_bytes(0, "x", 1));
  EXPECT_EQ(fn.error_msg(), "argument 0 ('x') is float32, not a string: set "
                            "it with set_arg_data()");
}

} // namespace
} // namespace tfaot_runtime_test
