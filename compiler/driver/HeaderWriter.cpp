//===- HeaderWriter.cpp - The generated C++ header ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Plain string building: the header is small, and writing it in C++ keeps
// every generated line next to the reason it is there.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/HeaderWriter.h"

#include "compiler/frontend/DataTypes.h"
#include "compiler/frontend/GraphLoader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace tfaot;

std::string tfaot::sanitizeIdentifier(const std::string &name) {
  std::string out = name;
  for (char &c : out)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  return out;
}

static bool isIdentifier(llvm::StringRef s) {
  if (s.empty() || llvm::isDigit(s[0]))
    return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

bool tfaot::isValidCppClassName(const std::string &name) {
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(name).split(parts, "::");
  return llvm::all_of(parts, isIdentifier);
}

/// The C++ element type of a TF dtype in the generated accessors.
static const char *cppType(tensorflow::DataType type) {
  const DataTypeInfo *info = findDataType(type);
  return info && info->cppType ? info->cppType : "void";
}

int64_t tfaot::elementBytes(tensorflow::DataType type) {
  const DataTypeInfo *info = findDataType(type);
  return info && info->cppType ? info->bytes : 1;
}

namespace {
/// Sizes of one buffer, computed once for the tables and the comments.
struct BufferFacts {
  const TensorSignature *sig;
  std::string accessor;  ///< Sanitized, de-duplicated name.
  int64_t elements = 1;
  int64_t bytes = 0;
  std::string shapeText;  ///< "float32[1,784]"
};
} // namespace

std::vector<std::string>
tfaot::accessorNames(const std::vector<TensorSignature> &sigs) {
  std::vector<std::string> names;
  llvm::StringSet<> used;
  for (const TensorSignature &sig : sigs) {
    std::string name = sanitizeIdentifier(sig.name);
    // Two names may sanitize alike ("a/b", "a_b"); keep accessors unique.
    std::string base = name;
    for (int n = 2; !used.insert(name).second; ++n)
      name = base + "_" + std::to_string(n);
    names.push_back(std::move(name));
  }
  return names;
}

static std::vector<BufferFacts>
collectFacts(const std::vector<TensorSignature> &sigs) {
  std::vector<BufferFacts> facts;
  std::vector<std::string> accessors = accessorNames(sigs);
  for (const TensorSignature &sig : sigs) {
    BufferFacts f;
    f.sig = &sig;
    f.accessor = accessors[facts.size()];
    for (int64_t d : sig.shape)
      f.elements *= d;
    f.bytes = f.elements * elementBytes(sig.dtype);
    f.shapeText = dataTypeName(sig.dtype) + "[";
    for (size_t i = 0; i < sig.shape.size(); ++i)
      f.shapeText += (i ? "," : "") + std::to_string(sig.shape[i]);
    f.shapeText += "]";
    facts.push_back(std::move(f));
  }
  return facts;
}

static int64_t totalBytes(const std::vector<BufferFacts> &facts) {
  int64_t sum = 0;
  for (const BufferFacts &f : facts)
    sum += f.bytes;
  return sum;
}

static std::string dimsList(const TensorSignature &sig) {
  if (sig.shape.empty())
    return "1"; // C++ forbids empty arrays; the rank says it is a scalar.
  std::string s;
  for (size_t i = 0; i < sig.shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(sig.shape[i]);
  return s;
}

/// Emits the constants and accessors of one argument or result.
static void writeAccessors(llvm::raw_ostream &os, const BufferFacts &f,
                           int index, bool isArg) {
  const char *kind = isArg ? "Arg" : "Result";
  const char *lower = isArg ? "arg" : "result";
  const char *type = cppType(f.sig->dtype);
  os << llvm::formatv("  // {0} {1}: '{2}' {3}, {4} bytes (node '{5}', output "
                      "{6}).\n",
                      kind, index, f.sig->name, f.shapeText, f.bytes,
                      f.sig->node, f.sig->outputIndex);
  os << llvm::formatv("  static constexpr int k{0}{1}Rank = {2};\n", kind,
                      index, f.sig->shape.size());
  os << llvm::formatv("  static constexpr int64_t k{0}{1}Shape[] = {{{2}};\n",
                      kind, index, dimsList(*f.sig));
  os << llvm::formatv("  static constexpr int64_t k{0}{1}Elements = {2};\n",
                      kind, index, f.elements);
  os << llvm::formatv("  static constexpr size_t k{0}{1}Bytes = {2};\n", kind,
                      index, f.bytes);
  if (isArg && f.sig->dtype == tensorflow::DT_STRING) {
    // Bytes: the caller's pointer and length, stored in the instance's
    // descriptor (tfaot::Bytes), which is what the entry function reads.
    os << llvm::formatv(
        "  bool set_arg{0}_data(const void* data, size_t size) {{\n"
        "    return set_arg_bytes({0}, data, size);\n  }\n"
        "  bool set_arg_{1}_data(const void* data, size_t size) {{\n"
        "    return set_arg_bytes({0}, data, size);\n  }\n",
        index, f.accessor);
  } else if (isArg) {
    os << llvm::formatv(
        "  void set_arg{0}_data(const void* data) {{ set_arg_data({0}, data); }\n"
        "  bool set_arg{0}_data(const void* data, size_t size_bytes) {{\n"
        "    return set_arg_data({0}, data, size_bytes);\n  }\n"
        "  void set_arg_{1}_data(const void* data) {{ set_arg_data({0}, data); }\n"
        "  bool set_arg_{1}_data(const void* data, size_t size_bytes) {{\n"
        "    return set_arg_data({0}, data, size_bytes);\n  }\n",
        index, f.accessor);
  }
  if (!isArg && f.sig->bounded)
    os << llvm::formatv(
        "  // Its size depends on data: k{0}{1}Shape is the upper bound the\n"
        "  // buffer is sized for; after Run(), result{1}_dims() (or\n"
        "  // result_dims({1})) gives the dims it has, its elements first.\n"
        "  const int64_t* result{1}_dims() const {{ return result_dims({1}); }\n",
        kind, index);
  os << llvm::formatv(
      "  {0}* {1}{2}_data() {{ return static_cast<{0}*>({1}_data({2})); }\n"
      "  const {0}* {1}{2}_data() const {{\n"
      "    return static_cast<const {0}*>({1}_data({2}));\n  }\n"
      "  {0}* {1}_{3}_data() {{ return {1}{2}_data(); }\n"
      "  const {0}* {1}_{3}_data() const {{ return {1}{2}_data(); }\n\n",
      type, lower, index, f.accessor);
}

/// Emits the BufferInfo table entries of `facts`, named k<Kind>Infos.
static void writeInfoTable(llvm::raw_ostream &os,
                           const std::vector<BufferFacts> &facts,
                           const char *kind) {
  if (facts.empty())
    return;
  os << llvm::formatv("    static const tfaot::BufferInfo k{0}Infos[] = {{\n",
                      kind);
  for (size_t i = 0; i < facts.size(); ++i)
    os << llvm::formatv(
        "        {{\"{0}\", static_cast<tfaot::DType>({1}), {2}, k{3}{4}Shape, "
        "{5}, {6}},\n",
        facts[i].sig->name, static_cast<int>(facts[i].sig->dtype),
        facts[i].sig->shape.size(), kind, i, facts[i].elements, facts[i].bytes);
  os << "    };\n";
}

bool tfaot::writeHeader(const FunctionSignature &signature,
                        const HeaderOptions &options, std::string &header,
                        std::string &error) {
  if (!isValidCppClassName(options.cppClass)) {
    error = "--cpp_class '" + options.cppClass +
            "' is not a C++ class name like 'ns::Name'";
    return false;
  }
  // A string is only ever a (scalar) argument: the bytes a decode reads.
  auto unsupported = [](const TensorSignature &sig, bool isArg) {
    return llvm::StringRef(cppType(sig.dtype)) == "void" ||
           (sig.dtype == tensorflow::DT_STRING && !isArg);
  };
  for (bool isArg : {true, false})
    for (const TensorSignature &sig :
         isArg ? signature.args : signature.results)
      if (unsupported(sig, isArg)) {
        error = "'" + sig.name + "' has dtype " + dataTypeName(sig.dtype) +
                ", which the generated API does not support";
        return false;
      }
  // Results whose size depends on data: the entry writes their dims into
  // one more buffer each, after the results.
  std::vector<size_t> bounded;
  for (size_t i = 0; i < signature.results.size(); ++i)
    if (signature.results[i].bounded)
      bounded.push_back(i);
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(options.cppClass).split(parts, "::");
  llvm::StringRef className = parts.pop_back_val();
  std::vector<BufferFacts> args = collectFacts(signature.args);
  std::vector<BufferFacts> results = collectFacts(signature.results);
  // The batch sizes of the buckets, for the banner and kBatchBuckets.
  std::vector<std::string> bucketSizes;
  for (const HeaderOptions::Bucket &bucket : options.buckets)
    bucketSizes.push_back(std::to_string(bucket.batch));
  std::string guard = "TFAOT_GENERATED_" +
                      llvm::StringRef(sanitizeIdentifier(options.cppClass)).upper() +
                      "_H";

  bool hasStringArgs = llvm::any_of(args, [](const BufferFacts &f) {
    return f.sig->dtype == tensorflow::DT_STRING;
  });

  llvm::raw_string_ostream os(header);
  os << "// Generated by tfaot " << "from " << options.sourceGraph
     << ". DO NOT EDIT.\n//\n"
     << "// class " << options.cppClass
     << ": a compiled TensorFlow graph. Link with the object file written\n";
  if (options.cuda)
    os << "// alongside this header, libtfaot_cuda_runtime.a, libtfaot_runtime.a "
          "and -ldl;\n// the CUDA driver is loaded when the first instance "
          "runs.\n// " << options.cudaNote << ".\n//\n";
  else {
    // The whole link line, so that a user with only this header and the
    // object in hand can build a program; -ljpeg only where a string
    // argument (a JPEG for DecodeJpeg) pulls the decoder in. One line: a
    // comment ending in a backslash would warn (-Wcomment).
    os << "// alongside this header and with libtfaot_runtime.a, e.g.\n"
       << "//   c++ -std=c++17 -I PREFIX/include app.cpp model.o "
          "PREFIX/lib/libtfaot_runtime.a"
       << (hasStringArgs ? " -ljpeg" : "") << " -lpthread\n"
       << "// with PREFIX where tfaot is installed (in its build tree: "
          "-I runtime/include\n// and build/runtime/libtfaot_runtime.a). "
          "CMake: tfaot_library(), or link\n// tfaot::runtime. No "
          "TensorFlow, Eigen, LLVM or MLIR is needed.\n//\n";
  }
  os
     << "// Usage:\n"
     << "//   " << options.cppClass << " fn;\n";
  if (!args.empty() && args[0].sig->dtype == tensorflow::DT_STRING)
    os << "//   fn.set_arg0_data(jpeg_bytes, jpeg_size);\n";
  else if (!args.empty())
    os << "//   std::copy(input, input + fn.kArg0Elements, fn.arg0_data());\n";
  os << "//   if (!fn.Run()) { std::cerr << fn.error_msg(); }\n";
  if (!results.empty())
    os << "//   use(fn.result0_data());\n";
  os << "//\n// Memory:\n"
     << llvm::formatv("//   arguments: {0} bytes in {1} buffer(s)\n",
                      totalBytes(args), args.size())
     << llvm::formatv("//   results:   {0} bytes in {1} buffer(s)\n",
                      totalBytes(results), results.size())
     << (options.cuda
             ? llvm::formatv("//   temporary: {0} bytes in one device arena "
                             "(kTempBytes), allocated on the\n"
                             "//              GPU by the first Run() with the "
                             "device copies of the\n"
                             "//              arguments, results and weights\n",
                             options.arenaBytes)
                   .str()
             : llvm::formatv("//   temporary: {0} bytes in one arena "
                             "(kTempBytes), allocated once per\n"
                             "//              instance or given with "
                             "set_temp_buffer()\n",
                             options.arenaBytes)
                   .str())
     << llvm::formatv("//              plan: {0} bytes if every temporary had "
                      "its own buffer,\n"
                      "//              {1} bytes live at most at once (lower "
                      "bound)\n",
                      options.naiveTempBytes, options.peakLiveBytes);
  uint64_t heapBytes = options.tempBytes > options.arenaBytes
                           ? options.tempBytes - options.arenaBytes
                           : 0;
  if (heapBytes > 0)
    os << llvm::formatv("//              plus at most {0} bytes heap-allocated "
                        "during Run()\n",
                        heapBytes);
  if (!bucketSizes.empty()) {
    os << "//\n// Batch buckets: " << llvm::join(bucketSizes, ", ")
       << ". Every buffer holds kMaxBatch rows (the first dimension);\n"
       << "// set_batch_size(n) says how many are filled, and Run() runs the "
          "smallest\n// bucket of at least n rows (zeroing the rest of the "
          "instance's own\n// argument rows). Results have n valid rows.\n";
  }
  if (hasStringArgs)
    os << "//\n// String arguments (string[], e.g. the JPEG a DecodeJpeg "
          "reads) take the\n// bytes with set_arg_<name>_data(data, size); "
          "they are read, not copied,\n// during Run(). The entry function "
          "gets a pointer to a tfaot::Bytes\n// {data, size} for each. "
          "Run() returns false with error_msg() set when\n// an image is "
          "corrupt, truncated, CMYK, of another size than compiled\n// "
          "for, or its crop window is outside it.\n";
  os << "//\n// Signature:\n";
  for (size_t i = 0; i < args.size(); ++i)
    os << llvm::formatv("//   arg{0}    {1} {2}\n", i, args[i].sig->name,
                        args[i].shapeText);
  for (size_t i = 0; i < results.size(); ++i)
    os << llvm::formatv("//   result{0} {1} {2}\n", i, results[i].sig->name,
                        results[i].shapeText);
  os << "\n#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <cstddef>\n#include <cstdint>\n\n"
     << (options.cuda ? "#include \"tfaot/runtime/cuda_function.h\"\n\n"
                      : "#include \"tfaot/runtime/compiled_function.h\"\n\n");

  // The object's entry points: arguments then results, one pointer each,
  // then the arena of temporaries if the plan made one.
  std::vector<HeaderOptions::Bucket> entries = options.buckets;
  if (entries.empty())
    entries.push_back({0, options.entrySymbol, options.arenaBytes > 0});
  for (const HeaderOptions::Bucket &entry : entries) {
    os << "extern \"C\" void " << entry.entrySymbol << "(";
    size_t total = args.size() + results.size() + bounded.size() +
                   (entry.hasArena ? 1 : 0);
    for (size_t i = 0; i < total; ++i)
      os << (i ? ", " : "") << "void*";
    os << ");\n";
  }
  os << "\n";

  for (llvm::StringRef ns : parts)
    os << "namespace " << ns << " {\n";
  if (!parts.empty())
    os << "\n";
  const char *baseClass =
      options.cuda ? "tfaot::CudaCompiledFunction" : "tfaot::CompiledFunction";
  os << "class " << className << " final : public " << baseClass << " {\n"
     << " public:\n"
     << llvm::formatv("  static constexpr int kNumArgs = {0};\n", args.size())
     << llvm::formatv("  static constexpr int kNumResults = {0};\n",
                      results.size())
     << llvm::formatv("  static constexpr size_t kTempBytes = {0};\n",
                      options.arenaBytes);
  if (!bucketSizes.empty()) {
    os << llvm::formatv("  static constexpr int kNumBatchBuckets = {0};\n",
                        bucketSizes.size())
       << "  static constexpr int64_t kBatchBuckets[] = {"
       << llvm::join(bucketSizes, ", ") << "};\n"
       << "  static constexpr int64_t kMaxBatch = " << bucketSizes.back()
       << ";\n";
  }
  os << "\n"
     << "  explicit " << className
     << "(AllocMode mode = AllocMode::kArgsAndResults)\n"
     << "      : " << baseClass << "(StaticInfo(), mode) {}\n\n";
  for (size_t i = 0; i < args.size(); ++i)
    writeAccessors(os, args[i], i, /*isArg=*/true);
  for (size_t i = 0; i < results.size(); ++i)
    writeAccessors(os, results[i], i, /*isArg=*/false);

  os << "  /// Names, dtypes and shapes of every buffer, for generic code.\n"
     << "  static const tfaot::FunctionInfo& StaticInfo() {\n";
  writeInfoTable(os, args, "Arg");
  writeInfoTable(os, results, "Result");
  // The runtime calls entries through one uniform signature; each adapter
  // spreads the pointer arrays into the object's arguments.
  auto adapterName = [&](const HeaderOptions::Bucket &entry) {
    return options.buckets.empty() ? std::string("Entry")
                                   : "EntryBatch" + std::to_string(entry.batch);
  };
  bool bucketed = !options.buckets.empty();
  if (bucketed) {
    os << "    static const tfaot::EntryFunction kBatchEntries[] = {";
    for (size_t i = 0; i < entries.size(); ++i)
      os << (i ? ", " : "") << "&" << adapterName(entries[i]);
    os << "};\n";
  }
  std::string boundedFields;
  if (!bounded.empty()) {
    std::vector<std::string> indices;
    for (size_t i : bounded)
      indices.push_back(std::to_string(i));
    os << "    static const int32_t kBoundedResults[] = {"
       << llvm::join(indices, ", ") << "};\n";
    boundedFields = (bucketed ? "" : ",\n        0, nullptr, nullptr") +
                    llvm::formatv(",\n        {0}, kBoundedResults",
                                  bounded.size())
                        .str();
  }
  os << llvm::formatv("    static const tfaot::FunctionInfo kInfo = {{\n"
                      "        \"{0}\", {1}, {2}, {3}, {4}, {5}, {6}{7}{8}};\n",
                      options.cppClass, bucketed ? "nullptr" : "&Entry",
                      args.size(), args.empty() ? "nullptr" : "kArgInfos",
                      results.size(),
                      results.empty() ? "nullptr" : "kResultInfos",
                      "kTempBytes",
                      bucketed ? ",\n        kNumBatchBuckets, kBatchBuckets, "
                                 "kBatchEntries"
                               : "",
                      boundedFields)
     << "    return kInfo;\n  }\n\n"
     << " private:\n";
  for (const HeaderOptions::Bucket &entry : entries) {
    os << "  static void " << adapterName(entry)
       << "(void* const* args, void* const* results, void* temp) {\n"
       << "    (void)args;\n    (void)results;\n    (void)temp;\n"
       << "    " << entry.entrySymbol << "(";
    for (size_t i = 0; i < args.size(); ++i)
      os << (i ? ", " : "") << "args[" << i << "]";
    // The bounded results' dims follow the results (FunctionInfo).
    for (size_t i = 0; i < results.size() + bounded.size(); ++i)
      os << (i + args.size() ? ", " : "") << "results[" << i << "]";
    if (entry.hasArena)
      os << (args.size() + results.size() + bounded.size() ? ", " : "")
         << "temp";
    os << ");\n  }\n";
  }
  os << "};\n";
  if (!parts.empty())
    os << "\n";
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    os << "}  // namespace " << *it << "\n";
  os << "\n#endif  // " << guard << "\n";
  return true;
}
