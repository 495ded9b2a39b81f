//===- TensorBundle.cpp - Read TensorFlow checkpoints (tensor bundles) ----===//
// SPDX-License-Identifier: Apache-2.0
//
// The index is a LevelDB table: a 48-byte footer (metaindex and index block
// handles, padding, magic) points at the index block, whose values are the
// handles of the data blocks. Each block is followed by a compression byte
// and a masked CRC-32C of the block plus that byte. TF writes bundles
// uncompressed, so a Snappy block is refused rather than decoded.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/TensorBundle.h"

#include "compiler/frontend/DataTypes.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <array>

using namespace tfaot;

//===----------------------------------------------------------------------===//
// CRC-32C
//===----------------------------------------------------------------------===//

uint32_t tfaot::crc32c(llvm::StringRef data, uint32_t crc) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (unsigned char byte : data)
    crc = table[(crc ^ byte) & 0xff] ^ (crc >> 8);
  return ~crc;
}

uint32_t tfaot::maskCrc32c(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

//===----------------------------------------------------------------------===//
// SSTable
//===----------------------------------------------------------------------===//

/// Reads a varint of at most `maxBytes` bytes from the front of `in`.
static bool readVarint(llvm::StringRef &in, uint64_t &value,
                       unsigned maxBytes = 10) {
  value = 0;
  for (unsigned i = 0; i < maxBytes && i < in.size(); ++i) {
    uint8_t byte = in[i];
    value |= uint64_t(byte & 0x7f) << (7 * i);
    if (!(byte & 0x80)) {
      in = in.drop_front(i + 1);
      return true;
    }
  }
  return false;
}

namespace {
struct BlockHandle {
  uint64_t offset = 0, size = 0;
};
} // namespace

static bool readHandle(llvm::StringRef &in, BlockHandle &handle) {
  return readVarint(in, handle.offset) && readVarint(in, handle.size);
}

/// The contents of the block at `handle`, its trailer checked.
static std::string readBlock(llvm::StringRef file, BlockHandle handle,
                             llvm::StringRef &block) {
  constexpr uint64_t trailer = 5;
  if (handle.offset > file.size() || handle.size > file.size() ||
      handle.offset + handle.size + trailer > file.size())
    return (llvm::Twine("block at offset ") + llvm::Twine(handle.offset) +
            " (" + llvm::Twine(handle.size) +
            " bytes) runs past the end of the file (truncated?)")
        .str();
  llvm::StringRef withType = file.substr(handle.offset, handle.size + 1);
  uint32_t stored = llvm::support::endian::read32le(
      file.data() + handle.offset + handle.size + 1);
  if (maskCrc32c(crc32c(withType)) != stored)
    return (llvm::Twine("checksum mismatch in the block at offset ") +
            llvm::Twine(handle.offset) + " (corrupt file)")
        .str();
  uint8_t compression = withType.back();
  if (compression == 1)
    return "Snappy-compressed blocks are not supported (TensorFlow writes "
           "checkpoints uncompressed)";
  if (compression != 0)
    return "unknown block compression type " + std::to_string(compression);
  block = withType.drop_back();
  return "";
}

/// Appends the entries of one block: prefix-compressed keys, then a restart
/// array (only needed for seeking, so skipped) and its length.
static std::string readBlockEntries(llvm::StringRef block,
                                    std::map<std::string, std::string> &out) {
  if (block.size() < 4)
    return "block too small";
  uint32_t numRestarts =
      llvm::support::endian::read32le(block.data() + block.size() - 4);
  if (uint64_t(numRestarts) * 4 + 4 > block.size())
    return "bad restart count in a block";
  llvm::StringRef in = block.drop_back(4 + 4 * uint64_t(numRestarts));
  std::string key;
  while (!in.empty()) {
    uint64_t shared, unshared, valueLen;
    if (!readVarint(in, shared, 5) || !readVarint(in, unshared, 5) ||
        !readVarint(in, valueLen, 5) || shared > key.size() ||
        unshared + valueLen > in.size())
      return "malformed block entry after key '" + key + "'";
    key.resize(shared);
    key += in.take_front(unshared).str();
    in = in.drop_front(unshared);
    out[key] = in.take_front(valueLen).str();
    in = in.drop_front(valueLen);
  }
  return "";
}

std::string tfaot::readSSTable(llvm::StringRef contents,
                               std::map<std::string, std::string> &entries) {
  constexpr size_t footerSize = 48;
  constexpr uint64_t magic = 0xdb4775248b80fb57ull;
  if (contents.size() < footerSize ||
      llvm::support::endian::read64le(contents.end() - 8) != magic)
    return "not a tensor bundle index (no table footer; truncated?)";
  llvm::StringRef footer = contents.take_back(footerSize);
  BlockHandle metaindex, index;
  if (!readHandle(footer, metaindex) || !readHandle(footer, index))
    return "malformed table footer";
  llvm::StringRef indexBlock;
  if (std::string error = readBlock(contents, index, indexBlock);
      !error.empty())
    return "index block: " + error;
  std::map<std::string, std::string> handles;
  if (std::string error = readBlockEntries(indexBlock, handles);
      !error.empty())
    return "index block: " + error;
  for (auto &[lastKey, value] : handles) {
    llvm::StringRef in = value;
    BlockHandle handle;
    llvm::StringRef block;
    if (!readHandle(in, handle))
      return "malformed block handle in the index block";
    std::string error = readBlock(contents, handle, block);
    if (error.empty())
      error = readBlockEntries(block, entries);
    if (!error.empty())
      return "data block: " + error;
  }
  return "";
}

//===----------------------------------------------------------------------===//
// TensorBundle
//===----------------------------------------------------------------------===//

static std::unique_ptr<llvm::MemoryBuffer>
openFile(const std::string &path, GraphDiagnostics &diags) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    diags.error("cannot read '" + path + "': " + buffer.getError().message());
    return nullptr;
  }
  return std::move(*buffer);
}

std::optional<TensorBundle> TensorBundle::open(const std::string &prefix,
                                               GraphDiagnostics &diags) {
  TensorBundle bundle;
  bundle.prefix_ = prefix;
  bundle.indexPath_ = prefix + ".index";
  auto contents = openFile(bundle.indexPath_, diags);
  if (!contents)
    return std::nullopt;
  auto fail = [&](const llvm::Twine &message) {
    diags.error("'" + bundle.indexPath_ + "': " + message);
    return std::nullopt;
  };
  std::map<std::string, std::string> raw;
  if (std::string error = readSSTable(contents->getBuffer(), raw);
      !error.empty())
    return fail(error);
  tensorflow::BundleHeaderProto header;
  auto headerIt = raw.find("");
  if (headerIt == raw.end() || !header.ParseFromString(headerIt->second))
    return fail("no bundle header (the empty key)");
  if (header.endianness() != tensorflow::BundleHeaderProto::LITTLE)
    return fail("big-endian bundles are not supported");
  if (header.num_shards() < 1)
    return fail("bad shard count " + llvm::Twine(header.num_shards()));
  bundle.numShards_ = header.num_shards();
  for (auto &[key, value] : raw) {
    if (key.empty())
      continue;
    if (!bundle.entries_[key].ParseFromString(value))
      return fail("malformed entry for tensor '" + key + "'");
  }
  return bundle;
}

std::optional<std::string>
TensorBundle::readBytes(const std::string &key,
                        tensorflow::BundleEntryProto &entry,
                        GraphDiagnostics &diags) {
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    diags.error("'" + indexPath_ + "': no tensor '" + key + "'");
    return std::nullopt;
  }
  entry = it->second;
  auto fail = [&](const std::string &file, const llvm::Twine &message) {
    diags.error("'" + file + "': tensor '" + key + "': " + message);
    return std::nullopt;
  };
  if (entry.slices_size())
    return fail(indexPath_, "partitioned variables (saved as slices) are not "
                            "supported");
  if (entry.shard_id() < 0 || entry.shard_id() >= numShards_)
    return fail(indexPath_, "shard " + llvm::Twine(entry.shard_id()) +
                                " is out of range (the bundle has " +
                                llvm::Twine(numShards_) + ")");
  std::string shardPath;
  llvm::raw_string_ostream(shardPath)
      << prefix_ << ".data-" << llvm::format("%05d", entry.shard_id())
      << "-of-" << llvm::format("%05d", numShards_);
  auto shard = shards_.find(entry.shard_id());
  if (shard == shards_.end()) {
    auto contents = openFile(shardPath, diags);
    if (!contents)
      return std::nullopt;
    shard = shards_.emplace(entry.shard_id(), std::move(contents)).first;
  }
  llvm::StringRef data = shard->second->getBuffer();
  uint64_t offset = entry.offset(), size = entry.size();
  if (entry.offset() < 0 || entry.size() < 0 || offset > data.size() ||
      size > data.size() - offset)
    return fail(shardPath, "bytes " + llvm::Twine(offset) + ".." +
                               llvm::Twine(offset + size) +
                               " lie past the end of the file (" +
                               llvm::Twine(data.size()) +
                               " bytes; truncated?)");
  std::string bytes = data.substr(offset, size).str();
  if (maskCrc32c(crc32c(bytes)) != entry.crc32c())
    return fail(shardPath, "checksum mismatch (corrupt data)");
  return bytes;
}

/// Bytes per element of the dtypes a bundle stores as raw memory.
static std::optional<int64_t> elementBytes(tensorflow::DataType type) {
  const DataTypeInfo *info = findDataType(type);
  if (info && (info->role == DataTypeRole::Plain ||
               info->role == DataTypeRole::Complex))
    return info->bytes;
  return std::nullopt;
}

std::optional<tensorflow::TensorProto>
TensorBundle::readTensor(const std::string &key, GraphDiagnostics &diags) {
  tensorflow::BundleEntryProto entry;
  auto bytes = readBytes(key, entry, diags);
  if (!bytes)
    return std::nullopt;
  auto width = elementBytes(entry.dtype());
  if (!width) {
    diags.error("'" + indexPath_ + "': tensor '" + key + "' has dtype " +
                tensorflow::DataType_Name(entry.dtype()) +
                ", which cannot become a constant");
    return std::nullopt;
  }
  uint64_t elements = 1;
  for (const auto &dim : entry.shape().dim()) {
    if (dim.size() < 0 || (dim.size() && elements > UINT64_MAX / dim.size()))
      elements = UINT64_MAX;
    else
      elements *= dim.size();
  }
  if (entry.shape().unknown_rank() ||
      elements > UINT64_MAX / uint64_t(*width) ||
      elements * uint64_t(*width) != bytes->size()) {
    diags.error("'" + indexPath_ + "': tensor '" + key + "' holds " +
                llvm::Twine(bytes->size()) + " bytes, which does not match " +
                "its dtype and shape");
    return std::nullopt;
  }
  tensorflow::TensorProto tensor;
  tensor.set_dtype(entry.dtype());
  *tensor.mutable_tensor_shape() = entry.shape();
  tensor.set_tensor_content(std::move(*bytes));
  return tensor;
}

std::optional<std::string>
TensorBundle::readString(const std::string &key, GraphDiagnostics &diags) {
  tensorflow::BundleEntryProto entry;
  auto bytes = readBytes(key, entry, diags);
  if (!bytes)
    return std::nullopt;
  // One varint length, a masked CRC of the lengths, then the bytes.
  llvm::StringRef in = *bytes;
  uint64_t length;
  if (entry.dtype() != tensorflow::DT_STRING || entry.shape().dim_size() ||
      !readVarint(in, length) || in.size() < 4 || in.size() - 4 != length) {
    diags.error("'" + indexPath_ + "': tensor '" + key +
                "' is not a scalar string");
    return std::nullopt;
  }
  return in.drop_front(4).str();
}
