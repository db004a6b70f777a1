// parbench — the single driver. It links no MPI: it finds plugins, decides which ones a run
// needs, initialises the MPI plugin first when there is one, hands the chosen plugin a run
// request and renders the events it emits (IMB/PAW console, JSON, CSV) on rank 0.
//
//   parbench --version | --help
//   parbench list [--plugin-path DIR]
//   parbench run SUITE [BENCHMARK...] [suite options] [common options]
//   parbench compare OLD NEW [--format text|markdown] [--fail-above 5%]
//   parbench plot RUN.json... -o FIGURE.png|svg [--metric ...] [--imb-t]
//
// Exit statuses: 0 success, 1 plugin or backend failure, 2 bad input (options, files, output
// paths), 3 time limit, 4 an output file could not be written during the run, 128 + signal when
// SIGHUP, SIGINT or SIGTERM stopped the run. `compare` exits 1 when --fail-above finds a
// regression.
#include "compare_command.hpp"
#include "interrupt.hpp"
#include "plot_command.hpp"
#include "printable.hpp"
#include "run_files.hpp"
#include "terminal.hpp"
#include "unavailable_suites.hpp"
#include "watchdog.hpp"

#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/plugin/loader.hpp>
#include <parbench/plugin/registry.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/report/caf_console.hpp>
#include <parbench/report/csv.hpp>
#include <parbench/report/imb_console.hpp>
#include <parbench/report/json.hpp>
#include <parbench/report/imb_nbc_console.hpp>
#include <parbench/report/osu_console.hpp>
#include <parbench/report/overlap_console.hpp>
#include <parbench/report/output_file.hpp>
#include <parbench/report/run_context.hpp>
#include <parbench/report/stability.hpp>
#if __has_include(<parbench/report/paw.hpp>)
#include <parbench/report/paw.hpp>
#define PARBENCH_HAVE_PAW_REPORTER 1
#endif

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <set>
#include <string>
#include <thread>
#include <vector>

#ifndef PARBENCH_VERSION
#define PARBENCH_VERSION "0.0.0"
#endif
#ifndef PARBENCH_BUILD_ROOT
#define PARBENCH_BUILD_ROOT ""
#endif
#ifndef PARBENCH_PLUGINDIR
#define PARBENCH_PLUGINDIR ""
#endif
#ifndef PARBENCH_DATADIR
#define PARBENCH_DATADIR ""
#endif
#ifndef PARBENCH_SOURCE_ROOT
#define PARBENCH_SOURCE_ROOT ""
#endif
#ifndef PARBENCH_PYTHON
#define PARBENCH_PYTHON "python3"
#endif

namespace {

namespace fs = std::filesystem;
using parbench::plugin::loaded_plugin;
using parbench::plugin::plugin_error;
using parbench::plugin::registry;
using parbench::app::printable;
using parbench::app::quote_value;
using parbench::report::output_error;

constexpr int exit_ok = 0;
constexpr int exit_failure = 1;
constexpr int exit_bad_input = 2;
constexpr int exit_time_limit = 3;
constexpr int exit_output_error = 4;

// Every line parbench prints about a problem: escaped (one line, no terminal control).
void print_error(std::string_view message) {
    std::cerr << "parbench: error: " << printable(message) << std::endl;
}
void print_warning(std::string_view message) {
    std::cerr << "parbench: warning: " << printable(message) << '\n';
}

// A message for the user: "parbench: error: ..." and the exit status that goes with it.
struct driver_exit {
    int status;
    std::string message;
};

// The rank the MPI launcher gave this process, before any MPI is initialised; 0 when there is
// no launcher. Decides who prints errors found before the MPI plugin runs.
int launcher_rank() {
    for (const char* name : {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK"})
        if (const char* value = std::getenv(name)) return std::atoi(value);
    return 0;
}

bool launched_by_mpi_launcher() {
    for (const char* name :
         {"PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS"})
        if (std::getenv(name) != nullptr) return true;
    return false;
}


fs::path executable_path(const char* argv0) {
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) return self;
    return fs::path(argv0 != nullptr ? argv0 : "parbench");
}

// The common options of `run` (without dashes) and whether each takes a value.
const std::map<std::string, bool>& common_options() {
    static const std::map<std::string, bool> options = {
        {"json", true},  {"csv", true},   {"timeout", true}, {"check", false},
        {"plugin-path", true}, {"dat-dir", true}, {"quiet", false}, {"progress", true},
        {"mpi", true},
        {"help", false}, {"h", false}};
    return options;
}

// --plugin-path values are needed before CLI11 runs (to find the suite's parameters); CLI11
// parses and validates them again afterwards.
std::vector<std::string> prescan_plugin_paths(const std::vector<std::string>& args) {
    std::vector<std::string> paths;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        for (const std::string prefix : {"--plugin-path", "-plugin-path"}) {
            if (a == prefix && i + 1 < args.size()) paths.push_back(args[i + 1]);
            if (a.rfind(prefix + "=", 0) == 0) paths.push_back(a.substr(prefix.size() + 1));
        }
    }
    return paths;
}

// The suite named after `run`: the first word that is neither an option nor a common option's
// value. Suite options may only follow it (their arities are unknown until it is found).
std::string prescan_suite(const std::vector<std::string>& args, std::size_t run_index) {
    for (std::size_t i = run_index + 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.empty() || a[0] != '-') return a;
        std::string name = a.substr(a[1] == '-' ? 2 : 1);
        if (name.find('=') != std::string::npos) continue;
        auto it = common_options().find(name);
        if (it != common_options().end() && it->second) ++i;
    }
    return {};
}

// IMB spells its long options with one dash (-msglog 0:20), OSU its one-letter ones (-m 1:8,
// -W 64). CLI11 wants two: rewrite -name to --name (and -name=value to --name=value) when `name`
// is an option of the suite or a common one. Everything else (values such as "-1", unknown
// words) is left for CLI11 to judge.
std::vector<std::string> rewrite_single_dash(const std::vector<std::string>& args,
                                             const std::set<std::string>& names) {
    std::vector<std::string> out;
    for (const auto& a : args) {
        if (a.size() >= 2 && a[0] == '-' && a[1] != '-') {
            const std::string body = a.substr(1);
            const std::string name = body.substr(0, body.find('='));
            if (name == "help") {
                out.push_back("--help");
                continue;
            }
            if (names.contains(name)) {
                out.push_back("-" + a);
                continue;
            }
        }
        out.push_back(a);
    }
    return out;
}

nlohmann::json plugin_summary(const loaded_plugin& p) {
    std::string info = p.backend_info();
    return {{"name", std::string(p.name())},
            {"version", std::string(p.version())},
            {"file", p.path().string()},
            {"backend_info", info}};
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

registry discover(const char* argv0, const std::vector<std::string>& extra_dirs) {
    const auto where = parbench::plugin::search_path::standard(
        executable_path(argv0), PARBENCH_BUILD_ROOT, PARBENCH_PLUGINDIR,
        std::getenv("PARBENCH_PLUGIN_PATH"), extra_dirs);
    return registry::discover(where);
}

// ---- parbench list -------------------------------------------------------------------------

int list_plugins(registry& found) {
    for (const auto& p : found.load_all()) {
        const auto& d = p.descriptor();
        std::cout << "plugin " << p.name() << ' ' << p.version() << "  (" << p.path().string()
                  << ")\n";
        const std::string info = first_line(p.backend_info());
        if (!info.empty()) std::cout << "  " << info << '\n';
        for (std::size_t s = 0; s < d.suite_count; ++s) {
            const parbench_suite& suite = d.suites[s];
            std::cout << "  suite " << suite.name;
            if (suite.description != nullptr) std::cout << " - " << suite.description;
            if ((suite.flags & PARBENCH_SUITE_NEEDS_MPI) != 0u) std::cout << " [needs MPI]";
            std::cout << '\n';
            std::size_t width = 4;
            for (std::size_t b = 0; b < suite.benchmark_count; ++b)
                width = std::max(width, std::string_view(suite.benchmarks[b].name).size());
            for (std::size_t b = 0; b < suite.benchmark_count; ++b) {
                const parbench_benchmark& bench = suite.benchmarks[b];
                if ((bench.flags & PARBENCH_BENCH_TEST_ONLY) != 0u) continue;
                const bool by_default = (bench.flags & PARBENCH_BENCH_DEFAULT) != 0u;
                std::cout << fmt::format("    {:<{}}  {:<17}  {:<11}  {}\n", bench.name, width,
                                         bench.klass, by_default ? "default" : "non-default",
                                         bench.description != nullptr ? bench.description : "");
            }
        }
    }
    const std::vector<std::string> offered = found.known_suites();
    for (const auto& u : parbench::app::unavailable_suites()) {
        if (std::find(offered.begin(), offered.end(), u.suite) != offered.end())
            continue;  // another build of the plugin was found on the search path
        std::cout << "suite " << u.suite << " - unavailable: " << u.plugin << " was not built: "
                  << u.reason << '\n';
    }
    for (const auto& s : found.shadowed())
        std::cout << "shadowed: " << s.file.string() << " (plugin '" << s.name
                  << "' is already provided by " << s.winner.string() << ")\n";
    if (found.plugins().empty()) std::cout << "no plugins found\n";
    for (const auto& problem : found.problems())
        print_error(problem.message);
    return found.problems().empty() ? exit_ok : exit_failure;
}

// ---- parbench run --------------------------------------------------------------------------

// Everything the host callbacks need; host->context points here.
class run_session {
public:
    run_session(bool render, bool quiet, bool progress_line, fs::path dat_dir)
        : render_(render), quiet_(quiet), progress_line_(progress_line),
          dat_dir_(std::move(dat_dir)) {}

    void set_rank(int rank) { rank_ = rank; }
    void set_driver_context(nlohmann::json context) { driver_context_ = std::move(context); }

    void add_file_reporter(std::unique_ptr<parbench::report::reporter> r) {
        files_.push_back(std::move(r));
    }
    parbench::report::json_reporter* json = nullptr;

    // Called (with the message) when a file cannot be written during the run; it ends the run.
    void on_output_error(std::function<void(const std::string&)> handler) {
        output_failed_ = std::move(handler);
    }

    void emit(const char* text) {
        nlohmann::json event;
        try {
            event = nlohmann::json::parse(text);
        } catch (const std::exception&) {
            warn_locally("a plugin emitted an event that is not JSON");
            return;
        }
        const std::string kind = event.value("event", std::string{});
        std::lock_guard lock(mutex_);
        // Once the files are completed (end()), the run is stopping: a result the plugin still
        // sends is dropped, not written to a closed file (which would report a second error).
        if (ended_) return;
        try {
            render(kind, event);
        } catch (const output_error& e) {
            if (!output_failed_) throw;
            output_failed_(e.what());
        }
    }

private:
    void render(const std::string& kind, const nlohmann::json& event) {
        if (kind == "warning") {
            const std::string message = event.value("message", std::string{});
            if (rank_ == 0) {
                warn_everywhere(message);
            } else {
                std::cerr << "parbench: warning (rank " << rank_ << "): " << printable(message)
                          << '\n';
            }
            return;
        }
        if (rank_ != 0) return;
        if (kind == "run_start") {
            started_ = true;
            const auto start = event.get<parbench::run_start>();
            run_files_ = parbench::app::run_file_directory(start.header);
            timer_ = parbench::report::timer_limits::from_context(start.context);
            make_console(start.layout);
            for_each([&](auto& r) { r.on_run_start(start, driver_context_); });
        } else if (kind == "result") {
            if (!console_) make_console("imb");
            const auto record = event.get<parbench::result_record>();
            stability_.add(parbench::report::assess_stability(record, timer_));
            clear_progress_line();
            for_each([&](auto& r) { r.on_result(record); });
            ++results_;
        }
    }

public:
    void progress(const char* benchmark, std::uint64_t bytes, int processes) {
        const parbench::app::measurement now{benchmark != nullptr ? benchmark : "?", bytes,
                                             processes};
        if (watchdog_ != nullptr) watchdog_->arm(now);
        std::lock_guard lock(mutex_);
        current_ = now;
        if (rank_ == 0 && !quiet_ && progress_line_) {
            std::cerr << "\r\x1b[K[parbench] " << parbench::app::describe(now) << std::flush;
            progress_shown_ = true;
        }
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
                } catch (const output_error& e) {
                    first_error = e.what();
                }
            }
        }
        for_each([&](auto& r) {
            try {
                r.on_run_end(completed);
            } catch (const output_error& e) {
                if (first_error.empty()) first_error = e.what();
            }
        });
        // The plugin removed them itself unless the run is being stopped (run_files.hpp).
        parbench::app::remove_run_files(run_files_);
        return first_error;
    }

    void attach_watchdog(parbench::app::watchdog* w) { watchdog_ = w; }

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
                } catch (const output_error& e) {
                    if (output_failed_) output_failed_(e.what());
                }
            }
        });
    }

    // What the plugin said it measures now ("" before the first measurement).
    [[nodiscard]] parbench::app::measurement current() {
        std::lock_guard lock(mutex_);
        return current_;
    }

private:
    static bool stdout_and_stderr_share_a_terminal() {
        if (::isatty(STDOUT_FILENO) == 0 || ::isatty(STDERR_FILENO) == 0) return false;
        const auto name_of = [](int fd) {  // ttyname() reuses one static buffer: copy at once
            const char* name = ::ttyname(fd);
            return std::string(name != nullptr ? name : "");
        };
        return name_of(STDOUT_FILENO) == name_of(STDERR_FILENO);
    }

    void warn_locally(const std::string& message) { print_warning(message); }

    // The console reporter prints warnings in its output; echo them on stderr too unless both
    // streams are the same terminal (the user would read them twice).
    void warn_everywhere(const std::string& message) {
        if (!console_ || !stdout_and_stderr_share_a_terminal()) warn_locally(message);
        for_each([&](auto& r) { r.on_warning(message); });
    }

    void make_console(const std::string& layout) {
        if (!render_ || quiet_ || console_) return;
#ifdef PARBENCH_HAVE_PAW_REPORTER
        if (layout == "paw") {
            console_ = std::make_unique<parbench::report::paw_reporter>(std::cout, dat_dir_);
            return;
        }
#endif
        if (layout == "caf") {
            console_ = std::make_unique<parbench::report::caf_console_reporter>(std::cout);
            return;
        }
        if (layout == "osu") {
            console_ = std::make_unique<parbench::report::osu_console_reporter>(std::cout);
            return;
        }
        if (layout == "overlap") {
            console_ = std::make_unique<parbench::report::overlap_console_reporter>(std::cout);
            return;
        }
        if (layout == "imb-nbc") {
            console_ = std::make_unique<parbench::report::imb_nbc_console_reporter>(std::cout);
            return;
        }
        console_ = std::make_unique<parbench::report::imb_console_reporter>(std::cout);
    }

    template <class Fn>
    void for_each(Fn&& fn) {
        if (console_) fn(*console_);
        for (auto& r : files_) fn(*r);
    }

    void clear_progress_line() {
        if (progress_shown_) std::cerr << "\r\x1b[K" << std::flush;
        progress_shown_ = false;
    }

    bool render_;
    bool quiet_;
    bool progress_line_;
    fs::path dat_dir_;
    int rank_ = 0;
    nlohmann::json driver_context_;
    std::unique_ptr<parbench::report::reporter> console_;
    std::vector<std::unique_ptr<parbench::report::reporter>> files_;
    parbench::app::watchdog* watchdog_ = nullptr;
    std::function<void(const std::string&)> output_failed_;
    std::recursive_mutex mutex_;
    bool started_ = false;
    bool ended_ = false;
    bool progress_shown_ = false;
    std::size_t results_ = 0;
    parbench::report::timer_limits timer_;       // of the run context, for stability verdicts
    parbench::report::stability_tally stability_;  // the one warning about unstable rows
    parbench::app::measurement current_;
    std::string run_files_;  // the plugin's directory for the run's files, removed at the end
    std::jthread flusher_;  // last: stopped and joined before anything it uses is destroyed
};

// Ends a run that is being stopped (time limit, interrupt, output error): `finishing` — rank 0's
// session, null elsewhere — completes its files, then `message` (if any) is printed and every
// process stops with `status`. Files first: after SIGHUP the terminal (or mpiexec, the reader of
// stderr) may be gone, and a write to it must neither kill this process (SIGPIPE, ignored from
// here on) nor come before the files are complete.
[[noreturn]] void stop_run(run_session* finishing, const parbench_comm_service* comm, int status,
                           const std::string& message = {}) {
    std::signal(SIGPIPE, SIG_IGN);
    if (finishing != nullptr) {
        try {
            (void)finishing->end(false);  // a file that fails now was reported when it failed
        } catch (...) {  // the files already hold every finished record
        }
    }
    if (!message.empty()) print_error(message);
    std::cout.flush();
    if (comm != nullptr && comm->abort != nullptr) {
        // The launcher forwards our stderr through a pipe and tears the job down on an abort;
        // aborting at once sometimes lost the line just written (seen with MPICH's hydra:
        // status 4, no message). A moment for the launcher to read it first.
        if (!message.empty() && comm->size != nullptr && comm->size() > 1)
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        comm->abort(status);
    }
    std::_Exit(status);
}

extern "C" void host_emit(void* context, const char* event_json) {
    try {
        static_cast<run_session*>(context)->emit(event_json);
    } catch (const std::exception& e) {
        print_warning(std::string("cannot handle an event: ") + e.what());
    }
}

extern "C" void host_progress(void* context, const char* benchmark, std::uint64_t bytes,
                              int processes) {
    try {
        static_cast<run_session*>(context)->progress(benchmark, bytes, processes);
    } catch (...) {  // progress display is best effort; the run goes on
    }
}

// --timeout SECONDS: a number, 0 (no limit) or positive, at most a year.
double parse_timeout(const std::string& text) {
    const auto fail = [&](const std::string& why) {
        return driver_exit{exit_bad_input, "--timeout " + quote_value(text) + ": " + why};
    };
    if (text.empty()) throw fail("empty value; expected seconds (0: no limit)");
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || std::isnan(value))
        throw fail("not a number of seconds (0: no limit)");
    if (value < 0.0) throw fail("must be zero (no limit) or positive");
    constexpr double longest_s = 366.0 * 24 * 3600;
    if (errno == ERANGE || !std::isfinite(value) || value > longest_s)
        throw fail(fmt::format("out of range (at most {:g} s)", longest_s));
    return value;
}

// Rank 0 checks the output paths and opens the files (`open_outputs`); every process learns the
// verdict through the communication service, so that a bad path ends the run on every rank at
// once (rank 0 leaving alone would leave the others waiting in a collective). "" when all is well.
std::string agree_on_outputs(const parbench_comm_service* comm, int rank,
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
    if (comm != nullptr && comm->size() > 1) {
        std::array<char, 2048> verdict{};
        message.copy(verdict.data(), verdict.size() - 1);
        comm->broadcast(verdict.data(), verdict.size(), 0);
        message = verdict.data();
    }
    return message;
}

const char* signal_name(int signo) {
    switch (signo) {
        case SIGHUP: return "SIGHUP";
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        default: return "a signal";
    }
}

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
};

int run_suite(int argc, char** argv, registry& found, const run_options& o,
              std::map<std::string, nlohmann::json> suite_options) {
    loaded_plugin* suite_plugin = found.plugin_for_suite(o.suite, o.benchmarks);
    if (suite_plugin == nullptr)  // e.g. `parbench run ''`, which the prescan passes over
        throw driver_exit{exit_bad_input,
                          "unknown suite " + quote_value(o.suite) + " (see parbench list)"};
    const parbench_suite* suite = suite_plugin->find_suite(o.suite);

    // Benchmark names are checked against the suite's list (case-insensitively, as IMB does;
    // with IMB's "Multi-" prefix where the suite takes it).
    for (const auto& name : o.benchmarks) {
        const bool multi_names = (suite->flags & PARBENCH_SUITE_MULTI_NAMES) != 0;
        const std::string bare = multi_names && parbench::lowercase(name).rfind("multi-", 0) == 0
                                     ? name.substr(6)
                                     : name;
        bool known = false;
        for (std::size_t b = 0; b < suite->benchmark_count && !known; ++b)
            known = parbench::same_name(suite->benchmarks[b].name, bare);
        if (!known)
            throw driver_exit{exit_bad_input, "unknown benchmark '" + name + "' in suite '" +
                                                  o.suite + "' (see parbench list)"};
    }
    // What every process can judge alone, before MPI starts (all of them reach the same answer;
    // the launcher's rank 0 prints it). The file system is asked later, by rank 0 for all.
    if (o.json_given && o.json_file.empty())
        throw driver_exit{exit_bad_input, "--json '': empty file name"};
    if (o.csv_given && o.csv_file.empty())
        throw driver_exit{exit_bad_input, "--csv '': empty file name"};
    if (o.dat_dir_given && o.dat_dir.empty())
        throw driver_exit{exit_bad_input, "--dat-dir '': empty directory name"};

    const bool suite_needs_mpi = (suite->flags & PARBENCH_SUITE_NEEDS_MPI) != 0u;
    if (suite_needs_mpi && o.mpi == "off")
        throw driver_exit{exit_bad_input,
                          "suite '" + o.suite + "' needs MPI, which --mpi off excludes"};
    const bool want_mpi = o.mpi == "on" || suite_needs_mpi ||
                          (o.mpi == "auto" && launched_by_mpi_launcher());
    loaded_plugin* comm_plugin = want_mpi ? found.comm_provider() : nullptr;
    if (want_mpi && comm_plugin == nullptr && (suite_needs_mpi || o.mpi == "on"))
        throw driver_exit{exit_failure, "suite '" + o.suite +
                                            "' needs the MPI plugin (parbench_mpi.so), which was "
                                            "not found (see parbench list)"};
    if (suite_plugin->offers_comm() && o.mpi != "off") comm_plugin = suite_plugin;

    // Only the plugins this run needs were ever loaded into this process (see registry).

    std::string thread_level;
    if (auto it = suite_options.find("thread_level");
        it != suite_options.end() && it->second.is_string())
        thread_level = it->second.get<std::string>();
    // MPI_Init_thread happens in the plugin's init, before the suite sees its options: a bad
    // level is judged here, so that it is one "bad input" line rather than a failed init on
    // every rank.
    if (!thread_level.empty()) {
        static const std::set<std::string> levels = {"single", "funneled", "serialized",
                                                     "multiple"};
        if (!levels.contains(thread_level))
            throw driver_exit{exit_bad_input,
                              "-thread_level " + quote_value(thread_level) +
                                  ": expected one of single, funneled, serialized, multiple"};
    }

    // Ctrl-C and kill end the run as the time limit does: rank 0 names what was being measured,
    // completes the files and stops every process. Installed before MPI starts threads, so that
    // they inherit the blocked signals; the session and the communication service are known to
    // the handler once they exist.
    std::atomic<run_session*> interrupt_session{nullptr};
    std::atomic<const parbench_comm_service*> interrupt_comm{nullptr};
    const int process_rank = launcher_rank();
    const parbench::app::interrupt_guard interrupts([&](int signo) {
        run_session* s = interrupt_session.load();
        std::string message;
        if (process_rank == 0) {
            const auto what = s != nullptr ? s->current() : parbench::app::measurement{};
            message = std::string("interrupted by ") + signal_name(signo) +
                      (what.benchmark.empty() ? "" : " during " + parbench::app::describe(what)) +
                      "; stopped";
        } else {
            // The launcher signals every process; rank 0's abort should end this one while it
            // completes the files. Only if it does not: stop alone.
            std::this_thread::sleep_for(std::chrono::seconds(3));
        }
        stop_run(process_rank == 0 ? s : nullptr, interrupt_comm.load(), 128 + signo, message);
    });

    const parbench_comm_service* comm = nullptr;
    if (comm_plugin != nullptr) {
        comm_plugin->promote_global();
        parbench_init_args args{};
        args.struct_size = sizeof args;
        args.argc = &argc;
        args.argv = &argv;
        args.thread_level = thread_level.empty() ? nullptr : thread_level.c_str();
        comm_plugin->init(args);  // throws plugin_error: "<file>: init failed: ..."
        comm = comm_plugin->comm();
        interrupt_comm = comm;
    }
    if (suite_plugin != comm_plugin) {
        // The real argc/argv: a runtime started here (the coarray plugin's) reads them as well.
        parbench_init_args args{};
        args.struct_size = sizeof args;
        args.argc = &argc;
        args.argv = &argv;
        args.thread_level = thread_level.empty() ? nullptr : thread_level.c_str();
        args.comm = comm;
        suite_plugin->init(args);
    }
    const int rank = comm != nullptr ? comm->rank() : 0;
    const int processes = comm != nullptr ? comm->size() : 1;

    parbench::run_request request;
    request.suite = o.suite;
    request.benchmarks = o.benchmarks;
    request.options = std::move(suite_options);
    request.check = o.check;
    request.calling_sequence = parbench::report::calling_sequence(argc, argv);

    nlohmann::json driver_context = parbench::report::run_context(argc, argv);
    driver_context["suite"] = o.suite;
    driver_context["requested_benchmarks"] = o.benchmarks;
    driver_context["options"] = request.options;
    driver_context["check"] = o.check;
    driver_context["timeout_s"] = o.timeout_s;
    driver_context["processes"] = processes;
    driver_context["plugins"] = nlohmann::json::array();
    for (const auto& p : found.plugins()) driver_context["plugins"].push_back(plugin_summary(p));

    run_session session(rank == 0, o.quiet,
                        rank == 0 && parbench::app::progress_line_wanted(
                                         o.progress, launched_by_mpi_launcher()),
                        o.dat_dir);
    session.set_rank(rank);
    session.set_driver_context(driver_context);
    const std::string output_problem = agree_on_outputs(comm, rank, [&] {
        using namespace parbench::report;
        std::vector<output_path> files;
        if (o.json_given) files.push_back(check_output_file("--json", o.json_file));
        if (o.csv_given) files.push_back(check_output_file("--csv", o.csv_file));
        check_distinct(files);
        // PAW writes .dat files into --dat-dir ("." unless given): checked when it will be used.
        if (o.dat_dir_given || o.suite == "paw")
            (void)check_output_directory("--dat-dir", o.dat_dir);
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
        if (suite_plugin != comm_plugin) suite_plugin->finalize();
        if (comm_plugin != nullptr) comm_plugin->finalize();
        throw driver_exit{exit_bad_input, output_problem};
    }
    // A file that cannot be written during the run ends the run at once, on every process.
    session.on_output_error([&session, comm](const std::string& problem) {
        stop_run(&session, comm, exit_output_error, problem + "; stopped");
    });
    session.start_flushing();

    // The time limit: rank 0 reports and stops the run; the other ranks fire a little later so
    // that rank 0's message is the one printed.
    const double timeout_s = o.timeout_s;
    parbench::app::watchdog guard(
        std::chrono::duration<double>(timeout_s),
        std::chrono::duration<double>(rank == 0 ? 0.0 : 3.0),
        [&session, comm, rank, timeout_s](const parbench::app::measurement& m) {
            stop_run(rank == 0 ? &session : nullptr, comm, exit_time_limit,
                     rank == 0 ? fmt::format("time limit: benchmark {} did not finish within "
                                             "{:g} s; stopped",
                                             parbench::app::describe(m), timeout_s)
                               : std::string{});
        });
    session.attach_watchdog(&guard);
    interrupt_session = &session;
    struct forget_session {  // declared after session: runs before it is destroyed
        std::atomic<run_session*>& target;
        ~forget_session() { target = nullptr; }
    } forget{interrupt_session};

    parbench_host host{};
    host.struct_size = sizeof host;
    host.context = &session;
    host.emit = host_emit;
    host.progress = host_progress;
    host.comm = comm;

    // Arguments may be any bytes; invalid UTF-8 reaches the plugin as U+FFFD (which it rejects
    // with its own message) instead of failing the serialisation.
    const std::string request_json =
        nlohmann::json(request).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    char message[2048] = {};
    const parbench_status status =
        suite_plugin->descriptor().run(request_json.c_str(), &host, message, sizeof message);
    guard.stop();
    const std::string end_problem = session.end(status == PARBENCH_OK);

    if (status == PARBENCH_ERROR) {
        print_error((rank != 0 ? fmt::format("(rank {}) ", rank) : std::string{}) +
                    (message[0] != '\0' ? message : "the plugin failed without a message"));
        // Other ranks may be waiting in a collective: only an abort ends them reliably.
        if (comm != nullptr && processes > 1 && comm->abort != nullptr) comm->abort(exit_failure);
    }
    if (status == PARBENCH_BAD_INPUT && rank == 0) print_error(message);
    if (!end_problem.empty()) {  // only rank 0 writes files; the others are finishing
        print_error(end_problem);
        if (comm != nullptr && processes > 1 && comm->abort != nullptr)
            comm->abort(exit_output_error);
        return exit_output_error;
    }

    if (suite_plugin != comm_plugin) suite_plugin->finalize();
    if (comm_plugin != nullptr) comm_plugin->finalize();
    switch (status) {
        case PARBENCH_OK: return exit_ok;
        case PARBENCH_BAD_INPUT: return exit_bad_input;
        default: return exit_failure;
    }
}

int main_impl(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    const auto run_it = std::find(args.begin(), args.end(), "run");
    const bool is_run = run_it != args.end();
    const auto extra_dirs = prescan_plugin_paths(args);

    CLI::App app{"parbench — HPC micro-benchmarks (IMB, PAW, ...) with one driver", "parbench"};
    app.set_version_flag("--version", "parbench " PARBENCH_VERSION);
    app.require_subcommand(1);
    std::vector<std::string> top_plugin_paths;

    CLI::App* list = app.add_subcommand("list", "List plugins, suites and benchmarks");
    // One DIR per --plugin-path (a vector option would swallow the benchmark names after it).
    list->add_option("--plugin-path", top_plugin_paths, "Also search DIR for plugins")
        ->type_name("DIR")
        ->allow_extra_args(false);

    CLI::App* run = app.add_subcommand(
        "run", "Run a suite: parbench run SUITE [BENCHMARK...] [options]");
    run_options o;
    run->add_option("suite", o.suite, "Suite to run (see parbench list)")->required();
    run->add_option("benchmarks", o.benchmarks, "Benchmarks to run (default: the suite's)");
    CLI::Option* json_option =
        run->add_option("--json", o.json_file, "Write results as JSON (Google Benchmark layout)")
            ->type_name("FILE");
    CLI::Option* csv_option =
        run->add_option("--csv", o.csv_file, "Write results as CSV")->type_name("FILE");
    std::string timeout_text;  // parsed by parse_timeout: one message for every bad value
    CLI::Option* timeout_option =
        run->add_option("--timeout", timeout_text,
                        "Per-measurement time limit in seconds (0: none)")
            ->default_str("300")
            ->type_name("SECONDS");
    run->add_flag("--check", o.check, "Validate transferred data (IMB -check)");
    run->add_option("--plugin-path", o.plugin_paths, "Also search DIR for plugins")
        ->type_name("DIR")
        ->allow_extra_args(false);
    CLI::Option* dat_dir_option =
        run->add_option("--dat-dir", o.dat_dir, "Directory for PAW .dat files")
            ->capture_default_str()
            ->type_name("DIR");
    run->add_flag("--quiet", o.quiet, "No console tables (files only)");
    run->add_option("--progress", o.progress,
                    "Progress line on stderr: auto (when it reaches a terminal, also through "
                    "mpiexec), on or off")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "on", "off"}));
    run->add_option("--mpi", o.mpi, "Load the MPI plugin: auto, on or off")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "on", "off"}));

    parbench::app::compare_options compare_o;
    CLI::App* compare = parbench::app::add_compare_command(app, compare_o);
    parbench::app::plot_options plot_o;
    CLI::App* plot = parbench::app::add_plot_command(app, plot_o);

    registry found = discover(argv[0], extra_dirs);

    // The suite's own options become CLI11 options, so CLI11 does all the parsing.
    std::set<std::string> rewrite_names;
    for (const auto& [name, takes_value] : common_options()) {
        (void)takes_value;
        if (name != "h") rewrite_names.insert(name);
    }
    std::map<std::string, std::string> one_values;
    std::map<std::string, std::vector<std::string>> list_values;
    std::map<std::string, bool> flag_values;
    std::map<std::string, CLI::Option*> suite_option_handles;
    std::vector<std::string> parse_args = args;
    std::string suite_name;
    if (is_run) {
        suite_name = prescan_suite(args, static_cast<std::size_t>(run_it - args.begin()));
        if (!suite_name.empty()) {
            const std::vector<std::string> words(run_it + 1, args.end());
            loaded_plugin* p = found.plugin_for_suite(suite_name, words);
            if (p == nullptr) {
                for (const auto& problem : found.problems())
                    print_warning(problem.message);
                for (const auto& u : parbench::app::unavailable_suites())
                    if (u.suite == suite_name)
                        throw driver_exit{exit_failure, "suite '" + suite_name +
                                                            "' is unavailable: " + u.plugin +
                                                            " was not built: " + u.reason};
                std::string known;
                for (const auto& name : found.known_suites())
                    known += (known.empty() ? "" : ", ") + name;
                throw driver_exit{exit_bad_input,
                                  "unknown suite '" + suite_name + "' (available: " +
                                      (known.empty() ? std::string("none") : known) + ")"};
            }
            const parbench_suite* suite = p->find_suite(suite_name);
            for (std::size_t i = 0; i < suite->parameter_count; ++i) {
                const parbench_parameter& param = suite->parameters[i];
                const std::string name = param.name;
                rewrite_names.insert(name);
                if (common_options().contains(name)) continue;  // -check is a common option
                const std::string flag = "--" + name;
                const std::string description =
                    std::string(param.description != nullptr ? param.description : "") +
                    (param.default_text != nullptr
                         ? std::string(" (default: ") + param.default_text + ")"
                         : std::string{});
                CLI::Option* option = nullptr;
                switch (param.arity) {
                    case PARBENCH_ARITY_FLAG:
                        option = run->add_flag(flag, flag_values[name], description);
                        break;
                    case PARBENCH_ARITY_ONE:
                        // CLI11 would take a following option as the value; say what is missing.
                        option = run->add_option(flag, one_values[name], description)
                                     ->check(CLI::Validator(
                                         [name](const std::string& value) {
                                             return value.starts_with("--")
                                                        ? "-" + name + " needs a value"
                                                        : std::string{};
                                         },
                                         "", "value"));
                        break;
                    default:
                        option = run->add_option(flag, list_values[name], description)
                                     ->expected(0, -1)
                                     ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
                        break;
                }
                if (param.metavar != nullptr && param.arity != PARBENCH_ARITY_FLAG)
                    option->type_name(param.metavar);
                option->group(std::string("Options of suite ") + suite_name);
                suite_option_handles[name] = option;
            }
        }
        parse_args = rewrite_single_dash(args, rewrite_names);
    }

    std::vector<std::string> reversed(parse_args.rbegin(), parse_args.rend());
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        throw driver_exit{exit_bad_input, e.what()};
    }

    // A plugin directory that is not there is a mistake worth a word, not a silent no-op.
    for (const auto& dir : extra_dirs) {
        std::error_code ec;
        const auto kind = fs::status(dir, ec).type();
        if (dir.empty() || kind == fs::file_type::not_found)
            throw driver_exit{exit_bad_input,
                              "--plugin-path " + quote_value(dir) + ": no such directory"};
        if (kind != fs::file_type::directory)
            throw driver_exit{exit_bad_input,
                              "--plugin-path " + quote_value(dir) + ": not a directory"};
    }

    if (compare->parsed()) return parbench::app::run_compare(compare_o, std::cout, std::cerr);
    if (plot->parsed())
        parbench::app::exec_plot(plot_o,
                                 parbench::app::find_plot_script(executable_path(argv[0]),
                                                                 PARBENCH_DATADIR,
                                                                 PARBENCH_BUILD_ROOT,
                                                                 PARBENCH_SOURCE_ROOT),
                                 PARBENCH_PYTHON);

    if (list->parsed()) {
        return list_plugins(found);  // --plugin-path was taken into account by the prescan
    }

    o.json_given = json_option->count() > 0;
    o.csv_given = csv_option->count() > 0;
    o.dat_dir_given = dat_dir_option->count() > 0;
    if (timeout_option->count() > 0) o.timeout_s = parse_timeout(timeout_text);

    std::map<std::string, nlohmann::json> suite_options;
    for (const auto& [name, option] : suite_option_handles) {
        if (option->count() == 0) continue;
        if (flag_values.contains(name))
            suite_options[name] = true;
        else if (one_values.contains(name))
            suite_options[name] = one_values[name];
        else
            suite_options[name] = list_values[name];
    }
    // A suite that declares "check" itself sees it among its options as well.
    if (o.check && rewrite_names.contains("check")) {
        loaded_plugin* p = found.plugin_for_suite(o.suite, o.benchmarks);
        const parbench_suite* suite = p->find_suite(o.suite);
        for (std::size_t i = 0; i < suite->parameter_count; ++i)
            if (std::string_view(suite->parameters[i].name) == "check") suite_options["check"] = true;
    }
    for (const auto& problem : found.problems())
        print_warning("ignoring " + problem.message);
    return run_suite(argc, argv, found, o, std::move(suite_options));
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return main_impl(argc, argv);
    } catch (const driver_exit& e) {
        if (launcher_rank() == 0) print_error(e.message);
        return e.status;
    } catch (const plugin_error& e) {
        print_error(e.what());
        return exit_failure;
    } catch (const parbench::input_error& e) {
        print_error(e.what());
        return exit_bad_input;
    } catch (const output_error& e) {
        print_error(e.what());
        return exit_output_error;
    } catch (const std::exception& e) {
        print_error(e.what());
        return exit_failure;
    }
}
