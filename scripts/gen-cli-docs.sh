#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#===- scripts/gen-cli-docs.sh - Write docs/cli.md from tfaot's --help -------===#
#
#   scripts/gen-cli-docs.sh [TFAOT] > docs/cli.md
#
# docs/cli.md is the manual of every tfaot command, made from the tool's own
# --help pages so that the two cannot drift apart: test/tools/cli-docs.test
# regenerates it from the built tool and fails if the committed page differs.
# TFAOT defaults to build/bin/tfaot.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tfaot=${1:-$root/build/bin/tfaot}

cat <<'HEAD'
# The `tfaot` command line

This page is the output of `tfaot --help` and `tfaot COMMAND --help`,
written by `scripts/gen-cli-docs.sh` (a test checks that it matches the
tool). [command-line.md](command-line.md) explains the commands and flags
with examples; [generated-api.md](generated-api.md)
describes what `compile` writes, [build-rules.md](build-rules.md) the CMake
and Bazel rules that run it.

HEAD
section() {
  printf '## `%s`\n\n```\n' "$1"
  shift
  "$tfaot" "$@" --help
  printf '```\n\n'
}
section "tfaot"
for command in show compile run explain bench ops; do
  section "tfaot $command" "$command"
done
