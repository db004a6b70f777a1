// What an MPI run says about itself before its first row, as the imb-* suites of the MPI plugin
// and programs built on parbench::mpi::main both give it: IMB's header fields (MPI version,
// thread level, lengths, datatypes, benchmark list), the run context of MPI (library, processes
// and CPUs per node, thread level, timer and its measured resolution) and the one warning of an
// oversubscribed node. Rank 0 only where noted (it measures the clock).
#pragma once

#include <parbench/core/clock.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/node.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/report/imb_header.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/stability.hpp>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace parbench::mpi {

// What IMB's header says about the run's lengths and types.
struct imb_header_facts {
    std::vector<std::string> benchmarks;  // "# List of Benchmarks to run:"
    std::vector<std::uint64_t> sizes;     // the lengths, for "# Minimum/Maximum message length"
    bool lengths_user_defined = false;    // -msglen
    std::string datatype = "MPI_BYTE";
    std::string reduction_datatype = "MPI_FLOAT";
    bool check = false;
};

// The thread level MPI provides, by its name ("MPI_THREAD_SINGLE").
[[nodiscard]] inline std::string provided_thread_level() {
    int thread_level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&thread_level);
    return std::string(thread_level_name(thread_level));
}

// IMB's header fields (run_start.header of the IMB console layouts, report/imb_header.hpp): the
// MPI version, the thread level, the lengths, the datatypes and the benchmark list.
[[nodiscard]] inline report::imb_header make_imb_header(const imb_header_facts& f) {
    const auto [min_it, max_it] = std::minmax_element(f.sizes.begin(), f.sizes.end());
    return {
        .mpi_version = standard_version(),
        .mpi_thread_environment = provided_thread_level(),
        .min_bytes = f.sizes.empty() ? 0 : *min_it,
        .max_bytes = f.sizes.empty() ? 0 : *max_it,
        .benchmark_list = f.benchmarks,
        .lengths_user_defined = f.lengths_user_defined,
        .check = f.check,
        .datatypes = report::imb_header_datatypes{.datatype = f.datatype,
                                                  .reduction_datatype = f.reduction_datatype,
                                                  .reduction_op = "MPI_SUM"},
    };
}

// The run context of MPI (run_start.context): rank 0, collective for nothing (the node's share
// is measured by the caller, collectively, with busiest_node()). `message_buffers`: "host memory"
// or "<name> device memory".
[[nodiscard]] inline nlohmann::json mpi_run_context(const node_share& share,
                                                    const std::string& message_buffers) {
    int processes = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &processes);
    const auto clock = measure_clock(wtime_clock{});
    nlohmann::json context =
        report::mpi_suite_context{.mpi_library = library_version(), .processes = processes};
    context.update({
        {"processes_per_node", share.processes},
        {"cpus_per_node", share.cpus},
        {"oversubscribed", share.oversubscribed()},
        {"thread_level", provided_thread_level()},
        {"timer", "MPI_Wtime"},
        {"message_buffers", message_buffers},
    });
    context.update(nlohmann::json(report::timer_limits::of(clock)));
    return context;
}

// Said once per run: figures from a node with more processes than CPUs measure the scheduler.
[[nodiscard]] inline std::string oversubscription_warning(const node_share& share) {
    return "oversubscribed: " + std::to_string(share.processes) + " processes share " +
           std::to_string(share.cpus) + " CPUs on a node; MPI busy-polls, so any measurement with "
           "more active processes than CPUs times the scheduler (milliseconds instead of "
           "microseconds). Idle processes wait without spinning, but run at most one process per "
           "CPU for figures worth keeping";
}

}  // namespace parbench::mpi
