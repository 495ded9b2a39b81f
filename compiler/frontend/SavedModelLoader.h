//===- SavedModelLoader.h - Read and freeze SavedModel directories -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A SavedModel directory holds saved_model.pb (meta graphs, each with a
// GraphDef, a function library and named signatures) and variables/, a
// tensor bundle with the variables' values. loadSavedModel turns one
// signature of it into the frozen GraphDef the importer compiles:
//   1. pick the meta graph (the one tagged "serve" when there are several)
//      and the signature (--signature, else "serving_default", else the only
//      one);
//   2. prune to what the fetches need, inline function calls (TF2 models
//      live in functions), prune again;
//   3. replace each variable (VarHandleOp, VariableV2) by a Const holding its
//      checkpoint value, and each ReadVariableOp by an Identity.
// Variables are found in the bundle by the checkpoint's object graph (TF2:
// the variable's name -> ".../.ATTRIBUTES/VARIABLE_VALUE" key), else by the
// variable's shared_name or node name (TF1 name-based checkpoints).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_SAVEDMODELLOADER_H
#define TFAOT_COMPILER_FRONTEND_SAVEDMODELLOADER_H

#include "compiler/frontend/Diagnostics.h"
#include "compiler/proto/graph.pb.h"
#include "compiler/proto/saved_model.pb.h"
#include "compiler/proto/tf2xla.pb.h"

#include <optional>
#include <string>
#include <vector>

namespace tfaot {

/// Loads and freezes the SavedModel in directory `dir`. `signature` is
/// --signature (empty: the default choice above). `config` holds the user's
/// feeds and fetches: when it has fetches, the graph is pruned to them
/// instead of the signature's outputs, and fetches of call outputs
/// ("StatefulPartitionedCall:0") are rewritten to the inlined tensors.
/// `signatureConfig` (may be null) receives the signature: one feed per
/// input and one fetch per output, sorted by key, named by key. Errors name
/// the file and the signature, function, node or tensor at fault.
std::optional<tensorflow::GraphDef>
loadSavedModel(const std::string &dir, const std::string &signature,
               tensorflow::tf2xla::Config &config, GraphDiagnostics &diags,
               tensorflow::tf2xla::Config *signatureConfig);

/// loadSavedModel on `model`, saved_model.pb of `dir` as readSavedModel
/// parsed it (the variables are still read from `dir`).
std::optional<tensorflow::GraphDef>
loadSavedModel(const tensorflow::SavedModel &model, const std::string &dir,
               const std::string &signature,
               tensorflow::tf2xla::Config &config, GraphDiagnostics &diags,
               tensorflow::tf2xla::Config *signatureConfig);

/// Reads and parses DIR/saved_model.pb; errors name the file.
std::optional<tensorflow::SavedModel>
readSavedModel(const std::string &dir, GraphDiagnostics &diags);

/// The meta graph tfaot compiles: the only one, else the one tagged
/// "serve"; null after an error listing the tag sets.
const tensorflow::MetaGraphDef *
pickMetaGraph(const tensorflow::SavedModel &model, GraphDiagnostics &diags);

/// The meta graph's signatures, sorted, without TF's own ("__...").
std::vector<std::string> signatureNames(const tensorflow::MetaGraphDef &meta);

/// The signature compiled without --signature: "serving_default", else the
/// only one; empty when there is no such choice.
std::string defaultSignatureName(const tensorflow::MetaGraphDef &meta);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_SAVEDMODELLOADER_H
