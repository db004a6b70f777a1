// Event routing of one `parbench run`: what the plugin emits goes to the console reporter of the
// suite's layout (report/console_layouts.hpp), to the files that layout writes (PAW's .dat
// files, also under --quiet) and to the JSON/CSV files, on rank 0; warnings are
// echoed on stderr on every rank; progress arms the time limit and draws the progress line.
#pragma once

#include "exit_status.hpp"
#include "printable.hpp"
#include "run_files.hpp"
#include "watchdog.hpp"

#include <parbench/host/event_sink.hpp>
#include <parbench/host/run_verdict.hpp>
#include <parbench/report/console_layouts.hpp>
#include <parbench/report/json.hpp>
#include <parbench/report/output_file.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <nlohmann/json.hpp>

#include <unistd.h>

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
#include <vector>

namespace parbench::app {

// Events that cannot be rendered in the order they came (a result before the run started).
class broken_event : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class run_session final : public parbench::event_sink {
public:
    // `outputs`: the run's files, which a layout's own files are claimed in (it outlives the
    // session).
    run_session(bool render, bool quiet, bool progress_line, std::filesystem::path dat_dir,
                report::output_set& outputs)
        : render_(render), quiet_(quiet), progress_line_(progress_line),
          dat_dir_(std::move(dat_dir)), outputs_(outputs) {}

    void set_rank(int rank) { rank_ = rank; }
    void set_driver_context(nlohmann::json context) { driver_context_ = std::move(context); }

    void add_file_reporter(std::unique_ptr<report::reporter> r) { files_.push_back(std::move(r)); }
    report::json_reporter* json = nullptr;

    // Called (with the message) when a file cannot be written during the run; it ends the run.
    void on_output_error(std::function<void(const std::string&)> handler) {
        output_failed_ = std::move(handler);
    }
    // Called (with the message) when the plugin's events cannot be rendered at all (a layout
    // this parbench does not know, a result before the run started); it ends the run.
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

    void on_event_problem(const std::string& problem) override { print_warning(problem); }

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

    // Completes every file (each one even when another fails); the first output error, or "".
    std::string end(bool completed) {
        std::lock_guard lock(mutex_);
        clear_progress_line();
        if (ended_) return {};
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
                std::cerr << "parbench: warning (rank " << rank_ << "): " << printable(message)
                          << '\n';
            return;
        }
        if (rank_ != 0) return;
        if (kind == "run_start") {
            const auto start = event.get<parbench::run_start>();
            report::require_layout(start.layout, start.suite);  // also when nothing is shown
            timer_ = report::timer_limits::from_context(start.context);
            run_files_ = run_file_directory(start.header);
            if (render_ && !quiet_)
                console_ = report::make_console(start.layout, start.suite, {.out = std::cout});
            layout_files_ = report::make_layout_files(
                start.layout, {.directory = dat_dir_, .outputs = &outputs_});
            started_ = true;
            for_each([&](auto& r) { r.on_run_start(start, driver_context_); });
        } else if (kind == "result") {
            if (!started_)
                throw broken_event(
                    "the plugin sent a result before its run_start event (which declares the "
                    "console layout)");
            const auto record = event.get<parbench::result_record>();
            stability_.add(report::assess_stability(record, timer_));
            clear_progress_line();
            for_each([&](auto& r) { r.on_result(record); });
        } else if (kind == "note") {
            clear_progress_line();
            const std::string message = event.value("message", std::string{});
            for_each([&](auto& r) { r.on_note(message); });
        }
    }

    static bool stdout_and_stderr_share_a_terminal() {
        if (::isatty(STDOUT_FILENO) == 0 || ::isatty(STDERR_FILENO) == 0) return false;
        const auto name_of = [](int fd) {  // ttyname() reuses one static buffer: copy at once
            const char* name = ::ttyname(fd);
            return std::string(name != nullptr ? name : "");
        };
        return name_of(STDOUT_FILENO) == name_of(STDERR_FILENO);
    }

    // The console reporter prints warnings in its output; echo them on stderr too unless both
    // streams are the same terminal (the user would read them twice).
    void warn_everywhere(const std::string& message) {
        if (!console_ || !stdout_and_stderr_share_a_terminal()) print_warning(message);
        for_each([&](auto& r) { r.on_warning(message); });
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
    int rank_ = 0;
    nlohmann::json driver_context_;
    std::unique_ptr<report::reporter> console_;
    std::unique_ptr<report::reporter> layout_files_;  // PAW's .dat files
    std::vector<std::unique_ptr<report::reporter>> files_;
    watchdog* watchdog_ = nullptr;
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
    std::jthread flusher_;  // last: stopped and joined before anything it uses is destroyed
};

}  // namespace parbench::app
