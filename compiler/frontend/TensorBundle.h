//===- TensorBundle.h - Read TensorFlow checkpoints (tensor bundles) -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A tensor bundle is what tf.train.Checkpoint and SavedModel's variables/
// directory hold: PREFIX.index, a LevelDB-format table mapping every tensor
// name to a BundleEntryProto (dtype, shape, shard, offset, size, crc32c), and
// PREFIX.data-NNNNN-of-MMMMM, the shards holding the raw little-endian tensor
// bytes. Only what freezing a SavedModel needs is read: whole (unpartitioned)
// numeric tensors, and scalar strings for the checkpoint's object graph.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_TENSORBUNDLE_H
#define TFAOT_COMPILER_FRONTEND_TENSORBUNDLE_H

#include "compiler/frontend/Diagnostics.h"
#include "compiler/proto/tensor.pb.h"
#include "compiler/proto/tensor_bundle.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tfaot {

/// CRC-32C (Castagnoli) of `data`, continuing from `crc`.
uint32_t crc32c(llvm::StringRef data, uint32_t crc = 0);

/// The masked form checkpoints store: a CRC of data that itself contains
/// CRCs is a poor checksum, so TF rotates and offsets every stored one.
uint32_t maskCrc32c(uint32_t crc);

/// Reads every entry of a LevelDB-format table (an SSTable: data blocks, an
/// index block, a 48-byte footer) whose bytes are `contents`. Keys map to
/// values in key order. Returns an error message (without the file name)
/// or the empty string.
std::string readSSTable(llvm::StringRef contents,
                        std::map<std::string, std::string> &entries);

/// A checkpoint opened for reading: its index in memory, shards read on
/// demand. Errors name the index or shard file and the tensor.
class TensorBundle {
public:
  /// Opens PREFIX.index. Reports to `diags` and returns nullopt on failure.
  static std::optional<TensorBundle> open(const std::string &prefix,
                                          GraphDiagnostics &diags);

  bool contains(const std::string &key) const {
    return entries_.count(key) != 0;
  }

  /// The tensor `key` as a TensorProto (dtype, shape, tensor_content), its
  /// checksum verified. Reports to `diags` and returns nullopt on failure.
  std::optional<tensorflow::TensorProto> readTensor(const std::string &key,
                                                    GraphDiagnostics &diags);

  /// The scalar DT_STRING tensor `key` (the checkpoint's object graph).
  std::optional<std::string> readString(const std::string &key,
                                        GraphDiagnostics &diags);

  const std::string &indexPath() const { return indexPath_; }

private:
  /// The checked bytes of `key`'s tensor; `entry` receives its metadata.
  std::optional<std::string> readBytes(const std::string &key,
                                       tensorflow::BundleEntryProto &entry,
                                       GraphDiagnostics &diags);

  std::string prefix_, indexPath_;
  int32_t numShards_ = 1;
  std::map<std::string, tensorflow::BundleEntryProto> entries_;
  /// Shard id -> its file, mapped rather than copied: shards can be large.
  std::map<int32_t, std::unique_ptr<llvm::MemoryBuffer>> shards_;
};

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_TENSORBUNDLE_H
