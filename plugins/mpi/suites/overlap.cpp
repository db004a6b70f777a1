// overlap: a COMB-inspired benchmark of how much of a nonblocking collective's time a process can
// compute through (catalogue Part B). Per method, communicator size and variant (Blocking,
// NB_Wait, NB_Sleep, NB_active) it times the variant without work (base_t), then ramps the work
// until it dominates the iteration (overlap/availability.hpp) and reports overhead and avail(%).
// Each timing is one mpi::measure() of the runner (time_budget iterations: -iterations capped
// by -time; two barriers before timing); the ramp only chooses the next work time. The rows run
// through mpi::sweep (row_family: communicator sizes, one pass per variant).
#include "suites/suite.hpp"

#include "overlap/availability.hpp"
#include "overlap/methods.hpp"
#include "overlap/options.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/input_file.hpp>
#include <parbench/mpi/async_progress.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/mpi/sweep.hpp>
#include <parbench/pattern/collective.hpp>
#include <parbench/plugin/catalogue_row.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/overlap_header.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif

namespace parbench::overlap {
namespace overlap_impl {
namespace {

// Every benchmark of the suite is a collective, blocking against nonblocking.
constexpr benchmark_class collective = benchmark_class::collective;

constexpr parbench_benchmark benchmark_rows[] = {
    plugin::catalogue_row("allreduce", "MPI_Allreduce / MPI_Iallreduce (MPI_SUM)", collective,
                          PARBENCH_BENCH_DEFAULT),
    plugin::catalogue_row("barrier", "MPI_Barrier / MPI_Ibarrier", collective, 0),
    plugin::catalogue_row("broadcast", "MPI_Bcast / MPI_Ibcast from rank 0", collective, 0),
    plugin::catalogue_row("gather", "MPI_Gather / MPI_Igather to rank 0", collective, 0),
    plugin::catalogue_row("allgather", "MPI_Allgather / MPI_Iallgather", collective, 0),
    plugin::catalogue_row("scatter", "MPI_Scatter / MPI_Iscatter from rank 0", collective, 0),
};

// --- the options file, read once and shared -------------------------------------------------

// World rank 0 reads the file and broadcasts its text (or its error), so that every process
// parses the same text and fails alike.
std::vector<file_setting> read_shared_settings(const run_request& request, std::string& name) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::string payload;  // "ok\n<name>\n<text>" or "error\n<message>"
    if (rank == 0) {
        try {
            const auto path = options_file_path(request);
            payload = path ? "ok\n" + *path + "\n" + read_input_file("-optionsFile", *path)
                           : std::string("ok\n\n");
        } catch (const input_error& e) {
            payload = std::string("error\n") + e.what();
        }
    }
    unsigned long long length = payload.size();
    MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    payload.resize(length);
    MPI_Bcast(payload.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
    if (payload.starts_with("error\n")) throw input_error(payload.substr(6));
    const auto name_end = payload.find('\n', 3);
    name = payload.substr(3, name_end - 3);
    if (name.empty()) return {};
    return parse_options_file(std::string_view(payload).substr(name_end + 1), name);
}

// --- one row: base_t, the ramp, the figures ---------------------------------------------------

struct row_plan {
    const options* opts;
    ramp_rule ramp;
    const plugin::host_channel* host;
};

// The message size of a method's rows: -count doubles (none for the barrier).
template <method M>
[[nodiscard]] std::uint64_t row_bytes(const options& o) noexcept {
    return M == method::barrier ? 0 : o.count * sizeof(double);
}

// One row: its record on world rank 0 (none elsewhere).
template <method M, variant V>
[[nodiscard]] mpi::measurement run_variant(const mpi::session& s, const row_plan& plan) {
    const options& o = *plan.opts;
    const int q = s.layout().processes;
    const std::uint64_t bytes = row_bytes<M>(o);
    const mpi::record_labels labels{.suite = "overlap",
                                    .benchmark = std::string(to_string(M)),
                                    .has_bytes = M != method::barrier,
                                    .mode = std::string(to_string(V))};
    mpi::timing_plan<policy::iterations::time_budget> timing{
        .iterations = {.seconds = o.time_s,
                       .max_iterations = o.iterations,
                       .warmup_count = std::min<std::uint64_t>(o.iterations, 10)}};
    const bool root = s.world().rank() == 0;
    // One timing at `work_us` of busy wait per iteration; the record on world rank 0.
    const auto time_with = [&](double work_us) {
        mpi::measurement m = mpi::measure(
            s, mpi::measure_config{
                   .pattern = pattern::collective{},
                   .labels = labels,
                   .bytes = bytes,
                   .resource = mpi::messages{.layout = message_layout(M, o.count, q)},
                   .kernel = iteration<M, V>{static_cast<int>(o.count), work_us * 1e-6},
                   .plan = timing});
        return m.records.empty() ? result_record{} : std::move(m.records.front());
    };
    plan.host->progress(labels.benchmark + " " + labels.mode, bytes, q);
    double base_us = time_with(0.0).t_max_us;
    MPI_Bcast(&base_us, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    availability_figures figures;
    figures.base_t_us = base_us;
    figures.threshold = plan.ramp.threshold;
    double work_us = ramp_rule::first_work_us(base_us);
    result_record last;
    for (int steps = 1;; ++steps) {
        last = time_with(work_us);
        // [0]: 1 to go on, [1]: the next work time; decided on world rank 0 for everyone
        std::array<double, 2> decision{0.0, 0.0};
        if (root) {
            figures.ramp_us.emplace_back(work_us, last.t_max_us);
            figures.work_dominated = plan.ramp.work_dominates(base_us, work_us, last.t_max_us);
            const auto next = plan.ramp.next_work_us(work_us, steps);
            if (!figures.work_dominated && next) decision = {1.0, *next};
        }
        MPI_Bcast(decision.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (decision[0] == 0.0) break;
        work_us = decision[1];
    }
    mpi::measurement row;
    if (!root) return row;
    figures.iter_t_us = last.t_max_us;
    figures.work_t_us = work_us;
    figures.overhead_us = overhead_us(figures.iter_t_us, figures.work_t_us);
    figures.avail_percent = availability_percent(figures.overhead_us, base_us);
    if (!figures.work_dominated)
        last.warnings.push_back(fmt::format(
            "work never dominated (threshold {:g}) up to work_t {:.2f} us; the figures are the "
            "last step's",
            plan.ramp.threshold, work_us));
    last.availability = std::move(figures);
    row.records.push_back(std::move(last));
    return row;
}

// The suite's family for mpi::sweep(): the communicator sizes, one pass per variant (Blocking,
// NB_Wait, NB_Sleep, NB_active), the method's one message size, and a row per size (base_t and
// the ramp, run_variant).
template <method M>
struct row_family {
    const std::vector<int>& communicators;
    const row_plan& plan;

    static constexpr std::size_t passes = std::size(all_variants);

    struct count {
        mpi::session session;
    };

    [[nodiscard]] std::vector<int> process_counts() const { return communicators; }
    [[nodiscard]] std::array<std::uint64_t, 1> sizes() const {
        return {row_bytes<M>(*plan.opts)};
    }
    [[nodiscard]] count open(int q) const { return {mpi::session(MPI_COMM_WORLD, q)}; }
    // The progress line names the variant: run_variant says it.
    void progress(const count& /*c*/, std::uint64_t /*x*/) const {}
    template <std::size_t P>
    [[nodiscard]] mpi::measurement measure(const count& c, std::uint64_t /*x*/,
                                           mpi::sweep_pass<P> /*pass*/) const {
        return run_variant<M, all_variants[P]>(c.session, plan);
    }
    void publish(const count& /*c*/, const result_record& r) const { plan.host->result(r); }
    void close(const count& /*c*/, const mpi::size_notes& /*notes*/) const {}
};

template <method M>
void run_method(const std::vector<int>& sizes, const row_plan& plan) {
    mpi::sweep(row_family<M>{.communicators = sizes, .plan = plan});
}

void run_method(method m, const std::vector<int>& sizes, const row_plan& plan) {
    switch (m) {
        case method::allreduce: return run_method<method::allreduce>(sizes, plan);
        case method::barrier: return run_method<method::barrier>(sizes, plan);
        case method::broadcast: return run_method<method::broadcast>(sizes, plan);
        case method::gather: return run_method<method::gather>(sizes, plan);
        case method::allgather: return run_method<method::allgather>(sizes, plan);
        case method::scatter: return run_method<method::scatter>(sizes, plan);
    }
}

// -startSize S: S, 2S, 4S, ... below the world size, then the world; without it the world only.
std::vector<int> communicator_sizes(const options& o, int world) {
    std::vector<int> sizes;
    for (int q = o.start_size.value_or(world); q < world; q *= 2) sizes.push_back(q);
    sizes.push_back(world);
    return sizes;
}

run_start make_run_start(const options& o, const std::vector<int>& sizes, int world) {
    const auto clock = measure_clock(mpi::wtime_clock{});
    const mpi::async_progress progress = mpi::detect_async_progress();
    const nlohmann::json async = mpi::to_json(progress);
    std::vector<std::string> methods;
    for (const method m : o.methods) methods.emplace_back(to_string(m));
    std::vector<std::string> variants;
    for (const variant v : all_variants) variants.emplace_back(to_string(v));
    run_start start;
    start.suite = "overlap";
    start.layout = "overlap";
    start.title = "parbench " PARBENCH_PLUGIN_VERSION
                  ", COMB-style overlap benchmark for nonblocking collectives";
    start.benchmarks = methods;
    const nlohmann::json given = {{"iterations", o.iterations},
                                  {"threshold", o.threshold},
                                  {"startSize", o.start_size ? nlohmann::json(*o.start_size)
                                                             : nlohmann::json(nullptr)},
                                  {"verbose", o.verbose},
                                  {"nohdr", !o.header},
                                  {"count", o.count},
                                  {"time", o.time_s},
                                  {"optionsFile", o.file}};
    start.header = report::overlap_header{.show = o.header,
                                          .verbose = o.verbose,
                                          .methods = methods,
                                          .variants = variants,
                                          .communicator_sizes = sizes,
                                          .iterations = o.iterations,
                                          .time_s = o.time_s,
                                          .threshold = o.threshold,
                                          .datatype = "MPI_DOUBLE",
                                          .count = o.count,
                                          .reduction = "MPI_SUM",
                                          .root = root,
                                          .options_file = o.file,
                                          .async_progress = async,
                                          .async_progress_text = mpi::describe(progress)};
    start.context =
        report::mpi_suite_context{.mpi_library = mpi::library_version(), .processes = world};
    start.context.update({{"timer", "MPI_Wtime"},
                          {"thread_level", async["thread_level"]},
                          {"async_progress", async},
                          {"options", given}});
    start.context.update(nlohmann::json(report::timer_limits::of(clock)));
    return start;
}

void run(const run_request& request, const plugin::host_channel& host) {
    int world = 1;
    int rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::string file_name;
    const std::vector<file_setting> file = read_shared_settings(request, file_name);
    const options o = parse_options(request, file, file_name, world);
    const std::vector<int> sizes = communicator_sizes(o, world);
    if (rank == 0) {
        const run_start start = make_run_start(o, sizes, world);
        host.run_started(start);
        const auto& async = start.context["async_progress"];
        if (async.value("requested", false) && !async.value("enabled", false))
            host.warning("overlap: asynchronous progress " +
                         start.header.get<report::overlap_header>().async_progress_text);
    }
    // The ramp stops short of work that would leave fewer than 10 iterations in a -time budget.
    const row_plan plan{
        &o, ramp_rule{.threshold = o.threshold, .max_work_us = std::min(1e6, o.time_s * 1e5)},
        &host};
    for (const method m : o.methods) run_method(m, sizes, plan);
}

const parbench_suite& info() {
    static const parbench_suite s = {
        "overlap",
        "COMB-style overlap of nonblocking collectives: base_t, overhead, avail(%) per variant",
        benchmark_rows,
        std::size(benchmark_rows),
        parameters().data(),
        parameters().size(),
        PARBENCH_SUITE_NEEDS_MPI};
    return s;
}

}  // namespace
}  // namespace overlap_impl
}  // namespace parbench::overlap

namespace parbench::mpi_plugin {
const hosted_suite suites::overlap = {overlap::overlap_impl::info(), &overlap::overlap_impl::run};
}  // namespace parbench::mpi_plugin
