//===- DataTypes.cpp - The compiler's one table of TF dtypes --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The table DataTypes.h describes.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/DataTypes.h"

using namespace tfaot;

namespace {

using namespace tensorflow;
constexpr DataTypeRole Plain = DataTypeRole::Plain,
                       Quantized = DataTypeRole::Quantized,
                       Complex = DataTypeRole::Complex,
                       String = DataTypeRole::String;
constexpr ElementKind None = ElementKind::None, F16 = ElementKind::F16,
                      BF16 = ElementKind::BF16, F32 = ElementKind::F32,
                      F64 = ElementKind::F64, Bool = ElementKind::Bool,
                      Signless = ElementKind::Signless,
                      Unsigned = ElementKind::Unsigned;

// Columns: type, role, name, aliases, bytes, element, C++ type, NumPy.
// clang-format off
constexpr DataTypeInfo kDataTypes[] = {
    {DT_FLOAT,      Plain,     "float32",  {"float", "f32"},  4,  F32,      "float",        "<f4"},
    {DT_DOUBLE,     Plain,     "float64",  {"double", "f64"}, 8,  F64,      "double",       "<f8"},
    {DT_INT32,      Plain,     "int32",    {"i32"},           4,  Signless, "int32_t",      "<i4"},
    {DT_UINT8,      Plain,     "uint8",    {"u8"},            1,  Unsigned, "uint8_t",      "|u1"},
    {DT_INT16,      Plain,     "int16",    {"i16"},           2,  Signless, "int16_t",      "<i2"},
    {DT_INT8,       Plain,     "int8",     {"i8"},            1,  Signless, "int8_t",       "|i1"},
    {DT_STRING,     String,    nullptr,    {},                16, None,     "tfaot::Bytes", ""},
    {DT_COMPLEX64,  Complex,   nullptr,    {},                8,  None,     nullptr,        ""},
    {DT_INT64,      Plain,     "int64",    {"i64"},           8,  Signless, "int64_t",      "<i8"},
    {DT_BOOL,       Plain,     "bool",     {},                1,  Bool,     "bool",         "|b1"},
    {DT_QINT8,      Quantized, nullptr,    {},                1,  Signless, "int8_t",       "|i1"},
    {DT_QUINT8,     Quantized, nullptr,    {},                1,  Unsigned, "uint8_t",      "|u1"},
    {DT_QINT32,     Quantized, nullptr,    {},                4,  Signless, "int32_t",      "<i4"},
    {DT_BFLOAT16,   Plain,     "bfloat16", {},                2,  BF16,     "uint16_t",     ""},
    {DT_QINT16,     Quantized, nullptr,    {},                2,  Signless, "int16_t",      "<i2"},
    {DT_QUINT16,    Quantized, nullptr,    {},                2,  Unsigned, "uint16_t",     "<u2"},
    {DT_UINT16,     Plain,     "uint16",   {"u16"},           2,  Unsigned, "uint16_t",     "<u2"},
    {DT_COMPLEX128, Complex,   nullptr,    {},                16, None,     nullptr,        ""},
    {DT_HALF,       Plain,     "float16",  {"half", "f16"},   2,  F16,      "uint16_t",     "<f2"},
    {DT_UINT32,     Plain,     "uint32",   {"u32"},           4,  Unsigned, "uint32_t",     "<u4"},
    {DT_UINT64,     Plain,     "uint64",   {"u64"},           8,  Unsigned, "uint64_t",     "<u8"},
};
// clang-format on

} // namespace

llvm::ArrayRef<DataTypeInfo> tfaot::dataTypeTable() { return kDataTypes; }

const DataTypeInfo *tfaot::findDataType(tensorflow::DataType type) {
  for (const DataTypeInfo &info : kDataTypes)
    if (info.type == type)
      return &info;
  return nullptr;
}
