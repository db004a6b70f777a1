// The suites the BLAS plugin hosts, each one file defining one hosted_suite (as
// plugins/mpi/suites/ does), listed in plugin.cpp's hosted_suites. Today one: suite.cpp.
#pragma once

#include <parbench/plugin/hosted_suite.hpp>

namespace parbench::blas {

namespace suites {
// PAW's CPU BLAS tests (suite.cpp). Needs no MPI; with a communication service it runs on
// every rank.
extern const plugin::hosted_suite paw;
}  // namespace suites

}  // namespace parbench::blas
