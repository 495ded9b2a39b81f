//===- ImportHelpers.h - Building blocks shared by op importers -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the compiler library. ImportHelpers.cpp defines the building
// blocks; the importers live in one file per op family and are declared at
// the bottom, so that OpImporters.cpp only lists them in its table.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_IMPORTHELPERS_H
#define TFAOT_COMPILER_FRONTEND_IMPORTHELPERS_H

#include "compiler/frontend/OpImporters.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>

namespace tfaot {

/// `type` printed, for error messages.
std::string typeString(mlir::Type type);

/// Builds "tfaot.<opName>" on `operands` with result `type`, taking the
/// attributes the op declares (lists of ints, strings, bools, floats) from
/// the node.
mlir::Value buildOp(NodeImportContext &ctx, llvm::StringRef opName,
                    mlir::ValueRange operands, mlir::Type type);

/// A tfaot op with explicitly given attributes (not the node's).
mlir::Value buildOpWithAttrs(NodeImportContext &ctx, llvm::StringRef opName,
                             mlir::ValueRange operands, mlir::Type type,
                             llvm::ArrayRef<mlir::NamedAttribute> attrs);

/// The constant elements behind `value` (looking through Identity), or null.
mlir::DenseElementsAttr constantElements(mlir::Value value);

/// A tfaot.Const of `attr`, located at the node.
mlir::Value buildConst(NodeImportContext &ctx, mlir::DenseElementsAttr attr);

/// An i64 tfaot.Const of `shape` holding `values`.
mlir::Value buildI64Const(NodeImportContext &ctx,
                          llvm::ArrayRef<int64_t> values,
                          llvm::ArrayRef<int64_t> shape);

/// A scalar of `elementType` holding `value`.
mlir::Value buildScalar(NodeImportContext &ctx, mlir::Type elementType,
                        double value);

/// Operand `i`, which the op needs at compile time, as a constant: its value
/// if it is one, else the value of the ops that compute it, evaluated now
/// (ir/ConstantEval.h); the evaluated constant then replaces the operand,
/// so the op is built on it. Null after an error naming `role` and what
/// the value depends on (a feed, or an op computed only at run time).
mlir::DenseElementsAttr demandConstant(NodeImportContext &ctx, unsigned i,
                                       llvm::StringRef role);

/// A constant integer operand as values (demandConstant), or an error
/// naming its role.
mlir::FailureOr<llvm::SmallVector<int64_t>>
constantInts(NodeImportContext &ctx, unsigned i, llvm::StringRef role);

/// Normalizes a possibly negative axis against `rank`, or reports an error.
mlir::FailureOr<int64_t> normalizeAxis(NodeImportContext &ctx, int64_t axis,
                                       int64_t rank);

/// The one axis in operand 1 (ArgMax's dimension, Cumsum's axis: `role`
/// in errors), a constant scalar, normalized against operand 0's rank.
mlir::FailureOr<int64_t> constantAxis(NodeImportContext &ctx,
                                      llvm::StringRef role);

/// Which of operand 0's dims the constant axes of operand 1 (a reduction's
/// indices, possibly negative) name, or an error naming the bad axis.
mlir::FailureOr<llvm::SmallVector<bool>>
reducedAxes(NodeImportContext &ctx);

/// Reshape to a static `shape`, with the shape as a constant operand.
mlir::Value buildReshape(NodeImportContext &ctx, mlir::Value input,
                         llvm::ArrayRef<int64_t> shape);

/// The node's integer attribute `name`, or `fallback`.
int64_t intAttr(NodeImportContext &ctx, const char *name, int64_t fallback);

/// The node's string attribute `name`, or `fallback`.
std::string stringAttr(NodeImportContext &ctx, const char *name,
                       const char *fallback);

/// Result type of a NumPy-broadcasting binary op.
mlir::FailureOr<mlir::Type> broadcastType(NodeImportContext &ctx,
                                          mlir::Value x, mlir::Value y);

/// NumPy-broadcasting binary tfaot op `opName` on (x, y).
mlir::FailureOr<mlir::Value> buildBinary(NodeImportContext &ctx,
                                         llvm::StringRef opName, mlir::Value x,
                                         mlir::Value y);

/// Result type of a window op (convolution, pool) on `input` with the node's
/// attributes (strides, padding, dilations, data_format).
mlir::FailureOr<mlir::Type> windowType(NodeImportContext &ctx,
                                       mlir::Value input, int64_t windowH,
                                       int64_t windowW, int64_t outChannels);

/// Conv2D or DepthwiseConv2dNative on (input, filter) with the node's window
/// attributes.
mlir::FailureOr<mlir::Value> buildConvolution(NodeImportContext &ctx,
                                              llvm::StringRef opName,
                                              mlir::Value input,
                                              mlir::Value filter);

/// MatMul of the matrices (a, b) with the node's transpose_a/transpose_b.
mlir::FailureOr<mlir::Value> buildMatMul(NodeImportContext &ctx, mlir::Value a,
                                         mlir::Value b);

/// MaxPool or AvgPool (`opName`) of `input` with the node's ksize, strides,
/// padding and data_format.
mlir::FailureOr<mlir::Value> buildPool(NodeImportContext &ctx,
                                       llvm::StringRef opName,
                                       mlir::Value input);

/// Reshape of operand 0 to the constant shape in operand 1.
mlir::FailureOr<mlir::Value> importReshape(NodeImportContext &ctx);

//===----------------------------------------------------------------------===//
// Importers, by the file that defines them
//===----------------------------------------------------------------------===//

// ImportElementwiseOps.cpp
mlir::FailureOr<mlir::Value> importSameType(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importPassThrough(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importBinary(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importDiv(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importPredicate(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importSelect(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importAddN(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importCast(NodeImportContext &ctx);

// ImportConstantOps.cpp
mlir::FailureOr<mlir::Value> importConst(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importFill(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importRange(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importSparseToDense(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importFillLike(NodeImportContext &ctx);

// ImportShapeOps.cpp (and importReshape, above)
mlir::FailureOr<mlir::Value> importExpandDims(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importSqueeze(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTranspose(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importShapeQuery(NodeImportContext &ctx);

// ImportGatherOps.cpp
mlir::FailureOr<mlir::Value> importGatherV2(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importGatherNd(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importBatchMatMul(NodeImportContext &ctx);

// ImportReductionOps.cpp
mlir::FailureOr<mlir::Value> importArgMax(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importArgMin(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importCumsum(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importReduction(NodeImportContext &ctx);

// ImportCnnOps.cpp (and buildConvolution, buildMatMul, buildPool, above)
mlir::FailureOr<mlir::Value> importMatMul(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importConvolution(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importPool(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importConv2DBackpropInput(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importFusedConvolution(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importFusedMatMul(NodeImportContext &ctx);

// ImportResizeOps.cpp
mlir::FailureOr<mlir::Value> importResize(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importCropAndResize(NodeImportContext &ctx);

// ImportDataMovementOps.cpp
mlir::FailureOr<mlir::Value> importPad(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importConcat(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importStridedSlice(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importPack(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importSplit(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importSplitV(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importUnpack(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTile(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importDepthToSpace(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importSlice(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importMirrorPad(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importBroadcastTo(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importOneHot(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importSpaceToBatchND(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importBatchToSpaceND(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTopKV2(NodeImportContext &ctx);

// ImportRnnOps.cpp
mlir::FailureOr<mlir::Value> importLstmBlockCell(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importBlockLstm(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importGruBlockCell(NodeImportContext &ctx);
// ImportMathOps.cpp
mlir::FailureOr<mlir::Value> importFusedBatchNorm(NodeImportContext &ctx);
/// tfaot.FusedBatchNorm (inference) of the rank-4 `input` with `params`
/// (scale, offset, mean, variance: 1-D over the channels of `format`), after
/// checking their shapes and element types; shared by FusedBatchNorm and
/// the FusedBatchNorm step of _FusedConv2D.
mlir::FailureOr<mlir::Value> buildBatchNorm(NodeImportContext &ctx,
                                            mlir::Value input,
                                            mlir::ValueRange params,
                                            llvm::StringRef format,
                                            float epsilon);
mlir::FailureOr<mlir::Value> importRandomUniform(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importEinsum(NodeImportContext &ctx);

// ImportImageOps.cpp
mlir::FailureOr<mlir::Value> importDecodeJpeg(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importDecodeAndCropJpeg(NodeImportContext &ctx);

// ImportQuantizedOps.cpp
mlir::FailureOr<mlir::Value> importDequantize(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importQuantizeV2(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importQuantizedContraction(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importRequantizationRange(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importRequantize(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importQuantizedRelu(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importQuantizedReshape(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importQuantizedMaxPool(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importQuantizedAdd(NodeImportContext &ctx);

// ImportControlFlow.cpp: If/StatelessIf, While/StatelessWhile,
// Case/StatelessCase, their functions imported from ctx.library.
mlir::FailureOr<mlir::Value> importIf(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importWhile(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importCase(NodeImportContext &ctx);
/// Deletes region blocks built for an op that will not be created (its
/// import failed, or the dataflow structurer chose another form): their
/// values' uses are dropped first, so nothing dangles. Null entries are
/// skipped.
void deleteDetachedBlocks(llvm::ArrayRef<mlir::Block *> blocks);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_IMPORTHELPERS_H
