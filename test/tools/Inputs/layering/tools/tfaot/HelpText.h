// Fixture of test/tools/check-layering.test.

