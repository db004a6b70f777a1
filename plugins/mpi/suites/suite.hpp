// A suite hosted by the MPI plugin: what `parbench list` shows of it, and its run. Each suite is
// one file in this directory defining one hosted_suite, named in plugins/mpi/meson.build's
// mpi_plugin_suites, from which its declaration here and plugin.cpp's table are made.
#pragma once

#include <parbench/plugin/hosted_suite.hpp>

#include "hosted_suites.h"

namespace parbench::mpi_plugin {

// Its run is collective over MPI_COMM_WORLD.
using plugin::hosted_suite;

// One per file in suites/, from plugins/mpi/meson.build's mpi_plugin_suites (hosted_suites.h,
// made there: PARBENCH_MPI_HOSTED_SUITES lists PARBENCH_HOSTED_SUITE(<name>) for each).
namespace suites {
#define PARBENCH_HOSTED_SUITE(name) extern const hosted_suite name;
PARBENCH_MPI_HOSTED_SUITES
#undef PARBENCH_HOSTED_SUITE
}  // namespace suites

}  // namespace parbench::mpi_plugin
