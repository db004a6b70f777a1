// `parbench run`: the orchestration around parbench::host. The host checks the request, starts
// the plugins (MPI first) and runs the suite; driver/session_run.hpp adds what a command line
// needs around it (signal handling, output files agreed on by every process, the time limit, and
// one clear line and exit status for whatever ends the run), as it does for programs built on
// parbench::mpi::main.
#pragma once

#include <parbench/driver/run_options.hpp>
#include <parbench/driver/session_run.hpp>
#include <parbench/driver/startup.hpp>
#include <parbench/host/host.hpp>
#include <parbench/host/mpi_family.hpp>
#include <parbench/report/console_layouts.hpp>

#include <nlohmann/json.hpp>

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
    context["startup"] = startup_summary(startup, pb.comm(), pb.plugins().probed_files(),
                                         pb.plugins().manifest_plugins());
    // The MPI that ran, where the run started one (several MPI plugins may be built, one per
    // MPI library): its family, its plugin and MPI_Get_library_version's first line.
    if (pb.comm() != nullptr && pb.mpi_plugin() != nullptr) {
        const plugin::plugin_manifest& m = *pb.mpi_plugin();
        context["mpi"] = mpi_context(m.mpi_library, &m.name);
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
            .dat_files = plan.writes_dat_files(),
            .start_warnings = {},
            .layouts = report::every_layout()});
}

}  // namespace parbench::app
