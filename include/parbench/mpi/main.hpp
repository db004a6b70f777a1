// The entry helper of a custom MPI benchmark program: the driver's common options, the warm-up,
// the run context and the reporters around a list of definitions, so that a program is its
// kernels and one call:
//
//   int main(int argc, char** argv) {
//       return parbench::mpi::main(argc, argv, {.suite = "example"},
//                                  parbench::mpi::benchmark<windowed_bandwidth>{"Windowed"});
//   }
//
// A definition is what the MPI plugin's suites are made of (parbench/mpi/definition.hpp,
// docs/writing-benchmarks.md): it derives from definition_defaults and has `descriptor` (a
// pattern), `layout(x, np)` (the message buffers of size x), `make_kernel(context)` (one
// iteration), and where it differs from most: `verify_check` (--check), and `traits` with
// `.unit` (sizes are multiples of it, sizeof(float) for float reductions) or `.has_bytes = false`
// (one row at 0 bytes).
//
// Options, as the driver's `parbench run`: -msglog [min:]max, -iter N (MSGSPERSAMPLE), -time S
// (seconds per size), --json FILE, --csv FILE, --timeout S (per measurement, 0: none), --check,
// --help. Rank 0 prints the IMB header and tables; the JSON and CSV files are the driver's formats
// (rows named suite/benchmark/np:Q/bytes:X). Bad input: one line and exit status 2; a measurement
// past --timeout: one line naming it, and the run is aborted with status 3. SIGINT, SIGTERM and
// SIGHUP, sent to any rank, end the run as the driver's (host/interrupt_guard.hpp): rank 0
// completes the JSON and CSV files, says what was being measured, and the run ends with status
// 128 + the signal.
#pragma once

#include <parbench/core/clock.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/options.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/host/interrupt_guard.hpp>
#include <parbench/host/launcher.hpp>
#include <parbench/host/run_verdict.hpp>
#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/progress_variables.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/mpi/sweep.hpp>
#include <parbench/report/csv.hpp>
#include <parbench/report/imb_console.hpp>
#include <parbench/report/json.hpp>
#include <parbench/report/run_context.hpp>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <csignal>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace parbench::mpi {

// One benchmark of the program: a definition under the name its rows carry.
template <class Def>
struct benchmark {
    std::string_view name;
};

// What names the program's rows and header.
struct program_info {
    std::string suite = "custom";  // JSON rows: suite/benchmark/np:Q/bytes:X
    std::string title{};           // the header's first line; default "parbench V, <suite>"
};

// The common options of a program, parsed from its command line.
struct program_options {
    msglog_range msglog{};
    policy::iterations::imb_volume iterations{};
    std::optional<std::string> json_file;
    std::optional<std::string> csv_file;
    double timeout_s = 300.0;  // per measurement; 0: no limit
    bool check = false;
    bool help = false;
    nlohmann::json given = nlohmann::json::object();  // as typed, for the run context
};

inline constexpr int exit_bad_input = 2;
inline constexpr int exit_time_limit = 3;
inline constexpr int exit_defects = 5;  // --check found defects (the driver's status too)

inline constexpr std::string_view program_usage =
    "options: -msglog [min:]max  -iter N  -time SECONDS  --json FILE  --csv FILE\n"
    "         --timeout SECONDS (0: none)  --check  --help";

// -time and --timeout: zero or positive seconds (0: IMB's default / no limit).
[[nodiscard]] inline double parse_seconds_option(std::string_view option, const std::string& text) {
    return parbench::parse_seconds(option, text, {.allow_zero = true, .quote_value = true});
}

// Parses the common options; throws input_error with one line naming the bad one.
[[nodiscard]] inline program_options parse_program_options(int argc, const char* const* argv) {
    program_options o;
    for (int k = 1; k < argc; ++k) {
        const std::string arg = argv[k];
        // One or two dashes, as the driver accepts IMB's -check and its own --check.
        const std::string name = arg.substr(arg.starts_with("--") ? 2 : arg.starts_with("-") ? 1 : 0);
        if (name == "help" || name == "h") {
            o.help = true;
            continue;
        }
        if (name == "check") {
            o.check = true;
            o.given["check"] = true;
            continue;
        }
        const bool takes_value = name == "msglog" || name == "iter" || name == "time" ||
                                 name == "json" || name == "csv" || name == "timeout";
        if (!arg.starts_with("-") || !takes_value)
            throw input_error("unknown option '" + arg + "' (accepted: -msglog, -iter, -time, " +
                              "--json, --csv, --timeout, --check, --help)");
        if (k + 1 >= argc) throw input_error(arg + ": missing value");
        const std::string value = argv[++k];
        o.given[name] = value;
        if (name == "msglog") {
            o.msglog = parse_msglog(value);
        } else if (name == "iter") {
            char* end = nullptr;
            errno = 0;
            const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
            if (value.empty() || value.front() == '-' || end != value.c_str() + value.size() ||
                n == 0 || errno == ERANGE)
                throw input_error(arg + " '" + value + "': expected a positive number of iterations");
            o.iterations.msgs_per_sample = n;
        } else if (name == "time") {
            o.iterations.secs_per_sample = parse_seconds_option(arg, value);
            if (o.iterations.secs_per_sample <= 0.0)
                throw input_error(arg + " '" + value + "': expected a positive number of seconds");
        } else if (name == "timeout") {
            o.timeout_s = parse_seconds_option(arg, value);
        } else if (name == "json") {
            o.json_file = value;
        } else {
            o.csv_file = value;
        }
    }
    return o;
}

// The per-measurement time limit: armed before each measurement; when one runs past it, rank 0
// prints which and aborts the job (other ranks a little later, so that rank 0's line is seen).
class measurement_deadline {
public:
    using clock = std::chrono::steady_clock;

    measurement_deadline(double limit_s, double grace_s) {
        if (limit_s <= 0.0) return;
        limit_ = std::chrono::duration_cast<clock::duration>(
            std::chrono::duration<double>(limit_s + grace_s));
        limit_s_ = limit_s;
        thread_ = std::thread([this] { watch(); });
    }
    measurement_deadline(const measurement_deadline&) = delete;
    measurement_deadline& operator=(const measurement_deadline&) = delete;
    ~measurement_deadline() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

    // What is being measured ("" before the first measurement), for the line of an interrupt.
    [[nodiscard]] std::string current() {
        std::lock_guard lock(mutex_);
        return what_;
    }

    void arm(std::string what) {
        std::lock_guard lock(mutex_);
        what_ = std::move(what);
        deadline_ = clock::now() + limit_;
        armed_ = true;
        wake_.notify_all();
    }

private:
    void watch() {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            if (!armed_) {
                wake_.wait(lock);
            } else if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ &&
                       !stopping_ && clock::now() >= deadline_) {
                std::fprintf(stderr, "time limit: benchmark %s did not finish within %g s; stopped\n",
                             what_.c_str(), limit_s_);
                std::fflush(stderr);
                MPI_Abort(MPI_COMM_WORLD, exit_time_limit);
            }
        }
    }

    clock::duration limit_{};
    double limit_s_ = 0.0;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::string what_;
    clock::time_point deadline_{};
    bool armed_ = false;
    bool stopping_ = false;
    std::thread thread_;
};

// The reporters of rank 0 and the context they print. The events come from the main thread, the
// end of an interrupted run from the interrupt guard's: once ended, nothing more is written.
struct program_output {
    nlohmann::json context;
    std::vector<std::unique_ptr<report::reporter>> reporters;

    void start(const run_start& s) {
        std::lock_guard lock(mutex);
        for (const auto& r : reporters) r->on_run_start(s, context);
    }
    void result(const result_record& given) {
        std::lock_guard lock(mutex);
        if (ended) return;
        result_record record = given;
        // As the driver's host does: under --check a row without defects was not verified.
        if (check && !record.defects) record.not_verified = true;
        ++rows;
        if (record.defects.value_or(0) > 0)
            defective.push_back(row_label(record.benchmark, record.has_bytes, record.bytes,
                                          record.block.processes));
        for (const auto& r : reporters) r->on_result(record);
    }
    void warning(const std::string& message) {
        std::lock_guard lock(mutex);
        if (ended) return;
        for (const auto& r : reporters) r->on_warning(message);
    }
    void end(bool completed) {
        std::lock_guard lock(mutex);
        if (ended) return;
        ended = true;
        for (const auto& r : reporters) r->on_run_end(completed);
    }

    std::mutex mutex;
    bool ended = false;
    bool check = false;
    std::size_t rows = 0;
    std::vector<std::string> defective;  // rows in which --check found defects
};

// The run_start of a program: IMB's header fields and the MPI context, as the imb-* suites give
// them (rank 0 only: it measures the clock).
[[nodiscard]] inline run_start program_run_start(const program_info& info,
                                                 const program_options& o,
                                                 const std::vector<std::string>& names,
                                                 const std::vector<std::uint64_t>& sizes,
                                                 int processes) {
    int thread_level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&thread_level);
    const auto clock = measure_clock(wtime_clock{});
    run_start s;
    s.suite = info.suite;
    s.layout = "imb";
    s.title = info.title.empty() ? std::string("parbench ") + version + ", " + info.suite
                                 : info.title;
    s.benchmarks = names;
    const auto [min_it, max_it] = std::minmax_element(sizes.begin(), sizes.end());
    s.header = {
        {"mpi_version", standard_version()},
        {"mpi_thread_environment", std::string(thread_level_name(thread_level))},
        {"lengths_user_defined", false},
        {"min_bytes", sizes.empty() ? 0 : *min_it},
        {"max_bytes", sizes.empty() ? 0 : *max_it},
        {"datatype", "MPI_BYTE"},
        {"reduction_datatype", "MPI_FLOAT"},
        {"reduction_op", "MPI_SUM"},
        {"benchmark_list", names},
        {"time_s", o.iterations.secs_per_sample},
        {"msglog", std::to_string(o.msglog.min_log) + ":" + std::to_string(o.msglog.max_log)},
        {"check", o.check},
        {"n_barr", 2},
        {"n_warmup", std::min(n_warmup, o.iterations.msgs_per_sample)},
    };
    s.context = {
        {"mpi_library", library_version()},
        {"processes", processes},
        {"thread_level", std::string(thread_level_name(thread_level))},
        {"timer", "MPI_Wtime"},
        {"message_buffers", "host memory"},
        {"timer_resolution_s", clock.resolution_s},
        {"timer_overhead_s", clock.overhead_s},
        {"options", o.given},
    };
    return s;
}

// The family of a custom program's definition for mpi::sweep(): the processes its pattern takes
// (a pair, or all), the -msglog sizes that are multiples of its unit, IMB's warm-up once, one
// measure() per size with the deadline armed for it, and a warning per skipped size.
template <class Def>
struct program_family {
    std::string_view name;
    const program_info& info;
    const program_options& opts;
    program_output* out;  // rank 0's files; nullptr elsewhere
    measurement_deadline& deadline;

    static constexpr bool has_bytes = Def::traits.has_bytes;

    struct count {
        session s;
        int processes = 0;
    };

    [[nodiscard]] std::array<int, 1> process_counts() const {
        int world = 1;
        MPI_Comm_size(MPI_COMM_WORLD, &world);
        const auto& descriptor = Def::descriptor;
        return {pattern::fixed_group_size(descriptor) ? pattern::min_processes(descriptor) : world};
    }
    [[nodiscard]] std::vector<std::uint64_t> sizes() const {
        std::vector<std::uint64_t> all{0};
        if constexpr (has_bytes) {
            all = imb_sizes(opts.msglog);
            std::erase_if(all, [](std::uint64_t x) { return x % Def::traits.unit != 0; });
        }
        return all;
    }
    [[nodiscard]] count open(int q) const { return {.s = session(MPI_COMM_WORLD, q), .processes = q}; }

    [[nodiscard]] std::string what(const count& c, std::uint64_t x) const {
        return std::string(name) + " (" + std::to_string(x) + " bytes, " +
               std::to_string(c.processes) + " processes)";
    }
    void progress(const count& c, std::uint64_t x) const { deadline.arm(what(c, x)); }

    // IMB's warm-up: untimed iterations at sizeof(float), under the deadline of its own size,
    // before the first size (whose deadline starts after it).
    void warm_up(const count& c, std::uint64_t first) const {
        const std::size_t small = has_bytes ? 4 : 0;
        const auto pairs = pattern::pairing_of(Def::descriptor);
        deadline.arm(what(c, small));
        const kernel_context warm = c.s.context(small, pairs);
        mpi::warm_up(c.s,
                     message_resource(Def::layout(small, c.processes), off_cache{},
                                      c.s.send_pool(), c.s.recv_pool()),
                     Def::make_kernel(warm), no_completion{},
                     std::min(n_warmup, opts.iterations.msgs_per_sample), small, pairs);
        deadline.arm(what(c, first));
    }

    [[nodiscard]] measurement measure(const count& c, std::uint64_t x) const {
        const auto bytes = static_cast<std::size_t>(x);
        measurement m = mpi::measure(
            c.s, measure_config{.pattern = Def::descriptor,
                                .labels = {.suite = info.suite,
                                           .benchmark = std::string(name),
                                           .has_bytes = has_bytes},
                                .bytes = x,
                                .resource = messages{.layout = Def::layout(bytes, c.processes)},
                                .kernel = Def::make_kernel(
                                    c.s.context(bytes, pattern::pairing_of(Def::descriptor))),
                                .plan = timing_plan<>{.iterations = opts.iterations,
                                                      .check = opts.check},
                                .check = typename Def::verify_check{}});
        // A skipped size has no records: its warning stands where they would.
        if (out != nullptr && m.skipped_need_bytes > 0)
            out->warning(std::string(name) + ": " + std::to_string(x) + " bytes skipped (" +
                         std::to_string(m.skipped_need_bytes) + " bytes of buffers per process)");
        if (out != nullptr && m.allocation_failed)
            out->warning(std::string(name) + ": " + std::to_string(x) +
                         " bytes skipped: a process could not allocate its buffers");
        return m;
    }
    void publish(const count& /*c*/, const result_record& r) const {
        if (out != nullptr) out->result(r);
    }
    void close(const count& /*c*/, const size_notes& /*notes*/) const {}
};

// Runs one definition through mpi::sweep() with program_family. Collective over MPI_COMM_WORLD.
template <class Def>
void run_definition(std::string_view name, const program_info& info, const program_options& o,
                    program_output* out, measurement_deadline& deadline) {
    static_assert(check_definition<Def>() && self_contained_definition<Def>);
    sweep(program_family<Def>{
        .name = name, .info = info, .opts = o, .out = out, .deadline = deadline});
}

// Runs the program's benchmarks with the common options of argv. Call it from main() with
// MPI not yet initialised (it owns MPI_Init/MPI_Finalize); returns the exit status.
template <class... Defs>
[[nodiscard]] int main(int argc, char** argv, const program_info& info,
                       const benchmark<Defs>&... benchmarks) {
    const std::string program = argc > 0 ? argv[0] : "benchmark";
    // The driver's signal path: installed before MPI starts threads (they inherit the blocked
    // signals); what it needs — the files, the deadline's measurement — is known to it once it
    // exists. Rank 0 completes the files, every rank that stops alone says so.
    std::atomic<program_output*> interrupted_output{nullptr};
    std::atomic<measurement_deadline*> interrupted_deadline{nullptr};
    const int this_rank = parbench::launcher_rank();
    interrupt_guard interrupts(
        [&](const interrupt& what) {
            if (program_output* out = interrupted_output.load()) {
                try {
                    out->end(false);
                } catch (...) {  // the files keep their last complete version
                }
            }
            measurement_deadline* deadline = interrupted_deadline.load();
            const std::string line = interrupt_message(
                what, deadline != nullptr ? deadline->current() : std::string{}, this_rank);
            std::signal(SIGPIPE, SIG_IGN);  // after a hangup nobody may read stderr any more
            std::fprintf(stderr, "%s: %s\n", program.c_str(), line.c_str());
            std::fflush(stderr);
            // No MPI_Abort: this runs on the guard's thread, and a program's MPI may be
            // initialised for one thread only (MPI_THREAD_SINGLE), where MPICH refuses it. The
            // launcher ends the other processes when this one exits without MPI_Finalize.
            std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the launcher reads
            std::_Exit(128 + what.signo);
        },
        this_rank, launched_by_mpi_launcher());
    std::optional<environment> env;
    try {
        check_progress_environment();  // MPICH would abort inside MPI_Init, wordlessly
        env.emplace(argc, argv);
    } catch (const input_error& e) {  // an environment value MPI_Init would choke on: every
        if (this_rank == 0)            // process judges alike, the launcher's rank 0 says it
            std::fprintf(stderr, "%s: %s\n", program.c_str(), e.what());
        return exit_bad_input;
    }
    int rank = 0;
    int world = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    if (world > 1)
        interrupts.join_run(rank, [](void* data, std::size_t bytes) {
            MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD);
        });
    const auto fail = [&](const std::string& message) {
        if (rank == 0) std::fprintf(stderr, "%s: %s\n", program.c_str(), message.c_str());
        return exit_bad_input;
    };
    program_options o;
    try {
        o = parse_program_options(argc, argv);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (o.help) {
        if (rank == 0) std::printf("usage: mpiexec -n P %s [options]\n%s\n", program.c_str(),
                                   std::string(program_usage).c_str());
        return 0;
    }
    const std::vector<std::string> names{std::string(benchmarks.name)...};
    // --check on benchmarks without a verify_check: refused when none has one, else named.
    std::string cannot_verify;
    ((cannot_verify += checks_data<typename Defs::verify_check>
                           ? std::string{}
                           : (cannot_verify.empty() ? "" : ", ") + std::string(benchmarks.name)),
     ...);
    const bool none_verifies = !(checks_data<typename Defs::verify_check> || ...);
    const bool several = cannot_verify.find(", ") != std::string::npos;
    if (o.check && none_verifies)
        return fail("--check: " + cannot_verify + (several ? " have" : " has") +
                    " no data verification (no verify_check in " +
                    (several ? "their definitions" : "its definition") + "); run without --check");
    const int needed = std::max({1, pattern::min_processes(Defs::descriptor)...});
    if (world < needed)
        return fail("needs at least " + std::to_string(needed) + " MPI processes (run it with " +
                    "mpiexec -n " + std::to_string(needed) + "); " + std::to_string(world) +
                    " given");

    // The reporters exist on rank 0 only; every rank learns whether they could be opened.
    std::unique_ptr<program_output> out;
    std::string problem;
    if (rank == 0) {
        try {
            out = std::make_unique<program_output>();
            out->context = report::run_context(argc, argv);
            out->context["suite"] = info.suite;
            out->context["requested_benchmarks"] = names;
            out->context["options"] = o.given;
            out->context["check"] = o.check;
            out->context["timeout_s"] = o.timeout_s;
            out->context["processes"] = world;
            out->context["plugins"] = nlohmann::json::array();
            out->check = o.check;
            out->reporters.push_back(std::make_unique<report::imb_console_reporter>(std::cout));
            if (o.json_file) {
                auto json = std::make_unique<report::json_reporter>(
                    *o.json_file, std::chrono::seconds(1), "--json " + *o.json_file);
                json->set_driver_context(out->context);
                out->reporters.push_back(std::move(json));
            }
            if (o.csv_file)
                out->reporters.push_back(
                    std::make_unique<report::csv_reporter>(*o.csv_file, "--csv " + *o.csv_file));
        } catch (const std::exception& e) {
            problem = e.what();
        }
    }
    int failed = problem.empty() ? 0 : 1;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (failed != 0) return fail(problem.empty() ? "cannot open the output files" : problem);

    std::vector<std::uint64_t> sizes = imb_sizes(o.msglog);
    if (out) out->start(program_run_start(info, o, names, sizes, world));
    if (out && o.check && !cannot_verify.empty())
        out->warning("--check: " + cannot_verify + (several ? " have" : " has") +
                     " no data verification; " + (several ? "their" : "its") +
                     " rows say '" + not_verified_cell + "'");
    measurement_deadline deadline(o.timeout_s, rank == 0 ? 0.0 : 3.0);
    interrupted_deadline = &deadline;
    interrupted_output = out.get();
    struct forget_for_interrupts {  // before `deadline` and `out` are destroyed
        std::atomic<program_output*>& output;
        std::atomic<measurement_deadline*>& deadline;
        ~forget_for_interrupts() {
            output = nullptr;
            deadline = nullptr;
        }
    } forget{interrupted_output, interrupted_deadline};
    (run_definition<Defs>(benchmarks.name, info, o, out.get(), deadline), ...);
    if (out) out->end(true);
    // A run in which --check found defects fails, on every process (rank 0 holds the rows).
    unsigned long long defective = out ? out->defective.size() : 0;
    MPI_Bcast(&defective, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (defective == 0) return 0;
    if (out)
        std::fprintf(stderr, "%s: %s\n", program.c_str(),
                     defects_message(out->defective, out->defective.size(), out->rows).c_str());
    return exit_defects;
}

}  // namespace parbench::mpi
