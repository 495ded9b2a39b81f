//===- TfjsSignature.cpp - A TF.js model's signature ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The "signature" of a model.json (its inputs and outputs, in the order
// the JSON writes them), and what the compile uses as feeds and fetches:
// the signature combined with the user's (applyTfjsSignature), or the
// Placeholders for a model that lists no inputs (defaultTfjsFeeds).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/TfjsLoaderInternal.h"

#include "compiler/frontend/GraphLoader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tfaot;
using namespace tfaot::tfjs;

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

} // namespace

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
    TensorName tensor = splitTensorName(name ? *name : key);
    id.set_node_name(tensor.node.str());
    id.set_output_index(tensor.index);
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
