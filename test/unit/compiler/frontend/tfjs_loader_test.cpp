//===- tfjs_loader_test.cpp - TF.js graph model loading -------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Writes small model.json + shard files into a temporary directory and checks
// the decoded Const values bit for bit (float32, int32, bool, string,
// uint8/uint16 affine quantization, float16 with subnormals/inf/NaN, a
// weight split across two shards, several manifest groups), the signature,
// how the signature combines with the user's feeds and fetches, and the
// errors for broken models.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/TfjsLoader.h"

#include "test/unit/compiler/TempDirTest.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

using namespace tfaot;

namespace {

/// Little-endian byte builder for shard contents.
struct Bytes {
  std::string data;
  template <typename T> Bytes &put(T value) {
    char raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    data.append(raw, sizeof(T));
    return *this;
  }
  Bytes &f32(std::initializer_list<float> v) {
    for (float x : v)
      put(x);
    return *this;
  }
  Bytes &i32(std::initializer_list<int32_t> v) {
    for (int32_t x : v)
      put(x);
    return *this;
  }
  Bytes &u16(std::initializer_list<uint16_t> v) {
    for (uint16_t x : v)
      put(x);
    return *this;
  }
  Bytes &u8(std::initializer_list<uint8_t> v) {
    for (uint8_t x : v)
      put(x);
    return *this;
  }
  Bytes &str(const std::string &s) {
    put(uint32_t(s.size()));
    data += s;
    return *this;
  }
};

/// A Const node as the TF.js converter writes it: value stripped.
std::string constNode(const std::string &name, const std::string &dtype,
                      std::initializer_list<int> dims) {
  std::string shape;
  for (int d : dims)
    shape += std::string(shape.empty() ? "" : ",") + "{\"size\":\"" +
             std::to_string(d) + "\"}";
  return "{\"name\":\"" + name + "\",\"op\":\"Const\",\"attr\":{\"dtype\":{" +
         "\"type\":\"" + dtype + "\"},\"value\":{\"tensor\":{\"dtype\":\"" +
         dtype + "\",\"tensorShape\":{\"dim\":[" + shape + "]}}}}}";
}

class TfjsLoaderTest : public TempDirTest {
protected:
  TfjsLoaderTest() : TempDirTest("tfaot-tfjs-test") {}
  std::optional<tensorflow::GraphDef>
  load(const std::string &json,
       tensorflow::tf2xla::Config *signature = nullptr) {
    write("model.json", json);
    GraphDiagnostics diags("model.json", os);
    auto graph = loadTfjsModel(path("model.json"), diags, signature);
    errors = diags.errorCount();
    return graph;
  }
  bool said(const std::string &text) {
    return messages.find(text) != std::string::npos;
  }

  /// The value tensor of Const `name`.
  static const tensorflow::TensorProto &value(const tensorflow::GraphDef &g,
                                              const std::string &name) {
    for (const auto &node : g.node())
      if (node.name() == name)
        return node.attr().at("value").tensor();
    ADD_FAILURE() << "no node " << name;
    static tensorflow::TensorProto none;
    return none;
  }
  template <typename T>
  static std::vector<T> values(const tensorflow::TensorProto &t) {
    std::vector<T> out(t.tensor_content().size() / sizeof(T));
    std::memcpy(out.data(), t.tensor_content().data(), out.size() * sizeof(T));
    return out;
  }
  static uint32_t bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
  }

  int errors = 0;
};

/// A model with every weight kind, in two groups; group 0's data is split
/// over two shards in the middle of weight "span".
std::string fullModel() {
  return R"({
  "format": "graph-model",
  "generatedBy": "test",
  "modelTopology": {"node": [
    {"name": "x", "op": "Placeholder", "attr": {"dtype": {"type": "DT_FLOAT"}}},
    )" + constNode("f", "DT_FLOAT", {2, 2}) +
         ",\n    " + constNode("i", "DT_INT32", {3}) + ",\n    " +
         constNode("span", "DT_FLOAT", {2}) + ",\n    " +
         constNode("b", "DT_BOOL", {3}) + ",\n    " +
         constNode("q8", "DT_FLOAT", {4}) + ",\n    " +
         constNode("q8inexact", "DT_FLOAT", {2}) + ",\n    " +
         constNode("q8int", "DT_INT32", {4}) + ",\n    " +
         constNode("q16", "DT_FLOAT", {2}) + ",\n    " +
         constNode("h", "DT_FLOAT", {7}) + ",\n    " +
         constNode("s", "DT_STRING", {2}) + R"(
  ], "versions": {"producer": 1}},
  "weightsManifest": [
    {"paths": ["g0-shard1of2.bin", "g0-shard2of2.bin"], "weights": [
      {"name": "f", "shape": [2, 2], "dtype": "float32"},
      {"name": "i", "shape": [3], "dtype": "int32"},
      {"name": "span", "shape": [2], "dtype": "float32"}]},
    {"paths": ["g1.bin"], "weights": [
      {"name": "b", "shape": [3], "dtype": "bool"},
      {"name": "q8", "shape": [4], "dtype": "float32",
       "quantization": {"dtype": "uint8", "min": -1.0, "scale": 0.5, "original_dtype": "float32"}},
      {"name": "q8inexact", "shape": [2], "dtype": "float32",
       "quantization": {"dtype": "uint8", "min": -0.3, "scale": 0.1}},
      {"name": "q8int", "shape": [4], "dtype": "int32",
       "quantization": {"dtype": "uint8", "min": -2, "scale": 0.5, "original_dtype": "int32"}},
      {"name": "q16", "shape": [2], "dtype": "float32",
       "quantization": {"dtype": "uint16", "min": 0, "scale": 0.25}},
      {"name": "h", "shape": [7], "dtype": "float32",
       "quantization": {"dtype": "float16", "original_dtype": "float32"}},
      {"name": "s", "shape": [2], "dtype": "string"}]}
  ]
})";
}

class TfjsValues : public TfjsLoaderTest {
protected:
  void writeShards() {
    Bytes g0;
    g0.f32({1.5f, -2.25f, 3.0e-8f, 1e30f}).i32({7, -1, 2147483647});
    g0.f32({0.1f, -42.0f});
    // Split 6 bytes into "span": its first element straddles the shards.
    size_t split = g0.data.size() - 8 + 2;
    write("g0-shard1of2.bin", g0.data.substr(0, split));
    write("g0-shard2of2.bin", g0.data.substr(split));
    Bytes g1;
    g1.u8({1, 0, 2});      // b
    g1.u8({0, 1, 2, 255}); // q8
    g1.u8({3, 0});         // q8inexact
    g1.u8({0, 1, 3, 5});   // q8int: -2, -1.5, -0.5, 0.5
    g1.u16({0, 65535});    // q16
    // h: 1, subnormals 2^-24 and 1023 * 2^-24, +-inf, -0, NaN (payload 1)
    g1.u16({0x3c00, 0x0001, 0x03ff, 0x7c00, 0xfc00, 0x8000, 0x7e01});
    g1.str("ab").str(""); // s
    g1Bytes = g1.data;
    write("g1.bin", g1.data);
  }
  std::string g1Bytes;
};

TEST_F(TfjsValues, DecodesEveryWeightKind) {
  writeShards();
  auto graph = load(fullModel());
  ASSERT_TRUE(graph) << messages;
  EXPECT_EQ(errors, 0);
  EXPECT_EQ(messages, "");
  EXPECT_EQ(graph->node_size(), 11);
  EXPECT_EQ(graph->versions().producer(), 1);

  const auto &f = value(*graph, "f");
  EXPECT_EQ(f.dtype(), tensorflow::DT_FLOAT);
  ASSERT_EQ(f.tensor_shape().dim_size(), 2);
  EXPECT_EQ(f.tensor_shape().dim(0).size(), 2);
  EXPECT_EQ(f.tensor_shape().dim(1).size(), 2);
  EXPECT_EQ(values<float>(f),
            (std::vector<float>{1.5f, -2.25f, 3.0e-8f, 1e30f}));

  const auto &i = value(*graph, "i");
  EXPECT_EQ(i.dtype(), tensorflow::DT_INT32);
  EXPECT_EQ(values<int32_t>(i), (std::vector<int32_t>{7, -1, 2147483647}));

  EXPECT_EQ(values<float>(value(*graph, "span")),
            (std::vector<float>{0.1f, -42.0f}));

  const auto &b = value(*graph, "b");
  EXPECT_EQ(b.dtype(), tensorflow::DT_BOOL);
  EXPECT_EQ(b.tensor_content(), std::string("\1\0\1", 3));

  // q * scale + min.
  EXPECT_EQ(values<float>(value(*graph, "q8")),
            (std::vector<float>{-1.0f, -0.5f, 0.0f, 126.5f}));
  // Computed in double and rounded once, as TF.js (JavaScript) does:
  // 3 * 0.1 - 0.3 is 5.55e-17 in double, not 0 as it would be in float.
  auto inexact = values<float>(value(*graph, "q8inexact"));
  ASSERT_EQ(inexact.size(), 2u);
  double scaled = 3 * 0.1; // Separate statements: no FMA contraction.
  EXPECT_EQ(bits(inexact[0]), bits(float(scaled + -0.3)));
  EXPECT_NE(inexact[0], 0.0f);
  EXPECT_EQ(bits(inexact[1]), bits(float(-0.3)));
  // int32 weights are rounded like Math.round: halves towards +infinity.
  const auto &q8int = value(*graph, "q8int");
  EXPECT_EQ(q8int.dtype(), tensorflow::DT_INT32);
  EXPECT_EQ(values<int32_t>(q8int), (std::vector<int32_t>{-2, -1, 0, 1}));
  EXPECT_EQ(values<float>(value(*graph, "q16")),
            (std::vector<float>{0.0f, 16383.75f}));

  auto h = values<float>(value(*graph, "h"));
  ASSERT_EQ(h.size(), 7u);
  EXPECT_EQ(h[0], 1.0f);
  EXPECT_EQ(h[1], std::ldexp(1.0f, -24));    // Smallest subnormal.
  EXPECT_EQ(h[2], std::ldexp(1023.0f, -24)); // Largest subnormal.
  EXPECT_EQ(h[3], std::numeric_limits<float>::infinity());
  EXPECT_EQ(h[4], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(bits(h[5]), 0x80000000u); // -0.0
  EXPECT_EQ(bits(h[6]), 0x7fc02000u); // NaN, payload kept.

  const auto &s = value(*graph, "s");
  EXPECT_EQ(s.dtype(), tensorflow::DT_STRING);
  ASSERT_EQ(s.string_val_size(), 2);
  EXPECT_EQ(s.string_val(0), "ab");
  EXPECT_EQ(s.string_val(1), "");
}

TEST(HalfToFloat, ExactConversions) {
  EXPECT_EQ(halfToFloat(0x0000), 0.0f);
  EXPECT_TRUE(std::signbit(halfToFloat(0x8000)));
  EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfToFloat(0xc000), -2.0f);
  EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(halfToFloat(0x0400), std::ldexp(1.0f, -14)); // Smallest normal.
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x8001), -std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x0200), std::ldexp(1.0f, -15));
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
  EXPECT_TRUE(std::isnan(halfToFloat(0xfc01)));
  // Every finite half round-trips through float -> half (to nearest even).
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00)
      continue;
    float f = halfToFloat(uint16_t(h));
    _Float16 back = (_Float16)f;
    uint16_t backBits;
    std::memcpy(&backBits, &back, 2);
    ASSERT_EQ(backBits, h) << std::hex << h;
  }
}

TEST_F(TfjsValues, MissingShard) {
  writeShards();
  llvm::sys::fs::remove(path("g0-shard2of2.bin"));
  EXPECT_FALSE(load(fullModel()));
  EXPECT_TRUE(said("model.json: error: cannot read weights shard "
                   "'g0-shard2of2.bin' ("))
      << messages;
  EXPECT_TRUE(said("g0-shard2of2.bin): No such file or directory")) << messages;
}

TEST_F(TfjsValues, ShortShard) {
  writeShards();
  // Cut the last shard inside the float16 weight 'h'.
  write("g1.bin", g1Bytes.substr(0, 3 + 4 + 2 + 4 + 4 + 5));
  EXPECT_FALSE(load(fullModel()));
  EXPECT_EQ(errors, 1);
  // Group 0 holds 36 bytes; 'h' starts at 36 + 17 = 53 and takes 14.
  EXPECT_TRUE(said("model.json: error: weight 'h' (float32 [7]) needs bytes "
                   "53 to 67 of the weight data, but the shards hold only 58 "
                   "bytes ('g0-shard1of2.bin' 30 bytes, 'g0-shard2of2.bin' 6 "
                   "bytes, 'g1.bin' 22 bytes): a shard is missing or "
                   "truncated"))
      << messages;
}

TEST_F(TfjsValues, ShortStringWeight) {
  writeShards();
  write("g1.bin", g1Bytes.substr(0, g1Bytes.size() - 5)); // Inside "ab".
  EXPECT_FALSE(load(fullModel()));
  EXPECT_TRUE(said("error: weight 's' (string [2])")) << messages;
  EXPECT_TRUE(said("a shard is missing or truncated")) << messages;
}

TEST_F(TfjsValues, ExtraBytesWarn) {
  writeShards();
  write("g1.bin", g1Bytes + "xyz");
  EXPECT_TRUE(load(fullModel())) << messages;
  EXPECT_TRUE(said("model.json: warning: the weight shards hold 80 bytes, "
                   "but the weights manifest uses only 77"))
      << messages;
}

TEST_F(TfjsLoaderTest, MalformedJsonGivesPosition) {
  EXPECT_FALSE(
      load("{\"format\": \"graph-model\",\n  \"modelTopology\": {]\n}"));
  EXPECT_TRUE(said("model.json: error: cannot parse JSON: line 2:"))
      << messages;
}

TEST_F(TfjsLoaderTest, LayersModelRejected) {
  EXPECT_FALSE(load(R"({"format": "layers-model", "modelTopology": {}})"));
  EXPECT_TRUE(said("error: not a TF.js graph model: \"format\" is "
                   "'layers-model'"))
      << messages;
}

TEST_F(TfjsLoaderTest, TopologyThatIsNotAGraphDef) {
  EXPECT_FALSE(load(R"({"modelTopology": {"node": [{"name": 3}]}})"));
  EXPECT_TRUE(said("error: cannot read \"modelTopology\" as a GraphDef: "))
      << messages;
}

TEST_F(TfjsLoaderTest, ConstWithoutWeightAndWeightWithoutConst) {
  write("w.bin", Bytes().f32({1, 2}).data);
  EXPECT_FALSE(load(R"({"modelTopology": {"node": [)" +
                    constNode("orphan", "DT_FLOAT", {2}) + "," +
                    constNode("empty", "DT_FLOAT", {0, 3}) + R"(]},
    "weightsManifest": [{"paths": ["w.bin"], "weights": [
      {"name": "extra", "shape": [2], "dtype": "float32"}]}]})"));
  EXPECT_TRUE(said("model.json: warning: weight 'extra' matches no Const node "
                   "of that name; ignored"))
      << messages;
  EXPECT_TRUE(said("model.json: error: node 'orphan' (Const): has no value: "
                   "the weights manifest has no weight of this name"))
      << messages;
  // A Const with no elements needs no data.
  EXPECT_FALSE(said("'empty'")) << messages;
  EXPECT_EQ(errors, 1);
}

TEST_F(TfjsLoaderTest, UnsupportedDtypes) {
  write("w.bin", std::string(64, '\0'));
  EXPECT_FALSE(load(R"({"modelTopology": {"node": [)" +
                    constNode("c", "DT_COMPLEX64", {2}) + "," +
                    constNode("q", "DT_FLOAT", {2}) + "," +
                    constNode("h", "DT_INT32", {2}) + R"(]},
    "weightsManifest": [{"paths": ["w.bin"], "weights": [
      {"name": "c", "shape": [2], "dtype": "complex64"},
      {"name": "h", "shape": [2], "dtype": "int32", "quantization": {"dtype": "float16"}},
      {"name": "q", "shape": [2], "dtype": "float32", "quantization": {"dtype": "int4"}}]}]})"));
  EXPECT_TRUE(said("error: weight 'c': dtype complex64 is not supported"))
      << messages;
  EXPECT_TRUE(said("error: weight 'h': float16 quantization of a int32 weight "
                   "is not supported"))
      << messages;
  EXPECT_TRUE(said("error: weight 'q': unsupported quantization dtype 'int4'"))
      << messages;
}

TEST_F(TfjsLoaderTest, QuantizationWithoutScale) {
  write("w.bin", std::string(2, '\0'));
  EXPECT_FALSE(load(R"({"modelTopology": {"node": [)" +
                    constNode("q", "DT_FLOAT", {2}) + R"(]},
    "weightsManifest": [{"paths": ["w.bin"], "weights": [
      {"name": "q", "shape": [2], "dtype": "float32", "quantization": {"dtype": "uint8", "min": 0}}]}]})"));
  EXPECT_TRUE(said("error: weight 'q': uint8 quantization needs \"min\" and "
                   "\"scale\""))
      << messages;
}

TEST_F(TfjsLoaderTest, WeightShapeMustMatchNode) {
  write("w.bin", Bytes().f32({1, 2, 3}).data);
  EXPECT_FALSE(load(R"({"modelTopology": {"node": [)" +
                    constNode("w", "DT_FLOAT", {2}) + R"(]},
    "weightsManifest": [{"paths": ["w.bin"], "weights": [
      {"name": "w", "shape": [3], "dtype": "float32"}]}]})"));
  EXPECT_TRUE(said("error: node 'w' (Const): the weight's shape [3] differs "
                   "from the node's value shape [2]"))
      << messages;
}

TEST_F(TfjsLoaderTest, ConstsInLibraryFunctions) {
  write("w.bin", Bytes().f32({4}).data);
  auto graph = load(R"({"modelTopology": {"node": [],
    "library": {"function": [{"signature": {"name": "fn"}, "nodeDef": [)" +
                    constNode("k", "DT_FLOAT", {}) + R"(]}]}},
    "weightsManifest": [{"paths": ["w.bin"], "weights": [
      {"name": "k", "shape": [], "dtype": "float32"}]}]})");
  ASSERT_TRUE(graph) << messages;
  const auto &k =
      graph->library().function(0).node_def(0).attr().at("value").tensor();
  EXPECT_EQ(values<float>(k), std::vector<float>{4});
}

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

std::string signatureModel(const std::string &where) {
  std::string signature = R"("signature": {
    "inputs": {
      "b:0": {"name": "b:0", "dtype": "DT_INT32", "tensorShape": {"dim": [{"size": "2"}]}},
      "a": {"name": "a:0", "dtype": "DT_FLOAT", "tensorShape": {"dim": [{"size": "-1"}, {"size": "4"}]}},
      "c:0": {"name": "c:0", "dtype": "DT_FLOAT", "tensorShape": {}},
      "d:0": {"name": "d:0", "dtype": "DT_FLOAT", "tensorShape": {"unknownRank": true}}
    },
    "outputs": {
      "z:0": {"name": "z:0", "dtype": "DT_FLOAT"},
      "renamed": {"name": "y:1", "dtype": "DT_FLOAT"},
      "x": {"name": "x"}
    }})";
  if (where == "userDefinedMetadata")
    signature = "\"userDefinedMetadata\": {" + signature + "}";
  return R"({"format": "graph-model", "modelTopology": {"node": []},
    )" + signature +
         "}";
}

void expectSignature(const tensorflow::tf2xla::Config &config) {
  ASSERT_EQ(config.feed_size(), 4);
  // Sorted by key: "a", "b:0", "c:0", "d:0".
  EXPECT_EQ(config.feed(0).id().node_name(), "a");
  EXPECT_EQ(config.feed(0).id().output_index(), 0);
  EXPECT_EQ(config.feed(0).type(), tensorflow::DT_FLOAT);
  ASSERT_EQ(config.feed(0).shape().dim_size(), 2);
  EXPECT_EQ(config.feed(0).shape().dim(0).size(), -1);
  EXPECT_EQ(config.feed(0).shape().dim(1).size(), 4);
  EXPECT_EQ(config.feed(1).id().node_name(), "b");
  EXPECT_EQ(config.feed(1).type(), tensorflow::DT_INT32);
  EXPECT_TRUE(config.feed(2).has_shape()); // A scalar.
  EXPECT_EQ(config.feed(2).shape().dim_size(), 0);
  EXPECT_FALSE(config.feed(3).has_shape());
  // Outputs in the order the JSON lists them; the tensor name, not the key.
  ASSERT_EQ(config.fetch_size(), 3);
  EXPECT_EQ(config.fetch(0).id().node_name(), "z");
  EXPECT_EQ(config.fetch(1).id().node_name(), "y");
  EXPECT_EQ(config.fetch(1).id().output_index(), 1);
  EXPECT_EQ(config.fetch(2).id().node_name(), "x");
  EXPECT_EQ(config.fetch(2).id().output_index(), 0);
}

TEST_F(TfjsLoaderTest, TopLevelSignature) {
  tensorflow::tf2xla::Config config;
  ASSERT_TRUE(load(signatureModel("top"), &config)) << messages;
  expectSignature(config);
}

TEST_F(TfjsLoaderTest, UserDefinedMetadataSignature) {
  tensorflow::tf2xla::Config config;
  ASSERT_TRUE(load(signatureModel("userDefinedMetadata"), &config)) << messages;
  expectSignature(config);
}

TEST_F(TfjsLoaderTest, NoSignature) {
  tensorflow::tf2xla::Config config;
  config.add_fetch();
  ASSERT_TRUE(load(R"({"modelTopology": {"node": []}})", &config));
  EXPECT_EQ(config.feed_size(), 0);
  EXPECT_EQ(config.fetch_size(), 0);
}

class ApplySignature : public ::testing::Test {
protected:
  ApplySignature() : os(messages), diags("m.json", os) {
    auto *x = signature.add_feed();
    x->mutable_id()->set_node_name("x");
    x->set_type(tensorflow::DT_FLOAT);
    for (int d : {-1, 64, 64, 3})
      x->mutable_shape()->add_dim()->set_size(d);
    auto *y = signature.add_feed();
    y->mutable_id()->set_node_name("y");
    y->set_type(tensorflow::DT_INT32);
    for (int d : {-1, -1})
      y->mutable_shape()->add_dim()->set_size(d);
    signature.add_fetch()->mutable_id()->set_node_name("out");
  }
  static std::vector<int64_t> dims(const tensorflow::tf2xla::Feed &feed) {
    std::vector<int64_t> out;
    for (const auto &d : feed.shape().dim())
      out.push_back(d.size());
    return out;
  }
  tensorflow::tf2xla::Config signature, config;
  std::string messages;
  llvm::raw_string_ostream os;
  GraphDiagnostics diags;
};

TEST_F(ApplySignature, NothingGivenTakesAllWithBatchOne) {
  applyTfjsSignature(signature, config, diags);
  ASSERT_EQ(config.feed_size(), 2);
  EXPECT_EQ(dims(config.feed(0)), (std::vector<int64_t>{1, 64, 64, 3}));
  // Unknown beyond the batch: left for the importer to ask for a shape.
  EXPECT_EQ(dims(config.feed(1)), (std::vector<int64_t>{-1, -1}));
  ASSERT_EQ(config.fetch_size(), 1);
  EXPECT_EQ(config.fetch(0).id().node_name(), "out");
  EXPECT_EQ(messages,
            "m.json: warning: feed 'x' has shape [-1,64,64,3]; compiling for "
            "batch 1 (give --feed x:N,64,64,3 to choose)\n");
  EXPECT_EQ(diags.errorCount(), 0);
}

TEST_F(ApplySignature, FetchOnlyTakesFeeds) {
  config.add_fetch()->mutable_id()->set_node_name("inner");
  applyTfjsSignature(signature, config, diags);
  ASSERT_EQ(config.fetch_size(), 1);
  EXPECT_EQ(config.fetch(0).id().node_name(), "inner");
  EXPECT_EQ(config.feed_size(), 2);
}

TEST_F(ApplySignature, UserFeedOverridesShape) {
  auto *feed = config.add_feed();
  feed->mutable_id()->set_node_name("x");
  for (int d : {4, 64, 64, 3})
    feed->mutable_shape()->add_dim()->set_size(d);
  applyTfjsSignature(signature, config, diags);
  ASSERT_EQ(config.feed_size(), 2); // No duplicate.
  EXPECT_EQ(config.feed(0).id().node_name(), "x");
  EXPECT_EQ(dims(config.feed(0)), (std::vector<int64_t>{4, 64, 64, 3}));
  EXPECT_EQ(config.feed(0).type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(config.feed(1).id().node_name(), "y");
  EXPECT_EQ(config.fetch_size(), 1);
  EXPECT_EQ(messages, ""); // The user chose the batch.
}

TEST_F(ApplySignature, UserFeedWithoutShapeKeepsSignatureShape) {
  config.add_feed()->mutable_id()->set_node_name("x");
  applyTfjsSignature(signature, config, diags);
  ASSERT_EQ(config.feed_size(), 2);
  EXPECT_EQ(dims(config.feed(0)), (std::vector<int64_t>{1, 64, 64, 3}));
  EXPECT_NE(messages.find("compiling for batch 1"), std::string::npos);
}

TEST_F(ApplySignature, FeedingAnotherNodeKeepsUserFeeds) {
  config.add_feed()->mutable_id()->set_node_name("x");
  config.add_feed()->mutable_id()->set_node_name("features");
  applyTfjsSignature(signature, config, diags);
  ASSERT_EQ(config.feed_size(), 2);
  EXPECT_EQ(config.feed(0).id().node_name(), "x");
  EXPECT_FALSE(config.feed(0).has_shape());
  EXPECT_EQ(config.feed(1).id().node_name(), "features");
  EXPECT_EQ(messages, "");
}

} // namespace
