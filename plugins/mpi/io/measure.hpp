// One size of an MPI-IO benchmark: mpi::measure(), then every process of the run agrees on
// whether an MPI-IO call failed (mpi/file_errors.hpp; an unwritable directory, ENOSPC, a
// read-only file system). A failure ends the run with one line naming the benchmark, the size
// and MPI's reason; the records so far are already with the host, and the files of the
// measurement were closed and deleted by its resource before the question is asked.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/mpi/file_errors.hpp>
#include <parbench/mpi/runner.hpp>

#include <string>
#include <utility>

namespace parbench::mpi_plugin::io {

template <class Config>
[[nodiscard]] mpi::measurement measure_reporting_failures(const mpi::session& s, Config&& config) {
    const std::string where = config.resource.plan().path;
    const std::string benchmark = config.labels.benchmark;
    const std::uint64_t bytes = config.bytes;
    mpi::measurement m = mpi::measure(s, std::forward<Config>(config));
    if (const std::string failure = mpi::file_errors::take_agreed(s.world().get());
        !failure.empty())
        // An input_error: every process leaves the run together (no abort), one line on rank 0.
        throw input_error("MPI-IO failed in " + benchmark + " (" + std::to_string(bytes) +
                          " bytes, " + std::to_string(s.layout().processes) +
                          " processes) on a file in " +
                          where.substr(0, where.find_last_of('/')) + ": " + failure +
                          "; stopped");
    return m;
}

}  // namespace parbench::mpi_plugin::io
