// The suites the coarray plugin hosts, each one file defining one hosted_suite (as
// plugins/mpi/suites/ does), listed in plugin.cpp's hosted_suites. Today one: suite.cpp.
#pragma once

#include <parbench/plugin/hosted_suite.hpp>

namespace parbench::caf {

namespace suites {
// EPCC CAF_BENCH (suite.cpp); its run is collective over every image.
extern const plugin::hosted_suite caf;
}  // namespace suites

}  // namespace parbench::caf
