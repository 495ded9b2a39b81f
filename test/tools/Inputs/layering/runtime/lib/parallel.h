// Fixture of test/tools/check-layering.test.
#include "tfaot/runtime/kernels.h"
#include "ir/Ops.h"
