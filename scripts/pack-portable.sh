#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# usage: scripts/pack-portable.sh BUILD_DIR OUT.tar.xz
#
# Packs tfaot, tfaot_gen_models and the runtime archives with every shared
# library they load except the C and C++ runtimes, so that they run on an
# x86-64 Linux machine without the LLVM/MLIR packages (a GPU server we only
# borrow): unpack, then
#   LD_LIBRARY_PATH=DIR/lib DIR/bin/tfaot ...
# The machine needs a glibc and libstdc++ at least as new as this one's
# (Debian 12: glibc 2.36).
#
# Two of libLLVM's libraries are replaced by empty stand-ins, to keep the
# tarball under the 64 MiB a device run can carry: libz3 (the static
# analyzer's constraint solver, which tfaot never calls; libLLVM binds its
# functions lazily and without symbol versions, so an empty library with
# the same soname satisfies the loader) and libicudata (the ICU data
# libxml2's libicuuc points at through one symbol, icudt72_dat, read only
# when libxml2 converts a non-UTF-8 document, which LLVM's uses never do).
set -euo pipefail
build=$(cd "$1" && pwd)
out=$2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/tfaot/bin" "$stage/tfaot/lib"
cp "$build/bin/tfaot" "$build/bin/tfaot_gen_models" "$stage/tfaot/bin/"
strip "$stage/tfaot/bin/"*
cp "$build/runtime/libtfaot_runtime.a" \
   "$build/runtime/lib/cuda/libtfaot_cuda_runtime.a" "$stage/tfaot/lib/"
for lib in $(ldd "$build/bin/tfaot" "$build/bin/tfaot_gen_models" |
             awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
  case $(basename "$lib") in
    libc.so.*|libm.so.*|libgcc_s.so.*|libstdc++.so.*|ld-linux*) ;;
    libz3.so.*|libicudata.so.*) ;;
    *) cp -L "$lib" "$stage/tfaot/lib/" ;;
  esac
done
cc=${CC:-cc}
z3=$(ldd "$build/bin/tfaot" | awk '$1 ~ /^libz3\.so/ {print $1}')
icudata=$(ldd "$build/bin/tfaot" | awk '$1 ~ /^libicudata\.so/ {print $1}')
if [ -n "$z3" ]; then
  echo "" | "$cc" -shared -x c - -Wl,-soname,"$z3" -o "$stage/tfaot/lib/$z3"
fi
if [ -n "$icudata" ]; then
  version=${icudata##*.so.}
  echo "const char icudt${version}_dat[64] = {0};" |
    "$cc" -shared -x c - -Wl,-soname,"$icudata" -o "$stage/tfaot/lib/$icudata"
fi
tar -C "$stage" -cf - tfaot | xz -9 -T0 >"$out"
echo "$out: $(du -h "$out" | cut -f1)"
