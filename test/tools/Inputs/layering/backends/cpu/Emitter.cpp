// Fixture of test/tools/check-layering.test.
#include "backends/gpu/Pipeline.h"
#include "compiler/Driver.h"
