// Fixture of test/tools/check-layering.test.
#include "compiler/proto/graph.pb.h"
#include "ir/Ops.h"
