//===- OutputFiles.cpp - Write a command's files all or none --------------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/driver/OutputFiles.h"

#include "compiler/frontend/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace tfaot;

namespace {

/// What stands in the way of writing `path`, seen before anything is
/// written: its folder is missing or no folder, or the path is a folder.
/// Empty when nothing does (writing may still fail, e.g. on permissions).
std::string destinationProblem(llvm::StringRef path) {
  llvm::StringRef folder = llvm::sys::path::parent_path(path);
  if (folder.empty())
    folder = ".";
  if (!llvm::sys::fs::exists(folder))
    return "the folder '" + folder.str() + "' does not exist";
  if (!llvm::sys::fs::is_directory(folder))
    return "'" + folder.str() + "' is not a folder";
  if (llvm::sys::fs::is_directory(path))
    return "it is a folder";
  return "";
}

/// Writes `contents` to a new temporary file in `destination`'s folder
/// (hidden: ".<name>.tmp-XXXXXX"; removed on a signal until kept).
llvm::Expected<llvm::sys::fs::TempFile> stage(const std::string &destination,
                                              llvm::StringRef contents) {
  llvm::SmallString<128> model = llvm::sys::path::parent_path(destination);
  llvm::sys::path::append(
      model, "." + llvm::sys::path::filename(destination) + ".tmp-%%%%%%");
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(model);
  if (!temp)
    return temp.takeError();
  // A file that is replaced keeps its permissions, as it would if it were
  // overwritten in place.
  if (auto permissions = llvm::sys::fs::getPermissions(destination))
    (void)llvm::sys::fs::setPermissions(temp->FD, *permissions);
  llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
  os << contents;
  os.flush();
  if (!os.has_error())
    return std::move(*temp);
  std::error_code error = os.error();
  os.clear_error();
  llvm::consumeError(temp->discard());
  return llvm::errorCodeToError(error);
}

} // namespace

void OutputFiles::add(std::string path, std::string contents) {
  files_.push_back({std::move(path), std::move(contents)});
}

bool OutputFiles::commit(llvm::raw_ostream &errs) {
  std::vector<std::pair<const File *, llvm::sys::fs::TempFile>> staged;
  auto fail = [&](const std::string &path, const llvm::Twine &why) {
    // Files kept already stay kept (discarding them does nothing).
    for (auto &[file, temp] : staged)
      llvm::consumeError(temp.discard());
    GraphDiagnostics(path, errs).error("cannot write: " + why);
    return false;
  };
  // Every destination is checked first, so that a bad last path fails
  // before a large object is written for nothing.
  for (const File &file : files_)
    if (file.path != "-")
      if (std::string problem = destinationProblem(file.path); !problem.empty())
        return fail(file.path, problem);
  staged.reserve(files_.size());
  for (const File &file : files_) {
    if (file.path == "-")
      continue;
    llvm::Expected<llvm::sys::fs::TempFile> temp =
        stage(file.path, file.contents);
    if (!temp)
      return fail(file.path, llvm::toString(temp.takeError()));
    staged.emplace_back(&file, std::move(*temp));
  }
  // Renames in one folder over checked destinations do not fail in
  // practice; if one did, the files renamed before it stay replaced.
  for (auto &[file, temp] : staged)
    if (llvm::Error error = temp.keep(file->path))
      return fail(file->path, llvm::toString(std::move(error)));
  for (const File &file : files_)
    if (file.path == "-")
      llvm::outs() << file.contents;
  llvm::outs().flush();
  return true;
}

bool tfaot::writeFileAtomically(const std::string &path,
                                llvm::StringRef contents,
                                llvm::raw_ostream &errs) {
  OutputFiles files;
  files.add(path, contents.str());
  return files.commit(errs);
}
