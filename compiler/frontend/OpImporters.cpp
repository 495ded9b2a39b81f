//===- OpImporters.cpp - One TensorFlow node to tfaot ops -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The table from TF op name to its importer (with the operand count and the
// dtype attribute the graph importer checks), the lookups on it, and
// NodeImportContext. The importers themselves live in one file per op
// family, declared in ImportHelpers.h: ImportElementwiseOps.cpp,
// ImportConstantOps.cpp, ImportShapeOps.cpp, ImportDataMovementOps.cpp,
// ImportGatherOps.cpp, ImportReductionOps.cpp, ImportCnnOps.cpp,
// ImportMathOps.cpp, ImportResizeOps.cpp, ImportImageOps.cpp and
// ImportQuantizedOps.cpp; ImportHelpers.cpp has the building blocks they
// share. The TensorList and TensorArrayV3 importers (ImportListOps.cpp) are
// declared in ImportListOps.h.
//
// Most ops map one to one: infer the result type from the operand types and
// the constant operands (shapes, axes, paddings), copy the TF attributes the
// tfaot op declares, build it. A few are rewritten on the way in:
//   - ExpandDims and Squeeze become Reshape (they only change the shape);
//   - Pad gets an explicit zero fill value, so Pad and PadV2 share one op;
//   - TF's fused ops (_FusedConv2D, FusedDepthwiseConv2dNative,
//     _FusedMatMul) are expanded into their parts (convolution, BiasAdd or
//     batch norm, activation), every part located at the fused node; the
//     graph passes fuse them again for code generation.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "compiler/frontend/ImportDataDependentOps.h"
#include "compiler/frontend/ImportHelpers.h"
#include "compiler/frontend/ImportListOps.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace mlir;
using namespace ::tfaot;

//===----------------------------------------------------------------------===//
// NodeImportContext
//===----------------------------------------------------------------------===//

NodeImportContext::NodeImportContext(const tensorflow::NodeDef &node,
                                     MutableArrayRef<Value> operands,
                                     OpBuilder &builder,
                                     GraphDiagnostics &diags)
    : node(node), operands(operands), builder(builder),
      loc(NameLoc::get(builder.getStringAttr(node.name()))), diags_(diags) {}

LogicalResult NodeImportContext::error(const llvm::Twine &message) const {
  diags_.nodeError(node.name(), node.op(), message);
  return failure();
}

const tensorflow::AttrValue *
NodeImportContext::attr(llvm::StringRef name) const {
  auto it = node.attr().find(name.str());
  return it == node.attr().end() ? nullptr : &it->second;
}

RankedTensorType NodeImportContext::typeOf(unsigned i) const {
  return cast<RankedTensorType>(operands[i].getType());
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

/// A dataflow control-flow node met outside the structuring: unreachable
/// when the importer works as designed, so say so rather than guess.
static FailureOr<Value> importUnstructured(NodeImportContext &ctx) {
  return ctx.error("is TF1 dataflow control flow outside a structured cond "
                   "or loop");
}

/// A NoOp has no output; only a fetch of it reaches its import.
static FailureOr<Value> importNoOp(NodeImportContext &ctx) {
  return ctx.error("is a NoOp: it has no output to fetch");
}

static const llvm::StringMap<OpSpec> &opTable() {
  static const llvm::StringMap<OpSpec> table = {
      {"Const", {importConst, 0, "", 0}},
      {"Placeholder", {nullptr, 0, "", 0}},
      {"Identity", {importSameType, 1, "T", 1}},
      {"PlaceholderWithDefault", {importPassThrough, 1, "dtype", 1}},
      {"StopGradient", {importPassThrough, 1, "T", 1}},
      // Elementwise.
      {"Add", {importBinary, 2, "T", 2}},
      {"AddV2", {importBinary, 2, "T", 2}},
      {"Sub", {importBinary, 2, "T", 2}},
      {"Mul", {importBinary, 2, "T", 2}},
      {"RealDiv", {importBinary, 2, "T", 2}},
      {"Div", {importDiv, 2, "T", 2}},
      {"Maximum", {importBinary, 2, "T", 2}},
      {"Minimum", {importBinary, 2, "T", 2}},
      {"SquaredDifference", {importBinary, 2, "T", 2}},
      {"FloorDiv", {importBinary, 2, "T", 2}},
      {"FloorMod", {importBinary, 2, "T", 2}},
      {"Pow", {importBinary, 2, "T", 2}},
      {"Greater", {importPredicate, 2, "T", 2}},
      {"GreaterEqual", {importPredicate, 2, "T", 2}},
      {"Less", {importPredicate, 2, "T", 2}},
      {"LessEqual", {importPredicate, 2, "T", 2}},
      {"Equal", {importPredicate, 2, "T", 2}},
      {"NotEqual", {importPredicate, 2, "T", 2}},
      {"LogicalAnd", {importPredicate, 2, "", 0}},
      {"LogicalOr", {importPredicate, 2, "", 0}},
      {"LogicalNot", {importSameType, 1, "", 0}},
      {"Select", {importSelect, 3, "T", 0}},
      {"SelectV2", {importSelect, 3, "T", 0}},
      {"Softplus", {importSameType, 1, "T", 1}},
      {"Selu", {importSameType, 1, "T", 1}},
      {"Round", {importSameType, 1, "T", 1}},
      {"Prelu", {importSameType, 2, "T", 2}},
      {"AddN", {importAddN, -1, "T", -1}},
      {"Relu", {importSameType, 1, "T", 1}},
      {"Relu6", {importSameType, 1, "T", 1}},
      {"Elu", {importSameType, 1, "T", 1}},
      {"LeakyRelu", {importSameType, 1, "T", 1}},
      {"Sigmoid", {importSameType, 1, "T", 1}},
      {"Tanh", {importSameType, 1, "T", 1}},
      {"Exp", {importSameType, 1, "T", 1}},
      {"Log", {importSameType, 1, "T", 1}},
      {"Sqrt", {importSameType, 1, "T", 1}},
      {"Rsqrt", {importSameType, 1, "T", 1}},
      {"Reciprocal", {importSameType, 1, "T", 1}},
      {"Floor", {importSameType, 1, "T", 1}},
      {"Neg", {importSameType, 1, "T", 1}},
      {"Abs", {importSameType, 1, "T", 1}},
      {"Square", {importSameType, 1, "T", 1}},
      {"Softmax", {importSameType, 1, "T", 1}},
      {"Cast", {importCast, 1, "SrcT", 1}},
      {"Dequantize", {importDequantize, 3, "", 0}},
      // TF's quantized kernels (ImportQuantizedOps.cpp); each quantized
      // tensor comes with its float range as two scalar inputs/outputs.
      {"QuantizeV2", {importQuantizeV2, 3, "", 0}},
      {"QuantizedConv2D", {importQuantizedContraction, 6, "", 0}},
      {"QuantizedMatMul", {importQuantizedContraction, 6, "", 0}},
      {"RequantizationRange", {importRequantizationRange, 3, "", 0}},
      {"Requantize", {importRequantize, 5, "", 0}},
      {"QuantizedRelu", {importQuantizedRelu, 3, "", 0}},
      {"QuantizedRelu6", {importQuantizedRelu, 3, "", 0}},
      {"QuantizedReshape", {importQuantizedReshape, 4, "", 0}},
      {"QuantizedMaxPool", {importQuantizedMaxPool, 3, "", 0}},
      {"QuantizedAdd", {importQuantizedAdd, 6, "", 0}},
      // Contractions, convolutions, pools.
      {"MatMul", {importMatMul, 2, "T", 2}},
      {"_FusedMatMul", {importFusedMatMul, -1, "T", -1}},
      {"BiasAdd", {importSameType, 2, "T", 2}},
      {"Conv2D", {importConvolution, 2, "T", 2}},
      {"DepthwiseConv2dNative", {importConvolution, 2, "T", 2}},
      {"_FusedConv2D", {importFusedConvolution, -1, "T", -1}},
      {"Conv2DBackpropInput", {importConv2DBackpropInput, 3, "T", 0}},
      {"DepthToSpace", {importDepthToSpace, 1, "T", 1}},
      {"FusedDepthwiseConv2dNative", {importFusedConvolution, -1, "T", -1}},
      {"MaxPool", {importPool, 1, "T", 1}},
      {"AvgPool", {importPool, 1, "T", 1}},
      // Shapes.
      {"Reshape", {importReshape, 2, "T", 1}},
      {"ExpandDims", {importExpandDims, 2, "T", 1}},
      {"Squeeze", {importSqueeze, 1, "T", 1}},
      {"Transpose", {importTranspose, 2, "T", 1}},
      {"Pad", {importPad, 2, "T", 1}},
      {"PadV2", {importPad, 3, "T", 1}},
      {"ConcatV2", {importConcat, -1, "T", -2}},
      {"Pack", {importPack, -1, "T", -1}},
      {"Split", {importSplit, 2, "", 0}},
      {"SplitV", {importSplitV, 3, "T", 1}},
      {"Unpack", {importUnpack, 1, "T", 1}},
      {"Tile", {importTile, 2, "T", 1}},
      {"Fill", {importFill, 2, "T", 0}},
      {"SparseToDense", {importSparseToDense, 4, "T", 0}},
      {"Range", {importRange, 3, "Tidx", 3}},
      {"Sin", {importSameType, 1, "T", 1}},
      {"Erf", {importSameType, 1, "T", 1}},
      {"Cos", {importSameType, 1, "T", 1}},
      {"Atan2", {importBinary, 2, "T", 2}},
      {"GatherV2", {importGatherV2, 3, "Tparams", 1}},
      {"GatherNd", {importGatherNd, 2, "Tparams", 1}},
      {"BatchMatMulV2", {importBatchMatMul, 2, "T", 2}},
      {"BatchMatMul", {importBatchMatMul, 2, "T", 2}},
      {"ZerosLike", {importFillLike, 1, "T", 1}},
      {"OnesLike", {importFillLike, 1, "T", 1}},
      {"StridedSlice", {importStridedSlice, 4, "T", 1}},
      {"Shape", {importShapeQuery, 1, "T", 1}},
      {"ResizeBilinear", {importResize, 2, "T", 1}},
      {"ResizeNearestNeighbor", {importResize, 2, "T", 1}},
      {"CropAndResize", {importCropAndResize, 4, "T", 1}},
      {"Size", {importShapeQuery, 1, "T", 1}},
      {"Rank", {importShapeQuery, 1, "T", 1}},
      // Fused RNN cells (ImportRnnOps.cpp), decomposed.
      {"LSTMBlockCell", {importLstmBlockCell, 8, "T", -1}},
      {"BlockLSTM", {importBlockLstm, 9, "", 0}},
      {"BlockLSTMV2", {importBlockLstm, 9, "", 0}},
      {"GRUBlockCell", {importGruBlockCell, 6, "T", -1}},
      // Reductions.
      {"ArgMax", {importArgMax, 2, "T", 1}},
      {"ArgMin", {importArgMin, 2, "T", 1}},
      {"Cumsum", {importCumsum, 2, "T", 1}},
      {"Mean", {importReduction, 2, "T", 1}},
      {"Sum", {importReduction, 2, "T", 1}},
      {"Max", {importReduction, 2, "T", 1}},
      {"Min", {importReduction, 2, "T", 1}},
      {"Prod", {importReduction, 2, "T", 1}},
      {"Any", {importReduction, 2, "", 0}},
      {"All", {importReduction, 2, "", 0}},
      // Image decoding (ImportImageOps.cpp); contents is a string.
      {"DecodeJpeg", {importDecodeJpeg, 1, "", 0}},
      {"DecodeAndCropJpeg", {importDecodeAndCropJpeg, 2, "", 0}},
      // Data movement (ImportDataMovementOps.cpp).
      {"Slice", {importSlice, 3, "T", 1}},
      {"MirrorPad", {importMirrorPad, 2, "T", 1}},
      {"BroadcastTo", {importBroadcastTo, 2, "T", 1}},
      {"OneHot", {importOneHot, 4, "", 0}},
      {"SpaceToBatchND", {importSpaceToBatchND, 3, "T", 1}},
      {"BatchToSpaceND", {importBatchToSpaceND, 3, "T", 1}},
      {"TopKV2", {importTopKV2, 2, "T", 1}},
      // Output sizes that depend on values (ImportDataDependentOps.cpp).
      {"NonMaxSuppressionV2", {importNonMaxSuppression, 4, "T", 2}},
      {"NonMaxSuppressionV3", {importNonMaxSuppression, 5, "T", 2}},
      {"NonMaxSuppressionV4", {importNonMaxSuppression, 5, "T", 2}},
      {"NonMaxSuppressionV5", {importNonMaxSuppression, 6, "T", 2}},
      {"Where", {importWhere, 1, "T", 1}},
      {"Unique", {importUnique, 1, "T", 1}},
      // Math (ImportMathOps.cpp).
      {"Ceil", {importSameType, 1, "T", 1}},
      {"FusedBatchNorm", {importFusedBatchNorm, 5, "T", 1}},
      {"FusedBatchNormV2", {importFusedBatchNorm, 5, "T", 1}},
      {"FusedBatchNormV3", {importFusedBatchNorm, 5, "T", 1}},
      {"RandomUniform", {importRandomUniform, 1, "", 0}},
      {"Einsum", {importEinsum, -1, "T", -1}},
      // Functional control flow (ImportControlFlow.cpp).
      {"If", {importIf, -1, "", 0}},
      {"StatelessIf", {importIf, -1, "", 0}},
      {"While", {importWhile, -1, "", 0}},
      {"StatelessWhile", {importWhile, -1, "", 0}},
      {"Case", {importCase, -1, "", 0}},
      {"StatelessCase", {importCase, -1, "", 0}},
      // TensorList and TensorArrayV3 (ImportListOps.cpp): typed by their
      // element_dtype/dtype attributes, which the importers check.
      {"TensorListReserve", {importTensorListReserve, 2, "", 0}},
      {"TensorListFromTensor", {importTensorListFromTensor, 2, "element_dtype", 1}},
      {"TensorListSetItem", {importTensorListSetItem, 3, "", 0}},
      {"TensorListGetItem", {importTensorListGetItem, 3, "", 0}},
      {"TensorListStack", {importTensorListStack, 2, "", 0}},
      {"TensorListGather", {importTensorListGather, 3, "", 0}},
      {"TensorListScatter", {importTensorListScatter, 3, "element_dtype", 1}},
      {"TensorListScatterV2", {importTensorListScatter, 4, "element_dtype", 1}},
      {"TensorListScatterIntoExistingList",
       {importTensorListScatterIntoExistingList, 3, "", 0}},
      {"TensorListLength", {importTensorListLength, 1, "", 0}},
      {"TensorListElementShape", {importTensorListElementShape, 1, "", 0}},
      {"EmptyTensorList", {importEmptyTensorList, 2, "", 0}},
      {"TensorListPushBack", {importTensorListPushBack, 2, "", 0}},
      {"TensorListPopBack", {importTensorListPopBack, 2, "", 0}},
      {"TensorArrayV3", {importTensorArrayV3, 1, "", 0}},
      {"TensorArrayWriteV3", {importTensorArrayWriteV3, 4, "", 0}},
      {"TensorArrayReadV3", {importTensorArrayReadV3, 3, "", 0}},
      {"TensorArrayGatherV3", {importTensorArrayGatherV3, 3, "", 0}},
      {"TensorArrayScatterV3", {importTensorArrayScatterV3, 4, "", 0}},
      {"TensorArrayConcatV3", {importTensorArrayConcatV3, 2, "", 0}},
      {"TensorArraySplitV3", {importTensorArraySplitV3, 4, "", 0}},
      {"TensorArraySizeV3", {importTensorArraySizeV3, 2, "", 0}},
      {"TensorArrayCloseV3", {importTensorArrayCloseV3, 1, "", 0}},
      // TF1 dataflow control flow: structured into If/Case/While by
      // ImportDataflowControlFlow.cpp, never imported one node at a time.
      {"Switch", {importUnstructured, 2, "T", 1}},
      {"_SwitchN", {importUnstructured, 2, "T", 1}},
      {"Merge", {importUnstructured, -1, "T", -1}},
      {"Enter", {importUnstructured, 1, "T", 1}},
      {"Exit", {importUnstructured, 1, "T", 1}},
      {"NextIteration", {importUnstructured, 1, "T", 1}},
      {"LoopCond", {importUnstructured, 1, "", 0}},
      // Nothing to compute; reached only when fetched (control edges are
      // not followed).
      {"NoOp", {importNoOp, 0, "", 0}},
      // A function graph's result marker: its input, for a fetch of it.
      {"_Retval", {importPassThrough, 1, "T", 1}},
  };
  return table;
}

const OpSpec *(::tfaot::lookupOpSpec)(llvm::StringRef op) {
  auto it = opTable().find(op);
  return it == opTable().end() ? nullptr : &it->second;
}

std::vector<std::string> (::tfaot::supportedOps)() {
  std::vector<std::string> ops;
  for (const auto &entry : opTable())
    ops.push_back(entry.getKey().str());
  std::sort(ops.begin(), ops.end());
  return ops;
}

std::optional<int64_t> (::tfaot::numOutputsOf)(const tensorflow::NodeDef &node) {
  auto intAttr = [&](const char *name) -> std::optional<int64_t> {
    auto it = node.attr().find(name);
    if (it == node.attr().end())
      return std::nullopt;
    return it->second.i();
  };
  if (node.op() == "Split" || node.op() == "SplitV")
    return intAttr("num_split");
  if (node.op() == "Unpack")
    return intAttr("num");
  if (node.op() == "_SwitchN")
    return intAttr("num_outs");
  // Ops with several outputs of which tfaot computes only some (the
  // importer reports a use of the others) are counted in full here, so that
  // edge checks accept the graph.
  static const llvm::StringMap<int64_t> fixed = {
      {"Switch", 2}, {"RefSwitch", 2}, {"Merge", 2}, {"RefMerge", 2},
      {"Enter", 1}, {"Exit", 1}, {"NextIteration", 1}, {"LoopCond", 1},
      {"TopKV2", 2}, {"Unique", 2}, {"FusedBatchNorm", 5},
      {"FusedBatchNormV2", 5}, {"FusedBatchNormV3", 6},
      {"NonMaxSuppressionV4", 2}, {"NonMaxSuppressionV5", 3},
      {"PlaceholderWithDefault", 1}, {"Shape", 1}, {"Pack", 1},
      {"StridedSlice", 1}, {"Slice", 1},
      {"QuantizeV2", 3}, {"QuantizedConv2D", 3}, {"QuantizedMatMul", 3},
      {"RequantizationRange", 2}, {"Requantize", 3}, {"QuantizedRelu", 3},
      {"QuantizedRelu6", 3}, {"QuantizedReshape", 3}, {"QuantizedMaxPool", 3},
      {"QuantizedAdd", 3}, {"TensorArrayV3", 2}, {"TensorArrayConcatV3", 2},
      {"TensorListPopBack", 2},
      {"TensorArrayCloseV3", 0}, {"LSTMBlockCell", 7}, {"BlockLSTM", 7},
      {"BlockLSTMV2", 7}, {"GRUBlockCell", 4}};
  if (auto it = fixed.find(node.op()); it != fixed.end())
    return it->second;
  // Functional control flow: one output per type of its list attribute.
  auto listAttr = [&](const char *name) -> std::optional<int64_t> {
    auto it = node.attr().find(name);
    if (it == node.attr().end())
      return std::nullopt;
    return it->second.list().type_size();
  };
  if (node.op() == "If" || node.op() == "StatelessIf" ||
      node.op() == "Case" || node.op() == "StatelessCase")
    return listAttr("Tout");
  if (node.op() == "While" || node.op() == "StatelessWhile")
    return listAttr("T");
  if (lookupOpSpec(node.op()))
    return 1;
  if (node.op() == "Split" || node.op() == "SplitV")
    return intAttr("num_split");
  if (node.op() == "Unpack")
    return intAttr("num");
  return std::nullopt;
}
