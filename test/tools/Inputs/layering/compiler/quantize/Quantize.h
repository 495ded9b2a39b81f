// Fixture of test/tools/check-layering.test.
#include "compiler/driver/Build.h"
#include "compiler/frontend/Loader.h"
