// A suite hosted by the MPI plugin: what `parbench list` shows of it, and its run. Each suite is
// one file in this directory defining one hosted_suite, listed in plugin.cpp's hosted_suites.
#pragma once

#include <parbench/plugin/hosted_suite.hpp>

namespace parbench::mpi_plugin {

// Its run is collective over MPI_COMM_WORLD.
using plugin::hosted_suite;

// One line per file in suites/.
namespace suites {
extern const hosted_suite imb_mpi1;
extern const hosted_suite imb_ext;
extern const hosted_suite imb_rma;
extern const hosted_suite imb_nbc;
extern const hosted_suite imb_mpi4;
extern const hosted_suite imb_io;
extern const hosted_suite osu;
extern const hosted_suite paw;
extern const hosted_suite overlap;
extern const hosted_suite pairs;
extern const hosted_suite links;
extern const hosted_suite imb_p2p;
extern const hosted_suite imb_mt;
}  // namespace suites

}  // namespace parbench::mpi_plugin
