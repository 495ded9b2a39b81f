//===- Diagnostics.h - Errors that name the graph node ----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Every error tfaot prints, whatever the command, names what is at fault
// first:
//   <file>: error: node '<name>' (<Op>): <message>
//   <file>: error: <message>
// when it is a file: it cannot be read or written, or what it holds is
// wrong (a node, a shape, a config entry, a feed or fetch it lacks); and
//   tfaot <command>: error: <message>
// when it is the command line: a flag missing, malformed or out of range,
// or flags that do not go together ("tfaot compile: error: --layout must
// be auto, nhwc or nchw, not 'nhcw'"), whether or not a graph was given.
// This file prints them, both for the importer's own checks and for MLIR
// diagnostics (whose locations carry the node name, see GraphImporter).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_DIAGNOSTICS_H
#define TFAOT_COMPILER_FRONTEND_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace tfaot {

/// A shape as errors show it, "[1,-1,784]" (a dynamic dimension is -1, as
/// TensorFlow writes it).
std::string showShape(llvm::ArrayRef<int64_t> shape);

/// What errors name when no file is at fault: "tfaot" until main() knows
/// the command, then "tfaot compile", "tfaot bench", ...
void setCommandName(std::string name);
llvm::StringRef commandName();

/// Collects and prints errors and warnings about one input file (with no
/// file name: about the command line, under commandName()).
class GraphDiagnostics {
public:
  GraphDiagnostics(std::string file, llvm::raw_ostream &os)
      : file_(std::move(file)), os_(os) {}

  /// An error about node `node` whose op type is `op`.
  void nodeError(llvm::StringRef node, llvm::StringRef op,
                 const llvm::Twine &message);
  /// An error about the file as a whole.
  void error(const llvm::Twine &message);
  /// An error about the command line: "<command>: error: <message>".
  void usageError(const llvm::Twine &message);
  void warning(const llvm::Twine &message);
  /// Drops warnings from now on (--quiet); errors are always printed.
  void setQuiet(bool quiet) { quiet_ = quiet; }

  int errorCount() const { return errors_; }
  bool hasErrors() const { return errors_ > 0; }
  llvm::StringRef file() const { return file_; }
  /// Switches the file errors are reported against (e.g. to the config).
  void setFile(std::string file) { file_ = std::move(file); }
  /// Where messages go (also used for --dump_ir_after output).
  llvm::raw_ostream &stream() { return os_; }

  /// Receives MLIR remarks (what the passes rewrote: message, node name);
  /// without a sink they are dropped.
  using RemarkSink = std::function<void(llvm::StringRef, std::string)>;
  void setRemarkSink(RemarkSink sink) { remarkSink_ = std::move(sink); }
  void remark(llvm::StringRef message, std::string node) {
    if (remarkSink_)
      remarkSink_(message, std::move(node));
  }

private:
  /// "<file>", or the command's name when there is no file.
  llvm::StringRef subject() const;

  std::string file_;
  llvm::raw_ostream &os_;
  int errors_ = 0;
  bool quiet_ = false;
  RemarkSink remarkSink_;
};

/// While alive, routes MLIR diagnostics through `diags`: a location that is a
/// NameLoc names the node, and a "'tfaot.Op' op " prefix becomes "(Op)".
class ScopedGraphDiagnosticHandler : public mlir::ScopedDiagnosticHandler {
public:
  ScopedGraphDiagnosticHandler(mlir::MLIRContext *ctx, GraphDiagnostics &diags);
};

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_DIAGNOSTICS_H
