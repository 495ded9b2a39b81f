//===- TensorConversion.h - TF dtypes and tensors to MLIR ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Maps TensorFlow's DataType to MLIR element types and TensorProto values to
// DenseElementsAttr, following TF's encoding rules (raw tensor_content, or
// typed *_val fields where a short list repeats its last element).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_TENSORCONVERSION_H
#define TFAOT_COMPILER_FRONTEND_TENSORCONVERSION_H

#include "compiler/proto/tensor.pb.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <string>

namespace tfaot {

/// The MLIR element type of a TF dtype, or null if tfaot cannot compile it.
mlir::Type convertDataType(tensorflow::DataType type, mlir::MLIRContext *ctx);

/// The TF dtype of an MLIR element type (DT_INVALID if none).
tensorflow::DataType convertElementType(mlir::Type type);

/// Converts a TensorShapeProto; unknown dims become ShapedType::kDynamic.
/// Returns nullopt for an unknown rank.
std::optional<llvm::SmallVector<int64_t>>
convertShape(const tensorflow::TensorShapeProto &shape);

/// Converts a tensor value. On failure returns null and explains in `error`.
mlir::DenseElementsAttr convertTensor(const tensorflow::TensorProto &tensor,
                                      mlir::MLIRContext *ctx,
                                      std::string &error);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_TENSORCONVERSION_H
