// How long a process took to start, up to its first benchmark: what every output file records
// as context.startup, for the driver (plugin discovery, option parsing, the plugins' init with
// MPI_Init) and for a program built on parbench::mpi::main (its MPI_Init) alike.
#pragma once

#include <parbench/plugin/abi.h>

#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <chrono>
#include <cstddef>
#include <utility>
#include <vector>

namespace parbench::driver {

// When this process started, as near as a header can tell: the program's static
// initialisation, after the dynamic loader mapped its libraries.
inline const std::chrono::steady_clock::time_point process_started =
    std::chrono::steady_clock::now();

// The moments of one process's start-up; the steps a program does not take stay zero-length.
struct startup_clock {
    std::chrono::steady_clock::time_point discovery_started{};  // finding the plugins
    std::chrono::steady_clock::time_point discovery_done{};
    std::chrono::steady_clock::time_point init_started{};  // the plugins' init, MPI_Init
    std::chrono::steady_clock::time_point init_done{};
};

// context.startup: this process's figures up to now (the run is about to start its first
// benchmark), each as min, avg and max over the processes: collective where `comm` has several.
// to_first_benchmark_ms = own_ms + plugin_init_ms; plugin_init_ms is mostly MPI_Init_thread;
// cpu_ms (user + system) and max_rss_kib from getrusage. `probed` and `from_manifest`: the plugin
// files discovery opened and those it read from manifests (the same on every process).
[[nodiscard]] inline nlohmann::json startup_summary(const startup_clock& c,
                                                    const parbench_comm_service* comm,
                                                    std::size_t probed = 0,
                                                    std::size_t from_manifest = 0) {
    const auto ms = [](std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };
    const double total = ms(process_started, std::chrono::steady_clock::now());
    const double init = ms(c.init_started, c.init_done);
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    const std::vector<std::pair<const char*, double>> mine = {
        {"to_first_benchmark_ms", total},
        {"own_ms", total - init},
        {"discovery_ms", ms(c.discovery_started, c.discovery_done)},
        {"plugin_init_ms", init},
        {"cpu_ms", 1e3 * (seconds(usage.ru_utime) + seconds(usage.ru_stime))},
        {"max_rss_kib", static_cast<double>(usage.ru_maxrss)},  // Linux: KiB
    };
    const std::size_t n = mine.size();
    std::vector<double> low(n), high(n), sum(n);
    for (std::size_t i = 0; i < n; ++i) low[i] = high[i] = sum[i] = mine[i].second;
    int processes = 1;
    if (comm != nullptr && comm->size() > 1) {
        processes = comm->size();
        comm->allreduce_f64(low.data(), n, PARBENCH_OP_MIN);
        comm->allreduce_f64(high.data(), n, PARBENCH_OP_MAX);
        comm->allreduce_f64(sum.data(), n, PARBENCH_OP_SUM);
    }
    nlohmann::json out = nlohmann::json::object();
    for (std::size_t i = 0; i < n; ++i)
        out[mine[i].first] = {{"min", low[i]},
                              {"avg", sum[i] / static_cast<double>(processes)},
                              {"max", high[i]}};
    out["plugin_files_probed"] = probed;
    out["plugin_files_from_manifest"] = from_manifest;
    return out;
}

}  // namespace parbench::driver
