//===- SharedLibrary.cpp - tfaot compile --out_shared_library -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The link goes through a C++ compiler driver rather than lld alone: a
// shared library that holds C++ code needs the C runtime's start files and
// libstdc++ (linked statically here, so that the library depends on libc
// alone and its C++ symbols stay inside it), and the driver knows where
// those are on this machine. lld is preferred, and used through the driver
// (-fuse-ld=lld), when it sits next to it.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/SharedLibrary.h"

#include "compiler/driver/CApiWriter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <optional>

using namespace tfaot;

const std::vector<std::string> &tfaot::cApiFunctionNames() {
  // c_api.h's TFAOT_C_EXPORT functions; test/tools/tfaot-shared-library.test
  // checks that a library exports exactly these, against the header.
  static const std::vector<std::string> names = {
      "tfaot_c_api_version",   "tfaot_dtype_name",
      "tfaot_dtype_size",      "tfaot_create",
      "tfaot_destroy",         "tfaot_info",
      "tfaot_run",             "tfaot_error_msg",
      "tfaot_num_args",        "tfaot_num_results",
      "tfaot_arg_info",        "tfaot_result_info",
      "tfaot_arg_index",       "tfaot_result_index",
      "tfaot_arg_size",        "tfaot_result_size",
      "tfaot_arg_data",        "tfaot_result_data",
      "tfaot_result_dims",
      "tfaot_set_arg_data",    "tfaot_set_arg_bytes",
      "tfaot_temp_size",       "tfaot_temp_data",
      "tfaot_set_temp_buffer", "tfaot_set_num_threads",
      "tfaot_num_threads",     "tfaot_set_thread_pool",
      "tfaot_thread_pool_create", "tfaot_thread_pool_destroy",
      "tfaot_hardware_threads", "tfaot_set_batch_size",
      "tfaot_batch_size",      "tfaot_max_batch_size",
      "tfaot_bucket_for_batch", "tfaot_model_info",
  };
  return names;
}

static bool isFile(const std::string &path) {
  return !path.empty() && llvm::sys::fs::is_regular_file(path);
}

/// The directory of the running tfaot.
static std::string executableDir() {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  return llvm::sys::path::parent_path(exe).str();
}

/// libtfaot_runtime.a of this tfaot: $TFAOT_RUNTIME_LIBRARY, else the
/// installed layout (bin/../lib), else the build tree's (bin/../runtime).
static std::string findRuntimeLibrary(std::string &tried) {
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("TFAOT_RUNTIME_LIBRARY")) {
    tried = *env + " ($TFAOT_RUNTIME_LIBRARY)";
    return isFile(*env) ? *env : "";
  }
  std::string dir = executableDir();
  for (const char *relative : {"../lib", "../runtime"}) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, relative, "libtfaot_runtime.a");
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    tried += (tried.empty() ? "" : ", ") + path.str().str();
    if (isFile(path.str().str()))
      return path.str().str();
  }
  return "";
}

/// The C++ driver to link with: $TFAOT_CXX, else clang++ of the LLVM tfaot
/// was built with, else clang++-22, clang++ or c++ on PATH.
static std::string findCxxDriver(std::string &tried) {
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("TFAOT_CXX")) {
    tried = *env + " ($TFAOT_CXX)";
    // findProgramByName returns a path with a '/' as it is, existing or not.
    if (llvm::StringRef(*env).contains('/'))
      return llvm::sys::fs::can_execute(*env) ? *env : "";
    llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(*env);
    return found ? *found : "";
  }
#ifdef TFAOT_LLVM_TOOLS_DIR
  llvm::SmallString<256> clang(TFAOT_LLVM_TOOLS_DIR);
  llvm::sys::path::append(clang, "clang++");
  tried = clang.str().str();
  if (llvm::sys::fs::can_execute(clang))
    return clang.str().str();
#endif
  for (const char *name : {"clang++-22", "clang++", "c++"}) {
    tried += (tried.empty() ? "" : ", ") + std::string(name);
    if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(name))
      return *found;
  }
  return "";
}

/// Whether `driver` will find ld.lld for -fuse-ld=lld: clang looks in its
/// own directory (symbolic links resolved), then on PATH.
static bool haveLld(const std::string &driver) {
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(driver, real)) {
    llvm::SmallString<256> lld = llvm::sys::path::parent_path(real);
    llvm::sys::path::append(lld, "ld.lld");
    if (llvm::sys::fs::can_execute(lld))
      return llvm::StringRef(driver).contains("clang");
  }
  return llvm::StringRef(driver).contains("clang") &&
         static_cast<bool>(llvm::sys::findProgramByName("ld.lld"));
}

static bool writeFile(const std::string &path, llvm::StringRef contents,
                      std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) {
    os << contents;
    os.close();
    ec = os.error();
  }
  if (ec)
    error = "cannot write " + path + ": " + ec.message();
  return !ec;
}

bool tfaot::linkSharedLibrary(const SharedLibraryInputs &inputs,
                              std::string &library, std::string &error,
                              llvm::raw_ostream *progress) {
  std::string triedRuntime, triedDriver;
  std::string runtime = findRuntimeLibrary(triedRuntime);
  if (runtime.empty()) {
    error = "--out_shared_library: libtfaot_runtime.a not found (tried " +
            triedRuntime + "); set TFAOT_RUNTIME_LIBRARY to its path";
    return false;
  }
  std::string driver = findCxxDriver(triedDriver);
  if (driver.empty()) {
    error = "--out_shared_library needs a C++ compiler driver to link with "
            "(tried " + triedDriver + "); install clang-22 and lld-22 "
            "(scripts/setup.sh does) or set TFAOT_CXX";
    return false;
  }

  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("tfaot-shared", dir)) {
    error = "cannot create a temporary directory: " + ec.message();
    return false;
  }
  llvm::scope_exit cleanup(
      [&] { llvm::sys::fs::remove_directories(dir); });
  auto inDir = [&](const char *name) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    return path.str().str();
  };
  std::string model = inDir("model.o"), info = inDir("model_info.o"),
              script = inDir("exports.map"), out = inDir("model.so"),
              log = inDir("link.log");
  // Only the C API and the model's table are global; everything else,
  // the entry symbols, the runtime's kernels and libstdc++ included, is
  // local to the library.
  std::string versionScript = "TFAOT_C_2 {\n  global:\n";
  for (const std::string &name : cApiFunctionNames())
    versionScript += "    " + name + ";\n";
  versionScript += "    " + inputs.infoSymbol + ";\n  local:\n    *;\n};\n";
  if (!writeFile(model, inputs.object, error) ||
      !writeFile(info, inputs.infoObject, error) ||
      !writeFile(script, versionScript, error))
    return false;

  std::vector<std::string> args = {driver, "-shared", "-o", out};
  if (haveLld(driver))
    args.push_back("-fuse-ld=lld");
  for (const std::string &arg :
       {model, info, runtime,
        // The C API is one archive member, which nothing in the model
        // references: pull it in by one of its names.
        std::string("-Wl,--undefined=tfaot_c_api_version"),
        "-Wl,--version-script=" + script, std::string("-Wl,--gc-sections"),
        // Fail here, not at dlopen(), if anything is left undefined.
        std::string("-Wl,-z,defs"), std::string("-Wl,-z,now"),
        std::string("-Wl,-s"), std::string("-static-libstdc++"),
        std::string("-static-libgcc")})
    args.push_back(arg);
  if (inputs.needsJpeg)
    args.push_back("-ljpeg");
  args.push_back("-lpthread");
  args.push_back("-lm");

  if (progress) {
    *progress << "linking:";
    for (const std::string &arg : args)
      *progress << " " << arg;
    *progress << "\n";
  }
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log, log};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(driver, argRefs, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &execError);
  if (rc != 0) {
    std::string said;
    if (auto buffer = llvm::MemoryBuffer::getFile(log))
      said = (*buffer)->getBuffer().rtrim().str();
    error = "--out_shared_library: linking with " + driver + " failed" +
            (execError.empty() ? "" : " (" + execError + ")") +
            (said.empty() ? "" : ":\n" + said);
    return false;
  }
  auto buffer = llvm::MemoryBuffer::getFile(out);
  if (!buffer) {
    error = "cannot read the linked library " + out + ": " +
            buffer.getError().message();
    return false;
  }
  library = (*buffer)->getBuffer().str();
  return true;
}

std::string tfaot::checkCApiFlags(const CompileOptions &options) {
  const char *flag = !options.outCHeader.empty() ? "--out_c_header"
                     : !options.outSharedLibrary.empty()
                         ? "--out_shared_library"
                         : nullptr;
  if (!flag)
    return "";
  if (!options.outCHeader.empty() && options.cppClass.empty())
    return "--cpp_class is required to write a C header (it names the C "
           "functions: ns::Name -> ns_Name_create)";
  if (options.targetKind == "cuda" && !options.gpuEmulate)
    return std::string(flag) +
           " is for CPU models; --target=cuda has the C++ API only";
  llvm::Triple host(llvm::sys::getDefaultTargetTriple());
  llvm::Triple triple(options.target.triple.empty()
                          ? host.str()
                          : options.target.triple);
  // The table's layout (CApiWriter.h) is written for 64-bit pointers.
  if (!triple.isArch64Bit())
    return std::string(flag) + " needs a 64-bit target, not '" +
           triple.str() + "'";
  if (!options.outSharedLibrary.empty() && host.getArch() != triple.getArch())
    return "--out_shared_library links this machine's runtime, so it needs "
           "the host target, not '" + triple.str() + "'";
  return "";
}

bool tfaot::linkModelLibrary(const FunctionSignature &signature,
                             const std::string &object,
                             const std::string &infoSymbol,
                             const cpu::TargetOptions &target,
                             std::string &library, std::string &error,
                             llvm::raw_ostream *progress) {
  // tfaot_model_info() goes in an object of its own: the model's object
  // may also be linked statically, next to other models', where one more
  // definition of the name would clash.
  mlir::MLIRContext context;
  auto empty = mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
  std::string infoObject;
  bool ok = cpu::emitObject({empty}, target, infoObject, error, nullptr,
                            modelInfoIR(infoSymbol));
  empty->erase();
  if (!ok)
    return false;
  SharedLibraryInputs inputs;
  inputs.object = object;
  inputs.infoObject = std::move(infoObject);
  inputs.infoSymbol = infoSymbol;
  inputs.needsJpeg = llvm::any_of(signature.args, [](const TensorSignature &s) {
    return s.dtype == tensorflow::DT_STRING;
  });
  return linkSharedLibrary(inputs, library, error, progress);
}
