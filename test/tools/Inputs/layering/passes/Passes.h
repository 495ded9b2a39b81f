// Fixture of test/tools/check-layering.test.
#include "ir/Ops.h"
