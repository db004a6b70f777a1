// `parbench run`: the orchestration around parbench::host. The host checks the request, starts
// the plugins (MPI first) and runs the suite; the driver adds what a command line needs around
// it: signal handling, output files agreed on by every process, the time limit, and one clear
// line and exit status for whatever ends the run.
#pragma once

#include "exit_status.hpp"
#include "printable.hpp"
#include "run_session.hpp"
#include "stop_run.hpp"
#include "terminal.hpp"
#include "watchdog.hpp"

#include <parbench/host/host.hpp>
#include <parbench/host/interrupt_guard.hpp>
#include <parbench/host/mpi_family.hpp>
#include <parbench/report/csv.hpp>
#include <parbench/report/json.hpp>
#include <parbench/report/output_file.hpp>
#include <parbench/report/paw_dat.hpp>
#include <parbench/report/run_context.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace parbench::app {

struct run_options {
    std::string suite;
    std::vector<std::string> benchmarks;
    std::string json_file;
    bool json_given = false;  // --json '' is an error, not "no JSON"
    std::string csv_file;
    bool csv_given = false;
    double timeout_s = 300.0;
    bool check = false;
    std::vector<std::string> plugin_paths;
    std::string dat_dir = ".";
    bool dat_dir_given = false;
    bool quiet = false;
    std::string progress = "auto";
    std::string mpi = "auto";
    std::string timing_options;  // the stability advice's options (command_line.hpp)
    // The suite's options as typed on the command line (strings): what the context records,
    // while the plugin receives typed values (ABI 1.1).
    std::map<std::string, nlohmann::json> given_options;
};

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

// Rank 0 checks the output paths and opens the files (`open_outputs`); every process learns the
// verdict through the communication service, so that a bad path ends the run on every rank at
// once (rank 0 leaving alone would leave the others waiting in a collective). "" when all is well.
inline std::string agree_on_outputs(const parbench_comm_service* comm, int rank,
                                    const std::function<void()>& open_outputs) {
    std::string message;
    if (rank == 0) {
        try {
            open_outputs();
        } catch (const std::exception& e) {  // any failure: the others must not wait for rank 0
            message = e.what();
            if (message.empty()) message = "cannot open the output files";
        }
    }
    if (comm != nullptr && comm->size() > 1) {  // the whole message, however long
        std::uint64_t length = message.size();
        comm->broadcast(&length, sizeof length, 0);
        message.resize(length);
        if (length > 0) comm->broadcast(message.data(), length, 0);
    }
    return message;
}

// What the driver records about itself in every file's context.
inline nlohmann::json driver_context_of(parbench::host& pb, const run_options& o) {
    nlohmann::json context = report::run_context(pb.argc(), pb.argv());
    context["suite"] = o.suite;
    context["requested_benchmarks"] = o.benchmarks;
    context["options"] = o.given_options;
    context["check"] = o.check;
    context["timeout_s"] = o.timeout_s;
    context["processes"] = pb.processes();
    context["plugins"] = nlohmann::json::array();
    for (const auto& p : pb.plugins().plugins()) context["plugins"].push_back(plugin_summary(p));
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
                     std::map<std::string, nlohmann::json> suite_options) {
    // What every process can judge alone, before MPI starts (all of them reach the same answer;
    // the launcher's rank 0 prints it). The file system is asked later, by rank 0 for all.
    if (o.json_given && o.json_file.empty())
        throw driver_exit{exit_bad_input, "--json '': empty file name"};
    if (o.csv_given && o.csv_file.empty())
        throw driver_exit{exit_bad_input, "--csv '': empty file name"};
    if (o.dat_dir_given && o.dat_dir.empty())
        throw driver_exit{exit_bad_input, "--dat-dir '': empty directory name"};

    run_request request;
    request.suite = o.suite;
    request.benchmarks = o.benchmarks;
    request.options = std::move(suite_options);
    request.check = o.check;
    request.calling_sequence = pb.command_line();
    const run_plan plan = pb.plan(std::move(request), mpi_use_of(o.mpi));

    // Ctrl-C and kill end the run as the time limit does: rank 0 names what was being measured,
    // completes the files and stops every process; a signal to another rank reaches rank 0 through
    // the guard (host/interrupt_guard.hpp). Installed before MPI starts threads, so that they
    // inherit the blocked signals; the session and the communication service are known to the
    // handler once they exist.
    const int process_rank = parbench::launcher_rank();
    // Forked while this process has a single thread: removes imb-io's run directory should rank 0
    // be killed outright (run_files_sweeper.hpp).
    run_files_sweeper sweeper;
    if (process_rank == 0 && plan.comm_plugin != nullptr) sweeper.start();
    std::atomic<run_session*> interrupt_session{nullptr};
    std::atomic<const parbench_comm_service*> interrupt_comm{nullptr};
    interrupt_guard interrupts(
        [&](const interrupt& what) {
            run_session* s = interrupt_session.load();
            const auto now = s != nullptr ? s->current() : measurement{};
            stop_run(process_rank == 0 ? s : nullptr, interrupt_comm.load(), 128 + what.signo,
                     interrupt_message(what, now.benchmark.empty() ? "" : describe(now),
                                       process_rank));
        },
        process_rank, parbench::launched_by_mpi_launcher());

    pb.start(plan);  // throws plugin_error: "<file>: init failed: ..."
    const parbench_comm_service* comm = pb.comm();
    interrupt_comm = comm;
    const int rank = pb.rank();
    const int processes = pb.processes();
    if (comm != nullptr && processes > 1)
        interrupts.join_run(rank, [comm](void* data, std::size_t bytes) {
            comm->broadcast(data, bytes, 0);
        });

    report::output_set outputs;  // every file of the run, claimed before it is written
    run_session session(rank == 0, o.quiet,
                        rank == 0 && progress_line_wanted(o.progress,
                                                          parbench::launched_by_mpi_launcher()),
                        o.dat_dir, outputs);
    session.set_rank(rank);
    session.set_timing_options(o.timing_options);
    session.attach_sweeper(&sweeper);
    const nlohmann::json driver_context = driver_context_of(pb, o);
    session.set_driver_context(driver_context);
    const std::string output_problem = agree_on_outputs(comm, rank, [&] {
        using namespace parbench::report;
        if (o.json_given) outputs.claim(check_output_file("--json", o.json_file), "--json");
        if (o.csv_given) outputs.claim(check_output_file("--csv", o.csv_file), "--csv");
        // PAW writes .dat files into --dat-dir ("." unless given), under names known only as
        // its tests run: the directory is checked and their names reserved when it will be used.
        if (o.dat_dir_given || o.suite == "paw")
            reserve_paw_dat_files(outputs, check_output_directory("--dat-dir", o.dat_dir));
        if (o.json_given) {
            auto json = std::make_unique<json_reporter>(o.json_file, std::chrono::seconds(1),
                                                        "--json " + o.json_file);
            json->set_driver_context(driver_context);
            session.json = json.get();
            session.add_file_reporter(std::move(json));
        }
        if (o.csv_given)
            session.add_file_reporter(
                std::make_unique<csv_reporter>(o.csv_file, "--csv " + o.csv_file));
    });
    if (!output_problem.empty()) {
        pb.finish();
        throw driver_exit{exit_bad_input, output_problem};
    }
    // A file that cannot be written during the run ends the run at once, on every process; so
    // do events that cannot be rendered (the plugin's layout is unknown here).
    session.on_output_error([&session, comm](const std::string& problem) {
        stop_run(&session, comm, exit_output_error, problem + "; stopped");
    });
    session.on_broken_events([&session, comm](const std::string& problem) {
        stop_run(&session, comm, exit_failure, problem + "; stopped");
    });
    session.start_flushing();
    if (rank == 0 && !plan.cannot_verify.empty())
        session.warn_at_start(cannot_verify_warning(plan.cannot_verify));

    // The time limit: rank 0 reports and stops the run; the other ranks fire a little later, so
    // that rank 0's message is the one printed, and say it themselves only when rank 0 did not
    // (it is stopped, or on a node that lost its network).
    const double timeout_s = o.timeout_s;
    watchdog guard(std::chrono::duration<double>(timeout_s),
                   std::chrono::duration<double>(rank == 0 ? 0.0 : 3.0),
                   [&session, comm, rank, timeout_s](const measurement& m) {
                       stop_run(rank == 0 ? &session : nullptr, comm, exit_time_limit,
                                fmt::format("time limit: benchmark {} did not finish within "
                                            "{:g} s; stopped{}",
                                            describe(m), timeout_s,
                                            rank == 0 ? std::string{} : stopped_by(rank)));
                   });
    session.attach_watchdog(&guard);
    interrupt_session = &session;
    struct forget_session {  // declared after session: runs before it is destroyed
        std::atomic<run_session*>& target;
        ~forget_session() { target = nullptr; }
    } forget{interrupt_session};

    std::optional<run_error> failed;
    bool defects = false;
    try {
        const run_verdict verdict = pb.execute(plan, session);
        guard.stop();
        session.report_skipped(verdict);
        session.report_verification(verdict, plan.cannot_verify);
        defects = verdict.defects_found();  // agreed on every process
    } catch (const run_error& e) {
        guard.stop();
        failed = e;
    }
    const std::string end_problem = session.end(!failed.has_value());

    if (failed) {
        switch (failed->what_kind()) {
            case run_error::kind::failure:
                print_error_once((rank != 0 ? fmt::format("(rank {}) ", rank) : std::string{}) +
                                     failed->what(),
                                 rank);
                // Other ranks may be waiting in a collective: only an abort ends them reliably.
                if (comm != nullptr && processes > 1 && comm->abort != nullptr)
                    comm->abort(exit_failure);
                break;
            case run_error::kind::bad_input:
            case run_error::kind::nothing_measured:  // every process knows; rank 0 says it
                if (rank == 0) print_error(failed->what());
                break;
        }
    }
    if (!end_problem.empty()) {  // only rank 0 writes files; the others are finishing
        print_error(end_problem);
        if (comm != nullptr && processes > 1 && comm->abort != nullptr)
            comm->abort(exit_output_error);
        return exit_output_error;
    }
    pb.finish();
    if (failed) return failed->exit_status();
    return defects ? exit_defects : exit_ok;
}

}  // namespace parbench::app
