// paw (MPI part): TACC PAW's message-passing tests (catalogue C.4-C.7). Every test is a
// definition (include/parbench/suites/paw/messages.hpp for the message tests, rma/kernels.hpp for
// the one-sided ones) run through mpi::sweep (mpi/sweep.hpp) by PAW's family (paw_family): the
// world as the one process count, an untimed warm-up at MED_*_SIZE, then per size a warm-up and
// NREPS timed loops of NLOOP iterations (policy/paw_repetitions.hpp), and the stop at the first
// size over the per-size budget (--time); every task times, each repetition's time is the
// minimum across tasks (the maximum for col_bct and col_sct) and min/max/mean/stddev are over
// the repetitions (mpi/reduction.hpp). Point-to-point tests pair task i with task i + n/2.
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
#include <parbench/mpi/sweep.hpp>
#include <parbench/pattern/one_sided.hpp>
#include <parbench/plugin/paw_options.hpp>
#include <parbench/plugin/paw_parameters.hpp>
#include <parbench/plugin/paw_run_header.hpp>
#include <parbench/plugin/paw_transfer_settings.hpp>
#include <parbench/policy/paw_repetitions.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/paw_context.hpp>
#include <parbench/report/paw_header.hpp>
#include <parbench/suites/rma/kernels.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace parbench::paw_mpi {
namespace paw_impl {
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
        r.repetitions.value().bytes_per_iteration = x;  // the reduction gave the block
        r.paw_rates.emplace().gb_per_s_mean = per_s(x, r.t_avg_us) / 1e9;
        r.metrics["gb_per_s_min"] = per_s(x, r.t_max_us) / 1e9;
        r.metrics["gb_per_s_max"] = per_s(x, r.t_min_us) / 1e9;
        r.paw_rates->gb_per_s_median = per_s(x, r.distribution_us.median) / 1e9;
    }
    if (w.messages_per_iteration > 0.0) {
        const double m = w.messages_per_iteration;
        r.repetitions.value().messages_per_iteration = m;
        if (!r.paw_rates) r.paw_rates.emplace();
        r.paw_rates->messages_per_s_mean = per_s(m, r.t_avg_us);
        r.metrics["messages_per_s_min"] = per_s(m, r.t_max_us);
        r.metrics["messages_per_s_max"] = per_s(m, r.t_min_us);
        r.paw_rates->messages_per_s_median = per_s(m, r.distribution_us.median);
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

// PAW's family for mpi::sweep() (mpi/sweep.hpp), the part every test shares and that is
// compiled once: the world as the one process count (check_task_count has refused the counts a
// test cannot use), the test's sizes, a session and the NLOOP/NREPS plan that carries NLOOP from
// size to size, the host's progress and records, and the stop at the first size over the
// per-size budget, with rank 0's warning after it.
struct paw_family_common {
    const test& t;
    const run_settings& run;

    struct count {
        mpi::session session;
        paw_plan plan;
        std::size_t measured = 0;                     // sizes measured so far
        std::optional<std::size_t> over_budget_from{};  // the index of the size that did not fit
    };

    [[nodiscard]] const paw::transfer_settings& settings() const {
        return t.kind == family::collective ? run.col : run.p2p;
    }
    [[nodiscard]] std::array<int, 1> process_counts() const { return {world_size()}; }
    [[nodiscard]] std::span<const std::uint64_t> sizes() const {
        static constexpr std::array<std::uint64_t, 1> one_byte{1};
        if (t.kind == family::latency) return one_byte;
        return settings().sizes;
    }
    // PAW's warm-up size: the family's MED size (1 byte for latency).
    [[nodiscard]] std::uint64_t warm_bytes() const {
        return t.kind == family::latency ? 1 : settings().med_bytes;
    }
    [[nodiscard]] count open(int q) const {
        return {.session = mpi::session(MPI_COMM_WORLD, q), .plan = make_plan(settings(), run)};
    }
    void progress(const count& c, std::uint64_t x) const {
        run.host->progress(t.info.name, x, c.session.layout().processes);
    }
    // A size some process could not allocate: rank 0 says so, the sweep goes on.
    [[nodiscard]] mpi::measurement no_memory(const count& c, std::uint64_t x,
                                             const char* resource) const {
        if (c.session.world().rank() == 0)
            run.host->warning(std::string(t.info.name) + ": no memory for " + std::to_string(x) +
                              "-byte " + resource + "; size skipped");
        return {};
    }
    // gather -> PAW's reduction -> PAW's figures: the size's records, on rank 0.
    template <class Pattern>
    [[nodiscard]] mpi::measurement records(const count& c, const Pattern& descriptor,
                                           std::uint64_t x, const mpi::rank_timing& mine,
                                           work w) const {
        const mpi::gathered figures = mpi::gather(c.session, mine, c.plan.batching.max_batches);
        mpi::measurement m;
        m.records = mpi::reduce_per_repetition(descriptor, {"paw", t.info.name},
                                               c.session.layout(), x, run.check, figures,
                                               t.combine);
        for (auto& r : m.records) add_paw_figures(r, t, w, c.plan.iterations);
        return m;
    }
    void publish(const count& /*c*/, const result_record& r) const { run.host->result(r); }
    [[nodiscard]] bool stopped(const count& c) const { return c.over_budget_from.has_value(); }
    void close(const count& c, const mpi::size_notes& /*notes*/) const {
        if (c.over_budget_from)
            warn_over_budget(t, c.session, c.plan, sizes().subspan(*c.over_budget_from), run);
    }
};

// p2p_get / p2p_put: PSCW epochs on a window per size; the first half MPI_Get or MPI_Put from or
// to its partner, the second half posts and waits.
template <rma_op Op>
struct one_sided_test : mpi::definition_defaults {
    static constexpr pattern::one_sided descriptor{.klass = benchmark_class::parallel_transfer,
                                                   .pairs = pattern::halves,
                                                   .throughput = pattern::throughput_rule::none};
    using verify_check = rma_kernels::data_check<Op>;
    [[nodiscard]] static mpi::window_plan window(std::size_t x, std::uint64_t /*sections*/,
                                                 int /*np*/) {
        return {.creation = mpi::window_creation::create, .bytes = x};
    }
    [[nodiscard]] static rma_kernels::transfers<Op> make_kernel(const mpi::kernel_context& /*c*/,
                                                                int /*window_size*/) {
        return rma_kernels::transfers<Op>{1};
    }
    [[nodiscard]] static mpi::rma::pscw make_completion(const mpi::kernel_context& c) {
        return mpi::rma::pscw(c);
    }
    [[nodiscard]] static work work_of(std::size_t x, int /*window_size*/) {
        return {.bytes_per_iteration = static_cast<double>(x)};
    }
};

// What differs between PAW's tests: the definition. A message test's Def is one of
// parbench/suites/paw/messages.hpp (message buffers of its layout); a one-sided one names its
// window and completion instead (one_sided_test above).
template <class Def>
struct paw_family : paw_family_common {
    static_assert(mpi::check_definition<Def>() && mpi::self_contained_definition<Def>);
    static constexpr bool one_sided = requires(std::size_t x) { Def::window(x, 1, 1); };

    [[nodiscard]] static auto resource(const mpi::session& s, const mpi::kernel_context& k,
                                       std::uint64_t x) {
        if constexpr (one_sided)
            return mpi::rma_window(Def::window(x, 1, s.layout().processes), k);
        else
            return mpi::message_resource(
                Def::layout(static_cast<std::size_t>(x), s.layout().processes), off_cache{},
                s.send_pool(), s.recv_pool());
    }
    [[nodiscard]] static auto completion(const mpi::kernel_context& k) {
        if constexpr (one_sided)
            return Def::make_completion(k);
        else
            return mpi::no_completion{};
    }

    // PAW's warm-up at the MED size, untimed, once per count.
    void warm_up(const count& c, std::uint64_t /*first*/) const {
        const std::uint64_t x = warm_bytes();
        const pattern::pairing pairs = pairs_of(Def::descriptor);
        const mpi::kernel_context k = c.session.context(x, pairs);
        mpi::warm_up(c.session, resource(c.session, k, x), Def::make_kernel(k, run.window_size),
                     completion(k), 10, x, pairs);
    }

    // One size: PAW's NLOOP x NREPS timed loops; none and the stop where it is over the budget.
    [[nodiscard]] mpi::measurement measure(count& c, std::uint64_t x) const {
        const std::size_t index = c.measured++;
        const auto bytes = static_cast<std::size_t>(x);
        const mpi::kernel_context k = c.session.context(bytes, pairs_of(Def::descriptor));
        auto ready = mpi::prepare(c.session, resource(c.session, k, x), 0.0);
        if (!ready.ready()) return no_memory(c, x, one_sided ? "windows" : "messages");
        auto kernel = Def::make_kernel(k, run.window_size);
        auto done = completion(k);
        const mpi::rank_timing mine = mpi::time_iterations(
            c.session, Def::descriptor, ready, k, kernel, done, c.plan, x,
            typename Def::verify_check{});
        if (c.plan.iterations.over_budget) {
            c.over_budget_from = index;
            return {};
        }
        return records(c, Def::descriptor, x, mine, Def::work_of(bytes, run.window_size));
    }
};

template <class Def>
void run_test(const test& t, const run_settings& run) {
    mpi::sweep(paw_family<Def>{{.t = t, .run = run}});
}

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;
constexpr auto p2p = family::point_to_point;
constexpr auto col = family::collective;

const std::array<test, 16> tests = {{
    {mpi::catalogue_row<latency>(
         "latency", "1-byte MPI_Send/MPI_Recv round trip between exactly two tasks", dflt),
     "latency", family::latency, &run_test<latency>},
    {mpi::catalogue_row<send_recv>("p2p_send", "ping-pong: MPI_Send; MPI_Recv with partner i + n/2",
                                   dflt),
     "send", p2p, &run_test<send_recv>},
    {mpi::catalogue_row<isend_pong>("p2p_isend",
                                    "ping-pong: MPI_Isend; MPI_Wait; MPI_Irecv; MPI_Wait", dflt),
     "isend", p2p, &run_test<isend_pong>},
    {mpi::catalogue_row<isend_bidir>(
         "p2p_isend_bidir", "both directions at once: MPI_Isend; MPI_Irecv; MPI_Waitall", dflt),
     "isend_bidir", p2p, &run_test<isend_bidir>},
    {mpi::catalogue_row<isend_ping>(
         "p2p_isend_ping", "ping-ping: the first half only MPI_Isend, the second only MPI_Irecv",
         dflt),
     "isend_ping", p2p, &run_test<isend_ping>},
    {mpi::catalogue_row<message_window<false>>(
         "p2p_mrate", "message rate: windows of WINDOW_SIZE MPI_Isend, one direction", dflt),
     "mrate", p2p, &run_test<message_window<false>>},
    {mpi::catalogue_row<message_window<true>>(
         "p2p_mrate_bidir", "message rate: windows of WINDOW_SIZE MPI_Isend + MPI_Irecv, both ways",
         dflt),
     "mrate_bidir", p2p, &run_test<message_window<true>>},
    {mpi::catalogue_row<one_sided_test<rma_op::get>>(
         "p2p_get", "PSCW epochs: the first half MPI_Get from partners i + n/2", dflt),
     "get", p2p, &run_test<one_sided_test<rma_op::get>>},
    {mpi::catalogue_row<one_sided_test<rma_op::put>>(
         "p2p_put", "PSCW epochs: the first half MPI_Put to partners i + n/2", dflt),
     "put", p2p, &run_test<one_sided_test<rma_op::put>>},
    {mpi::catalogue_row<allgather>("col_agtr", "MPI_Allgather", dflt), "col_agtr", col,
     &run_test<allgather>},
    {mpi::catalogue_row<reduce<true>>("col_ardc", "MPI_Allreduce (MPI_SUM, unsigned char)", dflt),
     "col_ardc", col, &run_test<reduce<true>>},
    {mpi::catalogue_row<alltoall>("col_a2a", "MPI_Alltoall", dflt), "col_a2a", col,
     &run_test<alltoall>},
    {mpi::catalogue_row<bcast>("col_bct", "MPI_Bcast from task 0 (MAX across tasks)", dflt),
     "col_bct", col, &run_test<bcast>, across_tasks::maximum},
    {mpi::catalogue_row<gather>("col_gtr", "MPI_Gather to task 0", dflt), "col_gtr", col,
     &run_test<gather>},
    {mpi::catalogue_row<reduce<false>>("col_rdc", "MPI_Reduce to task 0 (MPI_SUM, unsigned char)",
                                       dflt),
     "col_rdc", col, &run_test<reduce<false>>},
    {mpi::catalogue_row<scatter>("col_sct", "MPI_Scatter from task 0 (MAX across tasks)", dflt),
     "col_sct", col, &run_test<scatter>, across_tasks::maximum},
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
    report::paw_header header =
        paw::transfer_header("mpi", shown, run.timer_threshold_s, "bytes per message");
    std::vector<std::string> kinds = {"transfer"};
    if (any_rate) kinds.emplace_back("message_rate");
    if (any_col) kinds.emplace_back("collective");
    header.row_kinds = kinds;
    if (any_col && any_p2p)
        header.collectives = report::paw_header_collectives{.col_sizes = run.col.sizes,
                                                            .col_med_size = run.col.med_bytes};
    if (any_rate) header.window_size = run.window_size;
    header.pairing = "task i <-> task i + n/2";
    header.method = "every task times; MIN across tasks per repetition (MAX for col_bct, col_sct)";
    start.header = header;  // report/paw_header.hpp
    start.context = report::paw_context{  // report/paw_context.hpp
        .processes = world,
        .timer = paw::context_timer(clock)};
    start.context.update(
        nlohmann::json(report::mpi_suite_context{.mpi_library = mpi::library_version()}));
    start.context.update({{"timer", "MPI_Wtime"},
                          {"timer_threshold_s", run.timer_threshold_s},
                          {"options",
                           {{"sources", run.p2p.sources},
                            {"sizes", run.p2p.sizes},
                            {"col_sources", run.col.sources},
                            {"col_sizes", run.col.sizes},
                            {"window_size", run.window_size}}}});
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
        PARBENCH_SUITE_NEEDS_MPI | PARBENCH_SUITE_DAT_FILES};
    return s;
}

}  // namespace
}  // namespace paw_impl
}  // namespace parbench::paw_mpi

namespace parbench::mpi_plugin {
const hosted_suite suites::paw = {paw_mpi::paw_impl::info(), &paw_mpi::paw_impl::run};
}  // namespace parbench::mpi_plugin
