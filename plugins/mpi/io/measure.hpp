// One size of an MPI-IO benchmark: mpi::measure() (or the benchmark's own composition of the
// phases), then every process of the run agrees on whether an MPI-IO call failed
// (mpi/file_errors.hpp; an unwritable directory, ENOSPC, a read-only file system). A failure
// ends the run with one line naming the benchmark, the size and MPI's reason; the records so
// far are already with the host, and the files of the measurement were closed and deleted by
// its resource before the question is asked.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/mpi/file_errors.hpp>
#include <parbench/mpi/runner.hpp>

#include <string>
#include <utility>

namespace parbench::mpi_plugin::io {

// `measure(session, config)`: mpi::measure() unless the benchmark composes its own timings
// (the nonblocking benchmarks' io::measure_overlap).
struct plain_measure {
    template <class Config>
    mpi::measurement operator()(const mpi::session& s, Config&& config) const {
        return mpi::measure(s, std::forward<Config>(config));
    }
};

template <class Config, class Measure = plain_measure>
[[nodiscard]] mpi::measurement measure_reporting_failures(const mpi::session& s, Config&& config,
                                                          Measure&& measure = {}) {
    const std::string where = config.resource.plan().path;
    const std::string benchmark = config.labels.benchmark;
    const std::uint64_t bytes = config.bytes;
    mpi::measurement m = measure(s, std::forward<Config>(config));
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
