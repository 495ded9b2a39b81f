//===- OutputFiles.cpp - Write a command's files all or none --------------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/driver/OutputFiles.h"

#include "compiler/frontend/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

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

/// A file written under a temporary name next to its destination.
struct Staged {
  std::string destination;
  llvm::SmallString<128> temporary;
  bool renamed = false;
};

/// Writes `contents` to a new temporary file in `destination`'s folder
/// (hidden: ".<name>.tmp-XXXXXX"). Returns an error message, or empty.
std::string stage(const std::string &destination, llvm::StringRef contents,
                  Staged &staged) {
  llvm::SmallString<128> model = llvm::sys::path::parent_path(destination);
  llvm::sys::path::append(
      model, "." + llvm::sys::path::filename(destination) + ".tmp-%%%%%%");
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(model, fd, staged.temporary))
    return ec.message();
  llvm::sys::RemoveFileOnSignal(staged.temporary);
  // A file that is replaced keeps its permissions, as it would if it were
  // overwritten in place.
  if (auto permissions = llvm::sys::fs::getPermissions(destination))
    (void)llvm::sys::fs::setPermissions(fd, *permissions);
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << contents;
  os.close();
  if (!os.has_error())
    return "";
  std::string message = os.error().message();
  os.clear_error();
  return message;
}

} // namespace

void OutputFiles::add(std::string path, std::string contents) {
  files_.push_back({std::move(path), std::move(contents)});
}

bool OutputFiles::commit(llvm::raw_ostream &errs) {
  std::vector<Staged> staged;
  auto fail = [&](const std::string &path, const llvm::Twine &why) {
    for (Staged &file : staged)
      if (!file.renamed && !file.temporary.empty()) {
        (void)llvm::sys::fs::remove(file.temporary);
        llvm::sys::DontRemoveFileOnSignal(file.temporary);
      }
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
    staged.push_back({file.path, {}, false});
    if (std::string error = stage(file.path, file.contents, staged.back());
        !error.empty())
      return fail(file.path, error);
  }
  // Renames in one folder over checked destinations do not fail in
  // practice; if one did, the files renamed before it stay replaced.
  for (Staged &file : staged) {
    if (std::error_code ec =
            llvm::sys::fs::rename(file.temporary, file.destination))
      return fail(file.destination, ec.message());
    file.renamed = true;
    llvm::sys::DontRemoveFileOnSignal(file.temporary);
  }
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
