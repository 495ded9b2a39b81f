//===- graph_loader_test.cpp - --feed/--fetch flags and dtype names -------===//
// SPDX-License-Identifier: Apache-2.0
//
// The flag forms are the user's first contact with tfaot; these tests pin
// their parsing and their error messages.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/GraphLoader.h"

#include <gtest/gtest.h>

using namespace tfaot;

namespace {

class FlagTest : public ::testing::Test {
protected:
  FlagTest() : os(messages), diags("graph.pb", os) {}
  std::string messages;
  llvm::raw_string_ostream os;
  GraphDiagnostics diags;
  tensorflow::tf2xla::Config config;
};

TEST_F(FlagTest, FeedWithShapeAndDtype) {
  ASSERT_TRUE(addFeedFlag("x:1,784:float32", config, diags));
  ASSERT_EQ(config.feed_size(), 1);
  const auto &feed = config.feed(0);
  EXPECT_EQ(feed.id().node_name(), "x");
  ASSERT_EQ(feed.shape().dim_size(), 2);
  EXPECT_EQ(feed.shape().dim(0).size(), 1);
  EXPECT_EQ(feed.shape().dim(1).size(), 784);
  EXPECT_EQ(feed.type(), tensorflow::DT_FLOAT);
}

TEST_F(FlagTest, FeedNameOnlyAndScalar) {
  ASSERT_TRUE(addFeedFlag("a", config, diags));
  EXPECT_FALSE(config.feed(0).has_shape());
  ASSERT_TRUE(addFeedFlag("b::int32", config, diags));
  EXPECT_TRUE(config.feed(1).has_shape());
  EXPECT_EQ(config.feed(1).shape().dim_size(), 0);
  EXPECT_EQ(config.feed(1).type(), tensorflow::DT_INT32);
}

TEST_F(FlagTest, FeedErrors) {
  EXPECT_FALSE(addFeedFlag("x:1,q", config, diags));
  EXPECT_FALSE(addFeedFlag("x:1:complex7", config, diags));
  EXPECT_FALSE(addFeedFlag(":1", config, diags));
  EXPECT_EQ(diags.errorCount(), 3);
  EXPECT_NE(messages.find("graph.pb: error: bad --feed 'x:1,q': dimension 'q' "
                          "is not a size (use -1 for unknown)"),
            std::string::npos)
      << messages;
  EXPECT_NE(messages.find("unknown dtype 'complex7'"), std::string::npos);
}

TEST_F(FlagTest, FetchIndex) {
  ASSERT_TRUE(addFetchFlag("scope/node:2", config, diags));
  EXPECT_EQ(config.fetch(0).id().node_name(), "scope/node");
  EXPECT_EQ(config.fetch(0).id().output_index(), 2);
  ASSERT_TRUE(addFetchFlag("plain", config, diags));
  EXPECT_EQ(config.fetch(1).id().output_index(), 0);
  EXPECT_FALSE(addFetchFlag("bad:-1", config, diags));
  EXPECT_FALSE(addFetchFlag(":0", config, diags));
}

TEST_F(FlagTest, FeedOutputIndexZero) {
  // TF's tensor name x:0: the 0 is the output index, whatever follows.
  ASSERT_TRUE(addFeedFlag("x:0", config, diags));
  EXPECT_EQ(config.feed(0).id().node_name(), "x");
  EXPECT_FALSE(config.feed(0).has_shape());
  ASSERT_TRUE(addFeedFlag("x:0:1,784", config, diags));
  ASSERT_EQ(config.feed(1).shape().dim_size(), 2);
  EXPECT_EQ(config.feed(1).shape().dim(1).size(), 784);
  ASSERT_TRUE(addFeedFlag("x:0:1,784:int32", config, diags));
  EXPECT_EQ(config.feed(2).type(), tensorflow::DT_INT32);
  // Any other number stays a one-dimensional shape.
  ASSERT_TRUE(addFeedFlag("x:5", config, diags));
  ASSERT_EQ(config.feed(3).shape().dim_size(), 1);
  EXPECT_EQ(config.feed(3).shape().dim(0).size(), 5);
  EXPECT_FALSE(addFeedFlag("x:0:1:float32:more", config, diags));
}

TEST_F(FlagTest, ConfigTensorNames) {
  config.add_fetch()->mutable_id()->set_node_name("logits:1");
  config.add_feed()->mutable_id()->set_node_name("x:0");
  config.add_fetch()->mutable_id()->set_node_name("plain");
  ASSERT_TRUE(splitConfigTensorNames(config, diags));
  EXPECT_EQ(config.fetch(0).id().node_name(), "logits");
  EXPECT_EQ(config.fetch(0).id().output_index(), 1);
  EXPECT_EQ(config.feed(0).id().node_name(), "x");
  EXPECT_EQ(config.fetch(1).id().node_name(), "plain");

  tensorflow::tf2xla::Config clash;
  auto *id = clash.add_fetch()->mutable_id();
  id->set_node_name("y:1");
  id->set_output_index(2);
  EXPECT_FALSE(splitConfigTensorNames(clash, diags));
  EXPECT_NE(messages.find("config fetch 'y:1' names output 1 but has "
                          "output_index 2"),
            std::string::npos)
      << messages;
}

TEST(TensorNames, NodeAndIndex) {
  auto expect = [](llvm::StringRef name, llvm::StringRef node, int64_t index,
                   bool hasIndex) {
    TensorName split = splitTensorName(name);
    EXPECT_EQ(split.node, node) << name.str();
    EXPECT_EQ(split.index, index) << name.str();
    EXPECT_EQ(split.hasIndex, hasIndex) << name.str();
  };
  expect("logits", "logits", 0, false);
  expect("logits:0", "logits", 0, true);
  expect("dense/BiasAdd:12", "dense/BiasAdd", 12, true);
  // No index: all node (no node has such a name).
  expect("x:", "x:", 0, false);
  expect(":1", ":1", 0, false);
  expect("x:-1", "x:-1", 0, false);
  expect("x:+1", "x:+1", 0, false);
  expect("x:1a", "x:1a", 0, false);
  expect("x:99999999999999999999", "x:99999999999999999999", 0, false);
  // Only the last ':' separates an index.
  expect("a:b:2", "a:b", 2, true);
  EXPECT_EQ(nodeOfInput("^a"), "a");
  EXPECT_EQ(nodeOfInput("a:1"), "a");
}

TEST(SuggestNames, ClosestOnly) {
  std::vector<std::vector<std::string>> nodes = {
      {"x"}, {"w"}, {"probs"}, {"model/dense/BiasAdd"}, {"prob_2"}};
  EXPECT_EQ(suggestNames("X", nodes), "; did you mean 'x'?");
  EXPECT_EQ(suggestNames("prob", nodes), "; did you mean 'probs'?");
  EXPECT_EQ(suggestNames("dense/BiasAdd", nodes),
            "; did you mean 'model/dense/BiasAdd'?");
  EXPECT_EQ(suggestNames("zzzzzz", nodes), "");
  // The names of one tensor come together; ties in the candidates' order.
  std::vector<std::vector<std::string>> keyed = {
      {"serving_default_x", "x"}, {"serving_default_y", "y"}};
  EXPECT_EQ(suggestNames("serving_default_z", keyed),
            "; did you mean 'serving_default_x', 'x', 'serving_default_y' or "
            "'y'?");
}

TEST(DataTypeNames, ParseAllSpellings) {
  EXPECT_EQ(parseDataType("float32"), tensorflow::DT_FLOAT);
  EXPECT_EQ(parseDataType("DT_FLOAT"), tensorflow::DT_FLOAT);
  EXPECT_EQ(parseDataType("float"), tensorflow::DT_FLOAT);
  EXPECT_EQ(parseDataType("uint8"), tensorflow::DT_UINT8);
  EXPECT_EQ(parseDataType("dt_int64"), tensorflow::DT_INT64);
  EXPECT_EQ(parseDataType("bool"), tensorflow::DT_BOOL);
  EXPECT_EQ(parseDataType("half"), tensorflow::DT_HALF);
  EXPECT_FALSE(parseDataType("string"));
  EXPECT_EQ(dataTypeName(tensorflow::DT_INT32), "int32");
  EXPECT_EQ(dataTypeName(tensorflow::DT_STRING), "DT_STRING");
}

} // namespace
