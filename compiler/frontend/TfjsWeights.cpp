//===- TfjsWeights.cpp - Decode a TF.js model's weights -------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The weights manifest, the shards it names, and the decoding of each
// weight into the "value" of its Const node. The decoding follows
// @tensorflow/tfjs-core's io.decodeWeights: a weight's "dtype" is what the
// model computes with; "quantization" says how it is stored (uint8/uint16:
// value = q * scale + min, rounded for int32 weights; float16: IEEE half).
// Arithmetic is done in double and rounded once to float, as JavaScript
// does when it stores into a Float32Array, so the values are
// bit-identical to what TF.js runs with.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/TfjsLoaderInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace tfaot;
using namespace tfaot::tfjs;

float tfaot::halfToFloat(uint16_t half) {
  uint32_t sign = uint32_t(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exactly representable in float.
    float magnitude = std::ldexp(float(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 0x1f)
    bits = sign | 0x7f800000u | (mantissa << 13); // Inf, or NaN with payload.
  else
    bits = sign | ((exponent + (127 - 15)) << 23) | (mantissa << 13);
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

namespace {

bool hasValues(const tensorflow::TensorProto &t) {
  return !t.tensor_content().empty() || t.half_val_size() ||
         t.float_val_size() || t.double_val_size() || t.int_val_size() ||
         t.string_val_size() || t.scomplex_val_size() || t.int64_val_size() ||
         t.bool_val_size() || t.dcomplex_val_size() ||
         t.resource_handle_val_size() || t.variant_val_size() ||
         t.uint32_val_size() || t.uint64_val_size() || !t.float8_val().empty();
}

/// Number of elements of a tensor's shape; nullopt when unknown.
std::optional<int64_t> elementCount(const tensorflow::TensorShapeProto &shape) {
  if (shape.unknown_rank())
    return std::nullopt;
  int64_t count = 1;
  for (const auto &dim : shape.dim()) {
    if (dim.size() < 0)
      return std::nullopt;
    count *= dim.size();
  }
  return count;
}

} // namespace

bool TfjsModelLoader::parseManifest(const json::Object &root) {
  const json::Value *manifest = root.get("weightsManifest");
  if (!manifest)
    return true; // No weights: every Const must carry its own value.
  const json::Array *groups = manifest->getAsArray();
  if (!groups) {
    diags_.error("\"weightsManifest\" is not a list");
    return false;
  }
  bool ok = true;
  for (auto [g, groupValue] : llvm::enumerate(*groups)) {
    std::string where = "weightsManifest[" + std::to_string(g) + "]";
    const json::Object *group = groupValue.getAsObject();
    const json::Array *paths = group ? group->getArray("paths") : nullptr;
    const json::Array *weights = group ? group->getArray("weights") : nullptr;
    if (!paths || !weights) {
      diags_.error(where + " needs a \"paths\" and a \"weights\" list");
      ok = false;
      continue;
    }
    for (const json::Value &p : *paths) {
      if (auto s = p.getAsString()) {
        shardNames_.push_back(s->str());
      } else {
        diags_.error(where + ".paths has an entry that is not a string");
        ok = false;
      }
    }
    for (auto [w, weightValue] : llvm::enumerate(*weights)) {
      std::string at = where + ".weights[" + std::to_string(w) + "]";
      const json::Object *weight = weightValue.getAsObject();
      WeightSpec spec;
      auto name = weight ? weight->getString("name") : std::nullopt;
      auto dtype = weight ? weight->getString("dtype") : std::nullopt;
      const json::Array *shape = weight ? weight->getArray("shape") : nullptr;
      if (!name || !dtype || !shape) {
        diags_.error(at + (name ? " ('" + name->str() + "')" : "") +
                     " needs \"name\", \"shape\" and \"dtype\"");
        ok = false;
        continue;
      }
      spec.name = name->str();
      spec.dtype = dtype->str();
      for (const json::Value &dim : *shape) {
        auto size = getInteger(dim);
        if (!size || *size < 0) {
          diags_.error("weight '" + spec.name +
                       "': shape is not a list of "
                       "sizes >= 0");
          ok = false;
          break;
        }
        spec.shape.push_back(*size);
      }
      if (const json::Object *quant = weight->getObject("quantization")) {
        if (auto d = quant->getString("dtype"))
          spec.quantDtype = d->str();
        else {
          diags_.error("weight '" + spec.name +
                       "': \"quantization\" has no \"dtype\"");
          ok = false;
        }
        if (auto d = quant->getString("original_dtype"))
          spec.originalDtype = d->str();
        if (auto m = quant->getNumber("min")) {
          spec.min = *m;
          spec.hasMin = true;
        }
        if (auto s = quant->getNumber("scale")) {
          spec.scale = *s;
          spec.hasScale = true;
        }
      }
      inManifest_.insert(spec.name);
      weights_.push_back(std::move(spec));
    }
  }
  return ok;
}

bool TfjsModelLoader::readShards() {
  // Shards are named relative to the model.json's directory.
  llvm::SmallString<256> dir(path_);
  llvm::sys::path::remove_filename(dir);
  bool ok = true;
  for (const std::string &name : shardNames_) {
    llvm::SmallString<256> shard(dir);
    llvm::sys::path::append(shard, name);
    auto buffer = readShard_(shard);
    if (!buffer) {
      diags_.error("cannot read weights shard '" + name + "' (" +
                   std::string(shard) + "): " + buffer.getError().message());
      ok = false;
      continue;
    }
    shardSizes_.push_back((*buffer)->getBufferSize());
    data_.append((*buffer)->getBufferStart(), (*buffer)->getBufferSize());
  }
  return ok;
}

bool TfjsModelLoader::truncated(const WeightSpec &spec, size_t offset,
                                size_t size) {
  std::string shards;
  for (auto [i, name] : llvm::enumerate(shardNames_))
    shards += (i ? ", '" : "'") + name + "' " + std::to_string(shardSizes_[i]) +
              " bytes";
  diags_.error(
      llvm::formatv(
          "weight '{0}' ({1} {2}) needs bytes {3} to {4} of the weight "
          "data, but the shards hold only {5} bytes ({6}): a shard is "
          "missing or truncated",
          spec.name, spec.dtype, showShape(spec.shape), offset, offset + size,
          data_.size(), shards.empty() ? "no shards listed" : shards)
          .str());
  return false;
}

bool TfjsModelLoader::decodeWeights() {
  size_t offset = 0;
  for (const WeightSpec &spec : weights_) {
    tensorflow::TensorProto tensor;
    size_t size = 0;
    bool ok = decodeWeight(spec, offset, tensor, size);
    if (size == 0 && !ok)
      return false; // Its size is unknown, so no later weight can be found.
    if (offset + size > data_.size())
      return truncated(spec, offset, size);
    offset += size;
    if (ok)
      assignWeight(spec, std::move(tensor));
  }
  if (offset < data_.size())
    diags_.warning(llvm::formatv("the weight shards hold {0} bytes, but the "
                                 "weights manifest uses only {1}",
                                 data_.size(), offset)
                       .str());
  return true;
}

bool TfjsModelLoader::decodeWeight(const WeightSpec &spec, size_t offset,
                                   tensorflow::TensorProto &tensor,
                                   size_t &size) {
  int64_t count = 1;
  for (int64_t d : spec.shape) {
    if (d > 0 && count > (int64_t(1) << 40) / d) {
      diags_.error("weight '" + spec.name + "': shape " +
                   showShape(spec.shape) + " is too large");
      return false;
    }
    count *= d;
  }
  auto fail = [&](const llvm::Twine &message) {
    diags_.error("weight '" + spec.name + "': " + message);
    return false;
  };
  for (int64_t d : spec.shape)
    tensor.mutable_tensor_shape()->add_dim()->set_size(d);

  // string: each element is a little-endian uint32 byte count and the bytes.
  if (spec.dtype == "string") {
    if (!spec.quantDtype.empty())
      return fail("a string weight cannot be quantized");
    tensor.set_dtype(tensorflow::DT_STRING);
    size_t at = offset;
    for (int64_t i = 0; i < count; ++i) {
      if (at + 4 > data_.size()) {
        size = at + 4 - offset;
        return true; // decodeWeights reports the truncation.
      }
      uint32_t length = llvm::support::endian::read32le(data_.data() + at);
      at += 4;
      if (at + length > data_.size()) {
        size = at + length - offset;
        return true;
      }
      tensor.add_string_val(data_.substr(at, length));
      at += length;
    }
    size = at - offset;
    return true;
  }

  std::optional<tensorflow::DataType> type;
  if (spec.dtype == "float32")
    type = tensorflow::DT_FLOAT;
  else if (spec.dtype == "int32")
    type = tensorflow::DT_INT32;
  else if (spec.dtype == "bool")
    type = tensorflow::DT_BOOL;
  else if (spec.dtype == "complex64") {
    size = count * 8;
    if (offset + size > data_.size())
      return false; // Reported as a truncation.
    return fail("dtype complex64 is not supported");
  } else
    return fail("unsupported dtype '" + spec.dtype +
                "' (TF.js weights are float32, int32, bool, string or "
                "complex64)");

  if (spec.quantDtype.empty()) {
    size = count * (*type == tensorflow::DT_BOOL ? 1 : 4);
    if (offset + size > data_.size())
      return false;
    tensor.set_dtype(*type);
    std::string content = data_.substr(offset, size);
    if (*type == tensorflow::DT_BOOL)
      for (char &b : content)
        b = b != 0;
    tensor.set_tensor_content(std::move(content));
    return true;
  }

  // Quantized: the result dtype is original_dtype when given (the converter
  // writes it equal to dtype).
  if (!spec.originalDtype.empty() && spec.originalDtype != spec.dtype)
    return fail("quantization.original_dtype '" + spec.originalDtype +
                "' differs from dtype '" + spec.dtype + "'");
  const char *bytes = data_.data() + offset;
  std::string content;
  if (spec.quantDtype == "uint8" || spec.quantDtype == "uint16") {
    bool wide = spec.quantDtype == "uint16";
    size = count * (wide ? 2 : 1);
    if (offset + size > data_.size())
      return false;
    if (!spec.hasMin || !spec.hasScale)
      return fail(spec.quantDtype +
                  " quantization needs \"min\" and \"scale\"");
    if (*type == tensorflow::DT_BOOL)
      return fail(spec.quantDtype + " quantization of a bool weight is not "
                                    "supported");
    auto quantized = [&](int64_t i) -> double {
      return wide ? llvm::support::endian::read16le(bytes + 2 * i)
                  : uint8_t(bytes[i]);
    };
    if (*type == tensorflow::DT_FLOAT) {
      content.resize(count * sizeof(float));
      for (int64_t i = 0; i < count; ++i) {
        // Two statements, so the compiler cannot fuse them into an FMA.
        double scaled = quantized(i) * spec.scale;
        float v = float(scaled + spec.min);
        std::memcpy(&content[i * sizeof(float)], &v, sizeof(v));
      }
    } else {
      // JavaScript's Math.round: to nearest, halves towards +infinity.
      content.resize(count * sizeof(int32_t));
      for (int64_t i = 0; i < count; ++i) {
        double scaled = quantized(i) * spec.scale;
        double x = scaled + spec.min;
        double r = std::floor(x);
        if (x - r >= 0.5)
          r += 1;
        int32_t v = int32_t(std::clamp(r, -2147483648.0, 2147483647.0));
        std::memcpy(&content[i * sizeof(int32_t)], &v, sizeof(v));
      }
    }
  } else if (spec.quantDtype == "float16") {
    size = count * 2;
    if (offset + size > data_.size())
      return false;
    if (*type != tensorflow::DT_FLOAT)
      return fail("float16 quantization of a " + spec.dtype +
                  " weight is not supported (only float32)");
    content.resize(count * sizeof(float));
    for (int64_t i = 0; i < count; ++i) {
      float v = halfToFloat(llvm::support::endian::read16le(bytes + 2 * i));
      std::memcpy(&content[i * sizeof(float)], &v, sizeof(v));
    }
  } else {
    return fail("unsupported quantization dtype '" + spec.quantDtype +
                "' (supported: uint8, uint16, float16)");
  }
  tensor.set_dtype(*type);
  tensor.set_tensor_content(std::move(content));
  return true;
}

/// `tensor` (int32 or float32, little-endian tensor_content) as `wide`
/// (int64 or float64), element by element.
static tensorflow::TensorProto widened(const tensorflow::TensorProto &tensor,
                                       tensorflow::DataType wide) {
  const std::string &narrow = tensor.tensor_content();
  std::string content(narrow.size() * 2, '\0');
  for (size_t i = 0; i < narrow.size() / 4; ++i) {
    uint32_t bits = llvm::support::endian::read32le(narrow.data() + 4 * i);
    uint64_t out;
    if (wide == tensorflow::DT_INT64) {
      out = uint64_t(int64_t(int32_t(bits)));
    } else {
      float f;
      std::memcpy(&f, &bits, sizeof(f));
      double d = f;
      std::memcpy(&out, &d, sizeof(out));
    }
    llvm::support::endian::write64le(&content[8 * i], out);
  }
  tensorflow::TensorProto result = tensor;
  result.set_dtype(wide);
  result.set_tensor_content(std::move(content));
  return result;
}

void TfjsModelLoader::assignWeight(const WeightSpec &spec,
                                   tensorflow::TensorProto tensor) {
  auto it = consts_.find(spec.name);
  if (it == consts_.end()) {
    diags_.warning("weight '" + spec.name +
                   "' matches no Const node of that name; ignored");
    return;
  }
  if (assigned_.count(spec.name))
    diags_.warning("weight '" + spec.name +
                   "' appears more than once in the weights manifest; the "
                   "last one is used");
  assigned_[spec.name] = true;
  for (tensorflow::NodeDef *node : it->second) {
    auto &value = (*node->mutable_attr())["value"];
    // The converter keeps the value's dtype and shape; they must agree.
    if (value.has_tensor() && value.tensor().has_tensor_shape()) {
      const auto &declared = value.tensor().tensor_shape();
      bool same = !declared.unknown_rank() &&
                  declared.dim_size() == (int)spec.shape.size();
      for (int i = 0; same && i < declared.dim_size(); ++i)
        same = declared.dim(i).size() == spec.shape[i];
      if (!same) {
        std::vector<int64_t> dims;
        for (const auto &d : declared.dim())
          dims.push_back(d.size());
        diags_.nodeError(node->name(), node->op(),
                         "the weight's shape " + showShape(spec.shape) +
                             " differs from the node's value shape " +
                             showShape(dims));
        continue;
      }
    }
    // TF.js has no int64 and no float64: the converter stores such
    // constants as int32 and float32 weights but keeps the node's dtype.
    // Widen them back so the graph's types stay what TensorFlow built.
    auto dtype = node->attr().find("dtype");
    if (dtype != node->attr().end()) {
      tensorflow::DataType want = dtype->second.type();
      if ((want == tensorflow::DT_INT64 &&
           tensor.dtype() == tensorflow::DT_INT32) ||
          (want == tensorflow::DT_DOUBLE &&
           tensor.dtype() == tensorflow::DT_FLOAT)) {
        *value.mutable_tensor() = widened(tensor, want);
        continue;
      }
    }
    *value.mutable_tensor() = tensor;
  }
}

void TfjsModelLoader::checkConstsHaveValues() {
  auto check = [&](const tensorflow::NodeDef &node) {
    // Weights that failed to decode have been reported already.
    if (node.op() != "Const" || inManifest_.count(node.name()))
      return;
    auto value = node.attr().find("value");
    if (value != node.attr().end() && value->second.has_tensor()) {
      const auto &tensor = value->second.tensor();
      if (hasValues(tensor) || elementCount(tensor.tensor_shape()) == 0)
        return;
    }
    diags_.nodeError(node.name(), node.op(),
                     "has no value: the weights manifest has no weight of "
                     "this name (TF.js stores every Const's value there)");
  };
  for (const tensorflow::NodeDef &node : graph_.node())
    check(node);
  for (const auto &function : graph_.library().function())
    for (const tensorflow::NodeDef &node : function.node_def())
      check(node);
}
