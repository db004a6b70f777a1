// Precompiled for the unit-test program (tests/unit/meson.build): Catch2, JSON and the standard
// headers most test files use. parbench's own headers are left out, so that each test file still
// includes what it uses and a header missing an include still fails to compile.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>
