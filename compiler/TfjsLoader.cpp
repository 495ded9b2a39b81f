//===- TfjsLoader.cpp - Read TensorFlow.js graph models -------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// model.json -> GraphDef with the weights put back into their Const nodes.
// The decoding follows @tensorflow/tfjs-core's io.decodeWeights: a weight's
// "dtype" is what the model computes with; "quantization" says how it is
// stored (uint8/uint16: value = q * scale + min, rounded for int32 weights;
// float16: IEEE half). Arithmetic is done in double and rounded once to
// float, as JavaScript does when it stores into a Float32Array, so the
// values are bit-identical to what TF.js runs with.
//
//===----------------------------------------------------------------------===//
#include "compiler/TfjsLoader.h"

#include "compiler/GraphLoader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace tfaot;
namespace json = llvm::json;
using llvm::StringRef;

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

//===----------------------------------------------------------------------===//
// Key order. llvm::json::Object is a hash map; the order of the signature's
// outputs is only in the text, so this walks the (already validated) JSON to
// list the keys of one nested object in the order they are written.
//===----------------------------------------------------------------------===//
class KeyOrderScanner {
public:
  explicit KeyOrderScanner(StringRef text) : s_(text) {}

  /// The keys of the object at `path` (keys from the root), in text order;
  /// empty when there is no such object.
  std::vector<std::string> keysAt(llvm::ArrayRef<StringRef> path) {
    std::vector<std::string> keys;
    pos_ = 0;
    if (!collect(path, keys))
      keys.clear();
    return keys;
  }

private:
  void skipSpace() {
    while (pos_ < s_.size() && llvm::isSpace(s_[pos_]))
      ++pos_;
  }
  bool consume(char c) {
    skipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  /// A string token, quotes and escapes included.
  bool string(StringRef &raw) {
    skipSpace();
    if (pos_ >= s_.size() || s_[pos_] != '"')
      return false;
    size_t start = pos_++;
    while (pos_ < s_.size() && s_[pos_] != '"')
      pos_ += s_[pos_] == '\\' ? 2 : 1;
    if (pos_ >= s_.size())
      return false;
    raw = s_.slice(start, ++pos_);
    return true;
  }
  bool skipValue() {
    skipSpace();
    if (pos_ >= s_.size())
      return false;
    StringRef raw;
    if (s_[pos_] == '"')
      return string(raw);
    if (s_[pos_] == '{' || s_[pos_] == '[') {
      int depth = 0;
      while (pos_ < s_.size()) {
        char c = s_[pos_];
        if (c == '"') {
          if (!string(raw))
            return false;
          continue;
        }
        ++pos_;
        if (c == '{' || c == '[')
          ++depth;
        else if ((c == '}' || c == ']') && --depth == 0)
          return true;
      }
      return false;
    }
    while (pos_ < s_.size() &&
           !llvm::is_contained(StringRef(",}] \t\r\n"), s_[pos_]))
      ++pos_;
    return true;
  }
  bool collect(llvm::ArrayRef<StringRef> path, std::vector<std::string> &keys) {
    if (!consume('{'))
      return false;
    if (consume('}'))
      return path.empty();
    bool found = false;
    do {
      StringRef raw;
      if (!string(raw) || !consume(':'))
        return false;
      auto decoded = json::parse(raw);
      if (!decoded || !decoded->getAsString())
        return false;
      std::string key = decoded->getAsString()->str();
      if (path.empty()) {
        keys.push_back(key);
        if (!skipValue())
          return false;
      } else if (!found && key == path.front()) {
        if (!collect(path.drop_front(), keys))
          return false;
        found = true;
      } else if (!skipValue()) {
        return false;
      }
    } while (consume(','));
    return consume('}') && (path.empty() || found);
  }

  StringRef s_;
  size_t pos_ = 0;
};

/// One entry of the weights manifest.
struct WeightSpec {
  std::string name;
  std::vector<int64_t> shape;
  std::string dtype;      ///< "float32", "int32", "bool", "string", ...
  std::string quantDtype; ///< "", "uint8", "uint16", "float16", ...
  std::string originalDtype;
  double min = 0, scale = 1;
  bool hasMin = false, hasScale = false;
};

/// "[L:C, byte=B]: msg" (llvm::json's form) -> "line L:C: msg".
std::string describeParseError(llvm::Error error) {
  std::string text = llvm::toString(std::move(error));
  static const llvm::Regex position(
      "^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$");
  llvm::SmallVector<StringRef, 4> groups;
  if (position.match(text, &groups))
    return ("line " + groups[1] + ":" + groups[2] + ": " + groups[3]).str();
  return text;
}

/// llvm::json parses, prints and destroys nested values recursively, so a
/// model.json of a few hundred thousand '[' would overflow the stack. Real
/// models nest about ten levels (and protobuf's JSON parser, which reads the
/// topology, stops at 100), so deeper input is rejected before parsing.
constexpr int kMaxJsonDepth = 256;

/// The line and column (1-based) where `text` nests deeper than
/// kMaxJsonDepth, outside strings; nullopt if it never does.
std::optional<std::pair<size_t, size_t>> findTooDeepJson(StringRef text) {
  int depth = 0;
  bool inString = false;
  size_t line = 1, lineStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
    }
    if (inString) {
      if (c == '\\')
        ++i; // The escaped character cannot end the string.
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return std::make_pair(line, i - lineStart + 1);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

/// Reads an int64 from a JSON number or a decimal string ("-1", as protobuf
/// JSON writes int64).
std::optional<int64_t> getInteger(const json::Value &value) {
  if (auto i = value.getAsInteger())
    return i;
  if (auto s = value.getAsString()) {
    int64_t result;
    if (!s->trim().getAsInteger(10, result))
      return result;
  }
  return std::nullopt;
}

/// Splits a TF tensor name "node:3" into node and output index ("node" -> 0).
std::pair<std::string, int64_t> splitTensorName(StringRef name) {
  size_t colon = name.rfind(':');
  int64_t index;
  if (colon != StringRef::npos &&
      !name.substr(colon + 1).getAsInteger(10, index) && index >= 0)
    return {name.substr(0, colon).str(), index};
  return {name.str(), 0};
}

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

class TfjsModelLoader {
public:
  TfjsModelLoader(const std::string &path, const TfjsShardReader &readShard,
                  GraphDiagnostics &diags)
      : path_(path), readShard_(readShard), diags_(diags) {}

  std::optional<tensorflow::GraphDef>
  load(StringRef text, tensorflow::tf2xla::Config *signatureConfig);

private:
  bool parseTopology(const json::Object &root);
  bool parseManifest(const json::Object &root);
  bool readShards();
  bool decodeWeights();
  /// Decodes `spec` at `offset` into `tensor`; sets `size` to the bytes it
  /// occupies. Returns false with an error reported; `size` stays 0 when the
  /// size is unknown (then no later weight can be located).
  bool decodeWeight(const WeightSpec &spec, size_t offset,
                    tensorflow::TensorProto &tensor, size_t &size);
  void assignWeight(const WeightSpec &spec, tensorflow::TensorProto tensor);
  void checkConstsHaveValues();
  void parseSignature(const json::Object &root, StringRef text,
                      tensorflow::tf2xla::Config &config);
  bool truncated(const WeightSpec &spec, size_t offset, size_t size);

  std::string path_;
  const TfjsShardReader &readShard_;
  GraphDiagnostics &diags_;
  tensorflow::GraphDef graph_;
  std::vector<WeightSpec> weights_;
  std::vector<std::string> shardNames_; ///< As the manifest writes them.
  std::vector<size_t> shardSizes_;
  std::string data_; ///< All shards, concatenated.
  /// Const nodes by name: the graph's and those in library functions.
  llvm::StringMap<std::vector<tensorflow::NodeDef *>> consts_;
  llvm::StringMap<bool> assigned_;
  llvm::StringSet<> inManifest_;
};

} // namespace

std::optional<tensorflow::GraphDef>
TfjsModelLoader::load(StringRef text,
                      tensorflow::tf2xla::Config *signatureConfig) {
  int errorsBefore = diags_.errorCount();
  if (auto at = findTooDeepJson(text)) {
    diags_.error(llvm::formatv("cannot parse JSON: line {0}:{1}: nested "
                               "deeper than {2} levels",
                               at->first, at->second, kMaxJsonDepth)
                     .str());
    return std::nullopt;
  }
  auto parsed = json::parse(text);
  if (!parsed) {
    diags_.error("cannot parse JSON: " +
                 describeParseError(parsed.takeError()));
    return std::nullopt;
  }
  const json::Object *root = parsed->getAsObject();
  if (!root) {
    diags_.error("not a TF.js graph model: the JSON is not an object");
    return std::nullopt;
  }
  if (auto format = root->getString("format");
      format && *format != "graph-model") {
    diags_.error("not a TF.js graph model: \"format\" is '" + *format +
                 "'; tfaot reads graph models (tensorflowjs_converter "
                 "--output_format=tfjs_graph_model)");
    return std::nullopt;
  }
  if (!parseTopology(*root) || !parseManifest(*root) || !readShards())
    return std::nullopt;
  decodeWeights();
  checkConstsHaveValues();
  if (signatureConfig) {
    signatureConfig->Clear();
    parseSignature(*root, text, *signatureConfig);
  }
  if (diags_.errorCount() != errorsBefore)
    return std::nullopt;
  return std::move(graph_);
}

bool TfjsModelLoader::parseTopology(const json::Object &root) {
  const json::Object *topology = root.getObject("modelTopology");
  if (!topology) {
    diags_.error("not a TF.js graph model: no \"modelTopology\" object");
    return false;
  }
  if (!topology->get("node")) {
    diags_.error("not a TF.js graph model: \"modelTopology\" has no \"node\" "
                 "list (a layers model? tfaot reads graph models)");
    return false;
  }
  // Back to text for protobuf's JSON parser (llvm::json prints doubles with
  // 17 significant digits, so float attributes survive the round trip).
  std::string topologyText;
  llvm::raw_string_ostream os(topologyText);
  os << *root.get("modelTopology");
  os.flush();
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  auto status = google::protobuf::util::JsonStringToMessage(topologyText,
                                                            &graph_, options);
  if (!status.ok()) {
    diags_.error("cannot read \"modelTopology\" as a GraphDef: " +
                 std::string(status.message().data(), status.message().size()));
    return false;
  }
  auto addConst = [&](tensorflow::NodeDef &node) {
    if (node.op() == "Const")
      consts_[node.name()].push_back(&node);
  };
  for (tensorflow::NodeDef &node : *graph_.mutable_node())
    addConst(node);
  for (auto &function : *graph_.mutable_library()->mutable_function())
    for (tensorflow::NodeDef &node : *function.mutable_node_def())
      addConst(node);
  return true;
}

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
    // TF.js has no int64: the converter stores int64 constants as int32
    // weights but keeps the node's int64 dtype. Widen them back so the
    // graph's types stay what TensorFlow built.
    auto dtype = node->attr().find("dtype");
    if (dtype != node->attr().end() &&
        dtype->second.type() == tensorflow::DT_INT64 &&
        tensor.dtype() == tensorflow::DT_INT32) {
      tensorflow::TensorProto wide = tensor;
      const std::string &narrow = tensor.tensor_content();
      std::string content(narrow.size() * 2, '\0');
      for (size_t i = 0; i < narrow.size() / 4; ++i) {
        int64_t v = int32_t(llvm::support::endian::read32le(narrow.data() + 4 * i));
        llvm::support::endian::write64le(&content[8 * i], uint64_t(v));
      }
      wide.set_dtype(tensorflow::DT_INT64);
      wide.set_tensor_content(std::move(content));
      *value.mutable_tensor() = wide;
      continue;
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

void TfjsModelLoader::parseSignature(const json::Object &root, StringRef text,
                                     tensorflow::tf2xla::Config &config) {
  std::vector<StringRef> path{"signature"};
  const json::Object *signature = root.getObject("signature");
  if (!signature)
    if (const json::Object *meta = root.getObject("userDefinedMetadata")) {
      signature = meta->getObject("signature");
      path = {"userDefinedMetadata", "signature"};
    }
  if (!signature)
    return;

  // One tensor of the signature: its TF tensor name, dtype and shape.
  auto read = [&](StringRef kind, StringRef key, const json::Value &value,
                  tensorflow::tf2xla::TensorId &id, tensorflow::DataType *dtype,
                  tensorflow::TensorShapeProto *shape, bool &hasShape) {
    const json::Object *entry = value.getAsObject();
    if (!entry) {
      diags_.error("signature " + kind + " '" + key + "' is not an object");
      return false;
    }
    auto name = entry->getString("name");
    auto [node, index] = splitTensorName(name ? *name : key);
    id.set_node_name(node);
    id.set_output_index(index);
    if (dtype)
      if (auto d = entry->getString("dtype")) {
        auto parsed = parseDataType(*d);
        if (!parsed) {
          diags_.error("signature " + kind + " '" + key + "' has dtype '" + *d +
                       "', which tfaot does not support");
          return false;
        }
        *dtype = *parsed;
      }
    hasShape = false;
    if (!shape)
      return true;
    const json::Object *tensorShape = entry->getObject("tensorShape");
    if (!tensorShape || tensorShape->getBoolean("unknownRank").value_or(false))
      return true;
    hasShape = true;
    if (const json::Array *dims = tensorShape->getArray("dim"))
      for (const json::Value &dim : *dims) {
        const json::Object *d = dim.getAsObject();
        const json::Value *size = d ? d->get("size") : nullptr;
        // protobuf JSON omits a default 0 size.
        auto parsed = size ? getInteger(*size) : std::optional<int64_t>(0);
        if (!parsed || *parsed < -1) {
          diags_.error("signature " + kind + " '" + key +
                       "' has a malformed tensorShape");
          return false;
        }
        shape->add_dim()->set_size(*parsed);
      }
    return true;
  };

  if (const json::Object *inputs = signature->getObject("inputs")) {
    std::vector<std::string> keys;
    for (const auto &member : *inputs)
      keys.push_back(member.first.str());
    llvm::sort(keys);
    for (const std::string &key : keys) {
      tensorflow::tf2xla::Feed feed;
      tensorflow::DataType dtype = tensorflow::DT_INVALID;
      bool hasShape;
      if (!read("input", key, *inputs->get(key), *feed.mutable_id(), &dtype,
                feed.mutable_shape(), hasShape))
        continue;
      if (!hasShape)
        feed.clear_shape();
      feed.set_type(dtype);
      *config.add_feed() = std::move(feed);
    }
  }
  if (const json::Object *outputs = signature->getObject("outputs")) {
    path.push_back("outputs");
    std::vector<std::string> keys = KeyOrderScanner(text).keysAt(path);
    std::vector<std::string> sorted;
    for (const auto &member : *outputs)
      sorted.push_back(member.first.str());
    llvm::sort(sorted);
    std::vector<std::string> scanned = keys;
    llvm::sort(scanned);
    if (scanned != sorted) // Duplicate keys or a scanner miss: fall back.
      keys = sorted;
    for (const std::string &key : keys) {
      tensorflow::tf2xla::Fetch fetch;
      bool hasShape;
      if (read("output", key, *outputs->get(key), *fetch.mutable_id(), nullptr,
               nullptr, hasShape))
        *config.add_fetch() = std::move(fetch);
    }
  }
}

std::optional<tensorflow::GraphDef>
tfaot::loadTfjsModel(const std::string &path, GraphDiagnostics &diags,
                     tensorflow::tf2xla::Config *signatureConfig) {
  if (signatureConfig)
    signatureConfig->Clear();
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    diags.error("cannot read file: " + buffer.getError().message());
    return std::nullopt;
  }
  TfjsShardReader readShard = [](StringRef shard) {
    return llvm::MemoryBuffer::getFile(shard, /*IsText=*/false,
                                       /*RequiresNullTerminator=*/false);
  };
  return TfjsModelLoader(path, readShard, diags)
      .load((*buffer)->getBuffer(), signatureConfig);
}

std::optional<tensorflow::GraphDef>
tfaot::parseTfjsModel(const std::string &path, StringRef json,
                      const TfjsShardReader &readShard,
                      GraphDiagnostics &diags,
                      tensorflow::tf2xla::Config *signatureConfig) {
  if (signatureConfig)
    signatureConfig->Clear();
  return TfjsModelLoader(path, readShard, diags).load(json, signatureConfig);
}

void tfaot::applyTfjsSignature(const tensorflow::tf2xla::Config &signature,
                               tensorflow::tf2xla::Config &config,
                               GraphDiagnostics &diags) {
  if (config.fetch().empty())
    *config.mutable_fetch() = signature.fetch();

  auto sameTensor = [](const tensorflow::tf2xla::TensorId &a,
                       const tensorflow::tf2xla::TensorId &b) {
    return a.node_name() == b.node_name() &&
           a.output_index() == b.output_index();
  };
  auto findSignatureFeed = [&](const tensorflow::tf2xla::Feed &feed) {
    return llvm::find_if(signature.feed(), [&](const auto &s) {
      return sameTensor(s.id(), feed.id());
    });
  };
  bool allOverrides =
      llvm::all_of(config.feed(), [&](const tensorflow::tf2xla::Feed &feed) {
        return findSignatureFeed(feed) != signature.feed().end();
      });
  if (!allOverrides || signature.feed().empty())
    return; // The user's feeds are the whole list.

  google::protobuf::RepeatedPtrField<tensorflow::tf2xla::Feed> merged;
  for (const tensorflow::tf2xla::Feed &input : signature.feed()) {
    tensorflow::tf2xla::Feed feed = input;
    auto user = llvm::find_if(config.feed(), [&](const auto &f) {
      return sameTensor(f.id(), input.id());
    });
    bool userShape = false;
    if (user != config.feed().end()) {
      if (user->has_shape()) {
        *feed.mutable_shape() = user->shape();
        userShape = true;
      }
      if (user->type() != tensorflow::DT_INVALID)
        feed.set_type(user->type());
      if (!user->name().empty())
        feed.set_name(user->name());
    }
    // Unknown batch only: compile for batch 1 and say so. Other unknown
    // dimensions are left for the importer, which asks for a full shape.
    const auto &dims = feed.shape().dim();
    if (!userShape && feed.has_shape() && !dims.empty() &&
        dims[0].size() == -1 &&
        std::all_of(dims.begin() + 1, dims.end(),
                    [](const auto &d) { return d.size() >= 0; })) {
      std::string shape, rest;
      for (int i = 0; i < dims.size(); ++i) {
        shape += (i ? "," : "") + std::to_string(dims[i].size());
        if (i)
          rest += "," + std::to_string(dims[i].size());
      }
      const std::string &name = feed.id().node_name();
      diags.warning("feed '" + name + "' has shape [" + shape +
                    "]; compiling for batch 1 (give --feed " + name + ":N" +
                    rest + " to choose)");
      feed.mutable_shape()->mutable_dim(0)->set_size(1);
    }
    *merged.Add() = std::move(feed);
  }
  *config.mutable_feed() = std::move(merged);
}

void tfaot::defaultTfjsFeeds(const tensorflow::GraphDef &graph,
                             tensorflow::tf2xla::Config &signature,
                             const tensorflow::tf2xla::Config &config,
                             GraphDiagnostics &diags) {
  if (!signature.feed().empty())
    return;
  std::vector<std::string> described;
  for (const tensorflow::NodeDef &node : graph.node()) {
    if (node.op() != "Placeholder")
      continue;
    tensorflow::tf2xla::Feed *feed = signature.add_feed();
    feed->mutable_id()->set_node_name(node.name());
    std::string shape = "[unknown rank]";
    if (auto dtype = node.attr().find("dtype"); dtype != node.attr().end())
      feed->set_type(dtype->second.type());
    if (auto attr = node.attr().find("shape");
        attr != node.attr().end() && !attr->second.shape().unknown_rank()) {
      *feed->mutable_shape() = attr->second.shape();
      llvm::SmallVector<int64_t> dims;
      for (const auto &dim : attr->second.shape().dim())
        dims.push_back(dim.size());
      shape = showShape(dims);
    }
    described.push_back("'" + node.name() + "' " +
                        dataTypeName(feed->type()) + shape);
  }
  if (described.empty() || !config.feed().empty())
    return;
  diags.warning(
      llvm::formatv("the model's signature lists no inputs; feeding its "
                    "placeholder{0}, as TF.js does: {1}",
                    described.size() == 1 ? "" : "s",
                    llvm::join(described, ", "))
          .str());
}
