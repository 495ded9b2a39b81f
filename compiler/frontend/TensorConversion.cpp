//===- TensorConversion.cpp - TF dtypes and tensors to MLIR ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Constants are copied once into a raw little-endian buffer and handed to
// DenseElementsAttr::getFromRawBuffer, which is both the fastest path for big
// weight tensors and the one place the element layout is decided.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/TensorConversion.h"

#include "compiler/frontend/DataTypes.h"

#include "mlir/IR/Builders.h"

#include <cstring>

using namespace mlir;
using namespace tfaot;

Type tfaot::convertDataType(tensorflow::DataType type, MLIRContext *ctx) {
  const DataTypeInfo *info = findDataType(type);
  if (!info)
    return nullptr;
  Builder b(ctx);
  unsigned bits = info->bytes * 8;
  switch (info->element) {
  case ElementKind::None: return nullptr;
  case ElementKind::F16: return b.getF16Type();
  case ElementKind::BF16: return b.getBF16Type();
  case ElementKind::F32: return b.getF32Type();
  case ElementKind::F64: return b.getF64Type();
  case ElementKind::Bool: return b.getI1Type();
  case ElementKind::Signless: return b.getIntegerType(bits);
  case ElementKind::Unsigned: return b.getIntegerType(bits, /*isSigned=*/false);
  }
  return nullptr;
}

/// Whether `type` is the MLIR element type of `info` (any i1 is a bool; an
/// integer that is not unsigned is the signed dtype).
static bool isElementTypeOf(const DataTypeInfo &info, Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  switch (info.element) {
  case ElementKind::None: return false;
  case ElementKind::F16: return type.isF16();
  case ElementKind::BF16: return type.isBF16();
  case ElementKind::F32: return type.isF32();
  case ElementKind::F64: return type.isF64();
  case ElementKind::Bool: return intType && intType.getWidth() == 1;
  case ElementKind::Signless:
  case ElementKind::Unsigned:
    return intType && intType.getWidth() == info.bytes * 8 &&
           intType.isUnsigned() == (info.element == ElementKind::Unsigned);
  }
  return false;
}

tensorflow::DataType tfaot::convertElementType(Type type) {
  // Only plain dtypes: a quantized one's storage integer maps back to the
  // integer dtype.
  for (const DataTypeInfo &info : dataTypeTable())
    if (info.role == DataTypeRole::Plain && isElementTypeOf(info, type))
      return info.type;
  return tensorflow::DT_INVALID;
}

std::optional<SmallVector<int64_t>>
tfaot::convertShape(const tensorflow::TensorShapeProto &shape) {
  if (shape.unknown_rank())
    return std::nullopt;
  SmallVector<int64_t> dims;
  for (const auto &dim : shape.dim())
    dims.push_back(dim.size() < 0 ? ShapedType::kDynamic : dim.size());
  return dims;
}

/// The most bytes a constant may expand to from a shorter value list. A
/// TensorProto may give one value for a tensor of any shape (TF repeats the
/// last one), so a file of a hundred bytes could otherwise ask for
/// terabytes. Values given in full are bounded by the file (protobuf's
/// 2 GiB), so they need no limit of their own.
static constexpr int64_t kMaxExpandedConstantBytes = int64_t(1) << 30;

/// Whether `count` elements of `elementBytes` each may be expanded from a
/// list of `given` values; explains in `error` when not.
static bool checkExpansion(int64_t count, int64_t elementBytes, int given,
                           std::string &error) {
  if (count <= given || count <= kMaxExpandedConstantBytes / elementBytes)
    return true;
  error = "has " + std::to_string(given) + " value" + (given == 1 ? "" : "s") +
          " for a shape of " + std::to_string(count) +
          " elements, which would expand to more than " +
          std::to_string(kMaxExpandedConstantBytes >> 20) +
          " MiB (tfaot's limit for a constant not stored in full)";
  return false;
}

/// Copies a typed *_val field into `raw` as `count` elements of `Elem`,
/// repeating the last value as TF does when the list is shorter.
template <typename Elem, typename Field>
static bool fillFromField(const Field &field, int64_t count,
                          std::vector<char> &raw, std::string &error) {
  if (field.size() > count) {
    error = "has " + std::to_string(field.size()) + " values but its shape holds " +
            std::to_string(count);
    return false;
  }
  if (!checkExpansion(count, sizeof(Elem), field.size(), error))
    return false;
  raw.assign(count * sizeof(Elem), 0);
  Elem *out = reinterpret_cast<Elem *>(raw.data());
  for (int64_t i = 0; i < count; ++i) {
    if (field.empty())
      break; // An empty list means all zeros.
    out[i] = static_cast<Elem>(field.Get(std::min<int64_t>(i, field.size() - 1)));
  }
  return true;
}

DenseElementsAttr tfaot::convertTensor(const tensorflow::TensorProto &tensor,
                                       MLIRContext *ctx, std::string &error) {
  Type elementType = convertDataType(tensor.dtype(), ctx);
  if (!elementType) {
    error = "has unsupported dtype " +
            tensorflow::DataType_Name(tensor.dtype());
    return nullptr;
  }
  auto dims = convertShape(tensor.tensor_shape());
  int64_t count = 1;
  for (int64_t d : dims ? *dims : SmallVector<int64_t>{}) {
    if (d < 0 || (d > 0 && count > (int64_t(1) << 40) / d)) {
      error = "has an invalid or too large shape";
      return nullptr;
    }
    count *= d;
  }
  if (!dims) {
    error = "has an unknown rank";
    return nullptr;
  }
  auto type = RankedTensorType::get(*dims, elementType);

  // bool is bit-packed inside DenseElementsAttr, so it takes its own path.
  if (elementType.isInteger(1)) {
    // Sizes are checked before anything of `count` elements is allocated.
    std::vector<char> raw;
    const std::string &content = tensor.tensor_content();
    if (!content.empty()) {
      if ((int64_t)content.size() != count) {
        error = "tensor_content has " + std::to_string(content.size()) +
                " bytes, expected " + std::to_string(count);
        return nullptr;
      }
      raw.assign(content.begin(), content.end());
    } else if (!fillFromField<char>(tensor.bool_val(), count, raw, error)) {
      return nullptr;
    }
    SmallVector<bool> values(count, false);
    for (int64_t i = 0; i < count; ++i)
      values[i] = raw[i] != 0;
    return DenseElementsAttr::get(type, ArrayRef<bool>(values));
  }

  size_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  std::vector<char> raw;
  if (!tensor.tensor_content().empty()) {
    const std::string &content = tensor.tensor_content();
    if (content.size() != count * elementBytes) {
      error = "tensor_content has " + std::to_string(content.size()) +
              " bytes, expected " + std::to_string(count * elementBytes) +
              " for shape and dtype";
      return nullptr;
    }
    raw.assign(content.begin(), content.end());
  } else {
    bool ok = false;
    switch (tensor.dtype()) {
    case tensorflow::DT_FLOAT:
      ok = fillFromField<float>(tensor.float_val(), count, raw, error); break;
    case tensorflow::DT_DOUBLE:
      ok = fillFromField<double>(tensor.double_val(), count, raw, error); break;
    case tensorflow::DT_INT32:
      ok = fillFromField<int32_t>(tensor.int_val(), count, raw, error); break;
    case tensorflow::DT_INT16:
      ok = fillFromField<int16_t>(tensor.int_val(), count, raw, error); break;
    case tensorflow::DT_INT8:
    case tensorflow::DT_QINT8:
      ok = fillFromField<int8_t>(tensor.int_val(), count, raw, error); break;
    case tensorflow::DT_UINT8:
    case tensorflow::DT_QUINT8:
      ok = fillFromField<uint8_t>(tensor.int_val(), count, raw, error); break;
    case tensorflow::DT_UINT16:
    case tensorflow::DT_QUINT16:
      ok = fillFromField<uint16_t>(tensor.int_val(), count, raw, error); break;
    case tensorflow::DT_QINT16:
      ok = fillFromField<int16_t>(tensor.int_val(), count, raw, error); break;
    case tensorflow::DT_QINT32:
      ok = fillFromField<int32_t>(tensor.int_val(), count, raw, error); break;
    case tensorflow::DT_INT64:
      ok = fillFromField<int64_t>(tensor.int64_val(), count, raw, error); break;
    case tensorflow::DT_UINT32:
      ok = fillFromField<uint32_t>(tensor.uint32_val(), count, raw, error); break;
    case tensorflow::DT_UINT64:
      ok = fillFromField<uint64_t>(tensor.uint64_val(), count, raw, error); break;
    case tensorflow::DT_HALF:
    case tensorflow::DT_BFLOAT16: // Both store their 16 bits in half_val.
      ok = fillFromField<uint16_t>(tensor.half_val(), count, raw, error); break;
    default:
      error = "has unsupported dtype " + tensorflow::DataType_Name(tensor.dtype());
      return nullptr;
    }
    if (!ok)
      return nullptr;
  }
  if (count == 0)
    return DenseElementsAttr::get(type, ArrayRef<Attribute>{});
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(raw.data(), raw.size()));
}
