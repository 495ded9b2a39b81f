//===- DeviceImage.cpp - PTX, cubin and the embedded kernel image ---------===//
// SPDX-License-Identifier: Apache-2.0
#include "backends/gpu/DeviceImage.h"

#include "runtime/include/tfaot/runtime/cuda_image.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

bool tfaot::gpu::extractPtx(ModuleOp module, std::string &ptx,
                            std::string &error) {
  ptx.clear();
  for (mlir::gpu::BinaryOp binary : module.getOps<mlir::gpu::BinaryOp>()) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<mlir::gpu::ObjectAttr>(attr);
      if (!object || object.getFormat() != mlir::gpu::CompilationTarget::Assembly) {
        error = "internal error: the kernels were not compiled to PTX";
        return false;
      }
      if (!ptx.empty()) {
        error = "internal error: more than one kernel image in one entry";
        return false;
      }
      ptx = object.getObject().getValue().str();
    }
  }
  return true;
}

std::string tfaot::gpu::findCudaToolkit() {
  std::vector<std::string> roots;
  if (const char *chosen = std::getenv("TFAOT_CUDA_PATH")) {
    roots.push_back(chosen); // Only this one, even if it has no libdevice.
  } else {
    for (const char *name : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
      if (const char *value = std::getenv(name); value && *value)
        roots.push_back(value);
    roots.push_back("/usr/local/cuda");
  }
  for (const std::string &root : roots)
    if (llvm::sys::fs::exists(root + "/nvvm/libdevice/libdevice.10.bc"))
      return root;
  return "";
}

bool tfaot::gpu::checkPtxSelfContained(const std::string &ptx,
                                       std::string &error) {
  std::vector<std::string> missing;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(ptx).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim();
    if (!line.consume_front(".extern .func"))
      continue;
    // ".extern .func (.param .b32 func_retval0) __nv_expf(...": skip the
    // return value in parentheses, if any, then take the name.
    llvm::StringRef name = line.trim();
    if (name.starts_with("("))
      name = name.drop_until([](char c) { return c == ')'; }).drop_front();
    name = name.trim().take_until([](char c) { return c == '(' || c == ' '; });
    missing.push_back(name.str());
  }
  if (missing.empty())
    return true;
  error = "the kernels call " + llvm::join(missing, ", ") +
          " from CUDA's libdevice, which was not found: install the CUDA "
          "toolkit or set CUDA_HOME (or TFAOT_CUDA_PATH) to it";
  return false;
}

std::string tfaot::gpu::findPtxas() {
  if (const char *env = std::getenv("TFAOT_PTXAS"))
    return llvm::sys::fs::can_execute(env) ? env : "";
  const char *standard = "/usr/local/cuda/bin/ptxas";
  return llvm::sys::fs::can_execute(standard) ? standard : "";
}

bool tfaot::gpu::assembleCubin(const std::string &ptxas, const std::string &ptx,
                               const std::string &arch, std::string &cubin,
                               std::string &error) {
  llvm::SmallString<128> ptxPath, cubinPath, logPath;
  if (llvm::sys::fs::createTemporaryFile("tfaot-kernels", "ptx", ptxPath) ||
      llvm::sys::fs::createTemporaryFile("tfaot-kernels", "cubin", cubinPath) ||
      llvm::sys::fs::createTemporaryFile("tfaot-ptxas", "log", logPath)) {
    error = "cannot create temporary files for ptxas";
    return false;
  }
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(ptxPath);
    llvm::sys::fs::remove(cubinPath);
    llvm::sys::fs::remove(logPath);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxPath, ec);
    if (ec) {
      error = "cannot write '" + ptxPath.str().str() + "': " + ec.message();
      return false;
    }
    os << ptx;
  }
  llvm::StringRef args[] = {ptxas, "--gpu-name", arch, "-O3",
                            ptxPath, "-o", cubinPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(),
                                                logPath.str()};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &execError);
  if (rc != 0) {
    std::string log;
    if (auto buffer = llvm::MemoryBuffer::getFile(logPath))
      log = (*buffer)->getBuffer().trim().str();
    error = "ptxas (" + ptxas + ") rejected the generated PTX for " + arch +
            (execError.empty() ? "" : ": " + execError) +
            (log.empty() ? "" : ":\n" + log);
    return false;
  }
  auto buffer = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false);
  if (!buffer) {
    error = "ptxas wrote no cubin: " + buffer.getError().message();
    return false;
  }
  cubin = (*buffer)->getBuffer().str();
  return true;
}

static void putU32(std::string &out, size_t offset, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out[offset + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

static void putU64(std::string &out, size_t offset, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    out[offset + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

std::string tfaot::gpu::packImage(const std::string &arch,
                                  const std::string &cubin,
                                  const std::string &ptx) {
  namespace layout = tfaot::cuda_image;
  std::string image(layout::kHeaderBytes, '\0');
  image.replace(0, sizeof(layout::kMagic),
                std::string(layout::kMagic, sizeof(layout::kMagic)));
  unsigned archNumber = 0;
  llvm::StringRef(arch).drop_front(3).getAsInteger(10, archNumber);
  putU32(image, layout::kArchOffset, archNumber);
  image.resize(llvm::alignTo(image.size(), layout::kCubinAlignment), '\0');
  putU64(image, layout::kCubinOffset, cubin.empty() ? 0 : image.size());
  putU64(image, layout::kCubinSize, cubin.size());
  image += cubin;
  putU64(image, layout::kPtxOffset, image.size());
  putU64(image, layout::kPtxSize, ptx.size());
  image += ptx;
  image.push_back('\0');
  return image;
}
