//===- DataTypes.h - The compiler's one table of TF dtypes ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One row per TensorFlow DataType the compiler knows: its names, its bytes
// per element, its MLIR element type, its C++ type in the generated header
// and its NumPy type string. The per-dtype functions (parseDataType and
// dataTypeName in GraphLoader, convertDataType and convertElementType in
// TensorConversion, the bundle reader's element sizes, the header's C++
// types and element sizes, npyDescr) are lookups in this table, so that a
// dtype is added in one place.
//
// The runtime keeps its own table (runtime/lib/dtype.cpp): its DType enum
// is its public ABI and it depends on nothing of the compiler, TensorFlow's
// protos included.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_DATATYPES_H
#define TFAOT_COMPILER_FRONTEND_DATATYPES_H

#include "compiler/proto/types.pb.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace tfaot {

/// What the compiler does with a dtype, which decides the columns that
/// apply to it.
enum class DataTypeRole : uint8_t {
  /// A number or bool: every column. The only dtypes with names (parsed
  /// from flags and configs) and the only ones MLIR types map back to.
  Plain,
  /// A quantized TF dtype: its storage integer's MLIR, C++ and NumPy types;
  /// the ops that read it (Dequantize) carry the meaning.
  Quantized,
  /// Complex numbers: only their size, to read a checkpoint bundle.
  Complex,
  /// A string: only a scalar string argument of the generated class, whose
  /// buffer is a tfaot::Bytes {data, size} descriptor.
  String,
};

/// The MLIR element type of a dtype; integers have bytes * 8 bits.
enum class ElementKind : uint8_t {
  None, ///< Not compiled.
  F16,
  BF16,
  F32,
  F64,
  Bool,     ///< i1
  Signless, ///< iN
  Unsigned, ///< uiN
};

struct DataTypeInfo {
  tensorflow::DataType type;
  DataTypeRole role;
  /// tfaot's name ("float32"); Plain dtypes only, else nullptr.
  const char *name;
  /// Other spellings parseDataType accepts ("float", "f32"), nullptr-padded.
  const char *aliases[2];
  /// Bytes per element in memory (a Bytes descriptor for a string).
  int64_t bytes;
  ElementKind element;
  /// The element type of the generated header's accessors (16-bit floats are
  /// their raw bits); nullptr where the header has none.
  const char *cppType;
  /// NumPy's type string with its byte order ("<f4"); "" where none.
  const char *npyDescr;
};

/// Every row, in DataType enum order.
llvm::ArrayRef<DataTypeInfo> dataTypeTable();

/// The row of `type`, or nullptr.
const DataTypeInfo *findDataType(tensorflow::DataType type);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_DATATYPES_H
