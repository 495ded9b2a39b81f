//===- dtype.cpp - Element type sizes and names ---------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// DTypeSize and DTypeName for tfaot::DType. Both switch over every enumerator
// without a default label, so that -Wswitch flags this file when a dtype is
// added to the enum; values outside the enum (e.g. read from a corrupt table or
// cast from an unsupported TensorFlow DataType) fall through to 0 / "unknown".
//
//===----------------------------------------------------------------------===//

#include "tfaot/runtime/compiled_function.h"

namespace tfaot {

size_t DTypeSize(DType dtype) {
  switch (dtype) {
  case DType::kFloat32:
    return 4;
  case DType::kFloat64:
    return 8;
  case DType::kInt32:
    return 4;
  case DType::kUInt8:
    return 1;
  case DType::kInt16:
    return 2;
  case DType::kInt8:
    return 1;
  case DType::kString:
    return sizeof(Bytes);
  case DType::kInt64:
    return 8;
  case DType::kBool:
    // TensorFlow stores bools one per byte, and so does the generated code.
    return 1;
  case DType::kBFloat16:
    return 2;
  case DType::kUInt16:
    return 2;
  case DType::kFloat16:
    return 2;
  case DType::kUInt32:
    return 4;
  case DType::kUInt64:
    return 8;
  case DType::kQInt8:
  case DType::kQUInt8:
    return 1;
  case DType::kQInt16:
  case DType::kQUInt16:
    return 2;
  case DType::kQInt32:
    return 4;
  }
  return 0;
}

const char *DTypeName(DType dtype) {
  // The names are TensorFlow's (tf.DType.name), so messages and tables match
  // what users wrote in their config and saw in TensorFlow.
  switch (dtype) {
  case DType::kFloat32:
    return "float32";
  case DType::kFloat64:
    return "float64";
  case DType::kInt32:
    return "int32";
  case DType::kUInt8:
    return "uint8";
  case DType::kInt16:
    return "int16";
  case DType::kInt8:
    return "int8";
  case DType::kString:
    return "string";
  case DType::kInt64:
    return "int64";
  case DType::kBool:
    return "bool";
  case DType::kQInt8:
    return "qint8";
  case DType::kQUInt8:
    return "quint8";
  case DType::kQInt16:
    return "qint16";
  case DType::kQUInt16:
    return "quint16";
  case DType::kQInt32:
    return "qint32";
  case DType::kBFloat16:
    return "bfloat16";
  case DType::kUInt16:
    return "uint16";
  case DType::kFloat16:
    return "float16";
  case DType::kUInt32:
    return "uint32";
  case DType::kUInt64:
    return "uint64";
  }
  return "unknown";
}

} // namespace tfaot
