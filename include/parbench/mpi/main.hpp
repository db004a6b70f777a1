// The entry helper of a custom MPI benchmark program: the driver's own `parbench run` around a
// list of definitions, so that a program is its kernels and one call:
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
// Everything else is the driver's code (include/parbench/driver/): its CLI11 options (the common
// ones of `parbench run` — --json, --csv, --timeout, --check, --quiet, --progress, --help — and
// the program's -msglog, -iter, -time, declared as a suite declares its parameters), its session
// (the IMB console layout, the JSON and CSV files, the warnings: oversubscription, unstable rows,
// --check without a verification, what was skipped, and the defects line), its time limit, its
// signal handling and its exit statuses (2 bad input, 3 time limit, 4 an output file failed,
// 5 --check found defects, 128 + the signal). Events reach the session through the channel a
// plugin's do (host/event_delivery.hpp), with the header and MPI context of the imb-* suites
// (mpi/run_header.hpp). Lines on stderr start with the program's name; the time limit's line is
// "time limit: benchmark NAME (X bytes, P processes) did not finish within S s; stopped".
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/malloc_thresholds.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/driver/command_line.hpp>
#include <parbench/driver/exit_status.hpp>
#include <parbench/driver/run_main.hpp>
#include <parbench/driver/run_options.hpp>
#include <parbench/driver/session_run.hpp>
#include <parbench/driver/startup.hpp>
#include <parbench/host/event_delivery.hpp>
#include <parbench/host/launcher.hpp>
#include <parbench/host/mpi_family.hpp>
#include <parbench/mpi/build_warnings.hpp>
#include <parbench/mpi/comm_service.hpp>
#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/node.hpp>
#include <parbench/mpi/progress_variables.hpp>
#include <parbench/mpi/run_header.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/mpi/sweep.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/parameter_type.hpp>
#include <parbench/report/console.hpp>
#include <parbench/report/imb_console.hpp>
#include <parbench/report/result.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
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

// The program's own options (beside the driver's common ones), read from their typed values.
struct program_options {
    msglog_range msglog{};
    policy::iterations::imb_volume iterations{};
    bool check = false;
};

// The driver's exit statuses (driver/exit_status.hpp).
inline constexpr int exit_bad_input = driver::exit_bad_input;
inline constexpr int exit_time_limit = driver::exit_time_limit;
inline constexpr int exit_defects = driver::exit_defects;

// The program's options as a suite declares its parameters (plugin/abi.h), so that the driver's
// CLI11 code parses, checks and documents them as it does a plugin's.
class program_parameters {
public:
    program_parameters()
        : msglog_default_(fmt::format("{}:{}", msglog_range{}.min_log, msglog_range{}.max_log)),
          iter_default_(fmt::format("{}", policy::iterations::imb_volume{}.msgs_per_sample)),
          time_default_(fmt::format("{:g}", policy::iterations::imb_volume{}.secs_per_sample)) {
        entries_ = {{
            {"msglog", "[MIN:]MAX", "message sizes 0, 2^MIN ... 2^MAX", msglog_default_.c_str(),
             PARBENCH_ARITY_ONE},
            {"iter", "N", "iterations per sample (IMB's MSGSPERSAMPLE)", iter_default_.c_str(),
             PARBENCH_ARITY_ONE},
            {"time", "SECONDS", "maximum run time per message size", time_default_.c_str(),
             PARBENCH_ARITY_ONE},
        }};
        types_ = {{
            {"program", "iter", PARBENCH_VALUE_COUNT, PARBENCH_TYPE_MIN, 1.0, 0.0, nullptr, 0,
             {nullptr, nullptr}},
            {"program", "time", PARBENCH_VALUE_SECONDS, PARBENCH_TYPE_MIN, 0.0, 0.0, nullptr, 0,
             {nullptr, nullptr}},
        }};
    }
    program_parameters(const program_parameters&) = delete;
    program_parameters& operator=(const program_parameters&) = delete;

    [[nodiscard]] parbench_suite suite(const char* name) const noexcept {
        return {name, "", nullptr, 0, entries_.data(), entries_.size(), PARBENCH_SUITE_NEEDS_MPI};
    }
    [[nodiscard]] driver::suite_options::type_table types() const {
        return {{"iter", &types_[0]}, {"time", &types_[1]}};
    }

    // The options from the typed values (suite_options::values()); throws input_error.
    [[nodiscard]] static program_options read(const std::map<std::string, nlohmann::json>& given,
                                              bool check) {
        program_options o;
        o.check = check;
        if (auto it = given.find("msglog"); it != given.end())
            o.msglog = parse_msglog(it->second.get<std::string>());
        if (auto it = given.find("iter"); it != given.end())
            o.iterations.msgs_per_sample = it->second.get<std::uint64_t>();
        if (auto it = given.find("time"); it != given.end()) {
            o.iterations.secs_per_sample = it->second.get<double>();
            if (o.iterations.secs_per_sample <= 0.0)
                throw input_error("-time 0: expected a positive number of seconds");
        }
        return o;
    }

private:
    std::string msglog_default_;
    std::string iter_default_;
    std::string time_default_;
    std::array<parbench_parameter, 3> entries_{};
    std::array<parbench_parameter_type, 2> types_{};
};

// The run_start of a program (rank 0; it measures the clock): the header and MPI context of the
// imb-* suites, in the IMB console layout.
[[nodiscard]] inline run_start program_run_start(const program_info& info,
                                                 const program_options& o,
                                                 const std::vector<std::string>& names,
                                                 const node_share& share) {
    run_start s;
    s.suite = info.suite;
    s.layout = "imb";
    s.title = info.title.empty() ? std::string("parbench ") + version + ", " + info.suite
                                 : info.title;
    s.benchmarks = names;
    s.header =
        make_imb_header({.benchmarks = names, .sizes = imb_sizes(o.msglog), .check = o.check});
    s.context = mpi_run_context(share, "host memory");
    s.context["options"] = {
        {"msglog", std::to_string(o.msglog.min_log) + ":" + std::to_string(o.msglog.max_log)},
        {"msgs_per_sample", o.iterations.msgs_per_sample},
        {"time_s", o.iterations.secs_per_sample},
        {"check", o.check},
        {"n_barr", 2},
        {"n_warmup", std::min(n_warmup, o.iterations.msgs_per_sample)},
    };
    return s;
}

// The family of a custom program's definition for mpi::sweep(): the processes its pattern takes
// (a pair, or all), the -msglog sizes that are multiples of its unit, IMB's warm-up once, one
// measure() per size announced as progress (the driver's time limit restarts for it), and a
// warning per skipped size. Events go through `host`, as a plugin's do (rank 0 sends the rows).
template <class Def>
struct program_family {
    std::string_view name;
    const program_info& info;
    const program_options& opts;
    const plugin::host_channel& host;
    bool rank_zero;

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

    void progress(const count& c, std::uint64_t x) const {
        host.progress(name, x, c.processes);
    }

    // IMB's warm-up: untimed iterations at sizeof(float), under the time limit of its own size,
    // before the first size (whose time limit starts after it).
    void warm_up(const count& c, std::uint64_t first) const {
        const std::size_t small = has_bytes ? 4 : 0;
        const auto pairs = pattern::pairing_of(Def::descriptor);
        progress(c, small);
        const kernel_context warm = c.s.context(small, pairs);
        mpi::warm_up(c.s,
                     message_resource(Def::layout(small, c.processes), off_cache{},
                                      c.s.send_pool(), c.s.recv_pool()),
                     Def::make_kernel(warm), no_completion{},
                     std::min(n_warmup, opts.iterations.msgs_per_sample), small, pairs);
        progress(c, first);
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
        if (rank_zero && m.skipped_need_bytes > 0)
            host.warning(std::string(name) + ": " + std::to_string(x) + " bytes skipped (" +
                         std::to_string(m.skipped_need_bytes) + " bytes of buffers per process)");
        if (rank_zero && m.allocation_failed)
            host.warning(std::string(name) + ": " + std::to_string(x) +
                         " bytes skipped: a process could not allocate its buffers");
        return m;
    }
    void publish(const count& /*c*/, const result_record& r) const {
        if (rank_zero) host.result(r);
    }
    void close(const count& /*c*/, const size_notes& /*notes*/) const {}
};

// Runs one definition through mpi::sweep() with program_family. Collective over MPI_COMM_WORLD.
template <class Def>
void run_definition(std::string_view name, const program_info& info, const program_options& o,
                    const plugin::host_channel& host, bool rank_zero) {
    static_assert(check_definition<Def>() && self_contained_definition<Def>);
    sweep(program_family<Def>{
        .name = name, .info = info, .opts = o, .host = host, .rank_zero = rank_zero});
}

// The one console layout of a program, IMB's: the session compiles no other reporter.
inline void require_imb_layout(std::string_view layout, std::string_view suite) {
    if (layout != "imb")
        throw report::unknown_layout("suite '" + std::string(suite) +
                                     "' declares console layout '" + std::string(layout) +
                                     "'; a program renders 'imb' only");
}
[[nodiscard]] inline std::unique_ptr<report::reporter> imb_console(
    std::string_view /*layout*/, std::string_view /*suite*/, const report::console_target& t) {
    return std::make_unique<report::notes_on_console>(
        t.out, std::make_unique<report::imb_console_reporter>(t.out));
}
[[nodiscard]] inline std::unique_ptr<report::reporter> no_layout_files(
    std::string_view /*layout*/, const report::layout_files_target& /*target*/) {
    return nullptr;
}

// The processes sharing this process's node (the communication service's processes_on_node).
[[nodiscard]] inline int processes_on_this_node() {
    return share_of_node(MPI_COMM_WORLD).processes;
}

// The program's whole run, in the driver's code (see the top of this file).
template <class... Defs>
[[nodiscard]] int run_program(int& argc, char**& argv, const program_info& info,
                              const benchmark<Defs>&... benchmarks) {
    const std::string program = argc > 0 ? argv[0] : "benchmark";
    const std::vector<std::string> names{std::string(benchmarks.name)...};
    std::string listed;
    for (const auto& n : names) listed += (listed.empty() ? "" : ", ") + n;

    // The driver's options of `run` and the program's own, parsed by CLI11 as `parbench run`
    // parses a suite's; -name is --name for both.
    CLI::App app{"Benchmarks " + listed + " (suite '" + info.suite +
                     "'), run as parbench runs a suite",
                 program};
    driver::run_options o;
    o.suite = info.suite;
    o.benchmarks = names;
    const driver::run_option_handles common(app, o, {.plugins = false});
    const program_parameters declared;
    const parbench_suite suite = declared.suite(info.suite.c_str());
    driver::suite_options parameters;
    parameters.add_to(app, suite, declared.types());
    const std::vector<std::string> args =
        driver::rewrite_single_dash(std::vector<std::string>(argv + 1, argv + argc),
                                    driver::single_dash_names(parameters.names()),
                                    parameters.attached_names());
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp& e) {
        return launcher_rank() == 0 ? app.exit(e) : 0;
    } catch (const CLI::ExtrasError& e) {
        std::string words = e.what();
        if (const auto colon = words.find(": "); colon != std::string::npos)
            words = words.substr(colon + 2);
        throw driver::driver_exit{driver::exit_bad_input,
                                  "unknown option " + driver::quote_value(words) + " (see " +
                                      program + " --help)"};
    } catch (const CLI::ParseError& e) {
        throw driver::driver_exit{driver::exit_bad_input, e.what()};
    }
    common.apply(o);
    o.given_options = parameters.as_given(o.check);
    o.timing_options = driver::timing_advice(suite);
    program_options opts;
    try {  // every process judges the values alike: the launcher's rank 0 says it
        opts = program_parameters::read(parameters.values(o.check), o.check);
    } catch (const input_error& e) {
        throw driver::driver_exit{driver::exit_bad_input, e.what()};
    }
    driver::check_output_names(o);

    // --check on benchmarks without a verify_check: refused when none has one, else named.
    std::vector<std::string> cannot_verify;
    ((checks_data<typename Defs::verify_check> ? void()
                                               : void(cannot_verify.emplace_back(benchmarks.name))),
     ...);
    if (o.check && cannot_verify.size() == names.size())
        throw run_error(run_error::kind::bad_input, cannot_verify_refusal(cannot_verify));
    if (!o.check) cannot_verify.clear();

    std::optional<environment> env;
    malloc_thresholds allocator;
    driver::startup_clock startup;  // no plugin discovery: MPI_Init is its init
    const parbench_comm_service comm = world_comm_service(&processes_on_this_node);
    const int needed = std::max({1, pattern::min_processes(Defs::descriptor)...});
    return driver::run_in_session(
        o,
        {.start = [&]() -> const parbench_comm_service* {
             try {
                 check_progress_environment();  // MPICH would abort inside MPI_Init, wordlessly
             } catch (const input_error& e) {  // every process judges alike: rank 0 says it
                 throw driver::driver_exit{driver::exit_bad_input, e.what()};
             }
             allocator = pin_malloc_thresholds();  // before the library's first blocks
             startup.init_started = std::chrono::steady_clock::now();
             env.emplace(argc, argv);
             startup.init_done = std::chrono::steady_clock::now();
             if (comm.size() < needed)
                 throw driver::driver_exit{
                     driver::exit_bad_input,
                     "needs at least " + std::to_string(needed) + " MPI processes (run it with " +
                         "mpiexec -n " + std::to_string(needed) + "); " +
                         std::to_string(comm.size()) + " given"};
             return &comm;
         },
         .context = [&] {
             nlohmann::json context =
                 driver::driver_context(argc, argv, o, comm.size(), nlohmann::json::array());
             context["startup"] = driver::startup_summary(startup, &comm);
             // The MPI the program is linked with, as the driver names its MPI plugin's (no
             // plugin here: "plugin" is null).
             const std::string full = library_version();
             context["mpi"] = mpi_context(full.substr(0, full.find('\n')), nullptr);
             return context;
         },
         .execute = [&](driver::run_session& session) {
             event_delivery delivery(session, o.check);
             const parbench_host channel = delivery.channel(&comm);
             const plugin::host_channel host(&channel);
             const node_share mine = share_of_node(MPI_COMM_WORLD);
             const node_share share = busiest_node(MPI_COMM_WORLD, mine);
             // rows name their nodes; agreements wait by the node's share (session.hpp)
             world_nodes::set(nodes_of_ranks(MPI_COMM_WORLD), mine);
             const bool rank_zero = comm.rank() == 0;
             if (rank_zero) {
                 run_start start = program_run_start(info, opts, names, share);
                 // as the MPI plugin's run context has it (plugins/mpi/plugin.cpp)
                 start.context["allocator"] = allocator_context(allocator);
                 host.run_started(start);
                 if (share.oversubscribed()) host.warning(oversubscription_warning(share));
             }
             (run_definition<Defs>(benchmarks.name, info, opts, host, rank_zero), ...);
             return delivery.agreed_verdict(&comm, info.suite, comm.rank());
         },
         .finish = [&] { env.reset(); },
         .cannot_verify = cannot_verify,
         .sweep_run_files = false,
         .start_warnings = build_warnings(),
         .layouts = {&require_imb_layout, &imb_console, &no_layout_files}});
}

// Runs the program's benchmarks with the options of argv. Call it from main() with MPI not yet
// initialised (it owns MPI_Init/MPI_Finalize); returns the exit status.
template <class... Defs>
[[nodiscard]] int main(int argc, char** argv, const program_info& info,
                       const benchmark<Defs>&... benchmarks) {
    const std::string program = argc > 0 ? argv[0] : "benchmark";
    driver::voice() = {.program = program,
                       .error = program + ": ",
                       .warning = program + ": warning: ",
                       .bare_time_limit = true};
    return driver::run_main([&] { return run_program(argc, argv, info, benchmarks...); });
}

}  // namespace parbench::mpi
