// Fixture of test/tools/check-layering.test.
#include "model.h"
#include "tfaot/runtime/kernels.h"
#include "compiler/Driver.h"
