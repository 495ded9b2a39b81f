// Fixture of test/tools/check-layering.test.
#include "backends/cpu/Pipeline.h"
#include "backends/cpu/Emitter.h"
