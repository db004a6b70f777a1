// The one Catch2 main every unit-test executable links (compiled once: Catch2's runner is big).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
