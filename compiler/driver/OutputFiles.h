//===- OutputFiles.h - Write a command's files all or none ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A failed `tfaot compile` must not leave a header without its object, nor
// half an object where a good one was: `--help` promises that nothing
// usable is written on error. So every file a command writes goes first to
// a temporary file in its destination's folder, and only once all of them
// are written are they renamed over their destinations (a rename within one
// folder replaces a file at once). On any failure the temporaries are
// removed and every destination keeps what it had.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_OUTPUTFILES_H
#define TFAOT_COMPILER_DRIVER_OUTPUTFILES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tfaot {

class OutputFiles {
public:
  /// Queues `contents` for `path`; "-" is standard output (written after
  /// the files are in place).
  void add(std::string path, std::string contents);
  bool empty() const { return files_.empty(); }

  /// Writes every queued file, or none. False after printing
  /// "<path>: error: cannot write: ..." to `errs` for the file that failed.
  bool commit(llvm::raw_ostream &errs);

private:
  struct File {
    std::string path;
    std::string contents;
  };
  std::vector<File> files_;
};

/// Writes one file the same way (an OutputFiles of one): the destination
/// has either its old contents or all of `contents`, never part of them.
bool writeFileAtomically(const std::string &path, llvm::StringRef contents,
                         llvm::raw_ostream &errs);

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_OUTPUTFILES_H
