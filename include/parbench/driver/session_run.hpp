// One run from the command line, around whatever measures it: the suite of a plugin (`parbench
// run`, through parbench::host) or the definitions compiled into a program (parbench::mpi::main).
// It adds what a command line needs: signal handling, output files agreed on by every process,
// the per-measurement time limit, the warnings at the start and the end of the run, and one
// clear line and exit status for whatever ends it.
#pragma once

#include <parbench/driver/command_line.hpp>
#include <parbench/driver/exit_status.hpp>
#include <parbench/driver/printable.hpp>
#include <parbench/driver/run_files_sweeper.hpp>
#include <parbench/driver/run_options.hpp>
#include <parbench/driver/run_session.hpp>
#include <parbench/driver/stop_run.hpp>
#include <parbench/driver/terminal.hpp>
#include <parbench/driver/watchdog.hpp>
#include <parbench/host/interrupt_guard.hpp>
#include <parbench/host/launcher.hpp>
#include <parbench/host/run_error.hpp>
#include <parbench/host/run_verdict.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/report/csv.hpp>
#include <parbench/report/json.hpp>
#include <parbench/report/output_file.hpp>
#include <parbench/report/paw_dat.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace parbench::driver {

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

// What measures a run, step by step (parbench::host's plan/start/execute/finish, or a program's
// own MPI and definitions).
struct run_steps {
    // Initialises the backends (MPI first); the communication service, nullptr for a single
    // process. May throw run_error or driver_exit (judged alike on every process).
    std::function<const parbench_comm_service*()> start;
    // Once started: the context every output file records (driver_context()).
    std::function<nlohmann::json()> context;
    // Runs the benchmarks, handing every event to the session; what was measured, agreed on
    // every process. Throws run_error.
    std::function<run_verdict(run_session&)> execute;
    // Finalises the backends (MPI_Finalize).
    std::function<void()> finish;
    // With --check: the chosen benchmarks that have no data verification (one warning names them).
    std::vector<std::string> cannot_verify;
    // Rank 0 forks the process that removes the run's file directory should it be killed
    // (run_files_sweeper.hpp): before anything starts threads, for runs that use MPI.
    bool sweep_run_files = false;
    // The suite writes files into --dat-dir (PAW's .dat files: PARBENCH_SUITE_DAT_FILES), so
    // that directory is checked and their names reserved even where --dat-dir is not given.
    bool dat_files = false;
    // Warnings to give once the run has started (the console's header first), on rank 0.
    std::vector<std::string> start_warnings;
    // The console layouts the run may declare (report::every_layout(): all of them).
    session_layouts layouts;
};

// The start's time limit (the plugins' init, MPI_Init among it), in seconds, 0 for none:
// PARBENCH_START_TIMEOUT where set, else --timeout but at least 60 s, since MPI_Init takes
// seconds on a large job (1.3 s at -n 32 on 2 cores) and --timeout is chosen for one measurement.
[[nodiscard]] inline double start_limit_s(double timeout_s) {
    if (const char* text = std::getenv("PARBENCH_START_TIMEOUT"); text != nullptr) {
        const seconds_reading reading = read_seconds(text, time_limit_rule);  // as --timeout
        if (!reading.problem.empty())
            throw driver_exit{exit_bad_input, "environment PARBENCH_START_TIMEOUT " +
                                                  quote_value(text) + ": " + reading.problem};
        return reading.value;
    }
    return timeout_s > 0.0 ? std::max(timeout_s, 60.0) : 0.0;
}

// The whole run; returns the exit status (exit_status.hpp) or throws driver_exit, run_error
// from start() and the like for the caller's one line (run_main.hpp). The caller checks the
// options first (check_output_names()).
inline int run_in_session(const run_options& o, const run_steps& steps) {
    const double start_limit = start_limit_s(o.timeout_s);  // judged before anything starts
    // Ctrl-C and kill end the run as the time limit does: rank 0 names what was being measured,
    // completes the files and stops every process; a signal to another rank reaches rank 0 through
    // the guard (host/interrupt_guard.hpp). Installed before MPI starts threads, so that they
    // inherit the blocked signals; the session and the communication service are known to the
    // handler once they exist.
    const int process_rank = parbench::launcher_rank();
    // Forked while this process has a single thread: removes imb-io's run directory should rank 0
    // be killed outright (run_files_sweeper.hpp).
    run_files_sweeper sweeper;
    if (process_rank == 0 && steps.sweep_run_files) sweeper.start();
    std::atomic<run_session*> interrupt_session{nullptr};
    std::atomic<const parbench_comm_service*> interrupt_comm{nullptr};
    // The run's exit status once its outcome is decided and said (-1 before): a signal after it
    // (Open MPI's mpirun ends the other processes with SIGTERM as soon as one exits non-zero;
    // Ctrl-C during MPI_Finalize) ends the process with that status and no second line, since
    // nothing is left to stop.
    std::atomic<int> decided_status{-1};
    interrupt_guard interrupts(
        [&](const interrupt& what) {
            if (const int decided = decided_status.load(); decided >= 0) {
                std::fflush(nullptr);
                std::_Exit(decided);
            }
            run_session* s = interrupt_session.load();
            const auto now = s != nullptr ? s->current() : measurement{};
            stop_run(process_rank == 0 ? s : nullptr, interrupt_comm.load(), 128 + what.signo,
                     interrupt_message(what, now.benchmark.empty() ? "" : describe(now),
                                       process_rank));
        },
        process_rank, parbench::launched_by_mpi_launcher());

    // A time limit holds for the start too: MPI_Init waits for every process the launcher
    // started, and one that ended before it (a plugin that refused or failed on that process
    // alone; under MPICH's hydra the others are not ended) would leave this one waiting for ever.
    // Said once (exit_status.hpp): rank 0, or another rank when rank 0 still runs.
    const parbench_comm_service* comm = nullptr;
    {
        const double limit_s = start_limit;
        watchdog start_guard(
            std::chrono::duration<double>(limit_s), std::chrono::duration<double>(0.0),
            [limit_s, process_rank](const measurement&) {
                std::signal(SIGPIPE, SIG_IGN);
                print_error_once(
                    fmt::format("{}time limit: the run did not start within {:g} s (MPI_Init "
                                "waits for every process: one may have ended before it, with "
                                "its own line above or in the launcher's report); stopped",
                                process_rank != 0 ? fmt::format("(rank {}) ", process_rank)
                                                  : std::string{},
                                limit_s),
                    process_rank);
                std::cout.flush();
                std::_Exit(exit_time_limit);
            });
        start_guard.arm({});
        comm = steps.start();  // "<file>: init failed: ..."
    }
    interrupt_comm = comm;
    const int rank = comm != nullptr ? comm->rank() : 0;
    const int processes = comm != nullptr ? comm->size() : 1;
    if (comm != nullptr && processes > 1)
        interrupts.join_run(rank, [comm](void* data, std::size_t bytes) {
            comm->broadcast(data, bytes, 0);
        });

    report::output_set outputs;  // every file of the run, claimed before it is written
    run_session session(rank == 0, o.quiet,
                        rank == 0 && progress_line_wanted(o.progress,
                                                          parbench::launched_by_mpi_launcher()),
                        o.dat_dir, outputs, steps.layouts);
    session.set_rank(rank);
    session.set_timing_options(o.timing_options);
    session.attach_sweeper(&sweeper);
    const nlohmann::json context = steps.context();
    session.set_driver_context(context);
    const std::string output_problem = agree_on_outputs(comm, rank, [&] {
        using namespace parbench::report;
        if (o.json_given) outputs.claim(check_output_file("--json", o.json_file), "--json");
        if (o.csv_given) outputs.claim(check_output_file("--csv", o.csv_file), "--csv");
        // PAW writes .dat files into --dat-dir ("." unless given), under names known only as
        // its tests run: the directory is checked and their names reserved when it will be used.
        if (o.dat_dir_given || steps.dat_files)
            reserve_paw_dat_files(outputs, check_output_directory("--dat-dir", o.dat_dir));
        if (o.json_given) {
            auto json = std::make_unique<json_reporter>(o.json_file, std::chrono::seconds(1),
                                                        "--json " + o.json_file);
            json->set_driver_context(context);
            session.json = json.get();
            session.add_file_reporter(std::move(json));
        }
        if (o.csv_given)
            session.add_file_reporter(
                std::make_unique<csv_reporter>(o.csv_file, "--csv " + o.csv_file));
    });
    if (!output_problem.empty()) {
        interrupt_comm = nullptr;  // MPI ends in finish(): a late signal must not call it
        steps.finish();
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
    if (rank == 0) {
        for (const auto& warning : steps.start_warnings) session.warn_at_start(warning);
        if (!steps.cannot_verify.empty())
            session.warn_at_start(cannot_verify_warning(steps.cannot_verify));
    }

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
                                            rank == 0 ? std::string{} : stopped_by(rank)),
                                voice().bare_time_limit);
                   });
    session.attach_watchdog(&guard);
    interrupt_session = &session;
    struct forget_session {  // declared after session: runs before it is destroyed
        std::atomic<run_session*>& target;
        ~forget_session() { target = nullptr; }
    } forget{interrupt_session};

    std::optional<run_error> failed;
    bool defects = false;
    std::string strict_problem;  // --strict and a benchmark was skipped (agreed on every process)
    try {
        const run_verdict verdict = steps.execute(session);
        guard.stop();
        session.report_skipped(verdict);
        session.report_verification(verdict, steps.cannot_verify);
        defects = verdict.defects_found();  // agreed on every process
        if (o.strict && verdict.skipped_count() > 0) strict_problem = verdict.strict_message();
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
            case run_error::kind::skipped:
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
    int status = exit_ok;
    if (failed) {
        status = failed->exit_status();
    } else if (defects) {
        status = exit_defects;
    } else if (!strict_problem.empty()) {
        if (rank == 0) print_error(strict_problem);
        status = exit_skipped;
    }
    decided_status = status;
    // MPI ends in finish(): a signal from here on stops the process without calling MPI (a
    // program of mpi::main finalises MPI itself; its comm service would abort the job).
    interrupt_comm = nullptr;
    steps.finish();
    return status;
}

}  // namespace parbench::driver
