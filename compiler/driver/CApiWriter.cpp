//===- CApiWriter.cpp - The C header and the object's model table ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Like HeaderWriter.cpp, plain string building: the table is a handful of
// LLVM IR constants and the header a list of declarations, and both read
// best next to the reasons for each line.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/CApiWriter.h"

#include "compiler/frontend/DataTypes.h"
#include "compiler/frontend/GraphLoader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include "llvm/Support/raw_ostream.h"

using namespace tfaot;

std::string tfaot::cInfoSymbol(const std::string &entrySymbol) {
  return entrySymbol + "_info";
}

std::string tfaot::cPrefix(const std::string &cppClass) {
  std::string name = cppClass;
  for (size_t pos; (pos = name.find("::")) != std::string::npos;)
    name.replace(pos, 2, "_");
  return name;
}

/// An LLVM IR string constant's body: printable ASCII as is, the rest (and
/// '"', '\\') as \XX, then the terminating NUL.
static std::string irString(llvm::StringRef s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
      out += static_cast<char>(c);
    else
      out += llvm::formatv("\\{0:X-2}", static_cast<unsigned>(c)).str();
  }
  return out + "\\00";
}

/// The entries of the object: one per batch bucket, or the one entry.
static std::vector<HeaderOptions::Bucket> entriesOf(const HeaderOptions &o) {
  if (!o.buckets.empty())
    return o.buckets;
  return {{0, o.entrySymbol, o.arenaBytes > 0}};
}

/// One BufferInfo table (private globals named @.tfaot_c.<kind>...) and its
/// name, or "null" for an empty one.
static std::string bufferTableIR(llvm::raw_ostream &os,
                                 const std::vector<TensorSignature> &sigs,
                                 const char *kind) {
  if (sigs.empty())
    return "null";
  std::string rows;
  for (size_t i = 0; i < sigs.size(); ++i) {
    const TensorSignature &sig = sigs[i];
    std::string name = irString(sig.name);
    os << llvm::formatv("@.tfaot_c.{0}{1}.name = private unnamed_addr constant "
                        "[{2} x i8] c\"{3}\"\n",
                        kind, i, sig.name.size() + 1, name);
    // A scalar gets a one-element placeholder, as in the C++ header, so
    // that dims is never null.
    std::vector<int64_t> dims = sig.shape.empty() ? std::vector<int64_t>{1}
                                                  : sig.shape;
    std::string dimList;
    int64_t elements = 1;
    for (int64_t d : dims)
      dimList += (dimList.empty() ? "" : ", ") + ("i64 " + std::to_string(d));
    for (int64_t d : sig.shape)
      elements *= d;
    os << llvm::formatv("@.tfaot_c.{0}{1}.dims = private unnamed_addr constant "
                        "[{2} x i64] [{3}]\n",
                        kind, i, dims.size(), dimList);
    rows += llvm::formatv("{0}%tfaot_c.buffer_info {{ ptr @.tfaot_c.{1}{2}.name, "
                          "i32 {3}, i32 {4}, ptr @.tfaot_c.{1}{2}.dims, i64 {5}, "
                          "i64 {6} }",
                          rows.empty() ? "" : ", ", kind, i,
                          static_cast<int>(sig.dtype), sig.shape.size(),
                          elements, elements * elementBytes(sig.dtype))
                .str();
  }
  os << llvm::formatv("@.tfaot_c.{0}s = private constant [{1} x "
                      "%tfaot_c.buffer_info] [{2}]\n",
                      kind, sigs.size(), rows);
  return "@.tfaot_c." + std::string(kind) + "s";
}

std::string tfaot::cApiTableIR(const FunctionSignature &signature,
                               const HeaderOptions &options,
                               const std::string &infoSymbol) {
  std::string ir;
  llvm::raw_string_ostream os(ir);
  // The layouts of tfaot_buffer_info and tfaot_function_info (c_api.h) on
  // a 64-bit target, where size_t is i64 and LLVM's natural alignment of
  // each field is the C compiler's.
  os << "%tfaot_c.buffer_info = type { ptr, i32, i32, ptr, i64, i64 }\n"
     << "%tfaot_c.function_info = type { ptr, ptr, i32, ptr, i32, ptr, i64, "
        "i32, ptr, ptr, i32, ptr }\n";
  os << llvm::formatv("@.tfaot_c.class = private unnamed_addr constant [{0} x "
                      "i8] c\"{1}\"\n",
                      options.cppClass.size() + 1, irString(options.cppClass));
  std::string args = bufferTableIR(os, signature.args, "arg");
  std::string results = bufferTableIR(os, signature.results, "result");

  // Adapters: the runtime calls entry(args[], results[], temp); the object's
  // entries take one pointer per buffer (bare-pointer ABI), then the arena
  // if they have one.
  size_t numArgs = signature.args.size(), numResults = signature.results.size();
  // Bounded results' dims buffers follow the results (FunctionInfo).
  std::vector<std::string> bounded;
  for (size_t i = 0; i < numResults; ++i)
    if (signature.results[i].bounded)
      bounded.push_back("i32 " + std::to_string(i));
  std::string boundedField = "i32 0, ptr null";
  if (!bounded.empty()) {
    os << llvm::formatv("@.tfaot_c.bounded = private constant [{0} x i32] "
                        "[{1}]\n",
                        bounded.size(), llvm::join(bounded, ", "));
    boundedField =
        llvm::formatv("i32 {0}, ptr @.tfaot_c.bounded", bounded.size()).str();
  }
  size_t numResultSlots = numResults + bounded.size();
  std::vector<HeaderOptions::Bucket> entries = entriesOf(options);
  std::vector<std::string> adapters;
  for (const HeaderOptions::Bucket &entry : entries) {
    size_t params = numArgs + numResultSlots + (entry.hasArena ? 1 : 0);
    std::string types;
    for (size_t i = 0; i < params; ++i)
      types += i ? ", ptr" : "ptr";
    os << "declare void @" << entry.entrySymbol << "(" << types << ")\n";
    std::string adapter = entry.entrySymbol + ".tfaot_c_adapter";
    os << "define internal void @" << adapter
       << "(ptr %args, ptr %results, ptr %temp) {\n";
    std::string callArgs;
    auto load = [&](const char *array, size_t i, const std::string &value) {
      os << llvm::formatv("  %{0}.p = getelementptr inbounds ptr, ptr %{1}, "
                          "i64 {2}\n  %{0} = load ptr, ptr %{0}.p\n",
                          value, array, i);
      callArgs += (callArgs.empty() ? "ptr %" : ", ptr %") + value;
    };
    for (size_t i = 0; i < numArgs; ++i)
      load("args", i, "a" + std::to_string(i));
    for (size_t i = 0; i < numResultSlots; ++i)
      load("results", i, "r" + std::to_string(i));
    if (entry.hasArena)
      callArgs += callArgs.empty() ? "ptr %temp" : ", ptr %temp";
    os << "  call void @" << entry.entrySymbol << "(" << callArgs
       << ")\n  ret void\n}\n";
    adapters.push_back("@" + adapter);
  }

  std::string entry = "ptr " + adapters[0], buckets = "i32 0, ptr null, ptr null";
  if (!options.buckets.empty()) {
    std::string batches, entryList;
    for (size_t i = 0; i < entries.size(); ++i) {
      batches += (i ? ", i64 " : "i64 ") + std::to_string(entries[i].batch);
      entryList += (i ? ", ptr " : "ptr ") + adapters[i];
    }
    os << llvm::formatv("@.tfaot_c.batches = private constant [{0} x i64] "
                        "[{1}]\n@.tfaot_c.entries = private constant [{0} x "
                        "ptr] [{2}]\n",
                        entries.size(), batches, entryList);
    entry = "ptr null"; // As in the C++ table: the buckets' entries are used.
    buckets = llvm::formatv("i32 {0}, ptr @.tfaot_c.batches, ptr "
                            "@.tfaot_c.entries",
                            entries.size());
  }
  os << llvm::formatv("@{0} = constant %tfaot_c.function_info {{ ptr "
                      "@.tfaot_c.class, {1}, i32 {2}, ptr {3}, i32 {4}, ptr "
                      "{5}, i64 {6}, {7}, {8} }\n",
                      infoSymbol, entry, numArgs, args, numResults, results,
                      options.arenaBytes, buckets, boundedField);
  return ir;
}

std::string tfaot::modelInfoIR(const std::string &infoSymbol) {
  return "@" + infoSymbol + " = external constant i8\n" +
         "define ptr @tfaot_model_info() {\n  ret ptr @" + infoSymbol +
         "\n}\n";
}

/// The C type of one element of `type` in the typed wrappers.
static std::string cType(tensorflow::DataType type) {
  if (type == tensorflow::DT_STRING)
    return "tfaot_bytes";
  const DataTypeInfo *info = findDataType(type);
  return info && info->cppType ? info->cppType : "void";
}

/// The TFAOT_DTYPE_* name of `type`.
static std::string cDType(tensorflow::DataType type) {
  if (type == tensorflow::DT_HALF)
    return "TFAOT_DTYPE_FLOAT16";
  return "TFAOT_DTYPE_" + llvm::StringRef(dataTypeName(type)).upper();
}

/// The macros and wrappers of one argument or result.
static void writeBuffer(llvm::raw_ostream &os, const std::string &prefix,
                        const std::string &macro, const TensorSignature &sig,
                        const std::string &accessor, int index, bool isArg) {
  const char *kind = isArg ? "arg" : "result";
  std::string upper = isArg ? "ARG" : "RESULT";
  std::string type = cType(sig.dtype);
  int64_t elements = 1;
  std::string shape;
  for (int64_t d : sig.shape) {
    elements *= d;
    shape += (shape.empty() ? "" : ", ") + std::to_string(d);
  }
  std::string shapeText = dataTypeName(sig.dtype) + "[" + shape + "]";
  shapeText.erase(std::remove(shapeText.begin(), shapeText.end(), ' '),
                  shapeText.end());
  std::string m = macro + "_" + upper + std::to_string(index);
  os << llvm::formatv("/* {0} {1}: '{2}' {3}, {4} bytes (node '{5}', output "
                      "{6}). */\n",
                      kind, index, sig.name, shapeText,
                      elements * elementBytes(sig.dtype), sig.node,
                      sig.outputIndex)
     << llvm::formatv("#define {0} {1}\n", macro + "_" + upper + "_" +
                                               llvm::StringRef(accessor).upper(),
                      index)
     << llvm::formatv("#define {0}_DTYPE {1}\n", m, cDType(sig.dtype))
     << llvm::formatv("#define {0}_RANK {1}\n", m, sig.shape.size())
     // A brace list to initialize an array with; {1} for a scalar, as the
     // C++ kArgNShape.
     << llvm::formatv("#define {0}_SHAPE {{{1}}\n", m,
                      shape.empty() ? "1" : shape)
     << llvm::formatv("#define {0}_ELEMENTS INT64_C({1})\n", m, elements)
     << llvm::formatv("#define {0}_BYTES ((size_t){1})\n", m,
                      elements * elementBytes(sig.dtype));
  std::string fn = prefix + "_" + kind;
  if (isArg && sig.dtype == tensorflow::DT_STRING) {
    os << llvm::formatv(
        "static inline int {0}_set_arg{1}_data(tfaot_instance *m, const void "
        "*data, size_t size) {{\n  return tfaot_set_arg_bytes(m, {1}, data, "
        "size);\n}\n"
        "static inline int {0}_set_arg_{2}_data(tfaot_instance *m, const void "
        "*data, size_t size) {{\n  return tfaot_set_arg_bytes(m, {1}, data, "
        "size);\n}\n",
        prefix, index, accessor);
  } else if (isArg) {
    os << llvm::formatv(
        "static inline int {0}_set_arg{1}_data(tfaot_instance *m, const void "
        "*data, size_t size_bytes) {{\n  return tfaot_set_arg_data(m, {1}, "
        "data, size_bytes);\n}\n"
        "static inline int {0}_set_arg_{2}_data(tfaot_instance *m, const void "
        "*data, size_t size_bytes) {{\n  return tfaot_set_arg_data(m, {1}, "
        "data, size_bytes);\n}\n",
        prefix, index, accessor);
  }
  os << llvm::formatv(
      "static inline {0} *{1}{2}_data(tfaot_instance *m) {{\n  return ({0} "
      "*)tfaot_{3}_data(m, {2});\n}\n"
      "static inline {0} *{1}_{4}_data(tfaot_instance *m) {{\n  return ({0} "
      "*)tfaot_{3}_data(m, {2});\n}\n\n",
      type, fn, index, kind, accessor);
}

bool tfaot::writeCHeader(const FunctionSignature &signature,
                         const HeaderOptions &options,
                         const std::string &infoSymbol, std::string &header,
                         std::string &error) {
  for (bool isArg : {true, false})
    for (const TensorSignature &sig :
         isArg ? signature.args : signature.results)
      if (cType(sig.dtype) == "void" ||
          (sig.dtype == tensorflow::DT_STRING && !isArg)) {
        error = "'" + sig.name + "' has dtype " + dataTypeName(sig.dtype) +
                ", which the generated API does not support";
        return false;
      }
  std::string prefix = cPrefix(options.cppClass);
  std::string macro = llvm::StringRef(prefix).upper();
  std::string guard = "TFAOT_GENERATED_C_" + macro + "_H";
  bool hasStrings = llvm::any_of(signature.args, [](const TensorSignature &s) {
    return s.dtype == tensorflow::DT_STRING;
  });
  bool hasBool = false;
  for (bool isArg : {true, false})
    for (const TensorSignature &sig :
         isArg ? signature.args : signature.results)
      hasBool |= sig.dtype == tensorflow::DT_BOOL;

  llvm::raw_string_ostream os(header);
  os << "/* Generated by tfaot from " << options.sourceGraph
     << ". DO NOT EDIT.\n *\n"
     << " * The C API of " << options.cppClass
     << " (tfaot/runtime/c_api.h): a compiled TensorFlow\n"
     << " * graph. Link with the object file written alongside this header "
        "and\n * libtfaot_runtime.a, which is C++: a C link adds its "
        "library, e.g.\n"
     << " *   cc -std=c99 -I PREFIX/include app.c model.o "
        "PREFIX/lib/libtfaot_runtime.a"
     << (hasStrings ? " -ljpeg" : "") << " -lstdc++ -lm -lpthread\n"
     << " * with PREFIX where tfaot is installed (in its build tree: "
        "-I runtime/include\n * and build/runtime/libtfaot_runtime.a).\n *\n"
     << " * Usage:\n"
     << " *   tfaot_instance *m = " << prefix << "_create();\n";
  if (!signature.args.empty() && signature.args[0].dtype != tensorflow::DT_STRING)
    os << " *   memcpy(" << prefix << "_arg0_data(m), input, " << macro
       << "_ARG0_BYTES);\n";
  os << " *   if (!tfaot_run(m)) fprintf(stderr, \"%s\\n\", "
        "tfaot_error_msg(m));\n";
  if (!signature.results.empty())
    os << " *   use(" << prefix << "_result0_data(m));\n";
  os << " *   tfaot_destroy(m);\n"
     << " * Every tfaot_* function of c_api.h works on the instance; the "
        "wrappers\n * below only add the types and indexes of this model. "
        "They do not check\n * that the instance is one of this model's.\n"
     << " */\n\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stddef.h>\n#include <stdint.h>\n"
     << (hasBool ? "#ifndef __cplusplus\n#include <stdbool.h>\n#endif\n" : "")
     << "\n#include \"tfaot/runtime/c_api.h\"\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "/* The model's names, dtypes, shapes and entries, defined in the "
        "object. */\n"
     << "extern const tfaot_function_info " << infoSymbol << ";\n\n"
     << llvm::formatv("#define {0}_NUM_ARGS {1}\n#define {0}_NUM_RESULTS "
                      "{2}\n/* The arena of temporaries (kTempBytes). */\n"
                      "#define {0}_TEMP_BYTES ((size_t){3})\n",
                      macro, signature.args.size(), signature.results.size(),
                      options.arenaBytes);
  if (!options.buckets.empty()) {
    std::string sizes;
    for (const HeaderOptions::Bucket &b : options.buckets)
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(b.batch);
    os << llvm::formatv("/* Batch buckets: every buffer holds {0}_MAX_BATCH "
                        "rows; tfaot_set_batch_size()\n * says how many are "
                        "used. */\n#define {0}_NUM_BATCH_BUCKETS {1}\n"
                        "#define {0}_BATCH_BUCKETS {{{2}}\n"
                        "#define {0}_MAX_BATCH INT64_C({3})\n",
                        macro, options.buckets.size(), sizes,
                        options.buckets.back().batch);
  }
  os << "\n"
     << "/* A new instance owning its argument and result buffers, or with "
        "only its\n * results (every argument then set with "
        "tfaot_set_arg_data); NULL when\n * out of memory. Free it with "
        "tfaot_destroy(). */\n"
     << llvm::formatv("static inline tfaot_instance *{0}_create(void) {{\n"
                      "  return tfaot_create(&{1}, "
                      "TFAOT_ALLOC_ARGS_AND_RESULTS);\n}\n"
                      "static inline tfaot_instance "
                      "*{0}_create_results_only(void) {{\n"
                      "  return tfaot_create(&{1}, TFAOT_ALLOC_RESULTS_ONLY);"
                      "\n}\n\n",
                      prefix, infoSymbol);
  std::vector<std::string> argNames = accessorNames(signature.args);
  std::vector<std::string> resultNames = accessorNames(signature.results);
  for (size_t i = 0; i < signature.args.size(); ++i)
    writeBuffer(os, prefix, macro, signature.args[i], argNames[i], i, true);
  for (size_t i = 0; i < signature.results.size(); ++i)
    writeBuffer(os, prefix, macro, signature.results[i], resultNames[i], i,
                false);
  os << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* "
     << guard << " */\n";
  return true;
}
