// `parbench run`: the orchestration around parbench::host. The host checks the request, starts
// the plugins (MPI first) and runs the suite; driver/session_run.hpp adds what a command line
// needs around it (signal handling, output files agreed on by every process, the time limit, and
// one clear line and exit status for whatever ends the run), as it does for programs built on
// parbench::mpi::main.
#pragma once

#include <parbench/driver/run_options.hpp>
#include <parbench/driver/session_run.hpp>
#include <parbench/host/host.hpp>
#include <parbench/host/mpi_family.hpp>

#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace parbench::app {

using namespace parbench::driver;

// --mpi NAME (an MPI's plugin, host_options::mpi) loads MPI as `on` does.
inline parbench::mpi_use mpi_use_of(const std::string& text) {
    if (text == "off") return parbench::mpi_use::off;
    if (text == "auto") return parbench::mpi_use::automatic;
    return parbench::mpi_use::on;
}

// Where the driver's own start-up time goes, per process: from its start (static
// initialisation) through plugin discovery and option parsing to the plugins' init (MPI_Init)
// and the first benchmark.
struct startup_clock {
    std::chrono::steady_clock::time_point process_started;
    std::chrono::steady_clock::time_point discovery_started;
    std::chrono::steady_clock::time_point discovery_done;
    std::chrono::steady_clock::time_point init_started{};  // pb.start(): MPI_Init, plugin init
    std::chrono::steady_clock::time_point init_done{};
};

namespace startup_impl {

inline double ms_between(std::chrono::steady_clock::time_point a,
                         std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace startup_impl

// context.startup: this process's start-up figures up to now (the run is about to start its
// first benchmark), each as min, avg and max over the processes (a collective call where the
// run has several). to_first_benchmark_ms = own_ms + plugin_init_ms; plugin_init_ms is mostly
// MPI_Init_thread (the MPI plugin's own mpi_init_ms times that call alone).
inline nlohmann::json startup_summary(const startup_clock& c, parbench::host& pb,
                                      const parbench_comm_service* comm) {
    using startup_impl::ms_between;
    const auto now = std::chrono::steady_clock::now();
    const double total = ms_between(c.process_started, now);
    const double init = ms_between(c.init_started, c.init_done);
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    const std::vector<std::pair<const char*, double>> mine = {
        {"to_first_benchmark_ms", total},
        {"own_ms", total - init},
        {"discovery_ms", ms_between(c.discovery_started, c.discovery_done)},
        {"plugin_init_ms", init},
        {"cpu_ms", 1e3 * (seconds(usage.ru_utime) + seconds(usage.ru_stime))},
        {"max_rss_kib", static_cast<double>(usage.ru_maxrss)},
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
    // The same on every process: every one reads the same directories.
    out["plugin_files_probed"] = pb.plugins().probed_files();
    out["plugin_files_from_manifest"] = pb.plugins().manifest_plugins();
    return out;
}

inline nlohmann::json plugin_summary(const plugin::loaded_plugin& p) {
    return {{"name", std::string(p.name())},
            {"version", std::string(p.version())},
            {"file", p.path().string()},
            {"backend_info", p.backend_info()}};
}

// What the driver records about itself in every file's context.
inline nlohmann::json driver_context_of(parbench::host& pb, const run_options& o,
                                        const startup_clock& startup) {
    nlohmann::json plugins = nlohmann::json::array();
    for (const auto& p : pb.plugins().plugins()) plugins.push_back(plugin_summary(p));
    nlohmann::json context =
        driver_context(pb.argc(), pb.argv(), o, pb.processes(), std::move(plugins));
    context["startup"] = startup_summary(startup, pb, pb.comm());
    // The MPI that ran, where the run started one (several MPI plugins may be built, one per
    // MPI library): its family, its plugin and MPI_Get_library_version's first line.
    if (pb.comm() != nullptr && pb.mpi_plugin() != nullptr) {
        const plugin::plugin_manifest& m = *pb.mpi_plugin();
        const std::string family(mpi_family_of_library(m.mpi_library));
        context["mpi"] = {{"name", family.empty() ? m.name : mpi_family_title(family)},
                          {"family", family},
                          {"plugin", m.name},
                          {"library", m.mpi_library}};
    }
    return context;
}

inline int run_suite(parbench::host& pb, const run_options& o,
                     std::map<std::string, nlohmann::json> suite_options, startup_clock startup) {
    check_output_names(o);  // before the plan, as every process can judge them alone

    run_request request;
    request.suite = o.suite;
    request.benchmarks = o.benchmarks;
    request.options = std::move(suite_options);
    request.check = o.check;
    request.calling_sequence = pb.command_line();
    const run_plan plan = pb.plan(std::move(request), mpi_use_of(o.mpi));

    return run_in_session(
        o, {.start = [&]() -> const parbench_comm_service* {
                startup.init_started = std::chrono::steady_clock::now();
                pb.start(plan);  // throws plugin_error: "<file>: init failed: ..."
                startup.init_done = std::chrono::steady_clock::now();
                return pb.comm();
            },
            .context = [&] { return driver_context_of(pb, o, startup); },
            .execute = [&](run_session& session) { return pb.execute(plan, session); },
            .finish = [&] { pb.finish(); },
            .cannot_verify = plan.cannot_verify,
            .sweep_run_files = plan.comm_plugin != nullptr,
            .start_warnings = {},
            .layouts = every_layout()});
}

}  // namespace parbench::app
