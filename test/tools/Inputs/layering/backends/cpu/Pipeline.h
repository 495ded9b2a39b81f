// Fixture of test/tools/check-layering.test.
#include "passes/Passes.h"
