//===- Npy.cpp - Read and write NumPy .npy files --------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// See Npy.h. The header dict is parsed by looking up its three keys, which
// is all NumPy ever writes into it.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Npy.h"

#include "compiler/frontend/DataTypes.h"
#include "compiler/frontend/TfjsLoader.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace tfaot;

namespace {

/// The value of `key` in a .npy header dict ("{'descr': '<f4', ...}").
llvm::StringRef headerField(llvm::StringRef header, llvm::StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == llvm::StringRef::npos)
    return {};
  llvm::StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return {};
  rest = rest.ltrim();
  if (rest.starts_with("(")) // the shape tuple
    return rest.take_until([](char c) { return c == ')'; }).drop_front();
  if (rest.starts_with("'"))
    return rest.drop_front().take_until([](char c) { return c == '\''; });
  return rest.take_until([](char c) { return c == ',' || c == '}'; }).trim();
}

/// The dtype of a NumPy type string without its byte-order character
/// ("f4" -> float32); DT_INVALID if tfaot does not read it.
tensorflow::DataType dtypeOfKind(llvm::StringRef kind) {
  for (const DataTypeInfo &info : dataTypeTable())
    if (info.role == DataTypeRole::Plain && *info.npyDescr &&
        kind == info.npyDescr + 1)
      return info.type;
  return tensorflow::DT_INVALID;
}

template <typename T> double load(const char *data, int64_t i) {
  T value;
  std::memcpy(&value, data + i * sizeof(T), sizeof(T));
  return static_cast<double>(value);
}

} // namespace

int64_t NpyTensor::elements() const {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  return count;
}

std::string tfaot::npyDescr(tensorflow::DataType dtype) {
  const DataTypeInfo *info = findDataType(dtype);
  return info ? info->npyDescr : "";
}

bool tfaot::readNpy(const std::string &path, NpyTensor &tensor,
                    std::string &error) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!file) {
    error = "cannot read: " + file.getError().message();
    return false;
  }
  llvm::StringRef bytes = (*file)->getBuffer();
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10) {
    error = "not a .npy file (no \\x93NUMPY magic)";
    return false;
  }
  // Version 1 has a 2-byte header length, versions 2 and 3 a 4-byte one.
  uint8_t major = bytes[6];
  size_t lengthBytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + lengthBytes) {
    error = "truncated .npy header";
    return false;
  }
  size_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
  size_t headerStart = 8 + lengthBytes;
  if (headerStart + headerLength > bytes.size()) {
    error = "truncated .npy header";
    return false;
  }
  llvm::StringRef header = bytes.substr(headerStart, headerLength);
  if (headerField(header, "fortran_order") != "False") {
    error = "Fortran-order arrays are not supported (save with C order)";
    return false;
  }
  tensor.shape.clear();
  llvm::SmallVector<llvm::StringRef> dims;
  headerField(header, "shape").split(dims, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef dim : dims) {
    int64_t size;
    if (dim.trim().getAsInteger(10, size) || size < 0) {
      error = "bad shape in the .npy header";
      return false;
    }
    tensor.shape.push_back(size);
  }
  llvm::StringRef descr = headerField(header, "descr");
  if (descr.starts_with(">") && !descr.ends_with("1")) {
    error = "big-endian arrays are not supported (dtype '" + descr.str() +
            "'; save with .astype('<" + descr.drop_front().str() + "'))";
    return false;
  }
  tensor.dtype = descr.size() == 3 && llvm::StringRef("<|=>").contains(descr[0])
                     ? dtypeOfKind(descr.drop_front())
                     : tensorflow::DT_INVALID;
  if (tensor.dtype == tensorflow::DT_INVALID) {
    error = "dtype '" + descr.str() +
            "' is not supported (float16/32/64, int8/16/32/64, "
            "uint8/16/32/64 or bool)";
    return false;
  }
  // dtypeOfKind only gives dtypes of the table, which knows their size.
  uint64_t needed = tensor.elements() * findDataType(tensor.dtype)->bytes;
  llvm::StringRef data = bytes.drop_front(headerStart + headerLength);
  if (data.size() < needed) {
    error = "holds " + std::to_string(data.size()) +
            " bytes of data, but its shape needs " + std::to_string(needed);
    return false;
  }
  tensor.data = data.take_front(needed).str();
  return true;
}

bool tfaot::encodeNpy(tensorflow::DataType dtype,
                      const std::vector<int64_t> &shape, llvm::StringRef data,
                      std::string &contents, std::string &error) {
  std::string descr = npyDescr(dtype);
  if (descr.empty()) {
    error = "NumPy has no type for " + tensorflow::DataType_Name(dtype);
    return false;
  }
  // A one-element tuple needs its trailing comma: "(3,)".
  std::string dims;
  for (int64_t d : shape)
    dims += std::to_string(d) + (shape.size() == 1 ? "," : ", ");
  if (shape.size() > 1)
    dims.resize(dims.size() - 2);
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': (" + dims +
                       "), }";
  // NumPy pads so the data starts at a multiple of 64 bytes and ends the
  // header with a newline.
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  contents = "\x93NUMPY";
  contents += char(1);
  contents += char(0);
  contents += char(header.size() & 0xff);
  contents += char(header.size() >> 8);
  contents += header;
  contents += data;
  return true;
}

double tfaot::elementAsDouble(tensorflow::DataType dtype, const char *data,
                              int64_t i) {
  switch (dtype) {
  case tensorflow::DT_HALF: {
    uint16_t bits;
    std::memcpy(&bits, data + 2 * i, 2);
    return halfToFloat(bits);
  }
  case tensorflow::DT_FLOAT: return load<float>(data, i);
  case tensorflow::DT_DOUBLE: return load<double>(data, i);
  case tensorflow::DT_INT8: case tensorflow::DT_QINT8:
    return load<int8_t>(data, i);
  case tensorflow::DT_INT16: case tensorflow::DT_QINT16:
    return load<int16_t>(data, i);
  case tensorflow::DT_INT32: case tensorflow::DT_QINT32:
    return load<int32_t>(data, i);
  case tensorflow::DT_INT64: return load<int64_t>(data, i);
  case tensorflow::DT_UINT8: case tensorflow::DT_QUINT8:
  case tensorflow::DT_BOOL:
    return load<uint8_t>(data, i);
  case tensorflow::DT_UINT16: case tensorflow::DT_QUINT16:
    return load<uint16_t>(data, i);
  case tensorflow::DT_UINT32: return load<uint32_t>(data, i);
  case tensorflow::DT_UINT64: return load<uint64_t>(data, i);
  default: return NAN;
  }
}

bool tfaot::readNpy(const std::string &path, NpyArray &array,
                    std::string &error) {
  NpyTensor tensor;
  if (!readNpy(path, tensor, error))
    return false;
  array.shape = tensor.shape;
  array.values.resize(tensor.elements());
  for (int64_t i = 0; i < tensor.elements(); ++i)
    array.values[i] =
        static_cast<float>(elementAsDouble(tensor.dtype, tensor.data.data(), i));
  return true;
}
