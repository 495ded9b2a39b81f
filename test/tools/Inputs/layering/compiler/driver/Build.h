// Fixture of test/tools/check-layering.test.
#include "compiler/frontend/Loader.h"
#include "compiler/quantize/Quantize.h"
