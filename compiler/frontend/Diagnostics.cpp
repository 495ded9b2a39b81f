//===- Diagnostics.cpp - Errors that name the graph node ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Formats importer and MLIR diagnostics the same way, so users see one style
// whether a graph fails in our checks or in an op verifier.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Diagnostics.h"

#include "passes/Remarks.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/Regex.h"

using namespace tfaot;

static std::string &commandNameStorage() {
  static std::string name = "tfaot";
  return name;
}

void tfaot::setCommandName(std::string name) {
  commandNameStorage() = std::move(name);
}

llvm::StringRef tfaot::commandName() { return commandNameStorage(); }

llvm::StringRef GraphDiagnostics::subject() const {
  return file_.empty() ? commandName() : llvm::StringRef(file_);
}

void GraphDiagnostics::nodeError(llvm::StringRef node, llvm::StringRef op,
                                 const llvm::Twine &message) {
  ++errors_;
  os_ << subject() << ": error: node '" << node << "'";
  if (!op.empty())
    os_ << " (" << op << ")";
  os_ << ": " << message << "\n";
}

void GraphDiagnostics::error(const llvm::Twine &message) {
  ++errors_;
  os_ << subject() << ": error: " << message << "\n";
}

void GraphDiagnostics::usageError(const llvm::Twine &message) {
  ++errors_;
  os_ << commandName() << ": error: " << message << "\n";
}

void GraphDiagnostics::warning(const llvm::Twine &message) {
  if (quiet_)
    return;
  os_ << subject() << ": warning: " << message << "\n";
}

using mlir::tfaot::nodeNameOf;

std::string tfaot::showShape(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "," : "") + (mlir::ShapedType::isDynamic(d) ? std::string("-1")
                                                          : std::to_string(d));
  return s + "]";
}

ScopedGraphDiagnosticHandler::ScopedGraphDiagnosticHandler(
    mlir::MLIRContext *ctx, GraphDiagnostics &diags)
    : ScopedDiagnosticHandler(ctx, [&diags](mlir::Diagnostic &diag) {
        std::string message = diag.str();
        for (mlir::Diagnostic &note : diag.getNotes())
          message += "; note: " + note.str();
        if (diag.getSeverity() == mlir::DiagnosticSeverity::Warning) {
          diags.warning(message);
          return mlir::success();
        }
        if (diag.getSeverity() == mlir::DiagnosticSeverity::Remark) {
          diags.remark(message,
                       nodeNameOf(diag.getLocation()).value_or("?"));
          return mlir::success();
        }
        if (diag.getSeverity() != mlir::DiagnosticSeverity::Error)
          return mlir::success();
        // "'tfaot.MatMul' op inner dimensions..." -> op "MatMul".
        std::string op;
        static const llvm::Regex opPrefix("^'tfaot\\.([A-Za-z0-9_]+)' op (.*)$");
        llvm::SmallVector<llvm::StringRef, 3> groups;
        if (opPrefix.match(message, &groups)) {
          op = groups[1].str();
          message = groups[2].str();
        }
        if (auto node = nodeNameOf(diag.getLocation()))
          diags.nodeError(*node, op, message);
        else
          diags.error(message);
        return mlir::success();
      }) {}
