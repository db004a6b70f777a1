// Event routing of one `parbench run`: what the plugin emits goes to the console reporter of the
// suite's layout (of the layouts the session is given: report/console.hpp), to the files that
// layout writes (PAW's .dat files, also under --quiet) and to the JSON/CSV files, on rank 0;
// progress arms the time limit and draws the progress line.
//
// A warning is printed once, in one stream: on rank 0 with a console (tables on stdout) as a
// "# WARNING:" line among the tables, else (--quiet, another rank) as "parbench: warning:" on
// stderr. The JSON file records every warning of rank 0 either way. Errors always go to stderr.
#pragma once

#include <parbench/driver/exit_status.hpp>
#include <parbench/driver/printable.hpp>
#include <parbench/driver/run_files.hpp>
#include <parbench/driver/run_files_sweeper.hpp>
#include <parbench/driver/watchdog.hpp>

#include <parbench/host/event_sink.hpp>
#include <parbench/host/run_verdict.hpp>
#include <parbench/report/console.hpp>
#include <parbench/report/json.hpp>
#include <parbench/report/output_file.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace parbench::driver {

// Events that cannot be rendered in the order they came (a result before the run started).
class broken_event : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The console layouts a session renders (report/console.hpp): every_layout() for the driver
// (report/console_layouts.hpp), IMB's alone for parbench::mpi::main.
using session_layouts = report::layout_set;

class run_session final : public parbench::event_sink {
public:
    // `outputs`: the run's files, which a layout's own files are claimed in (it outlives the
    // session).
    run_session(bool render, bool quiet, bool progress_line, std::filesystem::path dat_dir,
                report::output_set& outputs, session_layouts layouts)
        : render_(render), quiet_(quiet), progress_line_(progress_line),
          dat_dir_(std::move(dat_dir)), outputs_(outputs), layouts_(layouts) {}

    void set_rank(int rank) { rank_ = rank; }
    // The suite's options that time longer, for the unstable rows' advice ("-i, -x").
    void set_timing_options(std::string options) {
        stability_.set_timing_options(std::move(options));
    }
    void set_driver_context(nlohmann::json context) { driver_context_ = std::move(context); }

    void add_file_reporter(std::unique_ptr<report::reporter> r) { files_.push_back(std::move(r)); }
    report::json_reporter* json = nullptr;

    // Called (with the message) when a file cannot be written during the run; it ends the run.
    void on_output_error(std::function<void(const std::string&)> handler) {
        output_failed_ = std::move(handler);
    }
    // Called (with the message) when the plugin's events cannot be rendered at all (a layout
    // this parbench does not know, a result before the run started, a record the layout refuses
    // or this parbench cannot read); it ends the run.
    void on_broken_events(std::function<void(const std::string&)> handler) {
        broken_events_ = std::move(handler);
    }

    void on_event(std::string_view kind, const nlohmann::json& event) override {
        std::lock_guard lock(mutex_);
        // Once the files are completed (end()), the run is stopping: a result the plugin still
        // sends is dropped, not written to a closed file (which would report a second error).
        if (ended_) return;
        try {
            render(kind, event);
        } catch (const report::output_error& e) {
            if (!output_failed_) throw;
            output_failed_(e.what());
        } catch (const report::unknown_layout& e) {
            if (!broken_events_) throw;
            broken_events_(e.what());
        } catch (const broken_event& e) {
            if (!broken_events_) throw;
            broken_events_(e.what());
        }
    }

    // An event the plugin sent that is not JSON (a broken plugin): on rank 0, where the rows are
    // rendered, it ends the run as a record its layout refuses does, since what it carried would
    // be missing from every output; another rank says it and goes on (rank 0 decides the run).
    void on_event_problem(const std::string& problem) override {
        std::lock_guard lock(mutex_);
        if (ended_) return;
        if (rank_ == 0 && broken_events_) {
            broken_events_(problem);
            return;
        }
        print_warning(problem);
    }

    void on_progress(std::string_view benchmark, std::uint64_t bytes, int processes) override {
        const measurement now{std::string(benchmark), bytes, processes};
        if (watchdog_ != nullptr) watchdog_->arm(now);
        std::lock_guard lock(mutex_);
        current_ = now;
        if (rank_ == 0 && !quiet_ && progress_line_) {
            std::cerr << "\r\x1b[K[parbench] " << describe(now) << std::flush;
            progress_shown_ = true;
        }
    }

    // Rank 0, after a run that measured something: the benchmarks the plugin skipped, once more,
    // where the user reads last.
    void report_skipped(const parbench::run_verdict& verdict) {
        std::lock_guard lock(mutex_);
        if (rank_ != 0 || verdict.skipped().empty() || ended_) return;
        clear_progress_line();
        warn_everywhere("not measured: " + verdict.skipped_text());
    }

    // Rank 0: a warning to give once the run has started (the console's header first): the
    // benchmarks of a --check run that cannot verify their data.
    void warn_at_start(std::string message) {
        std::lock_guard lock(mutex_);
        start_warnings_.push_back(std::move(message));
    }

    // Rank 0, after the run: rows of benchmarks that could not be verified although no warning
    // named them before the run (a plugin that does not flag them), and the one error line of a
    // run in which --check found defects (also recorded in the JSON file's warnings).
    void report_verification(const parbench::run_verdict& verdict,
                             const std::vector<std::string>& named_before) {
        std::lock_guard lock(mutex_);
        if (rank_ != 0 || ended_) return;
        std::vector<std::string> unnamed;
        for (const auto& name : verdict.not_verified())
            if (std::find(named_before.begin(), named_before.end(), name) == named_before.end())
                unnamed.push_back(name);
        clear_progress_line();
        if (!unnamed.empty()) warn_everywhere(parbench::cannot_verify_warning(unnamed));
        if (!verdict.defects_found()) return;
        const std::string line = verdict.defects_text();
        print_error(line);
        for (auto& r : files_) r->on_warning(line);
        release_held_rows();
    }

    // Completes every file (each one even when another fails); the first output error, or "".
    std::string end(bool completed) {
        std::lock_guard lock(mutex_);
        clear_progress_line();
        if (ended_) return {};
        // The rows the other files still hold back reach them first: a run that finished whole
        // and then fails to write them fails as it would have mid-run (the output error ends the
        // run, the files say "completed": false).
        if (completed && output_failed_) {
            try {
                release_held_rows(/*even_if_json_behind=*/true);
            } catch (const report::output_error& e) {
                output_failed_(e.what());
            }
        }
        ended_ = true;
        std::string first_error;
        if (rank_ == 0) {
            if (const std::string unstable = stability_.summary_warning(); !unstable.empty()) {
                try {
                    warn_everywhere(unstable);
                } catch (const report::output_error& e) {
                    first_error = e.what();
                }
            }
        }
        try {
            release_held_rows(/*even_if_json_behind=*/true);  // the JSON's last rewrite follows
        } catch (const report::output_error& e) {
            if (first_error.empty()) first_error = e.what();
        }
        for_each([&](auto& r) {
            try {
                r.on_run_end(completed);
            } catch (const report::output_error& e) {
                if (first_error.empty()) first_error = e.what();
            }
        });
        // The plugin removed them itself unless the run is being stopped (run_files.hpp).
        remove_run_files(run_files_);
        return first_error;
    }

    void attach_watchdog(watchdog* w) { watchdog_ = w; }
    // Rank 0: the process that removes the run's file directory if rank 0 is killed outright.
    void attach_sweeper(run_files_sweeper* s) { sweeper_ = s; }

    // JSON rows that the writer's rate limit held back are written once their time has come even
    // when no event follows (a benchmark that hangs): a thread asks the JSON reporter four times
    // a second, under the same lock as the events. Without it a SIGKILL lost every row finished
    // in the last second before a hang.
    void start_flushing() {
        if (json == nullptr) return;
        flusher_ = std::jthread([this](std::stop_token stop) {
            std::mutex sleep_lock;
            std::condition_variable_any wake;
            std::unique_lock sleeping(sleep_lock);
            while (!wake.wait_for(sleeping, stop, std::chrono::milliseconds(250),
                                  [] { return false; }) &&
                   !stop.stop_requested()) {
                std::lock_guard lock(mutex_);
                if (ended_) return;
                try {
                    json->flush_due();
                    release_held_rows();
                } catch (const report::output_error& e) {
                    if (output_failed_) output_failed_(e.what());
                }
            }
        });
    }

    // What the plugin said it measures now ("" before the first measurement).
    [[nodiscard]] measurement current() {
        std::lock_guard lock(mutex_);
        return current_;
    }

private:
    void render(std::string_view kind, const nlohmann::json& event) {
        if (kind == "warning") {
            const std::string message = event.value("message", std::string{});
            if (rank_ == 0)
                warn_everywhere(message);
            else
                write_line(voice().program + ": warning (rank " + std::to_string(rank_) + "): ",
                           message);
            return;
        }
        if (rank_ != 0) return;
        if (kind == "run_start") {
            const auto start = readable<parbench::run_start>(
                event, "a run_start of suite '" + text_of(event, "suite") + "'");
            layouts_.require(start.layout, start.suite);  // also when nothing is shown
            layout_ = start.layout;
            timer_ = report::timer_limits::from_context(start.context);
            run_files_ = run_file_directory(start.header);
            if (sweeper_ != nullptr) sweeper_->track(run_files_);
            if (render_ && !quiet_)
                console_ = layouts_.console(start.layout, start.suite, {.out = std::cout});
            layout_files_ =
                layouts_.files(start.layout, {.directory = dat_dir_, .outputs = &outputs_});
            started_ = true;
            try {
                if (console_) console_->on_run_start(start, driver_context_);
                if (layout_files_) layout_files_->on_run_start(start, driver_context_);
            } catch (const report::output_error&) {
                throw;
            } catch (const std::exception& e) {
                // The layout refuses the header (a part it requires is missing): the JSON and
                // CSV files still record the run's start, and end as a run that did not
                // complete; the layout's reporters, never started, are left out.
                console_.reset();
                layout_files_.reset();
                for (auto& r : files_) r->on_run_start(start, driver_context_);
                throw broken_event("the " + layout_ + " layout refuses the run_start of suite '" +
                                   start.suite + "': " + e.what());
            }
            for (auto& r : files_) r->on_run_start(start, driver_context_);
            for (const auto& message : std::exchange(start_warnings_, {})) warn_everywhere(message);
        } else if (kind == "result") {
            if (!started_)
                throw broken_event(
                    "the plugin sent a result before its run_start event (which declares the "
                    "console layout)");
            const std::string what = "a result of " + row_of(event);
            const auto record = readable<parbench::result_record>(event, what);
            stability_.add(report::assess_stability(record, timer_));
            clear_progress_line();
            if (console_) refused_by_layout(what, [&] { console_->on_result(record); });
            if (json != nullptr) json->on_result(record);
            held_rows_.push_back(record);
            release_held_rows();
        } else if (kind == "time_out") {
            if (!started_)
                throw broken_event("the plugin sent a time-out row before its run_start event");
            const std::string what = "a time-out row of " + row_of(event);
            const auto row = readable<parbench::result_record>(event, what);
            clear_progress_line();
            refused_by_layout(what, [&] {
                if (console_) console_->on_time_out(row);
                if (layout_files_) layout_files_->on_time_out(row);
            });
            for (auto& r : files_) r->on_time_out(row);
        } else if (kind == "note") {
            clear_progress_line();
            const std::string message = event.value("message", std::string{});
            for_each([&](auto& r) { r.on_note(message); });
        }
    }

    // A record the layout refuses (its console's exception: a caf row without its caf figures)
    // or one this parbench cannot read ends the run (on_broken_events) with the benchmark and the
    // reason: dropped with a warning, it would be missing from every output of a run that still
    // succeeded. The rows before it are in the files, which end as a run that did not complete.
    template <class Fn>
    void refused_by_layout(const std::string& what, Fn&& show) {
        try {
            show();
        } catch (const report::output_error&) {
            throw;
        } catch (const std::exception& e) {
            throw broken_event("the " + layout_ + " layout refuses " + what + ": " + e.what());
        }
    }

    template <class T>
    [[nodiscard]] static T readable(const nlohmann::json& event, const std::string& what) {
        try {
            return event.get<T>();
        } catch (const std::exception& e) {
            throw broken_event(what + " that this parbench cannot read: " + e.what());
        }
    }

    // A text field of the event as sent, "?" when it has none: the messages above name what
    // they refuse from the event itself, since the record may be the part that cannot be read.
    [[nodiscard]] static std::string text_of(const nlohmann::json& event, const char* key) {
        const auto it = event.find(key);
        return it != event.end() && it->is_string() ? it->get<std::string>() : "?";
    }

    // "Sendrecv (8 bytes)", or "Barrier" for a row without a size.
    [[nodiscard]] static std::string row_of(const nlohmann::json& event) {
        std::string text = text_of(event, "benchmark");
        const auto bytes = event.find("bytes");
        const auto has_bytes = event.find("has_bytes");
        const bool sized = has_bytes == event.end() || *has_bytes != false;
        if (sized && bytes != event.end() && bytes->is_number_unsigned())
            text += " (" + std::to_string(bytes->get<std::uint64_t>()) + " bytes)";
        return text;
    }

    // Once, in one stream (see the top of this file): the console's own "# WARNING:" line where
    // there is a console, stderr where there is none; every file records it.
    void warn_everywhere(const std::string& message) {
        if (!console_) print_warning(message);
        for_each([&](auto& r) { r.on_warning(message); });
        release_held_rows();  // a warning rewrites the JSON with every row
    }

    // The other files (CSV, PAW's .dat files) get a row once the JSON file holds it: the JSON is
    // rewritten at most once a second, and a run killed outright (SIGKILL; every rank, when a
    // closed terminal kills MPICH's mpiexec) must leave files that agree, not a CSV ahead of its
    // JSON.
    void release_held_rows(bool even_if_json_behind = false) {
        if (json != nullptr && json->rows_pending() && !even_if_json_behind) return;
        std::vector<parbench::result_record> rows;
        rows.swap(held_rows_);
        for (const auto& row : rows) {
            if (layout_files_) layout_files_->on_result(row);
            for (auto& r : files_)
                if (r.get() != json) r->on_result(row);
        }
    }

    template <class Fn>
    void for_each(Fn&& fn) {
        if (console_) fn(*console_);
        if (layout_files_) fn(*layout_files_);
        for (auto& r : files_) fn(*r);
    }

    void clear_progress_line() {
        if (progress_shown_) std::cerr << "\r\x1b[K" << std::flush;
        progress_shown_ = false;
    }

    bool render_;
    bool quiet_;
    bool progress_line_;
    std::filesystem::path dat_dir_;
    report::output_set& outputs_;
    session_layouts layouts_;
    std::string layout_;  // the run_start's, for the messages of what it refuses
    int rank_ = 0;
    nlohmann::json driver_context_;
    std::unique_ptr<report::reporter> console_;
    std::unique_ptr<report::reporter> layout_files_;  // PAW's .dat files
    std::vector<std::unique_ptr<report::reporter>> files_;
    watchdog* watchdog_ = nullptr;
    run_files_sweeper* sweeper_ = nullptr;
    std::vector<parbench::result_record> held_rows_;  // for the files other than the JSON
    std::function<void(const std::string&)> output_failed_;
    std::function<void(const std::string&)> broken_events_;
    std::recursive_mutex mutex_;
    bool started_ = false;
    bool ended_ = false;
    bool progress_shown_ = false;
    report::timer_limits timer_;       // of the run context, for stability verdicts
    report::stability_tally stability_;  // the one warning about unstable rows
    measurement current_;
    std::string run_files_;  // the plugin's directory for the run's files, removed at the end
    std::vector<std::string> start_warnings_;  // given once the run_start event has come
    std::jthread flusher_;  // last: stopped and joined before anything it uses is destroyed
};

}  // namespace parbench::driver
