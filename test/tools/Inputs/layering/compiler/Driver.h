// Fixture of test/tools/check-layering.test.
#include "backends/cpu/Pipeline.h"
#include "passes/Passes.h.inc"
#include "llvm/Support/Error.h"
