//===- tensor_bundle_test.cpp - Checkpoint (tensor bundle) reading --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Hand-built LevelDB tables (prefix-compressed keys, an index block, the
// footer) checked entry by entry, the CRC-32C against its published check
// value, and a one-tensor bundle read back from a temporary directory,
// intact and damaged.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/TensorBundle.h"

#include "test/unit/compiler/TempDirTest.h"

#include <cstring>

using namespace tfaot;

namespace {

std::string le32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i)
    s[i] = char(v >> (8 * i));
  return s;
}

/// `contents` followed by its trailer: compression byte, masked CRC.
std::string withTrailer(const std::string &contents, char compression = 0) {
  std::string typed = contents + compression;
  return typed + le32(maskCrc32c(crc32c(typed)));
}

/// One restart point at 0 ends every block built here.
const std::string oneRestart = le32(0) + le32(1);

/// A table holding one data block (at offset 0, `dataBlock` without trailer)
/// whose last key is `lastKey`. Single-byte varints keep the bytes readable.
std::string table(const std::string &dataBlock, const std::string &lastKey,
                  char compression = 0) {
  std::string file = withTrailer(dataBlock, compression);
  std::string handle = std::string(1, '\0') + char(dataBlock.size());
  std::string index = std::string("\x00", 1) + char(lastKey.size()) +
                      char(handle.size()) + lastKey + handle + oneRestart;
  size_t indexOffset = file.size();
  file += withTrailer(index);
  std::string footer = std::string(2, '\0') + char(indexOffset) +
                       char(index.size());
  footer.resize(40, '\0');
  footer += std::string("\x57\xfb\x80\x8b\x24\x75\x47\xdb", 8);
  return file + footer;
}

/// "dense/bias" -> "v1", then "dense/kernel" sharing "dense/" -> "v2".
const std::string twoEntries = std::string("\x00\x0a\x02", 3) + "dense/bias" +
                               "v1" + "\x06\x06\x02" + "kernel" + "v2" +
                               oneRestart;

TEST(TensorBundleTest, Crc32cMatchesTheCheckValue) {
  EXPECT_EQ(crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(crc32c("6789", crc32c("12345")), 0xE3069283u);
  EXPECT_EQ(maskCrc32c(0), 0xa282ead8u);
}

TEST(TensorBundleTest, ReadsPrefixCompressedKeys) {
  std::map<std::string, std::string> entries;
  ASSERT_EQ(readSSTable(table(twoEntries, "dense/kernel"), entries), "");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries["dense/bias"], "v1");
  EXPECT_EQ(entries["dense/kernel"], "v2");
}

TEST(TensorBundleTest, RejectsDamagedTables) {
  std::map<std::string, std::string> entries;
  std::string good = table(twoEntries, "dense/kernel");

  std::string badMagic = good;
  badMagic.back() ^= 1;
  EXPECT_NE(readSSTable(badMagic, entries).find("no table footer"),
            std::string::npos);
  EXPECT_NE(readSSTable(good.substr(0, 20), entries).find("no table footer"),
            std::string::npos);

  std::string flipped = good;
  flipped[5] ^= 1; // Inside the key "dense/bias".
  EXPECT_EQ(readSSTable(flipped, entries),
            "data block: checksum mismatch in the block at offset 0 (corrupt "
            "file)");

  EXPECT_NE(readSSTable(table(twoEntries, "dense/kernel", 1), entries)
                .find("Snappy-compressed blocks are not supported"),
            std::string::npos);

  // A shared prefix longer than the previous key.
  std::string badShare = std::string("\x03\x01\x00", 3) + "k" + oneRestart;
  EXPECT_NE(readSSTable(table(badShare, "k"), entries).find("malformed"),
            std::string::npos);
}

class TensorBundleFileTest : public TempDirTest {
protected:
  TensorBundleFileTest() : TempDirTest("tfaot-bundle-test") {}
  /// Writes vars.index and vars.data-00000-of-00001 holding "w" = `values`
  /// (float[2]); `crcDelta` damages the stored checksum.
  void writeBundle(const float (&values)[2], uint32_t crcDelta = 0) {
    std::string data(reinterpret_cast<const char *>(values), sizeof(values));
    tensorflow::BundleHeaderProto header;
    header.set_num_shards(1);
    tensorflow::BundleEntryProto entry;
    entry.set_dtype(tensorflow::DT_FLOAT);
    entry.mutable_shape()->add_dim()->set_size(2);
    entry.set_size(data.size());
    entry.set_crc32c(maskCrc32c(crc32c(data)) + crcDelta);
    std::string h = header.SerializeAsString(), e = entry.SerializeAsString();
    std::string block = std::string("\x00\x00", 2) + char(h.size()) + h +
                        std::string("\x00\x01", 2) + char(e.size()) + "w" +
                        e + oneRestart;
    write("vars.index", table(block, "w"));
    write("vars.data-00000-of-00001", data);
  }
};

TEST_F(TensorBundleFileTest, ReadsATensor) {
  const float values[2] = {1.5f, -2.0f};
  writeBundle(values);
  GraphDiagnostics diags("model", os);
  auto bundle = TensorBundle::open(path("vars"), diags);
  ASSERT_TRUE(bundle) << messages;
  EXPECT_TRUE(bundle->contains("w"));
  EXPECT_FALSE(bundle->contains("v"));
  auto tensor = bundle->readTensor("w", diags);
  ASSERT_TRUE(tensor) << messages;
  EXPECT_EQ(tensor->dtype(), tensorflow::DT_FLOAT);
  ASSERT_EQ(tensor->tensor_shape().dim_size(), 1);
  EXPECT_EQ(tensor->tensor_shape().dim(0).size(), 2);
  ASSERT_EQ(tensor->tensor_content().size(), sizeof(values));
  EXPECT_EQ(std::memcmp(tensor->tensor_content().data(), values,
                        sizeof(values)),
            0);
}

TEST_F(TensorBundleFileTest, NamesFileAndTensorOnErrors) {
  const float values[2] = {1.5f, -2.0f};
  writeBundle(values, /*crcDelta=*/1);
  GraphDiagnostics diags("model", os);
  auto bundle = TensorBundle::open(path("vars"), diags);
  ASSERT_TRUE(bundle) << messages;
  EXPECT_FALSE(bundle->readTensor("w", diags));
  EXPECT_NE(messages.find("vars.data-00000-of-00001': tensor 'w': checksum "
                          "mismatch"),
            std::string::npos)
      << messages;
  EXPECT_FALSE(bundle->readTensor("missing", diags));
  EXPECT_NE(messages.find("vars.index': no tensor 'missing'"),
            std::string::npos)
      << messages;

  GraphDiagnostics other("model", os);
  EXPECT_FALSE(TensorBundle::open(path("nothing"), other));
  EXPECT_NE(messages.find("cannot read '"), std::string::npos);
}

} // namespace
