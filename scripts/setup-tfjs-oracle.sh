#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#===- scripts/setup-tfjs-oracle.sh - Install the TF.js numeric oracle -------===#
#
# Installs the pinned TensorFlow.js packages (tools/tfjs-oracle/package.json,
# exact versions and hashes in the committed package-lock.json) into
# tools/tfjs-oracle/node_modules with `npm ci`, from the npm registry only (no
# install scripts are run). test/e2e/tfjs uses them to run the corpus TF.js
# models as the reference for tfaot's compiled code.
#
# Idempotent and silent when the installed packages already match the lock
# file. Needs node (>= 18) and npm: on Debian, `apt-get install nodejs npm`.
#
#   scripts/setup-tfjs-oracle.sh          install if missing or stale
#   scripts/setup-tfjs-oracle.sh --check  exit 0 if installed and current,
#                                         1 if not (installs nothing)
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$root/tools/tfjs-oracle
# Written after a verified install: a copy of the lock file it came from.
stamp=$dir/node_modules/.tfaot-package-lock.json
packages=(@tensorflow/tfjs-core @tensorflow/tfjs-converter @tensorflow/tfjs-backend-cpu)

check_only=0
case "${1:-}" in
  "") ;;
  --check) check_only=1 ;;
  -h|--help) sed -n '/^# Installs/,/^#===-/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "tfaot setup-tfjs-oracle: error: unknown argument '$1' (try --help)" >&2; exit 2 ;;
esac

die() { echo "tfaot setup-tfjs-oracle: error: $*" >&2; exit 1; }

# Installed and built from exactly this lock file?
if [[ -f "$stamp" ]] && cmp -s "$stamp" "$dir/package-lock.json"; then
  ok=1
  for p in "${packages[@]}"; do
    [[ -f "$dir/node_modules/$p/package.json" ]] || ok=0
  done
  [[ $ok -eq 1 ]] && exit 0
fi
[[ $check_only -eq 1 ]] && exit 1

missing=()  # Debian packages
tools=()    # commands
command -v node >/dev/null 2>&1 || { missing+=(nodejs); tools+=(node); }
command -v npm >/dev/null 2>&1 || { missing+=(npm); tools+=(npm); }
if [[ ${#missing[@]} -gt 0 ]]; then
  what=${tools[0]}${tools[1]:+ and ${tools[1]}}
  die "$what not found: the TF.js oracle needs Node.js >= 18 and npm." \
      "On Debian install the packages: apt-get install -y ${missing[*]}"
fi
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [[ ! "$node_major" =~ ^[0-9]+$ ]] || (( node_major < 18 )); then
  die "node $(node --version 2>/dev/null || echo '?') is too old; the TF.js" \
      "oracle needs Node.js >= 18 (Debian 12's nodejs package is 18)"
fi
[[ -f "$dir/package-lock.json" ]] || die "$dir/package-lock.json is missing"

echo "tfaot setup: installing the TF.js oracle (npm ci in tools/tfjs-oracle)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# --ignore-scripts: nothing but the registry tarballs named in the lock file
# is fetched or run. --loglevel=error keeps npm's config warnings out.
if ! (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund \
        --loglevel=error) >"$log" 2>&1; then
  cat "$log" >&2
  die "npm ci failed (log above); the npm registry must be reachable"
fi

# Check that what was installed loads and is the pinned version.
want=$(cd "$dir" && node -p 'require("./package.json").dependencies["@tensorflow/tfjs-core"]')
if ! got=$(cd "$dir" && node -e '
  const v = ["@tensorflow/tfjs-core", "@tensorflow/tfjs-converter",
             "@tensorflow/tfjs-backend-cpu"]
    .map(p => require(p + "/package.json").version);
  require("@tensorflow/tfjs-core");
  require("@tensorflow/tfjs-backend-cpu");
  require("@tensorflow/tfjs-converter");
  console.log([...new Set(v)].join(","));' 2>"$log"); then
  cat "$log" >&2
  die "the installed TF.js packages do not load (error above)"
fi
[[ "$got" == "$want" ]] || die "installed TF.js version(s) $got, expected $want"

cp "$dir/package-lock.json" "$stamp"
echo "tfaot setup: TF.js oracle ready (TensorFlow.js $got)"
