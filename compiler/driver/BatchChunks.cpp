//===- BatchChunks.cpp - A batch computed as runs over slices of it -------===//
// SPDX-License-Identifier: Apache-2.0
//
// See BatchChunks.h. The choice is made on the graph lowered to linalg (a
// copy: the real lowering comes later, for the chunk's batch), where every
// op says through its indexing maps which rows it reads.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/BatchChunks.h"

#include "passes/BatchRows.h"
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tfaot;

namespace {

/// One op's rows in a chunk should stay within this. The count is of the
/// ops before fusion (a convolution, its bias and its activation each read
/// and write the rows), so it is about twice what the fused code touches,
/// which then fits the 32 MiB L3 of the Zen 5 and Sapphire Rapids
/// machines this was measured on. MobileNetV2 at batch 8 (9.2 MiB per
/// row) runs best in chunks of 2 rows (1 and 4 were slower), 21% faster
/// than the whole batch on one Zen 5 core (docs/performance.md).
constexpr int64_t kChunkBytes = 24 << 20;
/// A batch whose largest op touches less than this stays whole: its rows
/// stay in the cache anyway, and each run has its fixed costs.
constexpr int64_t kWholeBatchBytes = 48 << 20;

std::string mib(int64_t bytes) {
  return llvm::formatv("{0:f1} MiB", bytes / 1048576.0).str();
}

} // namespace

bool tfaot::parseBatchChunk(llvm::StringRef flag, int64_t &rows) {
  rows = 0;
  if (flag == "auto" || flag == "off")
    return true;
  return !flag.getAsInteger(10, rows) && rows >= 1;
}

int64_t tfaot::chooseBatchChunk(mlir::ModuleOp module, llvm::StringRef symbol,
                                int64_t batch, llvm::StringRef flag,
                                std::string &note, std::string &error) {
  if (flag == "off") {
    note = "the whole batch at once (--batch_chunk=off)";
    return 0;
  }
  int64_t asked = 0;
  if (!parseBatchChunk(flag, asked)) {
    error = "internal error: --batch_chunk '" + flag.str() +
            "' was not checked";
    return 0;
  }
  // With --batch buckets a number of rows applies to the buckets it
  // divides: --batch 1,8 --batch_chunk=2 runs batch 8 in four runs.
  if (asked && (asked >= batch || batch % asked)) {
    note = "the whole batch at once: --batch_chunk=" + flag.str() +
           " does not divide it into runs";
    return 0;
  }
  // The analysis lowers a copy; what that lowering would complain about is
  // said when the real one runs.
  mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
  mlir::ScopedDiagnosticHandler quiet(
      module.getContext(), [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::PassManager pm(module.getContext());
  pm.addPass(mlir::tfaot::createLowerToLinalgPass());
  pm.addPass(mlir::createCanonicalizerPass());
  std::string why = "the graph does not lower";
  std::optional<mlir::tfaot::BatchRowTraffic> traffic;
  if (mlir::succeeded(pm.run(*copy)))
    if (auto func = copy->lookupSymbol<mlir::func::FuncOp>(symbol))
      traffic = mlir::tfaot::analyzeBatchRows(func, batch, why);
  if (!traffic) {
    if (asked)
      error = "--batch_chunk=" + flag.str() +
              ": the graph does not compute each batch row alone (" + why +
              ")";
    note = "the whole batch at once: " + why;
    return 0;
  }
  std::string sizes = "its largest op touches " +
                      mib(traffic->peakBytesPerRow) + " per row, its ops " +
                      mib(traffic->bytesPerRow) + " per row and " +
                      mib(traffic->invariantBytes) + " of weights";
  if (asked) {
    note = std::to_string(batch / asked) + " runs of " + std::to_string(asked) +
           " rows (--batch_chunk): " + sizes;
    return asked;
  }
  if (traffic->peakBytesPerRow * batch <= kWholeBatchBytes) {
    note = "the whole batch at once: " + sizes;
    return 0;
  }
  int64_t rows = 1;
  for (int64_t d = batch - 1; d > 1; --d)
    if (batch % d == 0 && d * traffic->peakBytesPerRow <= kChunkBytes) {
      rows = d;
      break;
    }
  int64_t runs = batch / rows;
  // Each run after the first reads the weights again; the rows kept out of
  // memory must be worth more than that.
  if (2 * traffic->invariantBytes * (runs - 1) >
      traffic->bytesPerRow * batch) {
    note = "the whole batch at once (" + std::to_string(runs) +
           " runs would read the weights more than they save): " + sizes;
    return 0;
  }
  note = std::to_string(runs) + " runs of " + std::to_string(rows) +
         " rows: " + sizes;
  return rows;
}

bool tfaot::appendBatchLoop(mlir::ModuleOp module, llvm::StringRef chunkSymbol,
                            llvm::StringRef entrySymbol, int64_t runs,
                            llvm::ArrayRef<int64_t> sliceBytes,
                            std::string &error) {
  namespace LLVM = mlir::LLVM;
  auto chunk = module.lookupSymbol<LLVM::LLVMFuncOp>(chunkSymbol);
  if (!chunk || chunk.getNumArguments() < sliceBytes.size()) {
    error = "internal error: no chunk entry '" + chunkSymbol.str() +
            "' with the expected parameters";
    return false;
  }
  mlir::MLIRContext *context = module.getContext();
  mlir::Location loc = chunk.getLoc();
  mlir::OpBuilder b(context);
  b.setInsertionPointAfter(chunk);
  auto entry = LLVM::LLVMFuncOp::create(b, loc, entrySymbol,
                                        chunk.getFunctionType());
  if (mlir::ArrayAttr argAttrs = chunk.getArgAttrsAttr())
    entry.setArgAttrsAttr(argAttrs);
  chunk.setLinkage(LLVM::Linkage::Internal);

  auto i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(context);
  mlir::Block *start = entry.addEntryBlock(b);
  mlir::Block *loop = b.createBlock(&entry.getBody(), {}, {i64}, {loc});
  mlir::Block *exit = b.createBlock(&entry.getBody());

  b.setInsertionPointToEnd(start);
  mlir::Value zero = LLVM::ConstantOp::create(b, loc, i64, 0);
  LLVM::BrOp::create(b, loc, mlir::ValueRange{zero}, loop);

  b.setInsertionPointToEnd(loop);
  mlir::Value run = loop->getArgument(0);
  llvm::SmallVector<mlir::Value> args;
  for (unsigned i = 0; i < chunk.getNumArguments(); ++i) {
    mlir::Value param = start->getArgument(i);
    if (i >= sliceBytes.size()) { // The arena: one, reused by every run.
      args.push_back(param);
      continue;
    }
    mlir::Value bytes = LLVM::ConstantOp::create(b, loc, i64, sliceBytes[i]);
    mlir::Value offset = LLVM::MulOp::create(b, loc, run, bytes);
    args.push_back(LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), param,
                                       mlir::ValueRange{offset}));
  }
  LLVM::CallOp::create(b, loc, chunk, args);
  mlir::Value one = LLVM::ConstantOp::create(b, loc, i64, 1);
  mlir::Value next = LLVM::AddOp::create(b, loc, run, one);
  mlir::Value count = LLVM::ConstantOp::create(b, loc, i64, runs);
  mlir::Value more =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, next, count);
  LLVM::CondBrOp::create(b, loc, more, loop, mlir::ValueRange{next}, exit,
                         mlir::ValueRange{});
  b.setInsertionPointToEnd(exit);
  LLVM::ReturnOp::create(b, loc, mlir::ValueRange{});
  return true;
}
