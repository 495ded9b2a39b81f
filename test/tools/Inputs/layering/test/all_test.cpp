// Fixture of test/tools/check-layering.test.
#include "tools/tfaot/HelpText.h"
#include "runtime/lib/parallel.h"
#include "compiler/Driver.h"
