// The one Catch2 main every Catch2 test executable links (compiled once per build: Catch2's
// runner costs more to compile than most test files).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
