// Fixture of test/tools/check-layering.test.
#include "compiler/Driver.h"
#include "HelpText.h"
