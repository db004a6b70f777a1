// paw (MPI part): TACC PAW's message-passing tests (catalogue C.4-C.7). Every test is a
// definition (include/parbench/suites/paw/messages.hpp for the message tests, rma/kernels.hpp for
// the one-sided ones) timed through the runner's public phases with PAW's method: an untimed
// warm-up at MED_*_SIZE, then per size a warm-up and NREPS timed loops of NLOOP iterations
// (policy/paw_repetitions.hpp); every task times, each repetition's time is the minimum across
// tasks (the maximum for col_bct and col_sct) and min/max/mean/stddev are over the repetitions
// (mpi/reduction.hpp). Point-to-point tests pair task i with task i + n/2.
//
//   latency                      1-byte MPI_Send/MPI_Recv round trip, exactly two tasks;
//   latency.dat p2p_send p2p_isend           ping-pongs <stem>_time/_bw-np_<tasks>.dat
//   p2p_isend_bidir              both directions at once
//   p2p_isend_ping               one direction (ping-ping)
//   p2p_mrate p2p_mrate_bidir    windows of WINDOW_SIZE messages  <stem>_time/_rate-np_<tasks>.dat
//   p2p_get p2p_put              PSCW epochs (MPI_Get / MPI_Put)
//   col_agtr col_ardc col_a2a col_bct col_gtr col_rdc col_sct   <name>_time-np_<tasks>.dat
//
// Sizes: MIN/MED/MAX_P2P_SIZE for the point-to-point tests, MIN/MED/MAX_COL_SIZE for the
// collectives; the --min_size/--med_size/--max_size/--sizes options override both.
// The BLAS, GPU and offload plugins offer the other paw tests; the driver picks this plugin when
// one of the tests above is named.
#include "suites/suite.hpp"

#include <parbench/suites/paw/messages.hpp>

#include <parbench/core/clock.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/mpi/reduction.hpp>
#include <parbench/mpi/resource.hpp>
#include <parbench/mpi/rma_completion.hpp>
#include <parbench/mpi/rma_window.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/one_sided.hpp>
#include <parbench/plugin/paw_options.hpp>
#include <parbench/plugin/paw_parameters.hpp>
#include <parbench/plugin/paw_transfer_settings.hpp>
#include <parbench/policy/paw_repetitions.hpp>
#include <parbench/suites/rma/kernels.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace parbench::paw_mpi {
namespace {

using mpi::across_tasks;
using rma_kernels::rma_op;

inline constexpr paw::transfer_family p2p_family{
    "MIN_P2P_SIZE", "MED_P2P_SIZE", "MAX_P2P_SIZE", "NLOOP_MAX", 1, 20000, 1000000, 1000};
inline constexpr paw::transfer_family col_family{
    "MIN_COL_SIZE", "MED_COL_SIZE", "MAX_COL_SIZE", "NLOOP_MAX", 1, 10000, 100000, 1000};

// Which sizes a test sweeps and how many tasks it accepts.
enum class family { latency, point_to_point, collective };

// What every test of one run shares.
struct run_settings {
    paw::transfer_settings p2p;
    paw::transfer_settings col;
    int window_size = default_window_size;
    double timer_threshold_s = 0.0;
    bool check = false;
    const plugin::host_channel* host = nullptr;
};

struct test {
    parbench_benchmark info;
    const char* stem;  // PAW's file prefix: send_time-np_<n>.dat ("latency": latency.dat)
    family kind;
    void (*run)(const test&, const run_settings&);
    across_tasks combine = across_tasks::minimum;
};

// The size's record in PAW's terms: the file stem as its title and what one pair moves per
// iteration, with PAW's rates (GB/s = 10^9 bytes/s, messages/s) over the mean time and
// parbench's over the median.
void add_paw_figures(result_record& r, const test& t, work w,
                     const policy::iterations::paw_repetitions& policy) {
    r.block.title = t.stem;
    const auto per_s = [](double amount, double t_us) {
        return t_us > 0.0 ? amount / t_us * 1e6 : 0.0;
    };
    if (w.bytes_per_iteration > 0.0) {
        const double x = w.bytes_per_iteration;
        r.metrics["bytes_per_iteration"] = x;
        r.metrics["gb_per_s_mean"] = per_s(x, r.t_avg_us) / 1e9;
        r.metrics["gb_per_s_min"] = per_s(x, r.t_max_us) / 1e9;
        r.metrics["gb_per_s_max"] = per_s(x, r.t_min_us) / 1e9;
        r.metrics["gb_per_s_median"] = per_s(x, r.distribution_us.median) / 1e9;
    }
    if (w.messages_per_iteration > 0.0) {
        const double m = w.messages_per_iteration;
        r.metrics["messages_per_iteration"] = m;
        r.metrics["messages_per_s_mean"] = per_s(m, r.t_avg_us);
        r.metrics["messages_per_s_min"] = per_s(m, r.t_max_us);
        r.metrics["messages_per_s_max"] = per_s(m, r.t_min_us);
        r.metrics["messages_per_s_median"] = per_s(m, r.distribution_us.median);
    }
    r.metrics["nreps_planned"] = static_cast<double>(policy.method.nreps);
    if (policy.last_plan.reps_cut)
        r.warnings.push_back("NREPS lowered from " + std::to_string(policy.method.nreps) + " to " +
                             std::to_string(policy.last_plan.nreps) +
                             " by the per-size time budget");
}

using paw_plan = mpi::timing_plan<policy::iterations::paw_repetitions, policy::sync::barrier,
                                  policy::aggregation::non_aggregate>;

[[nodiscard]] paw_plan make_plan(const paw::transfer_settings& cfg, const run_settings& run) {
    return {.iterations = {.method = cfg.policy, .timer_threshold_s = run.timer_threshold_s},
            .batching = {.max_batches = std::max<std::size_t>(64, cfg.policy.nreps)},
            .check = run.check};
}

[[nodiscard]] int world_size() {
    int world = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    return world;
}

// gather -> PAW's reduction -> PAW's figures -> the host, for one measured size.
template <class Pattern>
void report_size(const test& t, const mpi::session& session, const Pattern& descriptor,
                 const paw_plan& plan, std::uint64_t x, const mpi::rank_timing& mine, work w,
                 const run_settings& run) {
    const mpi::gathered figures = mpi::gather(session, mine, plan.batching.max_batches);
    for (auto& r : mpi::reduce_per_repetition(descriptor, {"paw", t.info.name}, session.layout(),
                                              x, run.check, figures, t.combine)) {
        add_paw_figures(r, t, w, plan.iterations);
        run.host->result(r);
    }
}

// A size over the per-size budget ends the sweep: the larger sizes cost at least as much.
// `rest` are the sizes from the first one dropped; every process agrees (the estimate behind
// over_budget is agreed with MPI_MAX), rank 0 says so once.
void warn_over_budget(const test& t, const mpi::session& session, const paw_plan& plan,
                      std::span<const std::uint64_t> rest, const run_settings& run) {
    if (rest.empty() || session.world().rank() != 0) return;
    const auto& method = plan.iterations.method;
    std::string sizes;
    for (const std::uint64_t x : rest) sizes += (sizes.empty() ? "" : ", ") + std::to_string(x);
    std::ostringstream budget;
    budget << method.budget_s;
    run.host->warning(std::string(t.info.name) + ": sizes " + sizes + " cut short by the " +
                      budget.str() + " s per-size budget (" +
                      std::to_string(method.min_reps) + " loops of NLOOP_MIN " +
                      std::to_string(method.nloop_min) + " calls at " + std::to_string(rest.front()) +
                      " bytes do not fit); raise --time or lower NLOOP_MIN to run them");
}

template <class Pattern>
[[nodiscard]] pattern::pairing pairs_of(const Pattern& descriptor) {
    if constexpr (requires { descriptor.pairs; })
        return descriptor.pairs;
    else
        return pattern::first_pair;  // collectives: every task, no partner
}

// A message-passing test (Def from parbench/suites/paw/messages.hpp) over its family's sizes.
template <class Def>
void run_messages(const test& t, const run_settings& run) {
    const paw::transfer_settings& cfg = t.kind == family::collective ? run.col : run.p2p;
    const std::vector<std::uint64_t> sizes =
        t.kind == family::latency ? std::vector<std::uint64_t>{1} : cfg.sizes;
    const std::uint64_t warm_bytes = t.kind == family::latency ? 1 : cfg.med_bytes;
    const mpi::session session(MPI_COMM_WORLD, world_size());
    static_assert(mpi::check_definition<Def>() && mpi::self_contained_definition<Def>);
    constexpr auto descriptor = Def::descriptor;
    const pattern::pairing pairs = pairs_of(descriptor);
    const auto buffers_for = [&](std::uint64_t x) {
        return mpi::message_resource(
            Def::layout(static_cast<std::size_t>(x), session.layout().processes), off_cache{},
            session.send_pool(), session.recv_pool());
    };
    {  // PAW's warm-up at the family's MED size, untimed
        const mpi::kernel_context c = session.context(warm_bytes, pairs);
        mpi::warm_up(session, buffers_for(warm_bytes), Def::make_kernel(c, run.window_size),
                     mpi::no_completion{}, 10, warm_bytes, pairs);
    }
    paw_plan plan = make_plan(cfg, run);
    for (std::size_t index = 0; index < sizes.size(); ++index) {
        const std::uint64_t x = sizes[index];
        run.host->progress(t.info.name, x, session.layout().processes);
        const mpi::kernel_context c = session.context(static_cast<std::size_t>(x), pairs);
        mpi::prepared<mpi::message_resource> ready = mpi::prepare(session, buffers_for(x), 0.0);
        if (!ready.ready()) {
            if (session.world().rank() == 0)
                run.host->warning(std::string(t.info.name) + ": no memory for " +
                                  std::to_string(x) + "-byte messages; size skipped");
            continue;
        }
        auto kernel = Def::make_kernel(c, run.window_size);
        mpi::no_completion completion;
        const mpi::rank_timing mine = mpi::time_iterations(session, descriptor, ready, c, kernel,
                                                           completion, plan, x,
                                                           typename Def::verify_check{});
        if (plan.iterations.over_budget) {
            warn_over_budget(t, session, plan, std::span(sizes).subspan(index), run);
            break;
        }
        report_size(t, session, descriptor, plan, x, mine,
                    Def::work_of(static_cast<std::size_t>(x), run.window_size), run);
    }
}

constexpr pattern::one_sided one_sided_descriptor{.klass = benchmark_class::parallel_transfer,
                                                  .pairs = pattern::halves,
                                                  .throughput = pattern::throughput_rule::none};

// p2p_get / p2p_put: PSCW epochs on a window per size; the first half MPI_Get or MPI_Put from or
// to its partner, the second half posts and waits.
template <rma_op Op>
void run_one_sided(const test& t, const run_settings& run) {
    const paw::transfer_settings& cfg = run.p2p;
    const mpi::session session(MPI_COMM_WORLD, world_size());
    const auto kernel_for = [](const mpi::kernel_context&) {
        return rma_kernels::transfers<Op>{1};
    };
    const auto window_for = [&](std::uint64_t bytes, const mpi::kernel_context& c) {
        return mpi::rma_window(
            mpi::window_plan{.creation = mpi::window_creation::create, .bytes = bytes}, c);
    };
    const pattern::pairing pairs = one_sided_descriptor.pairs;
    {  // PAW's warm-up at MED_P2P_SIZE, untimed
        const mpi::kernel_context c = session.context(cfg.med_bytes, pairs);
        mpi::warm_up(session, window_for(cfg.med_bytes, c), kernel_for(c), mpi::rma::pscw(c),
                     10, cfg.med_bytes, pairs);
    }
    paw_plan plan = make_plan(cfg, run);
    for (std::size_t index = 0; index < cfg.sizes.size(); ++index) {
        const std::uint64_t x = cfg.sizes[index];
        run.host->progress(t.info.name, x, session.layout().processes);
        const mpi::kernel_context c = session.context(static_cast<std::size_t>(x), pairs);
        mpi::prepared<mpi::rma_window> ready = mpi::prepare(session, window_for(x, c), 0.0);
        if (!ready.ready()) {
            if (session.world().rank() == 0)
                run.host->warning(std::string(t.info.name) + ": no memory for " +
                                  std::to_string(x) + "-byte windows; size skipped");
            continue;
        }
        auto kernel = kernel_for(c);
        mpi::rma::pscw completion(c);
        const mpi::rank_timing mine =
            mpi::time_iterations(session, one_sided_descriptor, ready, c, kernel, completion, plan,
                                 x, rma_kernels::data_check<Op>{});
        if (plan.iterations.over_budget) {
            warn_over_budget(t, session, plan, std::span(cfg.sizes).subspan(index), run);
            break;
        }
        report_size(t, session, one_sided_descriptor, plan, x, mine,
                    {.bytes_per_iteration = static_cast<double>(x)}, run);
    }
}

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;
constexpr auto p2p = family::point_to_point;
constexpr auto col = family::collective;

const std::array<test, 16> tests = {{
    {mpi::catalogue_row<latency>(
         "latency", "1-byte MPI_Send/MPI_Recv round trip between exactly two tasks", dflt),
     "latency", family::latency, &run_messages<latency>},
    {mpi::catalogue_row<send_recv>("p2p_send", "ping-pong: MPI_Send; MPI_Recv with partner i + n/2",
                                   dflt),
     "send", p2p, &run_messages<send_recv>},
    {mpi::catalogue_row<isend_pong>("p2p_isend",
                                    "ping-pong: MPI_Isend; MPI_Wait; MPI_Irecv; MPI_Wait", dflt),
     "isend", p2p, &run_messages<isend_pong>},
    {mpi::catalogue_row<isend_bidir>(
         "p2p_isend_bidir", "both directions at once: MPI_Isend; MPI_Irecv; MPI_Waitall", dflt),
     "isend_bidir", p2p, &run_messages<isend_bidir>},
    {mpi::catalogue_row<isend_ping>(
         "p2p_isend_ping", "ping-ping: the first half only MPI_Isend, the second only MPI_Irecv",
         dflt),
     "isend_ping", p2p, &run_messages<isend_ping>},
    {mpi::catalogue_row<message_window<false>>(
         "p2p_mrate", "message rate: windows of WINDOW_SIZE MPI_Isend, one direction", dflt),
     "mrate", p2p, &run_messages<message_window<false>>},
    {mpi::catalogue_row<message_window<true>>(
         "p2p_mrate_bidir", "message rate: windows of WINDOW_SIZE MPI_Isend + MPI_Irecv, both ways",
         dflt),
     "mrate_bidir", p2p, &run_messages<message_window<true>>},
    {plugin::catalogue_row("p2p_get", "PSCW epochs: the first half MPI_Get from partners i + n/2",
                           one_sided_descriptor.klass, dflt),
     "get", p2p, &run_one_sided<rma_op::get>},
    {plugin::catalogue_row("p2p_put", "PSCW epochs: the first half MPI_Put to partners i + n/2",
                           one_sided_descriptor.klass, dflt),
     "put", p2p, &run_one_sided<rma_op::put>},
    {mpi::catalogue_row<allgather>("col_agtr", "MPI_Allgather", dflt), "col_agtr", col,
     &run_messages<allgather>},
    {mpi::catalogue_row<reduce<true>>("col_ardc", "MPI_Allreduce (MPI_SUM, unsigned char)", dflt),
     "col_ardc", col, &run_messages<reduce<true>>},
    {mpi::catalogue_row<alltoall>("col_a2a", "MPI_Alltoall", dflt), "col_a2a", col,
     &run_messages<alltoall>},
    {mpi::catalogue_row<bcast>("col_bct", "MPI_Bcast from task 0 (MAX across tasks)", dflt),
     "col_bct", col, &run_messages<bcast>, across_tasks::maximum},
    {mpi::catalogue_row<gather>("col_gtr", "MPI_Gather to task 0", dflt), "col_gtr", col,
     &run_messages<gather>},
    {mpi::catalogue_row<reduce<false>>("col_rdc", "MPI_Reduce to task 0 (MPI_SUM, unsigned char)",
                                       dflt),
     "col_rdc", col, &run_messages<reduce<false>>},
    {mpi::catalogue_row<scatter>("col_sct", "MPI_Scatter from task 0 (MAX across tasks)", dflt),
     "col_sct", col, &run_messages<scatter>, across_tasks::maximum},
}};

constexpr auto benchmark_rows = [] {
    std::array<parbench_benchmark, tests.size()> rows{};
    for (std::size_t i = 0; i < tests.size(); ++i) rows[i] = tests[i].info;
    return rows;
}();

constexpr auto parameter_rows = paw::join(
    std::array<parbench_parameter, 5>{{
        {"min_size", "BYTES", "smallest message (overrides MIN_P2P_SIZE and MIN_COL_SIZE)", "1",
         PARBENCH_ARITY_ONE},
        {"med_size", "BYTES", "warm-up message size (overrides MED_P2P_SIZE and MED_COL_SIZE)",
         "20000", PARBENCH_ARITY_ONE},
        {"max_size", "BYTES", "largest message (overrides MAX_P2P_SIZE and MAX_COL_SIZE)",
         "1000000", PARBENCH_ARITY_ONE},
        {"sizes", "B1,B2,...", "explicit ascending list of message sizes in bytes", nullptr,
         PARBENCH_ARITY_ONE},
        {"window_size", "WS", "messages per window of p2p_mrate* (overrides WINDOW_SIZE)", "128",
         PARBENCH_ARITY_ONE},
    }},
    paw::loop_parameters("upper bound of iterations per timed loop (overrides NLOOP_MAX)",
                         "1000"));

// WINDOW_SIZE: --window_size over the environment over PAW's default.
[[nodiscard]] int window_size(const run_request& request, const paw::env_lookup& env) {
    std::uint64_t ws = default_window_size;
    if (const auto it = request.options.find("window_size"); it != request.options.end())
        ws = paw::positive_integer("--window_size", parbench::option_text("window_size", it->second));
    else if (const auto text = env("WINDOW_SIZE"))
        ws = paw::positive_integer("WINDOW_SIZE", *text);
    if (ws > 1u << 20)
        throw input_error("WINDOW_SIZE " + std::to_string(ws) + " is out of range (at most 2^20)");
    return static_cast<int>(ws);
}

// PAW aborts on a task count it cannot use; parbench says why in one line before any test runs.
void check_task_count(const test& t, int world) {
    if (t.kind == family::latency && world != 2)
        throw input_error(std::string(t.info.name) +
                          " needs exactly two tasks (PAW's latency test); the run has " +
                          std::to_string(world));
    if (t.kind == family::point_to_point && (world < 2 || world % 2 != 0))
        throw input_error(std::string(t.info.name) +
                          " needs an even number of tasks (PAW pairs task i with task i + n/2); "
                          "the run has " + std::to_string(world));
}

run_start make_run_start(const run_settings& run, const std::vector<const test*>& chosen,
                         int world) {
    const auto clock = measure_clock(mpi::wtime_clock{});
    const bool any_col = std::any_of(chosen.begin(), chosen.end(),
                                     [](const test* t) { return t->kind == family::collective; });
    const bool any_p2p = std::any_of(chosen.begin(), chosen.end(), [](const test* t) {
        return t->kind != family::collective;
    });
    const bool any_rate = std::any_of(chosen.begin(), chosen.end(), [](const test* t) {
        return std::string_view(t->stem).starts_with("mrate");
    });
    // The header's sizes are the point-to-point family's unless only collectives run.
    const paw::transfer_settings& shown = any_p2p || !any_col ? run.p2p : run.col;
    run_start start;
    start.suite = "paw";
    start.layout = "paw";
    start.title = "PAW (TACC Performance Assessment Workbench) compatible MPI tests";
    for (const test* t : chosen) start.benchmarks.emplace_back(t->info.name);
    start.header = paw::transfer_header("mpi", shown, run.timer_threshold_s, "bytes per message");
    std::vector<std::string> kinds = {"transfer"};
    if (any_rate) kinds.emplace_back("message_rate");
    if (any_col) kinds.emplace_back("collective");
    start.header["row_kinds"] = kinds;
    if (any_col && any_p2p) {
        start.header["col_sizes"] = run.col.sizes;
        start.header["col_med_size"] = run.col.med_bytes;
    }
    if (any_rate) start.header["window_size"] = run.window_size;
    start.header["pairing"] = "task i <-> task i + n/2";
    start.header["method"] =
        "every task times; MIN across tasks per repetition (MAX for col_bct, col_sct)";
    start.context = {{"mpi_library", mpi::library_version()},
                     {"processes", world},
                     {"timer", "MPI_Wtime"},
                     {"timer_resolution_s", clock.resolution_s},
                     {"timer_overhead_s", clock.overhead_s},
                     {"timer_threshold_s", run.timer_threshold_s},
                     {"options",
                      {{"sources", run.p2p.sources},
                       {"sizes", run.p2p.sizes},
                       {"col_sources", run.col.sources},
                       {"col_sizes", run.col.sizes},
                       {"window_size", run.window_size}}}};
    return start;
}

void run(const run_request& request, const plugin::host_channel& host) {
    std::vector<const test*> chosen;
    for (const auto& t : tests)
        if (request.benchmarks.empty() ||
            std::any_of(request.benchmarks.begin(), request.benchmarks.end(),
                        [&](const std::string& name) { return same_name(t.info.name, name); }))
            chosen.push_back(&t);
    if (chosen.empty()) throw input_error("paw: no MPI test named");
    const auto any_of_kind = [&](auto&& pred) {
        return std::any_of(chosen.begin(), chosen.end(), pred);
    };
    // Each size family is read only when one of its tests runs, so a bad MIN_COL_SIZE does not
    // stop a point-to-point run (and the reverse).
    const paw::env_lookup env = paw::process_environment();
    run_settings settings;
    const bool p2p_sizes = any_of_kind([](const test* t) { return t->kind != family::collective; });
    const bool col_sizes = any_of_kind([](const test* t) { return t->kind == family::collective; });
    if (p2p_sizes)
        settings.p2p = paw::parse_transfer_settings(request, env, p2p_family, {"window_size"});
    if (col_sizes)
        settings.col = paw::parse_transfer_settings(request, env, col_family, {"window_size"});
    if (!p2p_sizes) settings.p2p = settings.col;  // the header shows the family that runs
    if (!col_sizes) settings.col = settings.p2p;
    settings.window_size = window_size(request, env);
    settings.check = request.check;
    settings.host = &host;
    // MPI counts are ints: the message tests move at most 2^31 - 1 bytes per call and buffer.
    const auto too_large = [](const paw::transfer_settings& cfg, std::uint64_t per_call) {
        return cfg.max_bytes * per_call >
               static_cast<std::uint64_t>(std::numeric_limits<int>::max());
    };
    // Where the largest size came from ("environment MAX_P2P_SIZE"), so that the message names
    // what to change.
    const auto source_of_max = [](const paw::transfer_settings& cfg) {
        return cfg.sources.value(cfg.sources.contains("sizes") ? "sizes" : "max_size",
                                 std::string("default"));
    };
    if (p2p_sizes && too_large(settings.p2p, 1))
        throw input_error("message size " + std::to_string(settings.p2p.max_bytes) + " (" +
                          source_of_max(settings.p2p) +
                          ") is out of range for the MPI tests (at most 2^31 - 1 bytes)");
    if (col_sizes && too_large(settings.col, static_cast<std::uint64_t>(world_size())))
        throw input_error("collective size " + std::to_string(settings.col.max_bytes) + " (" +
                          source_of_max(settings.col) + ") x " + std::to_string(world_size()) +
                          " tasks is out of range (at most 2^31 - 1 bytes per buffer)");
    const int world = world_size();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (const test* t : chosen) check_task_count(*t, world);
    // PAW's step 1, on rank 0 for everyone: NLOOP must be planned alike on every task.
    settings.timer_threshold_s = policy::iterations::timer_threshold_s(mpi::wtime_clock{});
    MPI_Bcast(&settings.timer_threshold_s, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) host.run_started(make_run_start(settings, chosen, world));
    for (const test* t : chosen) t->run(*t, settings);
}

const parbench_suite& info() {
    static const parbench_suite s = {
        "paw", "TACC PAW MPI tests: latency, p2p_*, col_* (run when named)",
        benchmark_rows.data(), benchmark_rows.size(), parameter_rows.data(), parameter_rows.size(),
        PARBENCH_SUITE_NEEDS_MPI};
    return s;
}

}  // namespace
}  // namespace parbench::paw_mpi

namespace parbench::mpi_plugin {
const hosted_suite suites::paw = {paw_mpi::info(), &paw_mpi::run};
}  // namespace parbench::mpi_plugin
