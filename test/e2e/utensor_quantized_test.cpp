//===- utensor_quantized_test.cpp - TF's eight-bit graphs vs TensorFlow ---===//
// SPDX-License-Identifier: Apache-2.0
//
// uTensor's test_quant_<op>.pb graphs are the float test graphs after TF's
// quantize_graph (eightbit mode): QuantizeV2, QuantizedConv2D,
// QuantizedMatMul, RequantizationRange, Requantize, QuantizedRelu,
// QuantizedMaxPool, QuantizedReshape, QuantizedAdd and Dequantize on quint8
// tensors. The corpus keeps TensorFlow's output of the *float* graph
// (output_<name>.idx), so each compiled quantized graph is checked against
// it with a tolerance derived from the data: the error 8-bit quantization
// can introduce and no more (see the bounds below).
//
// Those bounds are worst cases over K products and would let a zero point
// off by one pass, so the contractions are also checked exactly against a
// reference written here from TensorFlow's published kernel formulas
// (quantization_utils.h: FloatToQuantizedUnclamped, QuantizedToFloat,
// RequantizeManyInNewRangeReference, DEQUANTIZE_WITH_EIGEN), run on the
// quint8 constants and ranges read from the GraphDef with protobuf.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "check.h"
#include "corpus.h"
#include "graph.h"
#include "idx.h"

#include "utensor_quant_conv.h"
#include "utensor_quant_linreg.h"
#include "utensor_quant_matmul.h"
#include "utensor_quant_max_pool_1.h"
#include "utensor_quant_max_pool_2.h"
#include "utensor_quant_max_pool_3.h"
#include "utensor_quant_max_pool_4.h"
#include "utensor_quant_max_pool_5.h"
#include "utensor_quant_max_pool_6.h"
#include "utensor_quant_quantized_add.h"
#include "utensor_quant_relu.h"
#include "utensor_quant_reshape_1.h"
#include "utensor_quant_reshape_2.h"
#include "utensor_quant_reshape_3.h"
#include "utensor_quant_reshape_4.h"

namespace {

using tfaot_e2e::IdxArray;
using tfaot_e2e::LoadUtensorOpIdx;

/// One quantization step of `a` as quantize_graph quantizes it: 255 steps
/// over its range widened to include 0.
double Step(const IdxArray &a) {
  double lo = 0, hi = 0;
  for (double v : a.values) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return (hi - lo) / 255.0;
}

double MaxAbs(const IdxArray &a) {
  double m = 0;
  for (double v : a.values)
    m = std::max(m, std::fabs(v));
  return m;
}

// Why these bounds hold. A float v quantized MIN_FIRST over a range with
// step s and dequantized again moves by at most s/2 (rounding to the
// nearest level) plus s/2 (TF snaps the range's minimum to a multiple of
// s so that 0.0 is exact): |error| <= s.
//
//  - Ops that only move or select quantized values (Relu, MaxPool,
//    Reshape) add no error of their own: bound Step(x).
//  - A contraction sum_k x_k * w_k over K terms of quantized x (error <=
//    sx) and w (<= sw) is exact in int32, so it is off by at most
//    K * (max|w| sx + max|x| sw + sx sw). Requantizing it to 8 bits over
//    the range RequantizationRange measures, and dequantizing, adds one
//    output step (as above) plus the fixed-point rounding of Requantize's
//    16-bit scale factors, far below half a step: 1.5 output steps.
//  - QuantizedAdd requantizes both inputs into a 32-bit range (error
//    ~2^-15 of the larger input range, negligible), adds, and the sum is
//    requantized to 8 bits: Step(x) + Step(y) + 1.5 output steps.
double ContractionBound(const IdxArray &x, const IdxArray &w, int64_t k,
                        const IdxArray &expected) {
  double sx = Step(x), sw = Step(w);
  return k * (MaxAbs(w) * sx + MaxAbs(x) * sw + sx * sw) +
         1.5 * Step(expected);
}

/// `quantization_shows`: whether 8 bits cannot represent the float result,
/// so that some element must differ from TF's float output (a float path
/// would match it); false where the data is exact in 8 bits.
template <typename Fn>
void CheckAgainstFloatGraph(Fn &fn, const std::string &op_dir,
                            const std::string &out_idx, double atol,
                            bool quantization_shows = true) {
  ASSERT_EQ(Fn::kNumResults, 1);
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  const IdxArray expected = LoadUtensorOpIdx(op_dir, out_idx);
  ASSERT_FALSE(expected.values.empty());
  EXPECT_TRUE(tfaot_e2e::ResultMatchesIdx(fn, 0, expected, atol, 0))
      << "allowed error " << atol;
  if (!quantization_shows)
    return;
  const float *result = static_cast<const float *>(fn.result_data(0));
  int64_t moved = 0;
  for (size_t i = 0; i < expected.values.size(); ++i)
    moved += std::fabs(result[i] - expected.values[i]) > 1e-6;
  EXPECT_GT(moved, 0) << "no element differs from the float graph's output";
}

/// A graph whose inputs are all Const nodes; `atol` from the bounds above.
template <typename Fn>
void CheckConstGraph(const std::string &op_dir, const std::string &out_idx,
                     double atol, bool quantization_shows = true) {
  static_assert(Fn::kNumArgs == 0, "inputs are Consts");
  Fn fn;
  CheckAgainstFloatGraph(fn, op_dir, out_idx, atol, quantization_shows);
}

TEST(UtensorQuantized, Relu) {
  CheckConstGraph<e2e::utensor::QuantRelu>(
      "relu", "output_relu.idx", Step(LoadUtensorOpIdx("relu", "x_0.idx")));
}

TEST(UtensorQuantized, Reshape1) {
  CheckConstGraph<e2e::utensor::QuantReshape1>(
      "reshape_1", "output_x.idx", Step(LoadUtensorOpIdx("reshape_1", "x_0.idx")));
}

TEST(UtensorQuantized, Reshape4) {
  CheckConstGraph<e2e::utensor::QuantReshape4>(
      "reshape_4", "output_x.idx", Step(LoadUtensorOpIdx("reshape_4", "x_0.idx")));
}

template <typename Fn>
void CheckPool(const std::string &op_dir, const std::string &out_idx,
               bool quantization_shows = true) {
  CheckConstGraph<Fn>(op_dir, out_idx, Step(LoadUtensorOpIdx(op_dir, "x_0.idx")),
                      quantization_shows);
}

TEST(UtensorQuantized, MaxPool1) {
  CheckPool<e2e::utensor::QuantMaxPool1>("max_pool_1", "output_pool.idx");
}
TEST(UtensorQuantized, MaxPool2) {
  CheckPool<e2e::utensor::QuantMaxPool2>("max_pool_2", "output_max_pool_2.idx");
}
TEST(UtensorQuantized, MaxPool3) {
  CheckPool<e2e::utensor::QuantMaxPool3>("max_pool_3", "output_max_pool_3.idx");
}
TEST(UtensorQuantized, MaxPool4) {
  CheckPool<e2e::utensor::QuantMaxPool4>("max_pool_4", "output_max_pool_4.idx");
}
TEST(UtensorQuantized, MaxPool5) {
  CheckPool<e2e::utensor::QuantMaxPool5>("max_pool_5", "output_max_pool_5.idx");
}
TEST(UtensorQuantized, MaxPool6) {
  // x holds the integers 0..255 over the range [0, 255]: exact in 8 bits.
  CheckPool<e2e::utensor::QuantMaxPool6>("max_pool_6", "output_max_pool_6.idx",
                                         /*quantization_shows=*/false);
}

TEST(UtensorQuantized, Conv2D) {
  // x [3,5,5,3], filter [3,3,3,2]: K = 3 * 3 * 3 products per output.
  const IdxArray x = LoadUtensorOpIdx("conv", "x_0.idx");
  const IdxArray w = LoadUtensorOpIdx("conv", "w_filter_0.idx");
  const IdxArray expected = LoadUtensorOpIdx("conv", "output_conv.idx");
  ASSERT_EQ(w.dims.size(), 4u);
  int64_t k = w.dims[0] * w.dims[1] * w.dims[2];
  CheckConstGraph<e2e::utensor::QuantConv>(
      "conv", "output_conv.idx", ContractionBound(x, w, k, expected));
}

TEST(UtensorQuantized, MatMul) {
  const IdxArray x = LoadUtensorOpIdx("matmul", "x_0.idx");
  const IdxArray w = LoadUtensorOpIdx("matmul", "w_0.idx");
  const IdxArray expected = LoadUtensorOpIdx("matmul", "output_z.idx");
  CheckConstGraph<e2e::utensor::QuantMatmul>(
      "matmul", "output_z.idx", ContractionBound(x, w, w.dims[0], expected));
}

TEST(UtensorQuantized, LinRegMatMulThenFloatAdd) {
  // yhat = Dequantize(QuantizedMatMul(X, W)) + b. W is ~1e-8 here, so the
  // product vanishes next to b and quantization cannot show.
  const IdxArray x = LoadUtensorOpIdx("linreg", "X_0.idx");
  const IdxArray w = LoadUtensorOpIdx("linreg", "W_0.idx");
  const IdxArray expected = LoadUtensorOpIdx("linreg", "output_yhat.idx");
  CheckConstGraph<e2e::utensor::QuantLinreg>(
      "linreg", "output_yhat.idx", ContractionBound(x, w, w.dims[0], expected),
      /*quantization_shows=*/false);
}

TEST(UtensorQuantized, QuantizedAddOfRuntimeQuantizedInputs) {
  // x and y are quantized by QuantizeV2 over ranges Min/Max measure.
  const IdxArray x = LoadUtensorOpIdx("quantized_add", "x_0.idx");
  const IdxArray y = LoadUtensorOpIdx("quantized_add", "y_0.idx");
  const IdxArray z = LoadUtensorOpIdx("quantized_add", "output_z.idx");
  CheckConstGraph<e2e::utensor::QuantQuantizedAdd>(
      "quantized_add", "output_z.idx", Step(x) + Step(y) + 1.5 * Step(z));
}

// reshape_2 / reshape_3: x is a Placeholder, quantized at run time by
// QuantizeV2 over the range Min/Max of x measure, then QuantizedMatMul.
template <typename Fn>
void CheckFedMatMul(const std::string &op_dir) {
  static_assert(Fn::kNumArgs == 1, "x is fed");
  const IdxArray x = LoadUtensorOpIdx(op_dir, "input_x.idx");
  const IdxArray w = LoadUtensorOpIdx(op_dir, "w_0.idx");
  const IdxArray expected = LoadUtensorOpIdx(op_dir, "output_y.idx");
  ASSERT_EQ(x.dims, (std::vector<int64_t>{Fn::kArg0Shape[0], Fn::kArg0Shape[1]}));
  const std::vector<float> xf = x.AsFloats();
  Fn fn;
  std::copy(xf.begin(), xf.end(), fn.arg0_data());
  CheckAgainstFloatGraph(fn, op_dir, "output_y.idx",
                         ContractionBound(x, w, w.dims[0], expected));
}

TEST(UtensorQuantized, Reshape2FedQuantizeV2MatMul) {
  CheckFedMatMul<e2e::utensor::QuantReshape2>("reshape_2");
}

TEST(UtensorQuantized, Reshape3FedQuantizeV2MatMul) {
  CheckFedMatMul<e2e::utensor::QuantReshape3>("reshape_3");
}


//===----------------------------------------------------------------------===//
// Exact reference: TensorFlow's eight-bit kernels, scalar code
//===----------------------------------------------------------------------===//

/// A quint8 tensor and its float range, as the graph stores it.
struct Quint8Tensor {
  std::vector<int64_t> dims;
  std::vector<uint8_t> values;
  float min = 0, max = 0;
};

float ConstScalar(const tensorflow::GraphDef &graph, const std::string &name) {
  tfaot_e2e::FloatTensor t;
  std::string error;
  EXPECT_TRUE(tfaot_e2e::GetConstFloat(graph, name, &t, &error)) << error;
  return t.values.empty() ? NAN : t.values[0];
}

/// Inputs `data`, `min`, `max` of `node` (quint8 Const and float Consts).
Quint8Tensor ConstQuint8(const tensorflow::GraphDef &graph,
                         const tensorflow::NodeDef &node, int data, int min,
                         int max) {
  Quint8Tensor out;
  const tensorflow::NodeDef *c = tfaot_e2e::FindNode(graph, node.input(data));
  EXPECT_TRUE(c && c->op() == "Const") << node.input(data);
  if (!c)
    return out;
  const tensorflow::TensorProto &t = c->attr().at("value").tensor();
  EXPECT_EQ(t.dtype(), tensorflow::DT_QUINT8);
  for (const auto &d : t.tensor_shape().dim())
    out.dims.push_back(d.size());
  out.values.assign(t.tensor_content().begin(), t.tensor_content().end());
  out.min = ConstScalar(graph, node.input(min));
  out.max = ConstScalar(graph, node.input(max));
  return out;
}

const tensorflow::NodeDef *NodeWithOp(const tensorflow::GraphDef &graph,
                                      const std::string &op) {
  for (const tensorflow::NodeDef &node : graph.node())
    if (node.op() == op)
      return &node;
  return nullptr;
}

/// FloatToQuantizedUnclamped<quint8>(0.0f, min, max).
int64_t ZeroPoint(float min, float max) {
  if (min == max)
    return 0;
  const double steps = 256.0;
  const double range = (max - min) * (steps / (steps - 1.0));
  const double scale = steps / range;
  return static_cast<int64_t>(std::round(0.0f * scale) - std::round(min * scale));
}

/// QuantizedToFloat<qint32>(q, min, max).
float Qint32ToFloat(int32_t q, float min, float max) {
  if (min == max)
    return min;
  const double steps = 4294967296.0;
  const double range = (max - min) * (steps / (steps - 1.0));
  const double scale = range / steps;
  const double offset = static_cast<double>(q) - static_cast<double>(INT32_MIN);
  const double min_rounded = std::round(min / static_cast<float>(scale)) *
                             static_cast<float>(scale);
  return static_cast<float>(min_rounded + offset * scale);
}

/// RequantizeManyInNewRangeReference (qint32 -> quint8, 16-bit fixed point).
std::vector<uint8_t> Requantize(const std::vector<int32_t> &in, float in_min,
                                float in_max, float out_min, float out_max) {
  const int shift = 16;
  const float in_range = in_max - in_min;
  const float out_range = out_max - out_min;
  const float recip = out_range == 0.0 ? 0.0 : (255.0 / out_range);
  const float rezero = (in_min + in_max) / 2.0;
  const int64_t scale_fp =
      out_range == 0.0
          ? 0
          : static_cast<int64_t>(255.0 * (1 << shift) * in_range / out_range);
  const int64_t in_offset_fp = static_cast<int64_t>(rezero * recip * (1 << shift));
  const int64_t out_offset_fp =
      out_range == 0.0
          ? 0
          : static_cast<int64_t>((1 << shift) * (out_min * 255.0) / out_range);
  std::vector<uint8_t> out;
  for (int32_t v : in) {
    int64_t fp = ((int64_t(v) * scale_fp) >> 32) + in_offset_fp;
    int64_t q = (fp - out_offset_fp + (1 << (shift - 1))) >> shift;
    out.push_back(static_cast<uint8_t>(std::min<int64_t>(255, std::max<int64_t>(0, q))));
  }
  return out;
}

/// RequantizationRange + Requantize + Dequantize (MIN_FIRST, the Eigen
/// formula) of a qint32 product whose inputs had ranges a and b.
std::vector<float> RequantizeAndDequantize(const std::vector<int32_t> &acc,
                                           const Quint8Tensor &a,
                                           const Quint8Tensor &b) {
  // QuantizationRangeForMultiplication<quint8, quint8, qint32>.
  const float unit = ((a.max - a.min) / 255.0f) * ((b.max - b.min) / 255.0f);
  const float acc_min = unit * static_cast<float>(INT32_MIN);
  const float acc_max = unit * static_cast<float>(INT32_MAX);
  const auto [lo, hi] = std::minmax_element(acc.begin(), acc.end());
  const float used_min = std::min(0.0f, Qint32ToFloat(*lo, acc_min, acc_max));
  const float used_max = Qint32ToFloat(*hi, acc_min, acc_max);
  std::vector<uint8_t> q = Requantize(acc, acc_min, acc_max, used_min, used_max);
  const float scale = (used_max - used_min) / 255.0;
  const float min_rounded = used_max == used_min
                                ? used_min
                                : std::round(used_min / scale) * scale;
  std::vector<float> out;
  for (uint8_t v : q)
    out.push_back(min_rounded + static_cast<float>(v) * scale);
  return out;
}

tensorflow::GraphDef LoadQuantGraph(const std::string &op_dir,
                                    const std::string &file) {
  tensorflow::GraphDef graph;
  std::string error;
  EXPECT_TRUE(tfaot_e2e::LoadGraphDef(
      tfaot_e2e::CorpusPath("frozen/utensor/ops/" + op_dir + "/" + file),
      &graph, &error))
      << error;
  return graph;
}

template <typename Fn>
void ExpectExactly(Fn &fn, const std::vector<float> &expected) {
  ASSERT_EQ(static_cast<size_t>(Fn::kResult0Elements), expected.size());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  const float *result = static_cast<const float *>(fn.result_data(0));
  int mismatches = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    if (result[i] != expected[i] && ++mismatches <= 5)
      ADD_FAILURE() << "element " << i << ": " << result[i] << ", TF's "
                    << "kernels give " << expected[i];
  EXPECT_EQ(mismatches, 0);
}

TEST(UtensorQuantized, Conv2DMatchesTfKernelsExactly) {
  const tensorflow::GraphDef graph = LoadQuantGraph("conv", "test_quant_conv.pb");
  const tensorflow::NodeDef *conv = NodeWithOp(graph, "QuantizedConv2D");
  ASSERT_NE(conv, nullptr);
  ASSERT_EQ(conv->attr().at("padding").s(), "VALID");
  const auto &strides = conv->attr().at("strides").list().i();
  const Quint8Tensor x = ConstQuint8(graph, *conv, 0, 2, 3);
  const Quint8Tensor w = ConstQuint8(graph, *conv, 1, 4, 5);
  ASSERT_EQ(x.dims.size(), 4u);
  ASSERT_EQ(w.dims.size(), 4u);
  const int64_t n = x.dims[0], h = x.dims[1], wd = x.dims[2], c = x.dims[3];
  const int64_t kh = w.dims[0], kw = w.dims[1], f = w.dims[3];
  const int64_t sh = strides[1], sw = strides[2];
  const int64_t oh = (h - kh) / sh + 1, ow = (wd - kw) / sw + 1;
  const int64_t zx = ZeroPoint(x.min, x.max), zw = ZeroPoint(w.min, w.max);
  std::vector<int32_t> acc;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        for (int64_t o = 0; o < f; ++o) {
          int64_t sum = 0;
          for (int64_t u = 0; u < kh; ++u)
            for (int64_t v = 0; v < kw; ++v)
              for (int64_t ch = 0; ch < c; ++ch) {
                int64_t xv = x.values[((b * h + i * sh + u) * wd + j * sw + v) * c + ch];
                int64_t wv = w.values[((u * kw + v) * c + ch) * f + o];
                sum += (xv - zx) * (wv - zw);
              }
          acc.push_back(static_cast<int32_t>(sum));
        }
  e2e::utensor::QuantConv fn;
  ExpectExactly(fn, RequantizeAndDequantize(acc, x, w));
}

TEST(UtensorQuantized, MatMulMatchesTfKernelsExactly) {
  const tensorflow::GraphDef graph =
      LoadQuantGraph("matmul", "test_quant_matmul.pb");
  const tensorflow::NodeDef *mm = NodeWithOp(graph, "QuantizedMatMul");
  ASSERT_NE(mm, nullptr);
  const Quint8Tensor a = ConstQuint8(graph, *mm, 0, 2, 3);
  const Quint8Tensor b = ConstQuint8(graph, *mm, 1, 4, 5);
  ASSERT_EQ(a.dims.size(), 2u);
  ASSERT_EQ(b.dims.size(), 2u);
  ASSERT_EQ(a.dims[1], b.dims[0]);
  const int64_t m = a.dims[0], k = a.dims[1], n = b.dims[1];
  const int64_t za = ZeroPoint(a.min, a.max), zb = ZeroPoint(b.min, b.max);
  std::vector<int32_t> acc;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int64_t p = 0; p < k; ++p)
        sum += (int64_t(a.values[i * k + p]) - za) *
               (int64_t(b.values[p * n + j]) - zb);
      acc.push_back(static_cast<int32_t>(sum));
    }
  e2e::utensor::QuantMatmul fn;
  ExpectExactly(fn, RequantizeAndDequantize(acc, a, b));
}

}  // namespace
