//===- function_inliner_test.cpp - Inlining function-library calls --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Text-format graphs whose calls are inlined: body references translated to
// graph output numbers (single-output ops, multi-output ops from the
// built-in table, list outputs sized by the node's attributes from a
// stripped_op_list), nested calls, consumers and fetches of call outputs,
// and the errors for what cannot be inlined.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/FunctionInliner.h"

#include <gtest/gtest.h>

#include <google/protobuf/text_format.h>

using namespace tfaot;

namespace {

class FunctionInlinerTest : public ::testing::Test {
protected:
  FunctionInlinerTest() : os(messages) {}

  /// Inlines the calls of the text-format GraphDef `text`.
  bool inlineText(const std::string &text,
                  const tensorflow::OpList *opDefs = nullptr) {
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &graph));
    GraphDiagnostics diags("model", os);
    return inlineFunctionCalls(graph, opDefs, diags, outputs);
  }
  /// Expects `text` among the diagnostics printed so far.
  void expectMessage(const std::string &text) {
    EXPECT_NE(messages.find(text), std::string::npos) << messages;
  }
  const tensorflow::NodeDef *node(const std::string &name) {
    for (const auto &n : graph.node())
      if (n.name() == name)
        return &n;
    return nullptr;
  }
  std::vector<std::string> inputs(const std::string &name) {
    const tensorflow::NodeDef *n = node(name);
    return n ? std::vector<std::string>(n->input().begin(), n->input().end())
             : std::vector<std::string>{"<no node " + name + ">"};
  }

  tensorflow::GraphDef graph;
  InlinedOutputs outputs;
  std::string messages;
  llvm::raw_string_ostream os;
};

/// A function f(a) -> (first, second) whose outputs are outputs 1 of a
/// Split and 1 of a FusedBatchNormV3 ("batch_mean"), called by "call".
const char *multiOutput = R"pb(
  node { name: "x" op: "Placeholder" }
  node {
    name: "call" op: "StatefulPartitionedCall" input: "x" input: "^x"
    attr { key: "f" value { func { name: "f" } } }
  }
  node { name: "use" op: "Neg" input: "call:1" input: "^call" }
  library {
    function {
      signature {
        name: "f"
        input_arg { name: "a" }
        output_arg { name: "first" }
        output_arg { name: "second" }
      }
      node_def {
        name: "split" op: "Split" input: "axis:output:0" input: "a"
        attr { key: "num_split" value { i: 2 } }
      }
      node_def { name: "axis" op: "Const" }
      node_def {
        name: "bn" op: "FusedBatchNormV3" input: "a" input: "a" input: "a"
        input: "a" input: "a"
      }
      node_def { name: "neg" op: "Neg" input: "split:output:1" input: "^bn" }
      ret { key: "first" value: "neg:y:0" }
      ret { key: "second" value: "bn:batch_mean:0" }
    }
  }
)pb";

TEST_F(FunctionInlinerTest, TranslatesBodyReferences) {
  ASSERT_TRUE(inlineText(multiOutput)) << messages;
  EXPECT_EQ(graph.library().function_size(), 0);
  EXPECT_EQ(node("call"), nullptr);
  EXPECT_EQ(inputs("call/split"),
            (std::vector<std::string>{"call/axis", "x"}));
  EXPECT_EQ(inputs("call/neg"),
            (std::vector<std::string>{"call/split:1", "^call/bn"}));
  // Call output 1 is the FusedBatchNormV3's batch_mean (output 1); the
  // control edge on the call is gone with the call.
  EXPECT_EQ(inputs("use"), (std::vector<std::string>{"call/bn:1"}));
  EXPECT_EQ(outputs.resolve("call"), "call/neg");
  EXPECT_EQ(outputs.resolve("call:0"), "call/neg");
  EXPECT_EQ(outputs.resolve("call:1"), "call/bn:1");
  EXPECT_EQ(outputs.resolve("x"), "x");
}

TEST_F(FunctionInlinerTest, UsesTheStrippedOpList) {
  // "Pair" is unknown to tfaot: its layout (a list of N, then one tensor)
  // comes from the OpList, N from the node's attribute.
  tensorflow::OpList ops;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      R"pb(op {
             name: "Pair"
             output_arg { name: "many" number_attr: "N" }
             output_arg { name: "last" }
           })pb",
      &ops));
  ASSERT_TRUE(inlineText(R"pb(
    node {
      name: "call" op: "PartitionedCall"
      attr { key: "f" value { func { name: "g" } } }
    }
    library {
      function {
        signature { name: "g" output_arg { name: "out" } }
        node_def {
          name: "p" op: "Pair" attr { key: "N" value { i: 3 } }
        }
        ret { key: "out" value: "p:last:0" }
      }
    }
  )pb",
                         &ops))
      << messages;
  EXPECT_EQ(outputs.resolve("call:0"), "call/p:3");
}

TEST_F(FunctionInlinerTest, InlinesNestedCalls) {
  ASSERT_TRUE(inlineText(R"pb(
    node { name: "x" op: "Placeholder" }
    node {
      name: "outer" op: "PartitionedCall" input: "x"
      attr { key: "f" value { func { name: "wrapper" } } }
    }
    library {
      function {
        signature {
          name: "wrapper" input_arg { name: "a" } output_arg { name: "r" }
        }
        node_def { name: "inner" op: "layer" input: "a" }
        ret { key: "r" value: "inner:y:0" }
      }
      function {
        signature {
          name: "layer" input_arg { name: "b" } output_arg { name: "y" }
        }
        node_def { name: "relu" op: "Relu" input: "b" }
        ret { key: "y" value: "relu:activations:0" }
      }
    }
  )pb")) << messages;
  EXPECT_EQ(inputs("outer/inner/relu"), (std::vector<std::string>{"x"}));
  EXPECT_EQ(outputs.resolve("outer:0"), "outer/inner/relu");
}

TEST_F(FunctionInlinerTest, ReportsWhatItCannotInline) {
  auto reports = [&](const std::string &text, const std::string &error) {
    messages.clear();
    graph.Clear();
    EXPECT_FALSE(inlineText(text));
    expectMessage(error);
  };
  reports(R"pb(
            node {
              name: "call" op: "PartitionedCall"
              attr { key: "f" value { func { name: "missing" } } }
            }
          )pb",
          "node 'call' (PartitionedCall): calls function 'missing', which "
          "the function library does not define");
  reports(R"pb(
            node {
              name: "call" op: "PartitionedCall"
              attr { key: "f" value { func { name: "h" } } }
            }
            library {
              function {
                signature { name: "h" output_arg { name: "out" } }
                node_def { name: "w" op: "Mystery" }
                ret { key: "out" value: "w:second:0" }
              }
            }
          )pb",
          "node 'w' (Mystery): in function 'h': the output layout of op "
          "'Mystery' is unknown");
  reports(R"pb(
            node { name: "call" op: "self" }
            library {
              function {
                signature { name: "self" output_arg { name: "out" } }
                node_def { name: "again" op: "self" }
                ret { key: "out" value: "again:out:0" }
              }
            }
          )pb",
          "recursive functions are not supported");
}

// Found by tfaot-fuzz-savedmodel's first runs (a 187-byte saved_model.pb):
// a function calling itself twice doubled the graph at each of the 64
// levels the nesting limit allowed, and ran out of memory after a minute.
// Cycles are now reported before anything is inlined, direct or not.
TEST_F(FunctionInlinerTest, ReportsRecursionBeforeInlining) {
  EXPECT_FALSE(inlineText(R"pb(
    node { name: "x" op: "Placeholder" }
    node { name: "call" op: "f" input: "x" }
    library {
      function {
        signature { name: "f" input_arg { name: "a" } output_arg { name: "r" } }
        node_def { name: "c1" op: "f" input: "a" }
        node_def { name: "c2" op: "f" input: "c1:r:0" }
        ret { key: "r" value: "c2:r:0" }
      }
    }
  )pb"));
  expectMessage("node 'call' (f): calls function 'f', which is "
                          "recursive ('f' -> 'f'); recursive functions are "
                          "not supported");

  messages.clear();
  graph.Clear();
  EXPECT_FALSE(inlineText(R"pb(
    node {
      name: "call" op: "StatefulPartitionedCall"
      attr { key: "f" value { func { name: "outer" } } }
    }
    library {
      function {
        signature { name: "outer" output_arg { name: "r" } }
        node_def { name: "g" op: "g" }
        ret { key: "r" value: "g:r:0" }
      }
      function {
        signature { name: "g" output_arg { name: "r" } }
        node_def { name: "h" op: "h" }
        ret { key: "r" value: "h:r:0" }
      }
      function {
        signature { name: "h" output_arg { name: "r" } }
        node_def { name: "g" op: "g" }
        ret { key: "r" value: "g:r:0" }
      }
    }
  )pb"));
  expectMessage("calls function 'outer', which is recursive ('g' "
                          "-> 'h' -> 'g')");
  EXPECT_EQ(graph.node_size(), 1);
}

// Without recursion, calls that call others several times still multiply
// the graph at each level: here 1025 calls of a 1024-node function would
// make 1,049,600 nodes. The round is refused before it copies anything.
TEST_F(FunctionInlinerTest, LimitsTheInlinedGraphSize) {
  tensorflow::NodeDef &call = *graph.add_node();
  call.set_name("call");
  call.set_op("wide");
  auto addFunction = [&](const std::string &name, const std::string &op,
                         int nodes) {
    tensorflow::FunctionDef &fn = *graph.mutable_library()->add_function();
    fn.mutable_signature()->set_name(name);
    for (int i = 0; i < nodes; ++i) {
      tensorflow::NodeDef &node = *fn.add_node_def();
      node.set_name("n" + std::to_string(i));
      node.set_op(op);
    }
  };
  addFunction("wide", "leaf", 1025);
  addFunction("leaf", "Const", 1024);
  GraphDiagnostics diags("model", os);
  EXPECT_FALSE(inlineFunctionCalls(graph, nullptr, diags, outputs));
  expectMessage("node 'call/n0' (leaf): inlining the calls at "
                          "nesting depth 2 makes the graph 1049600 nodes, "
                          "more than the 1048576 tfaot accepts");
  EXPECT_EQ(graph.node_size(), 1025);
}

// Output numbers come from the file; "node:arg:i" adds i to the arg's
// offset, which a huge index or list length overflowed (UBSan, found by
// hand while fuzzing the SavedModel reader).
TEST_F(FunctionInlinerTest, RejectsOutputNumbersPastInt) {
  EXPECT_FALSE(inlineText(R"pb(
    node { name: "call" op: "f" }
    library {
      function {
        signature { name: "f" output_arg { name: "r" } }
        node_def { name: "bn" op: "FusedBatchNorm" }
        ret { key: "r" value: "bn:batch_mean:9223372036854775807" }
      }
    }
  )pb"));
  expectMessage("in function 'f': malformed reference "
                          "'bn:batch_mean:9223372036854775807'");

  tensorflow::OpList ops;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      R"pb(op {
             name: "Pair"
             output_arg { name: "many" number_attr: "N" }
             output_arg { name: "last" }
           })pb",
      &ops));
  messages.clear();
  graph.Clear();
  EXPECT_FALSE(inlineText(R"pb(
    node { name: "call" op: "g" }
    library {
      function {
        signature { name: "g" output_arg { name: "out" } }
        node_def {
          name: "p" op: "Pair"
          attr { key: "N" value { i: 9223372036854775807 } }
        }
        ret { key: "out" value: "p:last:1" }
      }
    }
  )pb",
                          &ops));
  expectMessage("node 'p' (Pair): in function 'g': attribute 'N' "
                          "(9223372036854775807) is not a valid length for "
                          "output 'many'");
}

} // namespace
