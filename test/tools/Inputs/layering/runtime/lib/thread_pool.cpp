// Fixture of test/tools/check-layering.test.
#include "parallel.h"
