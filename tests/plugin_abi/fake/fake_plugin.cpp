// A minimal, MPI-free plugin with a "fake" suite that emits canned results, so that the driver,
// its reporters and its time limit can be tested without MPI. Its numbers are deterministic
// functions of the message size; only the layout of what the driver renders is under test.
//
// Options: -msglog [MIN:]MAX (sizes 0, 2^MIN .. 2^MAX; default 0:3), -multi 0|1 (multiple mode
// on 4 simulated ranks), -map PxQ (rank order matrix, 4 ranks), -fail bad_input|error,
// -include A B (accepted and echoed in the header list), -layout NAME (the console layout it
// declares; "osu" adds OSU's header and declared columns; "caf" the caf header, and caf figures
// on PingPong's rows alone, so that the other benchmarks' rows are ones the caf layout refuses),
// -note TEXT, -raw_event TEXT (emitted as it is: not an event unless it is one). With
// PARBENCH_FAKE_HANG_MARKER=PATH, Hang creates PATH once it has begun (an event for tests to
// wait on). With PARBENCH_FAKE_INIT_FAILS set, init fails on every process (a plugin error
// before any run: said once under a launcher, driver/exit_status.hpp). Outside the default set: Corrupt (under -check, `bytes` defects in each row: the
// known answer), Unverified (no data verification: PARBENCH_BENCH_NO_VERIFY, never defects) and
// Single (every row from one sample, as an untimed-again aggregate epoch was).
//
// Typed parameters (ABI 1.1): -count N (1..64), -pause SECONDS (at most 60), -order
// up|down|random, -zero on|off, -window [MIN:]MAX (at most 20), -ids N... (a list of counts).
// Whatever of them is given comes back in the run header's "typed" object, exactly as the
// plugin received it. Built with PARBENCH_FAKE_ABI_MINOR=0 it is an ABI 1.0 plugin: the host
// must ignore the types and hand over the words as text.
#include <parbench/core/error.hpp>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/report/caf_figures.hpp>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

const parbench_benchmark fake_benchmarks[] = {
    {"PingPong", "Canned single-transfer results", "single_transfer", PARBENCH_BENCH_DEFAULT},
    {"Sendrecv", "Canned parallel-transfer results", "parallel_transfer", PARBENCH_BENCH_DEFAULT},
    {"Allreduce", "Canned collective results", "collective", PARBENCH_BENCH_DEFAULT},
    {"Barrier", "Canned Barrier results (no message size)", "collective", PARBENCH_BENCH_DEFAULT},
    {"Extra", "A benchmark outside the default set", "collective", 0},
    {"Hang", "Reports progress, then never finishes (time-limit tests)", "collective",
     PARBENCH_BENCH_TEST_ONLY},
    {"Corrupt", "Under -check, as many defects as bytes", "collective", 0},
    {"Unverified", "Has no data verification", "collective", PARBENCH_BENCH_NO_VERIFY},
    {"Single", "Every row from a single sample", "collective", 0},
};

const parbench_parameter fake_parameters[] = {
    {"msglog", "[MIN:]MAX", "Message sizes 0, 2^MIN, ..., 2^MAX", "0:3", PARBENCH_ARITY_ONE},
    {"multi", "0|1", "Multiple mode on 4 simulated ranks", nullptr, PARBENCH_ARITY_ONE},
    {"map", "PxQ", "Rank order matrix on 4 simulated ranks", nullptr, PARBENCH_ARITY_ONE},
    {"fail", "bad_input|error", "Fail the run as asked", nullptr, PARBENCH_ARITY_ONE},
    {"include", "NAME...", "Further benchmarks", nullptr, PARBENCH_ARITY_LIST},
    {"verbose", nullptr, "A flag that is only echoed", nullptr, PARBENCH_ARITY_FLAG},
    {"layout", "NAME", "Console layout to declare (layout registry tests)", "imb",
     PARBENCH_ARITY_ONE},
    {"note", "TEXT", "A note event to emit after the first result", nullptr, PARBENCH_ARITY_ONE},
    {"raw_event", "TEXT", "Text to emit as an event, as it is, after the first result", nullptr,
     PARBENCH_ARITY_ONE},
    {"count", "N", "A typed count", nullptr, PARBENCH_ARITY_ONE},
    {"pause", "SECONDS", "A typed number of seconds", nullptr, PARBENCH_ARITY_ONE},
    {"order", "WORD", "A typed choice", nullptr, PARBENCH_ARITY_ONE},
    {"zero", "on|off", "A typed switch", nullptr, PARBENCH_ARITY_ONE},
    {"window", "[MIN:]MAX", "A typed range", nullptr, PARBENCH_ARITY_ONE},
    {"ids", "N...", "A typed list of counts", nullptr, PARBENCH_ARITY_LIST},
};

#ifndef PARBENCH_FAKE_ABI_MINOR
#define PARBENCH_FAKE_ABI_MINOR PARBENCH_ABI_MINOR
#endif

const char* const order_choices[] = {"up", "down", "random"};

// clang-format off
const parbench_parameter_type fake_types[] = {
    {"fake", "count", PARBENCH_VALUE_COUNT, PARBENCH_TYPE_MIN | PARBENCH_TYPE_MAX, 1, 64, nullptr, 0, {}},
    {"fake", "pause", PARBENCH_VALUE_SECONDS, PARBENCH_TYPE_MAX, 0, 60, nullptr, 0, {}},
    {"fake", "order", PARBENCH_VALUE_CHOICE, 0, 0, 0, order_choices, 3, {}},
    {"fake", "zero", PARBENCH_VALUE_SWITCH, 0, 0, 0, nullptr, 0, {}},
    {"fake", "window", PARBENCH_VALUE_RANGE, PARBENCH_TYPE_MAX, 0, 20, nullptr, 0, {}},
    {"fake", "ids", PARBENCH_VALUE_COUNT, 0, 0, 0, nullptr, 0, {}},
};
// clang-format on

const parbench_suite fake_suites[] = {{
    "fake",
    "Canned results for testing the driver",
    fake_benchmarks,
    sizeof fake_benchmarks / sizeof fake_benchmarks[0],
    fake_parameters,
    sizeof fake_parameters / sizeof fake_parameters[0],
    0,
}};

const char* fake_backend_info() { return "fake backend 1.0\nsecond line not shown by list"; }

parbench_status fake_init(const parbench_init_args*, char* error, size_t error_size) {
    return parbench::plugin::guarded(error, error_size, [] {
        if (std::getenv("PARBENCH_FAKE_INIT_FAILS") != nullptr)
            throw std::runtime_error("the fake backend's init failed as asked");
    });
}
parbench_status fake_finalize(char*, size_t) { return PARBENCH_OK; }

std::string option_text(const parbench::run_request& request, const std::string& name) {
    auto it = request.options.find(name);
    if (it == request.options.end()) return {};
    return it->second.is_string() ? it->second.get<std::string>() : it->second.dump();
}

parbench::result_record canned(const std::string& name, parbench::benchmark_class klass,
                               std::uint64_t bytes, double scale) {
    parbench::result_record r;
    r.suite = "fake";
    r.benchmark = name;
    r.klass = klass;
    r.block.title = name;
    r.block.processes = 2;
    r.bytes = bytes;
    r.iterations = 1000;
    r.t_min_us = scale * (0.5 + static_cast<double>(bytes) / 1000.0);
    r.t_max_us = r.t_min_us * 1.25;
    r.t_avg_us = r.t_min_us * 1.125;
    r.cpu_time_us = r.t_max_us;
    std::vector<double> samples;
    for (int i = 0; i < 10; ++i) samples.push_back(r.t_max_us * (1.0 + 0.01 * i));
    r.distribution_us = parbench::summarize(samples);
    r.samples_us = samples;
    if (klass == parbench::benchmark_class::single_transfer ||
        klass == parbench::benchmark_class::parallel_transfer)
        r.throughput_mib_s = static_cast<double>(bytes) / 1.048576 / r.t_max_us;
    return r;
}

void run_fake(const char* request_json, const parbench_host* host) {
    const auto request = nlohmann::json::parse(request_json).get<parbench::run_request>();
    const parbench::plugin::host_channel channel(host);

    const std::string fail = option_text(request, "fail");
    if (fail == "bad_input") throw parbench::input_error("-fail bad_input: the fake plugin was asked to reject its input");
    if (fail == "error") throw std::runtime_error("the fake backend failed as asked");
    if (!fail.empty()) throw parbench::input_error("-fail " + fail + ": expected bad_input or error");

    int min_log = 0, max_log = 3;
    if (const std::string msglog = option_text(request, "msglog"); !msglog.empty()) {
        const auto colon = msglog.find(':');
        try {
            if (colon == std::string::npos) {
                max_log = std::stoi(msglog);
            } else {
                min_log = std::stoi(msglog.substr(0, colon));
                max_log = std::stoi(msglog.substr(colon + 1));
            }
        } catch (const std::exception&) {
            throw parbench::input_error("-msglog " + msglog + ": expected [MIN:]MAX");
        }
        if (min_log > max_log || min_log < 0 || max_log > 30)
            throw parbench::input_error("-msglog " + msglog + ": expected 0 <= MIN <= MAX <= 30");
    }
    std::vector<std::uint64_t> sizes{0};
    for (int l = min_log; l <= max_log; ++l) sizes.push_back(std::uint64_t{1} << l);

    const std::string multi = option_text(request, "multi");
    const std::string map = option_text(request, "map");

    std::vector<std::string> names = request.benchmarks;
    if (names.empty()) names = {"PingPong", "Sendrecv", "Allreduce", "Barrier"};

    parbench::run_start start;
    start.suite = "fake";
    start.layout = option_text(request, "layout").empty() ? "imb" : option_text(request, "layout");
    start.title = "parbench fake suite, IMB layout";
    start.header = {{"part", "fake part"},
                    {"mpi_version", "4.0"},
                    {"mpi_thread_environment", "MPI_THREAD_SINGLE"},
                    {"lengths_user_defined", false},
                    {"min_bytes", 0},
                    {"max_bytes", sizes.back()},
                    {"datatype", "MPI_BYTE"},
                    {"reduction_datatype", "MPI_FLOAT"},
                    {"reduction_op", "MPI_SUM"},
                    {"check", request.check}};
    std::vector<std::string> list;
    for (const auto& n : names) list.push_back(multi.empty() ? n : "(Multi-)" + n);
    start.header["benchmark_list"] = list;
    for (const char* typed : {"count", "pause", "order", "zero", "window", "ids"})
        if (const auto it = request.options.find(typed); it != request.options.end())
            start.header["typed"][typed] = it->second;
    start.benchmarks = names;
    start.context = {{"processes", 4}, {"fake", true}};
    // Extra's table shows declared columns (the column model), two of them from its metrics.
    start.columns["Extra"] = {{"t_max_us", "t[usec]"},
                              {"t_ovrl_us", "t_ovrl[usec]"},
                              {"overlap_percent", "overlap[%]", 1},
                              {"work_us", "work[usec]"}};
    if (start.layout == "osu") {
        // OSU's layout reads a banner per benchmark and renders only declared columns, at their
        // widths and decimals: OSU 7's -f and -c columns on PingPong, two figures on Sendrecv
        // (one from a metric), and Barrier without a size column.
        start.title = "parbench fake suite, OSU layout";
        start.header["osu_version"] = "7.3";
        start.header["blocks"] = {
            {"PingPong", {{"banner", "OSU MPI Latency Test"}}},
            {"Sendrecv",
             {{"banner", "OSU MPI Multiple Bandwidth / Message Rate Test"},
              {"lines", {"# [ pairs: 1 ] [ window size: 64 ]"}}}},
            {"Barrier", {{"banner", "OSU MPI Barrier Latency Test"}, {"datatype", "MPI_INT"}}}};
        start.columns["PingPong"] = {{"t_max_us", "Latency (us)", 2, 18},
                                     {"t_min_us", "Min Latency(us)", 2, 18},
                                     {"t_max_us", "Max Latency(us)", 2, 18},
                                     {"iterations", "Iterations", 0, 12},
                                     {"validation", "Validation", 2, 18},
                                     {"defects", "Defects", 0, 10}};
        start.columns["Sendrecv"] = {{"throughput_mib_s", "MiB/s", 2, 18},
                                     {"messages_per_s", "Messages/s", 2, 18}};
        start.columns["Barrier"] = {{"t_avg_us", "Avg Latency(us)", 2, 18},
                                    {"t_max_us", "Max Latency(us)", 2, 18}};
    }
    if (start.layout == "caf") {
        start.title = "parbench fake suite, caf layout";
        start.header = {{"images", 2},
                        {"coarray_runtime", "fake runtime 1.0"},
                        {"compiler", "fake compiler"},
                        {"mpi_version", "4.0"},
                        {"check", request.check}};
    }
    channel.run_started(start);

    std::string note = option_text(request, "note");  // emitted once, after the first row
    std::string raw_event = option_text(request, "raw_event");  // likewise, not made an event
    for (const auto& name : names) {
        if (name == "Hang" || name == "hang") {
            channel.progress("Hang", 1024, 2);
            // The event tests wait for (instead of sleeping): Hang has begun, every earlier row
            // has been handed to the driver.
            if (const char* marker = std::getenv("PARBENCH_FAKE_HANG_MARKER"); marker != nullptr)
                std::ofstream(marker) << "Hang\n";
            for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
        }
        const bool is_barrier = name == "Barrier";
        auto klass = parbench::benchmark_class::collective;
        if (name == "PingPong") klass = parbench::benchmark_class::single_transfer;
        if (name == "Sendrecv") klass = parbench::benchmark_class::parallel_transfer;
        const std::vector<std::uint64_t> run_sizes =
            is_barrier ? std::vector<std::uint64_t>{0} : sizes;
        for (const auto bytes : run_sizes) {
            channel.progress(name, bytes, 2);
            auto r = canned(name, klass, bytes, is_barrier ? 2.0 : 1.0);
            r.has_bytes = !is_barrier;
            if (start.layout == "osu" && name == "Sendrecv")
                r.metrics["messages_per_s"] = 1e6 / r.t_max_us;
            if (start.layout == "caf" && name == "PingPong") {  // one double per byte count
                parbench::caf_figures& f = r.caf.emplace();
                f.count = static_cast<std::int64_t>(bytes);
                f.blksize = f.stride = 1;
                f.ndata = f.nextent = f.count;
            }
            if (name == "Extra") {  // t_ovrl = 1.5 t_pure, t_CPU = t_pure: overlap 50 %
                r.overlap = parbench::make_overlap_figures(1.5 * r.t_max_us, r.t_max_us, r.t_max_us);
                r.metrics["work_us"] = 2.0 * r.t_max_us;
            }
            if (request.check) r.defects = 0;
            if (request.check && name == "Corrupt") r.defects = bytes;
            if (name == "Unverified") r.defects.reset();
            if (name == "Single") {
                r.samples_us = {r.t_max_us};
                r.distribution_us = parbench::summarize(r.samples_us);
            }
            if (!map.empty()) {
                r.block.rank_order = {{0, 2}, {1, 3}};
                if (klass == parbench::benchmark_class::collective) {
                    r.block.processes = 4;
                } else {
                    r.block.waiting = 2;
                }
            } else if (!multi.empty()) {
                r.block.title = "Multi-" + name;
                r.block.groups = 2;
                r.block.group_ranks = {{0, 2}, {1, 3}};
                if (multi == "1") {
                    for (int g = 0; g < 2; ++g) {
                        auto per_group = r;
                        per_group.block.group = g;
                        per_group.t_max_us += g;
                        channel.result(per_group);
                    }
                    continue;
                }
            }
            channel.result(r);
            if (!note.empty()) channel.note(std::exchange(note, std::string{}));
            if (!raw_event.empty() && host != nullptr && host->emit != nullptr)
                host->emit(host->context, std::exchange(raw_event, std::string{}).c_str());
        }
    }
    channel.warning("fake plugin finished");
}

parbench_status fake_run(const char* request_json, const parbench_host* host, char* error,
                         size_t error_size) {
    return parbench::plugin::guarded(error, error_size, [&] { run_fake(request_json, host); });
}

const parbench_plugin fake_descriptor = {
    PARBENCH_ABI_MAJOR,
    PARBENCH_FAKE_ABI_MINOR,
    sizeof(parbench_plugin),
    "fake",
    "1.2.3",
    fake_backend_info,
    fake_init,
    fake_finalize,
    fake_suites,
    sizeof fake_suites / sizeof fake_suites[0],
    nullptr,
    fake_run,
    fake_types,
    sizeof fake_types / sizeof fake_types[0],
    {},
};

}  // namespace

PARBENCH_PLUGIN_ENTRY(fake_descriptor)
