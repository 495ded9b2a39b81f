//===- corpus.h - Locating files of the shared test corpus ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The e2e tests read reference data (IDX files, the GraphDefs themselves)
// from the shared third-party corpus at run time. Its location is baked in
// by CMake as the TFAOT_CORPUS_DIR compile definition, so the tests work from
// any working directory (ctest runs them from the build tree) and never rely
// on a path relative to the source checkout.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_TEST_E2E_SUPPORT_CORPUS_H
#define TFAOT_TEST_E2E_SUPPORT_CORPUS_H

#include <string>

#ifndef TFAOT_CORPUS_DIR
#error "TFAOT_CORPUS_DIR must be defined by the build (see test/e2e/CMakeLists.txt)"
#endif

namespace tfaot_e2e {

/// Absolute path of `relative` (e.g. "frozen/utensor/ops/add/output_z.idx")
/// inside the corpus.
inline std::string CorpusPath(const std::string &relative) {
  return std::string(TFAOT_CORPUS_DIR) + "/" + relative;
}

}  // namespace tfaot_e2e

#endif  // TFAOT_TEST_E2E_SUPPORT_CORPUS_H
