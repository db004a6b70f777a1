// A suite hosted by the MPI plugin: what `parbench list` shows of it, and its run. Each suite is
// one file in this directory defining one hosted_suite, listed in plugin.cpp's hosted_suites.
#pragma once

#include <parbench/plugin/abi.h>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/request.hpp>

namespace parbench::mpi_plugin {

struct hosted_suite {
    parbench_suite info;
    // Collective over MPI_COMM_WORLD; throws input_error for a bad request.
    void (*run)(const run_request& request, const plugin::host_channel& host);
};

// One line per file in suites/.
namespace suites {
extern const hosted_suite imb_mpi1;
extern const hosted_suite imb_ext;
extern const hosted_suite imb_rma;
extern const hosted_suite imb_nbc;
extern const hosted_suite imb_io;
extern const hosted_suite osu;
extern const hosted_suite paw;
extern const hosted_suite overlap;
}  // namespace suites

}  // namespace parbench::mpi_plugin
